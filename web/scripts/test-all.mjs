#!/usr/bin/env node
// npm test: every check of the project, in order, carrying on past a failing suite.
//   (a) native build + ctest        counts from ctest's summary line
//   (b) wasm build                  1 check
//   (c) Vitest                      counts from its JSON report
//   (d) Playwright (built site)     counts from its JSON report
// A suite that cannot start counts as 1 failed. The last line printed is exactly
// `N passed, N failed`; the exit status is 1 if anything failed.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { buildNative } from './native.mjs';

const reportDir = path.join(repoRoot, 'build', 'test-reports');
const bin = (name) => path.join(repoRoot, 'node_modules', '.bin', name);
const MINUTE = 60_000;

/** @type {{name: string, passed: number, failed: number, note: string}[]} */
const results = [];
function record(name, passed, failed, note = '') {
  results.push({ name, passed, failed, note });
}

function banner(title) {
  process.stdout.write(`\n${'='.repeat(78)}\n== ${title}\n${'='.repeat(78)}\n`);
}

/**
 * Runs a command, echoing its output as it comes and keeping it. Kills the whole process group
 * after `timeoutMs`. Resolves to {status, output, timedOut}.
 */
function runTee(cmd, args, { timeoutMs = 30 * MINUTE, env = {} } = {}) {
  process.stdout.write(`$ ${[cmd, ...args].join(' ')}\n`);
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let child;
    try {
      child = spawn(cmd, args, {
        cwd: repoRoot,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // own process group, so a timeout can end all of it
      });
    } catch (e) {
      resolve({ status: 127, output: String(e), timedOut });
      return;
    }
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\n[test-all] ${cmd} exceeded ${timeoutMs / MINUTE} min: stopping it\n`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ status: 127, output: output + String(e), timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ status: code ?? (signal ? 128 : 1), output, timedOut });
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
async function tools() {
  banner('tools');
  try {
    await ensureTools(['test']);
    return true;
  } catch (e) {
    if (!(e instanceof EnsureToolsError)) throw e;
    process.stderr.write(`[test-all] ${e.message}\n`);
    record('tools', 0, 1, e.message);
    return false;
  }
}

async function nativeSuite() {
  banner('(a) native build + ctest');
  const status = buildNative({ output: 'inherit' });
  if (status !== 0) {
    record('native (ctest)', 0, 1, `native build failed (exit ${status})`);
    return;
  }
  const t = await runTee('ctest', ['--test-dir', 'build/native', '--output-on-failure', '-j', '2']);
  const m = t.output.match(/(\d+)% tests passed,\s+(\d+) tests? failed out of (\d+)/);
  if (m) {
    const failed = Number(m[2]);
    const total = Number(m[3]);
    record('native (ctest)', total - failed, failed, t.timedOut ? 'timed out' : '');
  } else if (/No tests were found/.test(t.output)) {
    record('native (ctest)', 0, 1, 'ctest found no tests');
  } else {
    record('native (ctest)', 0, 1, `ctest gave no summary (exit ${t.status})`);
  }
}

async function wasmSuite() {
  banner('(b) wasm build');
  const r = await runTee('bash', ['core-cpp/scripts/build-wasm.sh']);
  if (r.status === 0) record('wasm build', 1, 0);
  else record('wasm build', 0, 1, r.timedOut ? 'timed out' : `exit ${r.status}`);
}

async function vitestSuite() {
  banner('(c) Vitest');
  const out = path.join(reportDir, 'vitest.json');
  rmSync(out, { force: true });
  const r = await runTee(bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  const j = readJson(out);
  if (!j) {
    record('vitest', 0, 1, `no report (exit ${r.status}${r.timedOut ? ', timed out' : ''})`);
    return;
  }
  let passed = j.numPassedTests ?? 0;
  let failed = j.numFailedTests ?? 0;
  // A test file that failed to load has no test results of its own: count it once.
  const brokenFiles = (j.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  failed += brokenFiles;
  const notes = [];
  if (brokenFiles) notes.push(`${brokenFiles} file(s) failed outside tests`);
  if (passed + failed === 0) {
    failed = 1;
    notes.push('no tests ran');
  } else if (r.status !== 0 && failed === 0) {
    failed = 1; // e.g. an unhandled error after the tests
    notes.push(`vitest exited ${r.status}`);
  }
  if (j.numPendingTests || j.numTodoTests)
    notes.push(`${(j.numPendingTests ?? 0) + (j.numTodoTests ?? 0)} skipped`);
  record('vitest', passed, failed, notes.join('; '));
}

async function playwrightSuite() {
  banner('(d) Playwright (against the built site)');
  const out = path.join(reportDir, 'playwright.json');
  rmSync(out, { force: true });
  mkdirSync(path.join(repoRoot, 'e2e', 'artifacts'), { recursive: true });
  const r = await runTee(bin('playwright'), ['test', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out, PLAYWRIGHT_FORCE_TTY: '0' },
    timeoutMs: 40 * MINUTE,
  });
  const j = readJson(out);
  if (!j || !j.stats) {
    record('playwright', 0, 1, `no report (exit ${r.status}${r.timedOut ? ', timed out' : ''})`);
    return;
  }
  const s = j.stats;
  const passed = (s.expected ?? 0) + (s.flaky ?? 0);
  let failed = s.unexpected ?? 0;
  const notes = [];
  if (s.flaky) notes.push(`${s.flaky} flaky (passed on retry)`);
  if (s.skipped) notes.push(`${s.skipped} skipped`);
  if ((j.errors ?? []).length) notes.push(`${j.errors.length} error(s) outside tests`);
  if (passed + failed === 0) {
    failed = 1;
    notes.push('no tests ran');
  } else if (r.status !== 0 && failed === 0) {
    failed = 1;
    notes.push(`playwright exited ${r.status}`);
  }
  record('playwright', passed, failed, notes.join('; '));
}

// ---------------------------------------------------------------------------------------------
mkdirSync(reportDir, { recursive: true });
const started = Date.now();
await tools();
await nativeSuite();
await wasmSuite();
await vitestSuite();
await playwrightSuite();

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
banner(`summary (${Math.round((Date.now() - started) / 1000)} s)`);
for (const r of results) {
  const mark = r.failed ? 'FAIL' : 'ok  ';
  process.stdout.write(
    `  ${mark} ${r.name.padEnd(16)} passed ${String(r.passed).padStart(4)}   failed ${String(r.failed).padStart(3)}` +
      (r.note ? `   (${r.note})` : '') +
      '\n',
  );
}
const last = `${passed} passed, ${failed} failed`;
writeFileSync(path.join(reportDir, 'summary.txt'), `${last}\n`);
process.stdout.write(`${last}\n`);
process.exitCode = failed > 0 ? 1 : 0;
