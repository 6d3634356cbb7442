// The built site in headless Chromium, for the scripts that drive it (bench-ui.mjs,
// screenshots.mjs): build it as `npm run build` does, serve dist/ with `vite preview`, launch
// Debian's Chromium with the flags of e2e/chromium.json, as playwright.config.ts does (never a
// downloaded browser).

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { chromium } from '@playwright/test';
import { freePort, waitForServer } from './bench-browser.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { repoRoot } from './ensure-tools.mjs';

/** Builds the wasm core and the site (web/scripts/build.mjs); exits with its code on failure. */
export function buildSite(say) {
  say('building (wasm core + vite build)…');
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'web/scripts/build.mjs')], {
    cwd: repoRoot,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    say(`build failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

/**
 * Serves dist/ on `port` (a free one if 0) and waits until it answers. Returns its base URL and
 * `stop`, also called on exit and on Ctrl-C.
 */
export async function serveSite(port = 0) {
  const p = port || (await freePort());
  const base = `http://127.0.0.1:${p}/`;
  const vite = path.join(repoRoot, 'node_modules/.bin/vite');
  const server = spawn(
    vite,
    ['preview', '--port', String(p), '--strictPort', '--host', '127.0.0.1'],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  server.stderr.on('data', (b) => process.stderr.write(b));
  const stop = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.on(sig, () => {
      stop();
      process.exit(130);
    });
  try {
    await waitForServer(base, server);
  } catch (e) {
    stop();
    throw e;
  }
  return { base, stop };
}

/** Headless Debian Chromium with the test suite's flags (e2e/chromium.json). */
export function launchChromium() {
  return chromium.launch(chromiumLaunchOptions());
}
