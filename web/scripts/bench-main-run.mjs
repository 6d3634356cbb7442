#!/usr/bin/env node
// Times presets' main runs (runMain, as the page's first view asks for it) in fresh Node
// processes on wasm builds of the core, alternating the builds given, and prints medians.
//
//   node web/scripts/bench-main-run.mjs [--runs N] [--point I] [--then-point I] [--overrides JSON]
//        PRESET[,PRESET...] WASM_DIR [WASM_DIR...]
//
// PRESET: a scenario id (scenarios/PRESET.json). WASM_DIR: a folder holding nicsim_core.js and
// nicsim_core.wasm (a copy of web/engine/wasm/ from one build). Each of N rounds starts one
// process per build in turn (A, B, A, B...): a fresh instance, as a new worker's, whose first
// run goes through V8's baseline code. --point I times runPoint(I) instead of the main run;
// --then-point I also times runPoint(I) after the main run in the same instance (a pool
// worker's second job). Wall and process CPU time of the call; the machine is shared, so
// medians.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function child(dir, preset, overrides, point, thenPoint) {
  const wasmBinary = readFileSync(path.join(dir, 'nicsim_core.wasm'));
  const mod = await import(pathToFileURL(path.join(dir, 'nicsim_core.js')).href);
  const core = await mod.default({ wasmBinary });
  const scenario = readFileSync(path.join(root, 'scenarios', `${preset}.json`), 'utf8');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const text =
    point >= 0 ? core.runPoint(scenario, overrides, point) : core.runMain(scenario, overrides);
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  if (text.startsWith('{"errors":')) throw new Error(text.slice(0, 300));
  // CPU time of the process (the machine is shared: wall time counts others' work too).
  const out = { ms: t1 - t0, cpuMs: (c1.user + c1.system) / 1000, bytes: text.length };
  if (thenPoint >= 0) {
    const t2 = performance.now();
    core.runPoint(scenario, overrides, thenPoint);
    out.thenMs = performance.now() - t2;
  }
  process.stdout.write(JSON.stringify(out));
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const argv = process.argv.slice(2);
let runs = 5;
let point = -1;
let thenPoint = -1;
let overrides = '{}';
const rest = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Number(argv[++i]);
  else if (argv[i] === '--point') point = Number(argv[++i]);
  else if (argv[i] === '--then-point') thenPoint = Number(argv[++i]);
  else if (argv[i] === '--overrides') overrides = argv[++i];
  else if (argv[i] === '--child') {
    await child(argv[i + 1], argv[i + 2], argv[i + 3], Number(argv[i + 4]), Number(argv[i + 5]));
    process.exit(0);
  } else rest.push(argv[i]);
}
if (rest.length < 2) {
  process.stderr.write(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 13)
      .join('\n') + '\n',
  );
  process.exit(2);
}
const [presets, ...dirs] = rest;
for (const preset of presets.split(',')) {
  const times = dirs.map(() => []);
  const cpu = dirs.map(() => []);
  const then = dirs.map(() => []);
  for (let r = 0; r < runs; r++) {
    dirs.forEach((dir, k) => {
      const args = [
        fileURLToPath(import.meta.url),
        '--child',
        path.resolve(dir),
        preset,
        overrides,
      ];
      const p = spawnSync(process.execPath, [...args, String(point), String(thenPoint)], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      if (p.status !== 0) throw new Error(`${dir}: ${p.stderr}`);
      const o = JSON.parse(p.stdout);
      times[k].push(o.ms);
      cpu[k].push(o.cpuMs);
      if (o.thenMs !== undefined) then[k].push(o.thenMs);
    });
  }
  dirs.forEach((dir, k) => {
    const all = times[k].map((t) => t.toFixed(0)).join(' ');
    const t2 = then[k].length ? `  then-point median ${median(then[k]).toFixed(0)} ms` : '';
    const c = median(cpu[k]).toFixed(0);
    console.log(
      `${preset}  ${dir}: median ${median(times[k]).toFixed(0)} ms (CPU ${c} ms)  [${all}]${t2}`,
    );
  });
}
