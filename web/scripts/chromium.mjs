// How the test suite (playwright.config.ts) and the scripts that drive the built site (site.mjs)
// launch Debian's Chromium: e2e/chromium.json's executable and flags, with one --disable-features.
//
// Playwright passes a --disable-features list of its own, and Chromium keeps only the last
// occurrence of a switch: a second one in chromium.json would silently drop Playwright's (among
// them PaintHolding, which changes when a page paints). So the two lists go out merged as one,
// and Playwright's own is left out.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const FEATURES = '--disable-features=';

/**
 * The features Playwright disables in Chromium, in its order, read from the installed
 * playwright-core (it does not export them). Throws when they cannot be found, rather than let
 * a launch drop them.
 */
export function playwrightDisabledFeatures() {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(require.resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle);
  // Its entries are string literals among comments.
  const body = list ? list[1].replace(/\/\/.*$/gm, '') : '';
  const names = [...body.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  if (names.length === 0 || names.some((n) => !/^[A-Za-z0-9_]+$/.test(n)))
    throw new Error(
      "cannot find Playwright's default --disable-features in playwright-core: see web/scripts/chromium.mjs",
    );
  return names;
}

/** Launch options from a chromium.json's contents ({executablePath, args}). */
export function launchOptions(config, defaults = playwrightDisabledFeatures()) {
  const ours = config.args
    .filter((a) => a.startsWith(FEATURES))
    .flatMap((a) => a.slice(FEATURES.length).split(','))
    .filter(Boolean);
  if (ours.length === 0) return config;
  return {
    ...config,
    args: [
      ...config.args.filter((a) => !a.startsWith(FEATURES)),
      FEATURES + [...new Set([...defaults, ...ours])].join(','),
    ],
    ignoreDefaultArgs: [FEATURES + defaults.join(',')],
  };
}

/** Launch options for Debian's Chromium with the suite's flags (e2e/chromium.json). */
export function chromiumLaunchOptions() {
  const file = new URL('../../e2e/chromium.json', import.meta.url);
  return launchOptions(JSON.parse(readFileSync(file, 'utf8')));
}
