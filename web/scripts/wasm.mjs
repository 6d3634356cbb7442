// Runs core-cpp/scripts/build-wasm.sh (which holds every emcc flag) from Node scripts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { repoRoot } from './ensure-tools.mjs';

export const wasmDir = path.join(repoRoot, 'web', 'engine', 'wasm');

/** Builds web/engine/wasm/nicsim_core.{js,wasm} if out of date. Returns the exit status. */
export function buildWasm({ force = false, output = 'inherit' } = {}) {
  // build-wasm.sh generates the trace API (C++ and web/trace/records.gen.ts) first.
  const args = [path.join('core-cpp', 'scripts', 'build-wasm.sh')];
  if (force) args.push('--force');
  const stdio = output === 'stderr' ? ['ignore', 2, 2] : ['ignore', 'inherit', 'inherit'];
  const r = spawnSync('bash', args, { cwd: repoRoot, stdio });
  if (r.error) {
    process.stderr.write(`build-wasm: ${r.error.message}\n`);
    return 127;
  }
  return r.status ?? 1;
}
