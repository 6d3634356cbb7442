#!/usr/bin/env node
// Makes sure the tools nicsim's scripts need are on this machine, installing what is missing.
//
//   node web/scripts/ensure-tools.mjs                 # everything (what `npm test` needs)
//   node web/scripts/ensure-tools.mjs npm emcc nlohmann
//
// As a module: `await ensureTools(['npm', 'emcc'])` (throws EnsureToolsError when it can't).
// Node built-ins only: this runs before `npm ci` has installed anything.
//
// npm packages: `npm ci` when node_modules is missing or package-lock.json has changed since the
// last install (its hash, kept in node_modules/.nicsim-lock-hash; without one, when the lock is
// newer than node_modules/.package-lock.json). A node_modules that links elsewhere (a git
// worktree sharing a checkout's packages) is never reinstalled through the link. System tools: on Debian as root, `apt-get update` then
// `apt-get install -y` the missing packages; anywhere else, print the command and fail.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Finds an executable on PATH (like `command -v`), or returns null. */
export function which(cmd) {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const candidate = path.join(dir, cmd);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** libFuzzer's runtime as Debian's clang installs it (/usr/lib/llvm-N/lib/clang/V/lib/linux/). */
function libFuzzerPresent() {
  const llvm = (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  return llvm('/usr/lib')
    .filter((d) => d.startsWith('llvm-'))
    .some((d) =>
      llvm(`/usr/lib/${d}/lib/clang`).some((v) =>
        existsSync(`/usr/lib/${d}/lib/clang/${v}/lib/linux/libclang_rt.fuzzer-x86_64.a`),
      ),
    );
}

/**
 * The system tools, each with how to tell it is there and the Debian package that brings it.
 * `npm` (the project's node_modules) is handled separately.
 */
export const SYSTEM_TOOLS = {
  emcc: { what: 'Emscripten (emcc)', present: () => which('emcc') !== null, deb: 'emscripten' },
  chromium: {
    what: 'Chromium (/usr/bin/chromium)',
    present: () => existsSync('/usr/bin/chromium'),
    deb: 'chromium',
  },
  cmake: { what: 'CMake', present: () => which('cmake') !== null, deb: 'cmake' },
  ninja: { what: 'Ninja', present: () => which('ninja') !== null, deb: 'ninja-build' },
  gxx: { what: 'g++', present: () => which('g++') !== null, deb: 'g++' },
  gtest: {
    what: 'GoogleTest (/usr/include/gtest)',
    present: () => existsSync('/usr/include/gtest/gtest.h'),
    deb: 'libgtest-dev',
  },
  nlohmann: {
    what: 'nlohmann json (/usr/include/nlohmann/json.hpp)',
    present: () => existsSync('/usr/include/nlohmann/json.hpp'),
    deb: 'nlohmann-json3-dev',
  },
  // The sanitizer build and the fuzzers (native.mjs --sanitize, fuzz.mjs).
  clang: { what: 'clang++', present: () => which('clang++') !== null, deb: 'clang' },
  libfuzzer: {
    what: "libFuzzer (clang's compiler-rt)",
    present: libFuzzerPresent,
    deb: 'libclang-rt-dev',
  },
};

export const ALL_TOOLS = ['npm', ...Object.keys(SYSTEM_TOOLS)];

/** Named subsets, so callers can ask for what they need. */
export const TOOL_SETS = {
  all: ALL_TOOLS,
  native: ['cmake', 'ninja', 'gxx', 'gtest', 'nlohmann'],
  sanitize: ['cmake', 'ninja', 'gtest', 'nlohmann', 'clang', 'libfuzzer'],
  wasm: ['emcc', 'nlohmann'],
  start: ['npm', 'emcc', 'nlohmann', 'chromium'],
  build: ['npm', 'emcc', 'nlohmann'],
  bench: ['npm', 'emcc', 'nlohmann', 'cmake', 'ninja', 'gxx', 'gtest'],
  test: ALL_TOOLS,
};

export class EnsureToolsError extends Error {}

function log(msg) {
  process.stderr.write(`[ensure-tools] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.error) throw new EnsureToolsError(`${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

const LOCK_HASH = '.nicsim-lock-hash';

function lockHash(root) {
  return createHash('sha256')
    .update(readFileSync(path.join(root, 'package-lock.json')))
    .digest('hex');
}

/** True when `npm ci` should run. */
export function npmPackagesStale(root = repoRoot) {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(path.join(root, 'node_modules')) || !existsSync(installed)) return true;
  if (!existsSync(lock)) return false;
  // A checkout (git checkout, a new worktree) gives the lock a new time but not new contents.
  const recorded = path.join(root, 'node_modules', LOCK_HASH);
  if (existsSync(recorded)) return readFileSync(recorded, 'utf8').trim() !== lockHash(root);
  return statSync(lock).mtimeMs > statSync(installed).mtimeMs;
}

function ensureNpm(root) {
  if (!npmPackagesStale(root)) return;
  const modules = path.join(root, 'node_modules');
  // `npm ci` empties node_modules first: through a link, that is another checkout's packages.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    log('node_modules is a link to another checkout and may be stale: run `npm ci` there');
    return;
  }
  log('node_modules is missing or older than package-lock.json: running npm ci');
  // CI has no stdin; keep npm quiet about funding and audits.
  const status = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=notice'], { cwd: root });
  if (status !== 0) throw new EnsureToolsError(`npm ci failed (exit ${status})`);
  writeFileSync(path.join(modules, LOCK_HASH), `${lockHash(root)}\n`);
}

function isDebianRoot() {
  return (
    existsSync('/etc/debian_version') &&
    typeof process.getuid === 'function' &&
    process.getuid() === 0
  );
}

function installDebianPackages(pkgs) {
  const cmdline = `apt-get install -y ${pkgs.join(' ')}`;
  if (!isDebianRoot()) {
    const how = existsSync('/etc/debian_version')
      ? `  sudo apt-get update && sudo ${cmdline}`
      : `  (Debian package names) ${pkgs.join(' ')}`;
    process.stderr.write(`\nnicsim needs these system packages, which are missing:\n${how}\n\n`);
    throw new EnsureToolsError(`missing system packages: ${pkgs.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let status = run('apt-get', ['update'], { env });
  if (status !== 0) throw new EnsureToolsError(`apt-get update failed (exit ${status})`);
  status = run('apt-get', ['install', '-y', ...pkgs], { env });
  if (status !== 0) throw new EnsureToolsError(`${cmdline} failed (exit ${status})`);
}

/**
 * Ensures the named tools (names from ALL_TOOLS, or a TOOL_SETS key) are present.
 * Throws EnsureToolsError if something is missing and cannot be installed.
 */
export async function ensureTools(names = ALL_TOOLS, { root = repoRoot, quiet = false } = {}) {
  const wanted = new Set();
  for (const n of names) {
    if (TOOL_SETS[n] && !ALL_TOOLS.includes(n)) TOOL_SETS[n].forEach((t) => wanted.add(t));
    else if (ALL_TOOLS.includes(n)) wanted.add(n);
    else
      throw new EnsureToolsError(
        `unknown tool "${n}" (known: ${ALL_TOOLS.join(', ')}; sets: ${Object.keys(TOOL_SETS).join(', ')})`,
      );
  }

  const missing = [...wanted].filter((t) => t !== 'npm' && !SYSTEM_TOOLS[t].present());
  if (missing.length > 0) {
    log(`missing: ${missing.map((t) => SYSTEM_TOOLS[t].what).join(', ')}`);
    installDebianPackages([...new Set(missing.map((t) => SYSTEM_TOOLS[t].deb))]);
    const still = missing.filter((t) => !SYSTEM_TOOLS[t].present());
    if (still.length > 0) {
      throw new EnsureToolsError(
        `still missing after install: ${still.map((t) => SYSTEM_TOOLS[t].what).join(', ')}`,
      );
    }
  }
  if (wanted.has('npm')) ensureNpm(root);
  if (!quiet) log(`ok: ${[...wanted].join(', ')}`);
}

// Runnable: node web/scripts/ensure-tools.mjs [tool|set ...]
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      `usage: node web/scripts/ensure-tools.mjs [tool|set ...]\n  tools: ${ALL_TOOLS.join(' ')}\n  sets:  ${Object.keys(TOOL_SETS).join(' ')}\n  (no argument: all)`,
    );
    process.exit(0);
  }
  try {
    await ensureTools(args.length ? args : ALL_TOOLS);
  } catch (e) {
    if (e instanceof EnsureToolsError) {
      log(`error: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}
