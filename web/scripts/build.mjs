#!/usr/bin/env node
// npm run build: installs what is missing, builds the wasm core, then `vite build` into dist/:
// a static site with relative asset paths (serve it from any folder of any static host).
import process from 'node:process';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { buildWasm } from './wasm.mjs';

try {
  await ensureTools(['build']);
} catch (e) {
  if (!(e instanceof EnsureToolsError)) throw e;
  process.stderr.write(`build: ${e.message}\n`);
  process.exit(1);
}

const status = buildWasm();
if (status !== 0) {
  process.stderr.write(`build: building the wasm core failed (exit ${status})\n`);
  process.exit(status);
}

process.chdir(repoRoot);
const { build } = await import('vite');
try {
  await build({ configFile: 'vite.config.ts' });
} catch (e) {
  process.stderr.write(`build: vite build failed: ${e?.message ?? e}\n`);
  process.exit(1);
}
process.stdout.write(
  '\nbuilt dist/ (static site; open it from any static host, e.g. npx vite preview)\n',
);
