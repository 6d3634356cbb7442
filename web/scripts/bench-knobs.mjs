#!/usr/bin/env node
// npm run bench:knobs: how fast a moved knob answers; a benchmark, not a test (nothing in `npm test` runs it, and its
// numbers depend on the machine). Per preset:
//   node main   ms of the core's run() in wasm under Node for the scenario without its sweep
//               (the main run alone), median of 3, with the run's run.duration_us and events
//   node all    the same for the whole scenario, sweep included
//   browser     on the built site (vite build + vite preview, headless Chromium, 1440x900), one
//               row per knob: the first slider of "Change a knob", and the knobs that change
//               the caches the web server warms up (CACHE_KNOBS, when the preset has them; found
//               with the panel's search). As a viewer would, the bench waits for the run to be
//               done (sweep included) and --think-ms more, then moves the slider one step with
//               the keyboard, 3 times the same way (a new value each time): from the key to the
//               panel asking for the run (mark nicsim:knob-run), from there to the views updated
//               (the frame after the status leaves "running"), and key to views, the median of
//               the 3; where each answer came from (the pool's mark nicsim:answer: computed,
//               prefetched by idle workers, remembered); and "typed": an exact value four
//               positions away typed and entered at once, which nothing asked for ahead of time
//               (what a move costs that the pool could not foresee).
// Options: --preset ID (repeatable; default every preset), --knob PATH (repeatable; instead
// of the default knobs), --think-ms N (default 2500), --port P, --skip-build, --skip-browser,
// --skip-node, --json. Build logs go to stderr.
//
// web-access-log replays the viewer's own access log: the browser part feeds it a generated
// Common Log Format log, as `npm run bench:ui` does; the Node part skips it.

/* global window, document, requestAnimationFrame, MutationObserver */

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { freePort, LOG_LINES, openPreset, waitForServer } from './bench-browser.mjs';
import { repoRoot } from './ensure-tools.mjs';
import { buildWasm, wasmDir } from './wasm.mjs';

const argv = process.argv.slice(2);
const opt = {
  presets: [],
  knobs: [],
  thinkMs: 2500,
  port: 0,
  json: false,
  build: true,
  browser: true,
  node: true,
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--preset') opt.presets.push(argv[++i]);
  else if (a === '--knob') opt.knobs.push(argv[++i]);
  else if (a === '--think-ms') opt.thinkMs = Number(argv[++i]);
  else if (a === '--port') opt.port = Number(argv[++i]);
  else if (a === '--json') opt.json = true;
  else if (a === '--skip-build') opt.build = false;
  else if (a === '--skip-browser') opt.browser = false;
  else if (a === '--skip-node') opt.node = false;
  else {
    process.stderr.write(
      `bench-knobs: unknown option "${a}" (allowed: --preset ID, --knob PATH, --think-ms N, --port P, --skip-build, --skip-browser, --skip-node, --json)\n`,
    );
    process.exit(2);
  }
}

const REPEATS = 3;
// The target: a moved knob's main run drawn within this many ms of the key.
const TARGET_MS = 300;
// Knobs whose change makes the web server warm its file cache and NIC caches up again.
const CACHE_KNOBS = ['system.nic_cache.kbytes', 'system.server.file_cache_mb'];
const err = (s) => process.stderr.write(`[bench-knobs] ${s}\n`);

const allPresets = readdirSync(path.join(repoRoot, 'scenarios'))
  .filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json')
  .map((f) => f.replace(/\.json$/, ''))
  .sort();
const presets = opt.presets.length ? opt.presets : allPresets;
for (const p of presets) {
  if (!allPresets.includes(p)) {
    process.stderr.write(`bench-knobs: --preset "${p}" is not in scenarios/\n`);
    process.exit(2);
  }
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

// ---------------------------------------------------------------------------------------------
// Node: the core alone

/** A TypeScript module of web/ without imports of its own, transpiled and loaded. */
async function importTs(rel, name) {
  const ts = (await import('typescript')).default;
  const src = readFileSync(path.join(repoRoot, 'web', rel), 'utf8');
  const out = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const dir = path.join(repoRoot, 'build', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, out.outputText);
  return import(pathToFileURL(file).href);
}

const importNodeCore = () => importTs('engine/nodeCore.ts', 'nodeCore-knobs.mjs');

function timeRun(core, text) {
  const ms = [];
  let out = null;
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    out = JSON.parse(core.run(text, '{}'));
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), out };
}

async function nodeTimes(results) {
  const { loadNodeCore } = await importNodeCore();
  const core = await loadNodeCore({ wasmDir });
  for (const id of presets) {
    const r = results.get(id);
    if (id === 'web-access-log') {
      r.note.push('node: needs an access log');
      continue;
    }
    const scenario = JSON.parse(readFileSync(path.join(repoRoot, 'scenarios', `${id}.json`)));
    const single = { ...scenario };
    // One point: no sweep, and so no reference checks or tour (they name sweep points).
    delete single.sweep;
    delete single.reference;
    delete single.tour;
    err(`node: ${id}`);
    const main = timeRun(core, JSON.stringify(single));
    if (main.out.errors) {
      r.note.push(`node: ${JSON.stringify(main.out.errors).slice(0, 80)}`);
      continue;
    }
    r.nodeMainMs = main.ms;
    r.durationUs = main.out.parameters?.run?.duration_us ?? null;
    const ev = main.out.results?.events;
    r.events = typeof ev === 'object' ? ev?.value : ev;
    const sw = scenario.sweep;
    r.sweepPoints = sw ? (sw.values?.length ?? 0) * (sw.series?.values?.length ?? 1) : 0;
    r.nodeAllMs = scenario.sweep ? timeRun(core, JSON.stringify(scenario)).ms : main.ms;
  }
}

// ---------------------------------------------------------------------------------------------
// Browser: the built site

/** Waits for the run on screen to be done (sweep included), then the viewer's think time. */
async function settle(page) {
  await page
    .locator('[data-testid="run-status"][data-status="done"]')
    .waitFor({ timeout: 180_000 });
  await page.waitForTimeout(opt.thinkMs);
}

/**
 * Presses `key` on `target` (a slider, or a text field with Enter); times to the run's start and
 * to the views drawn, and where the main run's answer came from.
 */
async function oneMove(page, target, key) {
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid="run-status"]');
    performance.clearMarks('nicsim:knob-run');
    performance.clearMarks('nicsim:answer');
    const b = (window.__knob = { key: null, start: null, drawn: null, status: null });
    document.addEventListener(
      'keydown',
      () => {
        if (b.key === null) b.key = performance.now();
      },
      { capture: true, once: true },
    );
    const mo = new MutationObserver(() => {
      const s = status.getAttribute('data-status');
      if (s === 'running' && b.start === null) b.start = performance.now();
      // A refused value never runs: its message is the answer.
      if ((b.start !== null && s !== 'running') || s === 'invalid' || s === 'failed') {
        mo.disconnect();
        b.status = s;
        requestAnimationFrame(() => {
          b.drawn = performance.now();
        });
      }
    });
    mo.observe(status, { attributes: true, attributeFilter: ['data-status'] });
    // An answer at once may never show "running": the views change with the status line.
    const mo2 = new MutationObserver(() => {
      if (b.key === null || b.drawn !== null || b.start !== null) return;
      const asked = performance.getEntriesByName('nicsim:answer').length > 0;
      if (asked && status.getAttribute('data-status') !== 'running') {
        mo2.disconnect();
        mo.disconnect();
        b.status = status.getAttribute('data-status');
        requestAnimationFrame(() => {
          b.drawn = performance.now();
        });
      }
    });
    mo2.observe(status, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await target.press(key);
  await page.waitForFunction(() => window.__knob.drawn !== null, null, {
    timeout: 180_000,
    polling: 50,
  });
  const b = await page.evaluate(() => ({
    ...window.__knob,
    asked: performance.getEntriesByName('nicsim:knob-run')[0]?.startTime ?? null,
    source: performance.getEntriesByName('nicsim:answer')[0]?.detail ?? null,
  }));
  return {
    status: b.status,
    source: b.source,
    waitMs: (b.asked ?? b.start ?? b.key) - b.key,
    runMs: b.drawn - (b.asked ?? b.start ?? b.key),
    totalMs: b.drawn - b.key,
  };
}

/** Moves `path`'s slider REPEATS steps one way, then types a value four positions further. */
async function benchKnob(page, path, row, specs, scales) {
  const search = page.getByTestId('knobs-search');
  await search.fill(path === null ? '' : path);
  const knob =
    path === null
      ? page.locator('[data-testid="knob-panel"] .knob:has(input[type="range"])').first()
      : page.locator(`[data-testid="knob-panel"] .knob[data-path="${path}"]`);
  if ((await knob.count()) === 0 || (await knob.locator('input[type="range"]').count()) === 0) {
    row.note.push('no slider');
    return false;
  }
  row.knob = await knob.getAttribute('data-path');
  const slider = knob.locator('input[type="range"]');
  const moves = [];
  const max = Number(await slider.getAttribute('max'));
  const at = Number(await slider.inputValue());
  const key = at + REPEATS <= max ? 'ArrowRight' : 'ArrowLeft';
  for (let i = 0; i < REPEATS; i++) {
    await settle(page);
    await slider.focus();
    moves.push(await oneMove(page, slider, key));
  }
  const bad = moves.find((m) => m.status !== 'done' && m.status !== 'sweep');
  if (bad) row.note.push(`a move ended ${bad.status}`);
  row.waitMs = median(moves.map((m) => m.waitMs));
  row.runMs = median(moves.map((m) => m.runMs));
  row.totalMs = median(moves.map((m) => m.totalMs));
  row.maxMs = Math.max(...moves.map((m) => m.totalMs));
  row.sources = moves.map((m) => m.source ?? '?').join(',');
  // A value nothing foresaw (the pool asks for a slider's neighbours only): two positions on,
  // typed and entered at once.
  await settle(page);
  const text = knob.locator('input[type="text"]');
  const scale = scales.sliderScale(specs.get(row.knob));
  const pos = scales.positionOf(scale, Number((await text.inputValue()).replace(/,/g, '')));
  const far = scale.values[key === 'ArrowRight' ? pos + 2 : pos - 2] ?? scale.values[pos - 2];
  await text.fill(String(far));
  const typed = await oneMove(page, text, 'Enter');
  row.typedMs = typed.totalMs;
  row.typedSource = typed.source;
  return true;
}

async function browserTimes(results) {
  if (opt.build) {
    err('building (wasm core + vite build)…');
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'web/scripts/build.mjs')], {
      cwd: repoRoot,
      stdio: ['ignore', 2, 2],
    });
    if (r.status !== 0) throw new Error(`build failed (exit ${r.status})`);
  }
  const port = opt.port || (await freePort());
  const base = `http://127.0.0.1:${port}/`;
  const server = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'preview',
      '--port',
      String(port),
      '--strictPort',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 2] },
  );
  const { launchChromium } = await import('./site.mjs'); // Playwright, once the tools are in
  // The sliders' positions, as the panel computes them from the core's parameter specs.
  const scales = await importTs('knobs/scale.ts', 'scale-knobs.mjs');
  const { loadNodeCore } = await importNodeCore();
  const core = await loadNodeCore({ wasmDir });
  const specs = new Map(JSON.parse(core.parameterInfo()).map((sp) => [sp.path, sp]));
  let browser;
  try {
    await waitForServer(base, server);
    browser = await launchChromium();
    for (const id of presets) {
      const r = results.get(id);
      // The caches' knobs matter to the web workload only (the core lists every parameter).
      const web =
        JSON.parse(readFileSync(path.join(repoRoot, 'scenarios', `${id}.json`))).workload?.kind ===
        'web';
      const knobs = opt.knobs.length ? opt.knobs : [null, ...(web ? CACHE_KNOBS : [])];
      for (const knob of knobs) {
        const row = knob === null ? r : { preset: id, note: [], extra: true };
        err(`browser: ${id} ${knob ?? '(first slider)'}`);
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        try {
          if (await openPreset(page, base, id))
            row.note.push(`browser: generated log, ${LOG_LINES} lines`);
          await page
            .locator('[data-testid="run-status"][data-status="done"]')
            .waitFor({ timeout: 180_000 });
          await page.getByTestId('knobs-toggle').click();
          const found = await benchKnob(page, knob, row, specs, scales);
          if (found && row.extra) r.extras.push(row);
        } catch (e) {
          row.note.push(`browser: ${String(e?.message ?? e).split('\n')[0]}`);
          if (row.extra) r.extras.push(row);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser?.close();
    server.kill();
  }
}

// ---------------------------------------------------------------------------------------------

const results = new Map(presets.map((id) => [id, { preset: id, note: [], extras: [] }]));
if (opt.node) {
  err('building wasm');
  if (buildWasm({ output: 'stderr' }) !== 0) {
    err('wasm build failed');
    process.exit(1);
  }
  await nodeTimes(results);
}
if (opt.browser) await browserTimes(results);

const rows = [...results.values()]
  .flatMap(({ extras, ...r }) => [r, ...extras])
  .map((r) => ({ ...r, note: r.note.join('; ') }));
if (opt.json) {
  process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
} else {
  const ms = (x) => (typeof x === 'number' ? x.toFixed(0) : '—');
  const head = [
    'preset',
    'duration µs',
    'events',
    'points',
    'node main ms',
    'node all ms',
    'knob',
    'wait ms',
    'run→drawn ms',
    'key→drawn ms',
    'max ms',
    'answers',
    'typed ms',
    'note',
  ];
  const table = rows.map((r) => [
    r.extra ? '' : r.preset,
    r.durationUs ?? '—',
    r.events ?? '—',
    r.sweepPoints ?? '—',
    ms(r.nodeMainMs),
    ms(r.nodeAllMs),
    r.knob ?? '—',
    ms(r.waitMs),
    ms(r.runMs),
    ms(r.totalMs) + (typeof r.totalMs === 'number' && r.totalMs > TARGET_MS ? ' !' : ''),
    ms(r.maxMs),
    r.sources ?? '—',
    r.typedMs === undefined ? '—' : `${ms(r.typedMs)} (${r.typedSource ?? '?'})`,
    r.note,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  process.stdout.write(line(head) + '\n' + table.map(line).join('\n') + '\n');
}
