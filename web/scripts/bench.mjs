#!/usr/bin/env node
// npm run bench: native (Release) vs wasm (in Node) speed of the core.
//
// Native: build/native/nicsim_bench prints a JSON object (events_per_s, sim_s_per_cpu_s,
// null_loop_events_per_s, sweep_wall_s, ...); it times the model point as below and the null
// loop in rounds (ROUNDS): process CPU time, medians. Both null loops are core code built with
// the model's own flags.
// Wasm: the same measurements through the embind module loaded by web/engine/nodeCore.ts:
//   - model:     run() of scenarios/udp-throughput.json without its sweep, with overrides
//                {"workload.direction":"bidirectional","workload.datagram_bytes":18} (+ the
//                run length and no trace, as the native driver does: see OVERRIDES)
//   - null loop: nullLoop(n), a queue whose handlers only schedule their successors
//   - sweep:     run() of the whole scenario, sweep included, in one instance
// The native driver also times both sweeps on one thread per core (api::run's workers, as the
// browser's pool shares a sweep among its workers), each timing from a cold start.
// Build logs go to stderr; the table goes to stdout. Options: --json (print the numbers as
// JSON instead), --skip-native, --skip-wasm.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { ensureTools, EnsureToolsError, repoRoot } from './ensure-tools.mjs';
import { buildNative, nativeBin } from './native.mjs';
import { buildWasm, wasmDir } from './wasm.mjs';

const args = new Set(process.argv.slice(2));
const asJson = args.has('--json');
const SCENARIO = path.join(repoRoot, 'scenarios', 'udp-throughput.json');
// The model point, as core-cpp/bench/bench_main.cpp runs it natively (keep the two the same):
// a longer run than the scenario's, and no trace recording.
const OVERRIDES = {
  'workload.direction': 'bidirectional',
  'workload.datagram_bytes': 18,
  'run.duration_us': 20000,
  'run.warmup_us': 1000,
  'run.trace.max_records': 0,
};
// Timed as core-cpp/bench/bench_main.cpp times the native build (keep the two the same).
const ROUNDS = 5;
const NULL_LOOP_EVENTS = 5_000_000; // per round
const MIN_TIMED_S = 0.25; // per round, the model runs until this much CPU time

/** The process's CPU time in seconds: time the machine gives to other work does not count. */
function cpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const err = (s) => process.stderr.write(`[bench] ${s}\n`);

try {
  await ensureTools(['bench'], { quiet: true });
} catch (e) {
  if (!(e instanceof EnsureToolsError)) throw e;
  err(e.message);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// native
function benchNative() {
  err('building native (Release): nicsim_bench');
  const status = buildNative({ targets: ['nicsim_bench'], output: 'stderr' });
  if (status !== 0 || !existsSync(nativeBin('nicsim_bench'))) {
    return { error: `native build failed (exit ${status})` };
  }
  err('running build/native/nicsim_bench');
  const r = spawnSync(nativeBin('nicsim_bench'), [], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) return { error: `nicsim_bench exited ${r.status ?? r.signal}` };
  const text = r.stdout;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return { error: `nicsim_bench printed no JSON object: ${text.slice(0, 200)}` };
  }
}

// ---------------------------------------------------------------------------------------------
// wasm

/** Compiles web/engine/nodeCore.ts to plain JS with TypeScript, so Node 20 can import it. */
async function importNodeCore() {
  const ts = (await import('typescript')).default;
  const src = readFileSync(path.join(repoRoot, 'web', 'engine', 'nodeCore.ts'), 'utf8');
  const out = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const dir = path.join(repoRoot, 'build', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'nodeCore.mjs');
  writeFileSync(file, out.outputText);
  return import(pathToFileURL(file).href);
}

const TIME_UNITS = { s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9, ps: 1e-12 };

/** Simulated seconds of a run, from its output JSON. */
function simSeconds(out) {
  const res = out.results ?? {};
  for (const [key, metric] of Object.entries(res)) {
    if (!/^sim(ulated)?_time/.test(key)) continue;
    const value = typeof metric === 'object' ? metric.value : metric;
    const unit = typeof metric === 'object' ? metric.unit : key.split('_').pop();
    if (typeof value === 'number' && TIME_UNITS[unit] !== undefined)
      return value * TIME_UNITS[unit];
    const suffix = key.match(/_(s|ms|us|ns|ps)$/);
    if (typeof value === 'number' && suffix) return value * TIME_UNITS[suffix[1]];
  }
  const run = out.parameters?.run;
  if (run && typeof run.duration_us === 'number') return run.duration_us * 1e-6;
  return NaN;
}

function eventsOf(out) {
  const e = out.results?.events;
  return typeof e === 'object' ? e.value : e;
}

function runOrThrow(core, scenarioJson, overridesJson) {
  const out = JSON.parse(core.run(scenarioJson, overridesJson));
  if (out.errors) throw new Error(`run() refused the scenario: ${JSON.stringify(out.errors)}`);
  return out;
}

async function benchWasm() {
  err('building wasm');
  const status = buildWasm({ output: 'stderr' });
  if (status !== 0) return { error: `wasm build failed (exit ${status})` };
  const { loadNodeCore } = await importNodeCore();
  const core = await loadNodeCore({ wasmDir });

  const scenario = JSON.parse(readFileSync(SCENARIO, 'utf8'));
  const single = { ...scenario };
  delete single.sweep; // one point: no sweep, and so no reference checks (they name sweep points)
  delete single.reference;
  delete single.tour; // its steps name sweep points too
  const singleJson = JSON.stringify(single);
  const overridesJson = JSON.stringify(OVERRIDES);

  // One warm-up run (its numbers) and a warm-up of the null loop, then ROUNDS rounds of (model,
  // null loop), each timed in the process's CPU time; the rates are the medians of the rounds.
  err('wasm: model run (bidirectional, 18-byte datagrams) and null loop');
  const first = runOrThrow(core, singleJson, overridesJson);
  const events = eventsOf(first);
  const simS = simSeconds(first);
  core.nullLoop(1_000_000);
  const runS = [];
  const nullRate = [];
  let reps = 0;
  let fired = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let n = 0;
    const c0 = cpuSeconds();
    let timed = 0;
    do {
      runOrThrow(core, singleJson, overridesJson);
      n++;
      timed = cpuSeconds() - c0;
    } while (timed < MIN_TIMED_S && n < 1000);
    runS.push(timed / n);
    reps += n;
    const n0 = cpuSeconds();
    fired = core.nullLoop(NULL_LOOP_EVENTS);
    nullRate.push(fired / (cpuSeconds() - n0));
  }
  const perRun = median(runS);
  const nullPerS = median(nullRate);

  err('wasm: the whole scenario with its sweep');
  const s0 = performance.now();
  const swept = runOrThrow(core, JSON.stringify(scenario), '{}');
  const sweepS = (performance.now() - s0) / 1000;

  err('wasm: the cache-only sweep of web-cache-sizes (Fig 4.3)');
  const webText = readFileSync(path.join(repoRoot, 'scenarios', 'web-cache-sizes.json'), 'utf8');
  const w0 = performance.now();
  runOrThrow(core, webText, '{}');
  const webSweepS = (performance.now() - w0) / 1000;

  return {
    web_sweep_wall_s: webSweepS,
    events_per_run: events,
    sim_s_per_run: simS,
    cpu_s_per_run: perRun,
    runs_timed: reps,
    events_per_s: events / perRun,
    sim_s_per_cpu_s: simS / perRun,
    null_loop_events: fired,
    null_loop_events_per_s: nullPerS,
    rounds: ROUNDS,
    sweep_points: Array.isArray(swept.sweep) ? swept.sweep.length : 0,
    sweep_wall_s: sweepS,
  };
}

// ---------------------------------------------------------------------------------------------
const native = args.has('--skip-native') ? { error: 'skipped' } : benchNative();
let wasm;
try {
  wasm = args.has('--skip-wasm') ? { error: 'skipped' } : await benchWasm();
} catch (e) {
  wasm = { error: e?.message ?? String(e) };
}

if (asJson) {
  process.stdout.write(`${JSON.stringify({ native, wasm }, null, 2)}\n`);
} else {
  const si = (x) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
    const units = [
      [1e9, 'G'],
      [1e6, 'M'],
      [1e3, 'k'],
    ];
    for (const [f, u] of units) if (Math.abs(x) >= f) return `${(x / f).toFixed(2)} ${u}`;
    return x.toFixed(x < 10 ? 3 : 1);
  };
  const pct = (a, b) =>
    typeof a === 'number' && typeof b === 'number' && b > 0
      ? `${((100 * a) / b).toFixed(1)} %`
      : '—';
  const secs = (x) => (typeof x === 'number' && Number.isFinite(x) ? `${x.toFixed(3)} s` : '—');
  const ratio = (w, n) =>
    typeof w === 'number' && typeof n === 'number' && n > 0 ? `${(w / n).toFixed(2)}×` : '—';
  const rows = [
    [
      'model events/s',
      si(native.events_per_s),
      si(wasm.events_per_s),
      ratio(wasm.events_per_s, native.events_per_s),
    ],
    [
      'simulated s per CPU s',
      si(native.sim_s_per_cpu_s),
      si(wasm.sim_s_per_cpu_s),
      ratio(wasm.sim_s_per_cpu_s, native.sim_s_per_cpu_s),
    ],
    [
      'null-loop events/s',
      si(native.null_loop_events_per_s),
      si(wasm.null_loop_events_per_s),
      ratio(wasm.null_loop_events_per_s, native.null_loop_events_per_s),
    ],
    [
      'model rate / null loop',
      pct(native.events_per_s, native.null_loop_events_per_s),
      pct(wasm.events_per_s, wasm.null_loop_events_per_s),
      '',
    ],
    [
      'sweep wall time, one worker',
      secs(native.sweep_wall_s),
      secs(wasm.sweep_wall_s),
      ratio(wasm.sweep_wall_s, native.sweep_wall_s),
    ],
    [`sweep wall time, ${native.workers ?? '?'} workers`, secs(native.sweep_wall_s_pool), '—', ''],
  ];
  rows.push([
    'cache-only sweep (Fig 4.3, 35 points, LRU one pass), one worker',
    secs(native.web_sweep_wall_s),
    secs(wasm.web_sweep_wall_s),
    ratio(wasm.web_sweep_wall_s, native.web_sweep_wall_s),
  ]);
  rows.push([
    `cache-only sweep (Fig 4.3), ${native.workers ?? '?'} workers`,
    secs(native.web_sweep_wall_s_pool),
    '—',
    '',
  ]);
  rows.push(['cache-only requests/s (NASA, 16 MB)', si(native.cache_sim_requests_per_s), '—', '']);
  rows.push([
    'LRU one-pass requests/s (NASA, all sizes)',
    si(native.lru_one_pass_requests_per_s),
    '—',
    '',
  ]);
  const head = ['', 'native', 'wasm (Node)', 'wasm / native'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   ');
  const out = [
    '',
    `nicsim bench — scenarios/udp-throughput.json, overrides ${JSON.stringify(OVERRIDES)}`,
    '',
    line(head),
    line(widths.map((w) => '─'.repeat(w))),
    ...rows.map(line),
    '',
  ];
  if (native.error) out.push(`native: ${native.error}`);
  if (wasm.error) out.push(`wasm: ${wasm.error}`);
  if (!native.error) {
    out.push(
      `native model run: ${native.events} events, ${(native.run_cpu_s * 1000).toFixed(1)} ms CPU ` +
        `(median of ${native.rounds} rounds, ${native.runs_timed} runs)`,
    );
  }
  if (!wasm.error) {
    out.push(
      `wasm model run: ${wasm.events_per_run} events, ${si(wasm.sim_s_per_run)} simulated s, ` +
        `${(wasm.cpu_s_per_run * 1000).toFixed(1)} ms CPU (median of ${wasm.rounds} rounds, ` +
        `${wasm.runs_timed} runs); sweep: ${wasm.sweep_points} runs`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
process.exitCode = native.error || wasm.error ? 1 : 0;
