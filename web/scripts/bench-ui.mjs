#!/usr/bin/env node
// npm run bench:ui: how smoothly the built site draws each preset. A benchmark, not a test:
// nothing in `npm test` runs it, and its numbers depend on the machine.
//
// Builds the site as `npm run build` does (wasm core + vite build), serves dist/ with
// `vite preview`, and opens each preset in headless Chromium at 1440x900 with the views the
// preset lists, each in a fresh browser context (a first visit: nothing cached). Per preset it
// prints:
//   first view  ms from navigation to performance.mark('nicsim:first-view') (main run drawn)
//   run done    ms from navigation to performance.mark('nicsim:run-done') (sweep included)
//   frame p50/p95/max  requestAnimationFrame deltas while playing, the first 0.5 s skipped
//   long tasks  count and longest (PerformanceObserver 'longtask') in the same window
// A value above its target is flagged with "!": first view > 1.0 s, run done > 2.0 s.
// First, the gallery (#/) on first visits: its first contentful paint (in the first-view
// column, the median of --loads as a preset's times; target 1.0 s); in its note the first
// visit's own paints (the browser's first page: slower) and the JavaScript it loaded (bytes of
// every .js fetched by the time the gallery is drawn and the page has loaded).
// A blank page measured the same way, before and after the presets, shows what the machine
// itself gives at the time (other processes on it cost frames too).
// The two times are the median of --loads N first visits (default 3, each a fresh context; for
// an even N the lower of the middle two), as
// this machine's load times scatter by a quarter from one visit to the next; the JSON keeps
// every load's. Playback is measured on the first.
// Options: --preset ID (repeatable; default every preset in scenarios/), --seconds N of
// playback (default 4), --loads N (1 to 9), --port P for the preview server (default a free one), --at top (the
// page as it opens, the default) or --at views (scrolled so the first view sits just under the
// sticky playback bar), --skip-build, --json (the numbers as JSON instead of a table). Build
// logs go to stderr.
//
// web-access-log replays the viewer's own access log; the repository has no sample log, so the
// bench feeds it a generated Common Log Format log (LOG_LINES requests to 40 files).

// The functions handed to page.evaluate run in the page, with its globals.
/* global window, document, PerformanceObserver, requestAnimationFrame */

import { readdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { LOG_LINES, openPreset } from './bench-browser.mjs';
import { repoRoot } from './ensure-tools.mjs';
import { buildSite, launchChromium, serveSite } from './site.mjs';

const argv = process.argv.slice(2);
const opt = { presets: [], seconds: 4, loads: 3, port: 0, json: false, build: true, at: 'top' };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--preset') opt.presets.push(argv[++i]);
  else if (a === '--seconds') opt.seconds = Number(argv[++i]);
  else if (a === '--loads') opt.loads = Number(argv[++i]);
  else if (a === '--port') opt.port = Number(argv[++i]);
  else if (a === '--json') opt.json = true;
  else if (a === '--skip-build') opt.build = false;
  else if (a === '--at' && ['top', 'views'].includes(argv[i + 1])) opt.at = argv[++i];
  else {
    process.stderr.write(
      `bench:ui: unknown option "${a}" (allowed: --preset ID, --seconds N, --loads N, --port P, --at top|views, --skip-build, --json)\n`,
    );
    process.exit(2);
  }
}
if (!(opt.seconds > 0.5 && opt.seconds <= 120)) {
  process.stderr.write('bench:ui: --seconds must be a number in (0.5, 120]\n');
  process.exit(2);
}
if (!(Number.isInteger(opt.loads) && opt.loads >= 1 && opt.loads <= 9)) {
  process.stderr.write('bench:ui: --loads must be a whole number from 1 to 9\n');
  process.exit(2);
}

const SKIP_MS = 500; // the first half second of play is not steady playback
// The targets: the first complete view within a second, everything (sweep included) within two;
// the gallery's first contentful paint within a second.
const FIRST_VIEW_TARGET_MS = 1000;
const RUN_DONE_TARGET_MS = 2000;
const err = (s) => process.stderr.write(`[bench:ui] ${s}\n`);

const allPresets = readdirSync(path.join(repoRoot, 'scenarios'))
  .filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json')
  .map((f) => f.replace(/\.json$/, ''))
  .sort();
const presets = opt.presets.length ? opt.presets : allPresets;
for (const p of presets) {
  if (!allPresets.includes(p)) {
    process.stderr.write(`bench:ui: --preset "${p}" is not in scenarios/\n`);
    process.exit(2);
  }
}

if (opt.build) buildSite(err);

function quantile(sorted, q) {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** The median of the loads' `key` times (for an even count the lower of the middle two). */
function medianOf(loads, key) {
  return quantile(
    loads.map((l) => l[key]).sort((a, b) => a - b),
    0.5,
  );
}

async function measure(browser, base, id) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const b = (window.__bench = { longtasks: [] });
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          b.longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    } catch {
      // no longtask support: reported as null
      b.longtasks = null;
    }
  });
  const out = { preset: id, note: '' };
  try {
    const marks = await load(page, base, id);
    if (id === 'web-access-log') out.note = `generated log, ${LOG_LINES} lines`;
    out.loads = [marks];
    if (opt.at === 'views')
      await page.evaluate(() => {
        const grid = document.querySelector('.grid');
        const bar = document.querySelector('[data-testid="playback"]');
        if (!grid) return;
        const below = bar ? bar.getBoundingClientRect().height + 8 : 0;
        window.scrollTo(0, window.scrollY + grid.getBoundingClientRect().top - below);
      });
    // Let the page settle after the first draw, then play from the start.
    await page.waitForTimeout(500);
    const play = page.getByTestId('play');
    if ((await play.getAttribute('aria-label')) !== 'Play') await play.click(); // something started playback already: pause it first
    const startPlay = await page.evaluate(() => performance.now());
    await play.click();
    const r = await sampleFrames(page, startPlay);
    summarise(out, r);
    if (r.ended)
      out.note = [out.note, 'playback stopped before the end of the window']
        .filter(Boolean)
        .join('; ');
  } catch (e) {
    out.error = String(e?.message ?? e).split('\n')[0];
  } finally {
    await context.close();
  }
  // The other first visits, for the times only.
  for (let i = 1; i < opt.loads && !out.error; i++) {
    const again = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      out.loads.push(await load(await again.newPage(), base, id));
    } catch (e) {
      out.error = String(e?.message ?? e).split('\n')[0];
    } finally {
      await again.close();
    }
  }
  if (out.loads) {
    out.firstViewMs = medianOf(out.loads, 'first');
    out.runDoneMs = medianOf(out.loads, 'done');
  }
  return out;
}

/** Opens the preset on a fresh page and waits for its run to be done: the two marks (ms). */
async function load(page, base, id) {
  await openPreset(page, base, id);
  await page.waitForFunction(
    () => performance.getEntriesByName('nicsim:run-done').length > 0,
    null,
    { timeout: 180_000, polling: 100 },
  );
  return page.evaluate(() => ({
    first: performance.getEntriesByName('nicsim:first-view')[0]?.startTime ?? null,
    done: performance.getEntriesByName('nicsim:run-done')[0]?.startTime ?? null,
  }));
}

/** rAF deltas from `startPlay` for opt.seconds (the first SKIP_MS left out), and long tasks. */
async function sampleFrames(page, startPlay) {
  const seconds = opt.seconds;
  return page.evaluate(
    ({ seconds, skip, startPlay }) =>
      new Promise((resolve) => {
        const deltas = [];
        let last = null;
        const end = startPlay + seconds * 1000;
        requestAnimationFrame(function frame(now) {
          if (last !== null && now - startPlay >= skip) deltas.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(frame);
          else {
            const steady = startPlay + skip;
            const lts = window.__bench.longtasks;
            const ended =
              document.querySelector('[data-testid="play"]')?.getAttribute('aria-label') === 'Play';
            resolve({
              deltas,
              longtasks: lts ? lts.filter((t) => t.start >= steady && t.start < end) : null,
              ended,
            });
          }
        });
      }),
    { seconds, skip: SKIP_MS, startPlay },
  );
}

function summarise(out, r) {
  const d = [...r.deltas].sort((a, b) => a - b);
  out.frames = d.length;
  out.fps = d.length ? 1000 / (d.reduce((s, x) => s + x, 0) / d.length) : null;
  out.frameP50 = quantile(d, 0.5);
  out.frameP95 = quantile(d, 0.95);
  out.frameMax = d.length ? d[d.length - 1] : null;
  out.longTasks = r.longtasks ? r.longtasks.length : null;
  out.longestTask = r.longtasks?.length ? Math.max(...r.longtasks.map((t) => t.duration)) : 0;
}

/**
 * The gallery on first visits (opt.loads of them, each in a fresh context, as a preset's row):
 * the median first contentful paint, with the first visit's own (the browser's first page) and
 * first paint, and the JS it loaded, in the note.
 */
async function gallery(browser, base) {
  const out = { preset: 'gallery (#/)', note: '', gallery: true };
  const loads = [];
  for (let i = 0; i < opt.loads && !out.error; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      loads.push(await galleryLoad(await context.newPage(), base));
    } catch (e) {
      out.error = String(e?.message ?? e).split('\n')[0];
    } finally {
      await context.close();
    }
  }
  if (loads.length === 0) return out;
  const r = loads[0];
  out.fcpMs = medianOf(loads, 'fcp');
  out.firstVisitFcpMs = r.fcp;
  out.firstPaintMs = r.firstPaint;
  out.jsBytes = r.jsBytes;
  out.jsFiles = r.jsFiles;
  out.note =
    `first visit: paint ${r.firstPaint?.toFixed(0) ?? '-'}, contentful ${r.fcp?.toFixed(0) ?? '-'} ms; ` +
    `JS ${(r.jsBytes / 1024).toFixed(0)} KB in ${r.jsFiles} file${r.jsFiles === 1 ? '' : 's'}`;
  return out;
}

/** One first visit to the gallery: its paints and the JS it loaded. */
async function galleryLoad(page, base) {
  await page.goto(`${base}#/`, { waitUntil: 'load' });
  await page.locator('.cards').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint').length > 0,
    null,
    { timeout: 60_000, polling: 50 },
  );
  return page.evaluate(() => {
    const paint = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    const js = performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.endsWith('.js'));
    return {
      firstPaint: paint('first-paint'),
      fcp: paint('first-contentful-paint'),
      jsFiles: js.length,
      // decodedBodySize: the script's own size, whether or not the server compressed it.
      jsBytes: js.reduce((sum, e) => sum + e.decodedBodySize, 0),
    };
  });
}

/**
 * The same measurement on a blank page whose only work is one line of text changed every frame:
 * what this machine gives at this moment (other work on it shows here too).
 */
async function baseline(browser, when) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const out = { preset: `(blank page, ${when})`, note: 'reference: a page that does nothing' };
  try {
    await page.setContent('<!doctype html><body><div id="t" style="font:40px sans-serif"></div>');
    await page.evaluate(() => {
      const b = (window.__bench = { longtasks: [] });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          b.longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
      const el = document.getElementById('t');
      requestAnimationFrame(function f(now) {
        el.textContent = now.toFixed(1);
        requestAnimationFrame(f);
      });
    });
    await page.waitForTimeout(500);
    const startPlay = await page.evaluate(() => performance.now());
    summarise(out, await sampleFrames(page, startPlay));
  } catch (e) {
    out.error = String(e?.message ?? e).split('\n')[0];
  } finally {
    await context.close();
  }
  return out;
}

const rows = [];
let browser;
const { base, stop } = await serveSite(opt.port);
try {
  browser = await launchChromium();
  rows.push(await baseline(browser, 'before'));
  err('gallery…');
  rows.push(await gallery(browser, base));
  for (const id of presets) {
    err(`${id}…`);
    rows.push(await measure(browser, base, id));
  }
  rows.push(await baseline(browser, 'after'));
} finally {
  await browser?.close();
  stop();
}

if (opt.json) {
  process.stdout.write(
    JSON.stringify(
      {
        seconds: opt.seconds,
        loads: opt.loads,
        skipMs: SKIP_MS,
        at: opt.at,
        targets: { firstViewMs: FIRST_VIEW_TARGET_MS, runDoneMs: RUN_DONE_TARGET_MS },
        gallery: rows.find((r) => r.gallery) ?? null,
        presets: rows.filter((r) => !r.gallery),
      },
      null,
      2,
    ) + '\n',
  );
} else {
  const f = (v, d = 1) => (v === null || v === undefined ? '-' : v.toFixed(d));
  // A time with its flag: "!" when above the target.
  const t = (v, target) =>
    v === null || v === undefined ? '-' : `${v.toFixed(0)}${v > target ? ' !' : ''}`;
  const head = [
    'preset',
    'first view ms',
    'run done ms',
    'frame p50',
    'p95',
    'max',
    'fps',
    'long tasks',
    'longest ms',
    'note',
  ];
  const body = rows.map((r) =>
    r.error
      ? [r.preset, '-', '-', '-', '-', '-', '-', '-', '-', `error: ${r.error}`]
      : r.gallery
        ? [r.preset, t(r.fcpMs, FIRST_VIEW_TARGET_MS), '-', '-', '-', '-', '-', '-', '-', r.note]
        : [
            r.preset,
            t(r.firstViewMs, FIRST_VIEW_TARGET_MS),
            t(r.runDoneMs, RUN_DONE_TARGET_MS),
            f(r.frameP50),
            f(r.frameP95),
            f(r.frameMax),
            f(r.fps),
            r.longTasks === null ? '-' : String(r.longTasks),
            f(r.longestTask, 0),
            r.note ?? '',
          ],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) =>
        i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]),
      )
      .join('  ')
      .trimEnd();
  process.stdout.write(
    `bench:ui: headless Chromium 1440x900, ${opt.seconds} s of playback per preset (first ${SKIP_MS} ms skipped), page at ${opt.at === 'top' ? 'the top' : 'its first view'}; times in ms, first view and run done the median of ${opt.loads} load${opt.loads === 1 ? '' : 's'}\n`,
  );
  process.stdout.write(line(head) + '\n');
  process.stdout.write(line(widths.map((w) => '-'.repeat(w))) + '\n');
  for (const b of body) process.stdout.write(line(b) + '\n');
  const measured = rows.filter((r) => !r.error && r.firstViewMs !== undefined);
  const slow = measured.filter(
    (r) => r.firstViewMs > FIRST_VIEW_TARGET_MS || r.runDoneMs > RUN_DONE_TARGET_MS,
  );
  const g = rows.find((r) => r.gallery && !r.error);
  process.stdout.write(
    `! above the target: first view > ${FIRST_VIEW_TARGET_MS} ms, run done > ${RUN_DONE_TARGET_MS} ms; the gallery's row shows its first contentful paint, the median of ${opt.loads} (target ${FIRST_VIEW_TARGET_MS} ms)\n` +
      `${slow.length} of ${measured.length} presets above a target` +
      (g ? `; gallery ${g.fcpMs > FIRST_VIEW_TARGET_MS ? 'above' : 'within'} its target` : '') +
      '\n',
  );
}
