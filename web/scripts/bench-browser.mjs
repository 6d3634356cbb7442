// What the browser benchmarks (bench-ui.mjs, bench-knobs.mjs) share: a free port, waiting for
// `vite preview`, and a generated access log for web-access-log (the repository has no sample).

/* global fetch */

import net from 'node:net';

/** Lines in the generated log: Common Log Format requests to 40 files. */
export const LOG_LINES = 2000;

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function waitForServer(url, child, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode})`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url}`);
}

export function accessLog() {
  const lines = [];
  for (let i = 0; i < LOG_LINES; i++) {
    const f = (i * 7 + ((i * i) % 13)) % 40;
    const s = String(i % 60).padStart(2, '0');
    lines.push(
      `10.0.0.${i % 200} - - [10/Oct/2000:13:55:${s} -0700] "GET /files/f${f}.html HTTP/1.0" 200 ${2000 + f * 1700}`,
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * Opens preset `id` of the site at `base` on `page` and waits for its page; web-access-log, which
 * replays the viewer's own access log, is fed the generated one. True when a log was fed.
 */
export async function openPreset(page, base, id) {
  return openPresetTimed(page, base, id, {});
}

/** openPreset, with the Date.now() of each step in `at` (profile-log-page.mjs). */
export async function openPresetTimed(page, base, id, at) {
  await page.goto(`${base}#/s/${id}`);
  at.gotoDone = Date.now();
  await page.getByTestId('scenario-page').waitFor({ timeout: 60_000 });
  at.pageSeen = Date.now();
  if (id !== 'web-access-log') return false;
  at.setStart = Date.now();
  await page.getByTestId('log-input').setInputFiles({
    name: 'bench-access.log',
    mimeType: 'text/plain',
    buffer: Buffer.from(accessLog()),
  });
  at.setDone = Date.now();
  return true;
}
