#!/usr/bin/env node
// Configures and builds the native CMake project (core-cpp/) into build/native (Release, Ninja).
//
//   node web/scripts/native.mjs [target ...]      # default: all targets
//
// As a module: `buildNative({ targets, output })` returns the exit status (0 = built).
//   output: 'inherit' (stdout/stderr as they come), 'stderr' (everything to stderr), or
//           'quiet' (nothing unless the build fails, then the log goes to stderr).
// Targets core-cpp/CMakeLists.txt provides: nicsim (CLI), nicsim_tests (ctest), nicsim_bench.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { generate as generateTrace } from '../../core-cpp/scripts/gen-trace.mjs';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';

export const nativeDir = path.join(repoRoot, 'build', 'native');
export const nativeBin = (name) => path.join(nativeDir, name);

function runStep(cmd, args, output) {
  const line = `$ ${[cmd, ...args].join(' ')}\n`;
  if (output === 'inherit') {
    process.stdout.write(line);
    const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    return r.error ? 127 : (r.status ?? 1);
  }
  if (output === 'stderr') {
    process.stderr.write(line);
    const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', 2, 2] });
    return r.error ? 127 : (r.status ?? 1);
  }
  // quiet: keep the log, show it only on failure
  const r = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const status = r.error ? 127 : (r.status ?? 1);
  if (status !== 0) {
    process.stderr.write(
      line + (r.stdout ?? '') + (r.stderr ?? '') + (r.error ? `${r.error.message}\n` : ''),
    );
  }
  return status;
}

function cacheValue(name) {
  const cache = path.join(nativeDir, 'CMakeCache.txt');
  if (!existsSync(cache)) return null;
  const m = readFileSync(cache, 'utf8').match(new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm'));
  return m ? m[1] : null;
}

/** Configures (when needed) and builds. Returns the exit status of the failing step, or 0. */
export function buildNative({ targets = [], output = 'inherit' } = {}) {
  // CMake regenerates the trace API when its definition changes; a fresh clone needs it first.
  if (generateTrace() !== 0) return 1;
  if (!existsSync(path.join(repoRoot, 'core-cpp', 'CMakeLists.txt'))) {
    process.stderr.write('native: core-cpp/CMakeLists.txt does not exist yet\n');
    return 1;
  }
  const generator = cacheValue('CMAKE_GENERATOR');
  if (generator !== null && generator !== 'Ninja') {
    // Configured by hand with another generator: start over (CMake refuses to switch).
    rmSync(path.join(nativeDir, 'CMakeCache.txt'), { force: true });
    rmSync(path.join(nativeDir, 'CMakeFiles'), { recursive: true, force: true });
  }
  if (cacheValue('CMAKE_GENERATOR') === null || cacheValue('CMAKE_BUILD_TYPE') !== 'Release') {
    const status = runStep(
      'cmake',
      ['-S', 'core-cpp', '-B', 'build/native', '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'],
      output,
    );
    if (status !== 0) return status;
  }
  // Re-running configure when CMakeLists.txt changes is the build's own job.
  const targetArgs = targets.flatMap((t) => ['--target', t]);
  return runStep('cmake', ['--build', 'build/native', ...targetArgs], output);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureTools(['native'], { quiet: true });
  } catch (e) {
    if (!(e instanceof EnsureToolsError)) throw e;
    process.stderr.write(`native: ${e.message}\n`);
    process.exit(1);
  }
  process.exit(buildNative({ targets: process.argv.slice(2) }));
}
