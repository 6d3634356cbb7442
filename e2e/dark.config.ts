// The same suite in the dark colour scheme (prefers-color-scheme: dark), e.g. the accessibility
// and colour-vision checks:  npx playwright test -c e2e/dark.config.ts e2e/a11y.spec.ts
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import base from '../playwright.config';

export default defineConfig({
  ...base,
  testDir: '.',
  outputDir: '../test-results/dark',
  use: { ...base.use, colorScheme: 'dark' },
  // The server builds and serves from the repository root, as with the main config.
  webServer: {
    ...(base.webServer as { command: string }),
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  },
  projects: base.projects!.map((p) => ({ ...p, use: { ...p.use, colorScheme: 'dark' } })),
});
