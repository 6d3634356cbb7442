#!/usr/bin/env node
// The README's screenshots (web/docs/screenshots/), taken with headless Chromium from the built
// site: the gallery, a preset of each family (send path, PCI, Tigon, web server, SINIC) and an
// A/B page, in the light and the dark colour scheme, at 1440x900 and 390x844.
//
//   node web/scripts/screenshots.mjs [--url URL] [--out DIR] [--only NAME] [--skip-build]
//
// Without --url it builds the site as `npm run build` does and serves dist/ with `vite preview`
// on a free port. Each page is shot after its run is done and a few events in, so the views show
// moving parts. --only keeps the pages whose name contains NAME (repeatable). Prints one line per
// file written.

/* global document, window */

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { repoRoot } from './ensure-tools.mjs';
import { buildSite, launchChromium, serveSite } from './site.mjs';

const argv = process.argv.slice(2);
const opt = { url: '', out: path.join(repoRoot, 'web/docs/screenshots'), only: [], build: true };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--url') opt.url = argv[++i];
  else if (a === '--out') opt.out = path.resolve(argv[++i]);
  else if (a === '--only') opt.only.push(argv[++i]);
  else if (a === '--skip-build') opt.build = false;
  else {
    process.stderr.write(
      `screenshots: unknown option "${a}" (allowed: --url URL, --out DIR, --only NAME, --skip-build)\n`,
    );
    process.exit(2);
  }
}
const err = (s) => process.stderr.write(`[screenshots] ${s}\n`);

/** name → hash route; a scenario page waits for its run, an A/B page for both sides. */
const PAGES = [
  { name: 'gallery', route: '#/' },
  { name: 'send', route: '#/s/anatomy-of-a-send' },
  { name: 'pci', route: '#/s/pci-two-nics' },
  { name: 'tigon', route: '#/s/tigon-one-or-two-cpus' },
  { name: 'web', route: '#/s/web-anatomy-of-a-request' },
  { name: 'sinic', route: '#/s/sinic-anatomy' },
  { name: 'ab', route: '#/ab/tigon-one-or-two-cpus' },
].filter((p) => !opt.only.length || opt.only.some((o) => p.name.includes(o)));
const SIZES = [
  { w: 1440, h: 900 },
  { w: 390, h: 844 },
];
const SCHEMES = ['light', 'dark'];

let server = null;
let base = opt.url;
if (!base) {
  if (opt.build) buildSite(err);
  server = await serveSite();
  base = server.base;
}

async function settle(page, route) {
  if (route.startsWith('#/ab/')) {
    await page.getByTestId('ab-page').waitFor({ timeout: 60_000 });
    for (const side of ['a', 'b'])
      await page
        .locator(`[data-testid="ab-side-${side}"][data-status="done"]`)
        .waitFor({ timeout: 120_000 });
  } else if (route.startsWith('#/s/')) {
    await page.locator('[data-testid="run-status"][data-status="done"]').waitFor({
      timeout: 120_000,
    });
  } else {
    await page.locator('[data-testid^="card-"]').first().waitFor({ timeout: 60_000 });
    return;
  }
  // A few events in, so the views draw moving parts, not only their empty start.
  const step = page.getByTestId('step-forward');
  for (let i = 0; i < 12; i++) if (await step.isVisible()) await step.click();
  // Clicking may have scrolled the page: shoot it from the top, as it opens.
  await page.evaluate(() => window.scrollTo(0, 0));
}

const browser = await launchChromium();
let failed = 0;
try {
  mkdirSync(opt.out, { recursive: true });
  for (const p of PAGES)
    for (const s of SIZES)
      for (const scheme of SCHEMES) {
        const context = await browser.newContext({
          viewport: { width: s.w, height: s.h },
          colorScheme: scheme,
          reducedMotion: 'reduce',
        });
        const page = await context.newPage();
        const file = path.join(opt.out, `${p.name}-${s.w}-${scheme}.png`);
        try {
          await page.goto(`${base}${p.route}`);
          await settle(page, p.route);
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: file });
          process.stdout.write(`${path.relative(repoRoot, file)}\n`);
        } catch (e) {
          failed++;
          err(`${p.name} ${s.w}x${s.h} ${scheme}: ${String(e).split('\n')[0]}`);
        } finally {
          await context.close();
        }
      }
} finally {
  await browser.close();
  server?.stop();
}
process.exit(failed ? 1 : 0);
