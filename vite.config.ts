/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serviceWorkerPlugin } from './web/sw/swPlugin.ts';
import { earlyCorePlugin } from './web/engine/earlyCorePlugin.ts';
import { earlyPagePlugin } from './web/app/earlyPagePlugin.ts';
import { presetCataloguePlugin } from './web/scenarios/catalogPlugin.ts';

// The trace decoder (web/trace/records.gen.ts) is generated from core-cpp/trace/trace_kinds.json;
// vite, vite build and vitest all load this file first (the generator writes only what is stale).
execFileSync(process.execPath, ['core-cpp/scripts/gen-trace.mjs'], {
  cwd: import.meta.dirname,
  stdio: 'inherit',
});

// The app lives in web/; the site must work from any static host, in any sub-folder,
// so assets are addressed relatively and routing uses the URL hash.
export default defineConfig({
  root: 'web',
  base: './',
  publicDir: '../public',
  plugins: [
    react(),
    presetCataloguePlugin(fileURLToPath(new URL('./scenarios', import.meta.url))),
    earlyCorePlugin(),
    earlyPagePlugin(),
    serviceWorkerPlugin(),
  ],
  worker: { format: 'es' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      // The app's own modules run no code on import that matters beyond their exports (CSS and
      // the list of stylesheets aside), so a feature's index re-exporting a page does not pull
      // that page into every chunk that imports the index for one helper: the gallery stays
      // small and the scenario and A/B pages load with their route.
      treeshake: {
        moduleSideEffects: [
          { test: /\/web\/app\/styles\.ts$/, sideEffects: true },
          { test: /\/web\/.*\.tsx?$/, sideEffects: false },
        ],
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  test: {
    root: '.',
    include: ['web/**/*.test.ts', 'web/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60000,
  },
});
