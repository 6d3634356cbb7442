#!/usr/bin/env node
// npm run bench:knobs: how fast a moved knob answers; a benchmark, not a test (nothing in `npm test` runs it, and its
// numbers depend on the machine). Per preset:
//   node main   ms of the core's run() in wasm under Node for the scenario without its sweep
//               (the main run alone), median of 3, with the run's run.duration_us and events
//   node all    the same for the whole scenario, sweep included
//   browser     on the built site (vite build + vite preview, headless Chromium, 1440x900): the
//               first slider of "Change a knob" is moved one step with the keyboard; from the
//               key to the panel asking for the run (performance mark nicsim:knob-run), from
//               there to the views updated (the frame after the run status says done), the
//               core's own time for that run (the status line's "in x s"), and key to views;
//               median of 3 moves
// Options: --preset ID (repeatable; default every preset), --port P, --skip-build,
// --skip-browser, --skip-node, --json. Build logs go to stderr.
//
// web-access-log replays the viewer's own access log: the browser part feeds it a generated
// Common Log Format log, as `npm run bench:ui` does; the Node part skips it.

/* global window, document, requestAnimationFrame, MutationObserver */

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { accessLog, freePort, LOG_LINES, waitForServer } from './bench-browser.mjs';
import { repoRoot } from './ensure-tools.mjs';
import { buildWasm, wasmDir } from './wasm.mjs';

const argv = process.argv.slice(2);
const opt = { presets: [], port: 0, json: false, build: true, browser: true, node: true };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--preset') opt.presets.push(argv[++i]);
  else if (a === '--port') opt.port = Number(argv[++i]);
  else if (a === '--json') opt.json = true;
  else if (a === '--skip-build') opt.build = false;
  else if (a === '--skip-browser') opt.browser = false;
  else if (a === '--skip-node') opt.node = false;
  else {
    process.stderr.write(
      `bench-knobs: unknown option "${a}" (allowed: --preset ID, --port P, --skip-build, --skip-browser, --skip-node, --json)\n`,
    );
    process.exit(2);
  }
}

const REPEATS = 3;
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

async function importNodeCore() {
  const ts = (await import('typescript')).default;
  const src = readFileSync(path.join(repoRoot, 'web', 'engine', 'nodeCore.ts'), 'utf8');
  const out = ts.transpileModule(src, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const dir = path.join(repoRoot, 'build', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'nodeCore-knobs.mjs');
  writeFileSync(file, out.outputText);
  return import(pathToFileURL(file).href);
}

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

/** Moves the slider one step with `key`; times to the run's start and to the views drawn. */
async function oneMove(page, slider, key) {
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid="run-status"]');
    performance.clearMarks('nicsim:knob-run');
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
      if (b.start !== null && s !== 'running') {
        mo.disconnect();
        b.status = s;
        requestAnimationFrame(() => {
          b.drawn = performance.now();
        });
      }
    });
    mo.observe(status, { attributes: true, attributeFilter: ['data-status'] });
  });
  await slider.press(key);
  await page.waitForFunction(() => window.__knob.drawn !== null, null, {
    timeout: 180_000,
    polling: 50,
  });
  const b = await page.evaluate(() => ({
    ...window.__knob,
    asked: performance.getEntriesByName('nicsim:knob-run')[0]?.startTime ?? null,
  }));
  const text = (await page.getByTestId('run-status').textContent()) ?? '';
  const core = text.match(/in (\d+(?:\.\d+)?) s/);
  return {
    status: b.status,
    waitMs: (b.asked ?? b.start) - b.key,
    runMs: b.drawn - (b.asked ?? b.start),
    totalMs: b.drawn - b.key,
    coreMs: core ? Number(core[1]) * 1000 : null,
  };
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
  const { chromium } = await import('@playwright/test');
  let browser;
  try {
    await waitForServer(base, server);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    for (const id of presets) {
      const r = results.get(id);
      err(`browser: ${id}`);
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${base}#/s/${id}`);
        await page.getByTestId('scenario-page').waitFor({ timeout: 60_000 });
        if (id === 'web-access-log') {
          await page.getByTestId('log-input').setInputFiles({
            name: 'bench-access.log',
            mimeType: 'text/plain',
            buffer: Buffer.from(accessLog()),
          });
          r.note.push(`browser: generated log, ${LOG_LINES} lines`);
        }
        await page
          .locator('[data-testid="run-status"][data-status="done"]')
          .waitFor({ timeout: 180_000 });
        await page.getByTestId('knobs-toggle').click();
        const slider = page.locator('[data-testid="knob-panel"] input[type="range"]').first();
        r.knob = await slider.evaluate((el) => el.closest('.knob')?.getAttribute('data-path'));
        await slider.focus();
        const moves = [];
        for (let i = 0; i < REPEATS; i++) {
          const at = Number(await slider.inputValue());
          const max = Number(await slider.getAttribute('max'));
          // Away from the scenario's value and back: each move is a real change.
          const key = i % 2 === 0 ? (at < max ? 'ArrowRight' : 'ArrowLeft') : moves[i - 1].back;
          const m = await oneMove(page, slider, key);
          m.back = key === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight';
          moves.push(m);
        }
        const bad = moves.find((m) => m.status !== 'done');
        if (bad) r.note.push(`browser: a move ended ${bad.status}`);
        r.waitMs = median(moves.map((m) => m.waitMs));
        r.runMs = median(moves.map((m) => m.runMs));
        r.totalMs = median(moves.map((m) => m.totalMs));
        r.coreMs = median(moves.map((m) => m.coreMs));
      } catch (e) {
        r.note.push(`browser: ${String(e?.message ?? e).split('\n')[0]}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser?.close();
    server.kill();
  }
}

// ---------------------------------------------------------------------------------------------

const results = new Map(presets.map((id) => [id, { preset: id, note: [] }]));
if (opt.node) {
  err('building wasm');
  if (buildWasm({ output: 'stderr' }) !== 0) {
    err('wasm build failed');
    process.exit(1);
  }
  await nodeTimes(results);
}
if (opt.browser) await browserTimes(results);

const rows = [...results.values()].map((r) => ({ ...r, note: r.note.join('; ') }));
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
    'core ms',
    'key→drawn ms',
    'note',
  ];
  const table = rows.map((r) => [
    r.preset,
    r.durationUs ?? '—',
    r.events ?? '—',
    r.sweepPoints ?? '—',
    ms(r.nodeMainMs),
    ms(r.nodeAllMs),
    r.knob ?? '—',
    ms(r.waitMs),
    ms(r.runMs),
    ms(r.coreMs),
    ms(r.totalMs),
    r.note,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  process.stdout.write(line(head) + '\n' + table.map(line).join('\n') + '\n');
}
