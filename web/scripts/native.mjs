#!/usr/bin/env node
// Configures and builds the native CMake project (core-cpp/) with Ninja: by default into
// build/native (Release); with --sanitize into build/asan (clang, AddressSanitizer + UBSan,
// libFuzzer's coverage and the fuzz targets: the suite's checking build).
//
//   node web/scripts/native.mjs [--sanitize] [target ...]      # default: all targets
//
// As a module: `buildNative({ targets, output, build })` returns the exit status (0 = built).
//   output: 'inherit' (stdout/stderr as they come), 'stderr' (everything to stderr), or
//           'quiet' (nothing unless the build fails, then the log goes to stderr).
//   build:  NATIVE (the default) or SANITIZE, below.
// Targets core-cpp/CMakeLists.txt provides: nicsim (CLI), nicsim_tests (ctest), nicsim_bench,
// nicsim_replay_<target>, and with SANITIZE nicsim_fuzz_<target> (core-cpp/fuzz/).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { generate as generateTrace } from '../../core-cpp/scripts/gen-trace.mjs';
import { ensureTools, EnsureToolsError, repoRoot, which } from './ensure-tools.mjs';

/** A build folder and what its CMake cache must hold (values compared as CMake stores them). */
export const NATIVE = { dir: 'build/native', cache: { CMAKE_BUILD_TYPE: 'Release' } };
export const SANITIZE = {
  dir: 'build/asan',
  // clang for libFuzzer; -O1 with line tables keeps sanitizer reports readable and builds quick.
  compiler: 'clang++',
  cache: {
    CMAKE_BUILD_TYPE: 'RelWithDebInfo',
    CMAKE_CXX_FLAGS_RELWITHDEBINFO: '-O1 -gline-tables-only',
    NICSIM_SANITIZE: 'ON',
    NICSIM_FUZZ: 'ON',
  },
};

export const nativeDir = path.join(repoRoot, NATIVE.dir);
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

function cacheValue(dir, name) {
  const cache = path.join(repoRoot, dir, 'CMakeCache.txt');
  if (!existsSync(cache)) return null;
  const m = readFileSync(cache, 'utf8').match(new RegExp(`^${name}:[A-Z]+=(.*)$`, 'm'));
  return m ? m[1] : null;
}

/** Configures (when needed) and builds. Returns the exit status of the failing step, or 0. */
export function buildNative({ targets = [], output = 'inherit', build = NATIVE } = {}) {
  // CMake regenerates the trace API when its definition changes; a fresh clone needs it first.
  if (generateTrace() !== 0) return 1;
  if (!existsSync(path.join(repoRoot, 'core-cpp', 'CMakeLists.txt'))) {
    process.stderr.write('native: core-cpp/CMakeLists.txt does not exist yet\n');
    return 1;
  }
  const dir = build.dir;
  const compiler = build.compiler ? which(build.compiler) : null;
  if (build.compiler && !compiler) {
    process.stderr.write(`native: ${build.compiler} is not installed\n`);
    return 127;
  }
  const generator = cacheValue(dir, 'CMAKE_GENERATOR');
  const cachedCompiler = cacheValue(dir, 'CMAKE_CXX_COMPILER');
  if (
    (generator !== null && generator !== 'Ninja') ||
    (compiler && cachedCompiler !== null && cachedCompiler !== compiler)
  ) {
    // Configured by hand with another generator or compiler: start over (CMake refuses to switch).
    rmSync(path.join(repoRoot, dir, 'CMakeCache.txt'), { force: true });
    rmSync(path.join(repoRoot, dir, 'CMakeFiles'), { recursive: true, force: true });
  }
  const stale = Object.entries(build.cache).some(([k, v]) => cacheValue(dir, k) !== v);
  if (cacheValue(dir, 'CMAKE_GENERATOR') === null || stale) {
    const defines = Object.entries(build.cache).map(([k, v]) => `-D${k}=${v}`);
    if (compiler) defines.push(`-DCMAKE_CXX_COMPILER=${compiler}`);
    const status = runStep(
      'cmake',
      ['-S', 'core-cpp', '-B', dir, '-G', 'Ninja', ...defines],
      output,
    );
    if (status !== 0) return status;
  }
  // Re-running configure when CMakeLists.txt changes is the build's own job.
  const targetArgs = targets.flatMap((t) => ['--target', t]);
  return runStep('cmake', ['--build', dir, ...targetArgs], output);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const sanitize = args.includes('--sanitize');
  try {
    await ensureTools(sanitize ? ['sanitize'] : ['native'], { quiet: true });
  } catch (e) {
    if (!(e instanceof EnsureToolsError)) throw e;
    process.stderr.write(`native: ${e.message}\n`);
    process.exit(1);
  }
  process.exit(
    buildNative({
      targets: args.filter((a) => a !== '--sanitize'),
      build: sanitize ? SANITIZE : NATIVE,
    }),
  );
}
