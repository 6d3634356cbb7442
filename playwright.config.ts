import { mkdirSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './web/scripts/chromium.mjs';

// End-to-end tests run against the BUILT site (what ships): the web server below builds the wasm
// core (skipped when up to date), runs `vite build` into dist/ and serves it with `vite preview`.
// The browser is Debian's Chromium; Playwright never downloads one here.
//
// Screenshots a spec takes on purpose go to e2e/artifacts/ (gitignored), e.g.
//   await page.screenshot({ path: 'e2e/artifacts/rings.png' });
// Failure screenshots and traces go to test-results/.
const artifactsDir = 'e2e/artifacts';
mkdirSync(artifactsDir, { recursive: true });

// Debian's Chromium and its flags (e2e/chromium.json, through web/scripts/chromium.mjs), shared
// with the benchmarks (web/scripts/site.mjs); README.md says why the omnibox popup is off.
const chromiumLaunch = chromiumLaunchOptions();

// E2E_PORT lets two checkouts run their suites at once (each serves its own dist/).
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}/`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: process.env.CI ? 1 : 2, // a 2-core machine also runs the preview server
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `bash core-cpp/scripts/build-wasm.sh && npx vite build && npx vite preview --port ${port} --strictPort`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
