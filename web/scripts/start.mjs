#!/usr/bin/env node
// npm start: installs what is missing, builds the wasm core, and serves the app with Vite's dev
// server. Stop it with Ctrl-C.
import process from 'node:process';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { buildWasm } from './wasm.mjs';

try {
  await ensureTools(['start']);
} catch (e) {
  if (!(e instanceof EnsureToolsError)) throw e;
  process.stderr.write(`start: ${e.message}\n`);
  process.exit(1);
}

const status = buildWasm();
if (status !== 0) {
  process.stderr.write(`start: building the wasm core failed (exit ${status})\n`);
  process.exit(status);
}

process.chdir(repoRoot);
// Imported only now: `npm ci` may just have installed it.
const { createServer } = await import('vite');
const server = await createServer({ configFile: 'vite.config.ts', clearScreen: false });
await server.listen();

const urls = server.resolvedUrls?.local ?? [];
const url = urls[0] ?? `http://127.0.0.1:${server.config.server.port}/`;
const rule = '─'.repeat(Math.max(40, url.length + 24));
process.stdout.write(`\n${rule}\n  nicsim is running at  ${url}\n  (Ctrl-C to stop)\n${rule}\n\n`);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  setTimeout(() => process.exit(0), 2000).unref();
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
