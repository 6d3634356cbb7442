#!/usr/bin/env node
// npm run sim -- <scenario.json> [--set path=value ...] [--format json|csv]
//
// Builds the native CLI if needed (its log goes to stderr, and only if the build fails), then
// runs build/native/nicsim with the same arguments: its stdout is passed through untouched and
// its exit status (2 on bad input) is ours. Relative paths are taken from the folder npm was
// started in. Tip: `npm run -s sim -- ...` keeps npm's own banner out of stdout.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import os from 'node:os';
import { ensureTools, EnsureToolsError } from './ensure-tools.mjs';
import { buildNative, nativeBin } from './native.mjs';

try {
  await ensureTools(['native'], { quiet: true });
} catch (e) {
  if (!(e instanceof EnsureToolsError)) throw e;
  process.stderr.write(`sim: ${e.message}\n`);
  process.exit(1);
}

const status = buildNative({ targets: ['nicsim'], output: 'quiet' });
const cli = nativeBin('nicsim');
if (status !== 0 || !existsSync(cli)) {
  process.stderr.write(`sim: building the native CLI failed (exit ${status})\n`);
  process.exit(1);
}

const r = spawnSync(cli, process.argv.slice(2), {
  cwd: process.env.INIT_CWD ?? process.cwd(),
  stdio: 'inherit',
});
if (r.error) {
  process.stderr.write(`sim: ${r.error.message}\n`);
  process.exit(1);
}
if (r.signal) process.exit(128 + (os.constants.signals[r.signal] ?? 0));
process.exit(r.status ?? 1);
