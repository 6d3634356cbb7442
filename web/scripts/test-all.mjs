#!/usr/bin/env node
// npm test: every check of the project, in order, carrying on past a failing suite.
//   (a) native build + ctest        counts from ctest's summary line
//   (b) wasm build                  1 check
//   (c) Vitest                      counts from its JSON report
//   (d) Playwright (built site)     counts from its JSON report
//   (e) sanitizers                  build/asan (AddressSanitizer + UBSan): its ctest counts, and
//                                   every preset through its CLI, 1 check each
//   (f) fuzz                        each libFuzzer target for a few seconds, 1 check each
// A suite that cannot start counts as 1 failed. The last line printed is exactly
// `N passed, N failed`; the exit status is 1 if anything failed. `--only a,b` runs some suites.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { runFuzz, NATIVE_TARGETS } from './fuzz.mjs';
import { buildNative, SANITIZE } from './native.mjs';

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

/** Passed and failed counts from ctest's summary line. */
function ctestCounts(t) {
  const m = t.output.match(/(\d+)% tests passed,\s+(\d+) tests? failed out of (\d+)/);
  if (m) {
    const failed = Number(m[2]);
    const total = Number(m[3]);
    return { passed: total - failed, failed, note: t.timedOut ? 'timed out' : '' };
  }
  if (/No tests were found/.test(t.output)) return { passed: 0, failed: 1, note: 'no tests' };
  return { passed: 0, failed: 1, note: `ctest gave no summary (exit ${t.status})` };
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
  const c = ctestCounts(t);
  record('native (ctest)', c.passed, c.failed, c.note);
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

// The sanitizers stop at their first report (-fno-sanitize-recover=all); these make the report
// complete. LeakSanitizer is off: it needs ptrace, which containers often refuse.
const SANITIZER_ENV = {
  ASAN_OPTIONS: 'detect_leaks=0:abort_on_error=1',
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
};
const SANITIZER_REPORT =
  /ERROR: AddressSanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer/;

// Every preset runs under the sanitizers, shortened (the code paths are the same; ctest's
// Presets test runs them whole): chosen, at most 2 ms of simulated time, its warm-up and traced
// window scaled with it, and 20,000 web requests.
const SHORT_US = 2000;
const SHORT_REQUESTS = 20000;

/** The --set arguments that shorten a preset (none when it is short already). */
function shortened(doc) {
  const run = doc.run ?? {};
  const web = doc.workload ?? {};
  const sets = [];
  const duration = run.duration_us ?? 1000;
  if (duration > SHORT_US) {
    const f = SHORT_US / duration;
    sets.push(['run.duration_us', SHORT_US], ['run.warmup_us', (run.warmup_us ?? 200) * f]);
    sets.push(['run.sample_interval_us', Math.min(run.sample_interval_us ?? 10, SHORT_US / 10)]);
    const trace = run.trace ?? {};
    if ((trace.end_us ?? 100) > SHORT_US) {
      sets.push(['run.trace.start_us', (trace.start_us ?? 0) * f]);
      sets.push(['run.trace.end_us', (trace.end_us ?? 100) * f]);
    }
  }
  const requests = web.trace_requests ?? 0;
  if (web.kind === 'web' && web.trace !== 'log' && (requests === 0 || requests > SHORT_REQUESTS)) {
    sets.push(['workload.trace_requests', SHORT_REQUESTS]);
    if (requests > 0) {
      const warmup = Math.round(((web.warmup_requests ?? 0) * SHORT_REQUESTS) / requests);
      sets.push(['workload.warmup_requests', warmup]);
    }
  }
  return sets.flatMap(([k, v]) => ['--set', `${k}=${Math.round(v * 1000) / 1000}`]);
}

/** A small access log in Common Log Format, for the preset that replays one. */
function sampleLog() {
  const lines = [];
  for (let i = 0; i < 400; i++) {
    const file = (i * 7919) % 97;
    lines.push(
      `h${i % 13} - - [01/Jul/1995:00:00:01 -0400] "GET /f${file}.html HTTP/1.0" 200 ${1000 + file * 311}`,
    );
  }
  lines.push('h - - [01/Jul/1995:00:00:02 -0400] "GET /missing HTTP/1.0" 404 -', 'not a log line');
  return `${lines.join('\n')}\n`;
}

// The tests that run every preset whole, leaving the sanitized ctest: Release ctest runs them,
// and the loop below runs every preset's code shortened under the sanitizers. Under them these
// four took about 45 min of CPU (ComposedPartsEqualRunOnEveryPreset 709 s, the preset check
// 393 s, SteadyState and Invariants about 14 and 7 min): most of the suite's time.
const WHOLE_PRESET_TESTS =
  '^(Presets\\.(EveryPresetIsValidRunsAndMeetsItsReferenceValues|Invariants|SteadyState)|' +
  'RunSplit\\.ComposedPartsEqualRunOnEveryPreset)$';

async function sanitizerSuite() {
  banner('(e) sanitizers: ctest and every preset, built with AddressSanitizer + UBSan');
  const started = Date.now();
  const status = buildNative({ build: SANITIZE, output: 'inherit' });
  if (status !== 0) {
    record('sanitizers', 0, 1, `build/asan failed (exit ${status})`);
    return;
  }
  // The sanitizers slow the tests 5 to 15 times (Fuzz.MutatedScenariosNeverCrashTheCore took
  // 20 s in Release, 169 s here): the timeouts only catch a hang.
  const t = await runTee(
    'ctest',
    [
      ...['--test-dir', SANITIZE.dir, '--output-on-failure', '-j', '2', '--timeout', '1800'],
      ...['--exclude-regex', WHOLE_PRESET_TESTS],
    ],
    { env: SANITIZER_ENV, timeoutMs: 45 * MINUTE },
  );
  const c = ctestCounts(t);
  let { passed, failed } = c;
  const notes = c.note ? [`ctest: ${c.note}`] : [];
  const reports = SANITIZER_REPORT.test(t.output) && failed === 0;
  if (reports) {
    failed += 1; // a report in a test that still passed
    notes.push('a sanitizer report in ctest');
  }
  // Every preset through the sanitized CLI, CSV output (the most code after a run).
  const cli = path.join(repoRoot, SANITIZE.dir, 'nicsim');
  const log = path.join(repoRoot, SANITIZE.dir, 'sample-access.log');
  writeFileSync(log, sampleLog());
  const presets = readdirSync(path.join(repoRoot, 'scenarios'))
    .filter((f) => f.endsWith('.json') && !f.includes('.schema.'))
    .sort();
  const badPresets = [];
  const runPreset = async (f) => {
    const id = f.slice(0, -5);
    const file = path.join('scenarios', f);
    const args = [file, '--format', 'csv', ...shortened(readJson(path.join(repoRoot, file)) ?? {})];
    if (id === 'web-access-log') args.push('--log', log);
    const r = await runQuiet(cli, args, { env: SANITIZER_ENV, timeoutMs: 10 * MINUTE });
    const ok = r.status === 0 && !SANITIZER_REPORT.test(r.output);
    process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} ${id} (${(r.ms / 1000).toFixed(1)} s)\n`);
    if (ok) passed++;
    else {
      failed++;
      badPresets.push(id);
      process.stdout.write(`$ ${cli} ${args.join(' ')}\n${r.output.slice(-6000)}`);
    }
  };
  // Two at a time: the machine has two cores, and each run is one thread.
  const queue = [...presets];
  const worker = async () => {
    while (queue.length) await runPreset(queue.shift());
  };
  await Promise.all([worker(), worker()]);
  badPresets.sort();
  if (badPresets.length) notes.push(`presets: ${badPresets.join(', ')}`);
  notes.push(`${Math.round((Date.now() - started) / 1000)} s`);
  record('sanitizers', passed, failed, notes.join('; '));
}

/** Runs a command keeping its output (shown only on failure); resolves with its duration. */
function runQuiet(cmd, args, { env = {}, timeoutMs = 10 * MINUTE } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let output = '';
    const child = spawn(cmd, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'], // stdout is the results: not needed
      detached: true,
    });
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[test-all] ${path.basename(cmd)} exceeded ${timeoutMs / MINUTE} min\n`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ status: 127, output: output + String(e), ms: Date.now() - t0 });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ status: code ?? (signal ? 128 : 1), output, ms: Date.now() - t0 });
    });
  });
}

// chosen: about a minute for the three targets together (npm run fuzz runs longer).
const SUITE_FUZZ_SECONDS = 15;

async function fuzzSuite() {
  banner(
    `(f) fuzz: each libFuzzer target for ${SUITE_FUZZ_SECONDS} s (the link decoder's is in Vitest)`,
  );
  const results = await runFuzz({
    seconds: SUITE_FUZZ_SECONDS,
    targets: NATIVE_TARGETS,
    fresh: true,
  });
  const passed = results.filter((r) => r.ok).length;
  const notes = results.map((r) => `${r.target} ${r.execs} inputs${r.ok ? '' : `: ${r.note}`}`);
  record('fuzz', passed, results.length - passed, notes.join('; '));
}

// ---------------------------------------------------------------------------------------------
mkdirSync(reportDir, { recursive: true });
const started = Date.now();
// `--only sanitizers,fuzz` runs some suites (native, wasm, vitest, playwright, sanitizers, fuzz).
const SUITES = {
  native: nativeSuite,
  wasm: wasmSuite,
  vitest: vitestSuite,
  playwright: playwrightSuite,
  sanitizers: sanitizerSuite,
  fuzz: fuzzSuite,
};
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : Object.keys(SUITES);
const unknown = only.filter((n) => !SUITES[n]);
if (unknown.length) {
  process.stderr.write(
    `test-all: no suite ${unknown.join(', ')} (${Object.keys(SUITES).join(', ')})\n`,
  );
  process.exit(2);
}
await tools();
for (const [name, suite] of Object.entries(SUITES)) if (only.includes(name)) await suite();

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
