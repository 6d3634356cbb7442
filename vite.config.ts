/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { serviceWorkerPlugin } from './web/sw/swPlugin';

// The app lives in web/; the site must work from any static host, in any sub-folder,
// so assets are addressed relatively and routing uses the URL hash.
export default defineConfig({
  root: 'web',
  base: './',
  publicDir: '../public',
  plugins: [react(), serviceWorkerPlugin()],
  worker: { format: 'es' },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  test: {
    root: '.',
    include: ['web/**/*.test.ts', 'web/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60000,
  },
});
