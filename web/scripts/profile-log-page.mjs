#!/usr/bin/env node
// Where web-access-log's first view goes: opens the built site (dist/, served by vite preview)
// as bench-ui.mjs does, N fresh first visits, and prints per visit the times (ms from
// navigation) of the page's milestones: resources, DOMContentLoaded/load, the Playwright steps
// (goto returns, scenario page seen, setInputFiles returns), the input's change event, the log
// report drawn, and the marks (nicsim:*, and any a change adds while it is being measured).
// Medians at the end; then the harness alone: the same waitFor and setInputFiles on a page that
// does nothing else (what Playwright's round trips cost on this machine now, which a viewer's
// own file pick does not).
// Usage: node web/scripts/profile-log-page.mjs [--loads N] [--port P]  (after `npx vite build`)

/* global window, document, MutationObserver */

import process from 'node:process';
import { accessLog, openPresetTimed } from './bench-browser.mjs';
import { launchChromium, serveSite } from './site.mjs';

const argv = process.argv.slice(2);
let loads = 5;
let port = 0;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--loads') loads = Number(argv[++i]);
  else if (argv[i] === '--port') port = Number(argv[++i]);
}

const { base, stop } = await serveSite(port);
const browser = await launchChromium();
const rows = [];
const harness = [];
try {
  for (let n = 0; n < loads; n++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const t = (window.__t = {});
      const seen = (k) => {
        if (t[k] === undefined) t[k] = performance.now();
      };
      document.addEventListener('change', () => seen('change'), true);
      const watch = () => {
        for (const id of ['page-loading', 'scenario-page', 'access-log-panel', 'log-report']) {
          if (document.querySelector(`[data-testid="${id}"]`)) seen(id);
        }
        if (document.querySelector('.grid[data-shown="yes"]')) seen('grid-shown');
      };
      new MutationObserver(watch).observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
      });
    });
    const node = {};
    const t0 = Date.now();
    await openPresetTimed(page, base, 'web-access-log', node);
    await page.waitForFunction(
      () => performance.getEntriesByName('nicsim:run-done').length > 0,
      null,
      { timeout: 180_000, polling: 100 },
    );
    const r = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map((e) => ({
        name: new URL(e.name).pathname.split('/').pop(),
        start: e.startTime,
        end: e.responseEnd,
      }));
      const marks = performance
        .getEntriesByType('mark')
        .map((m) => ({ name: m.name, t: m.startTime, detail: m.detail }));
      const measures = performance
        .getEntriesByType('measure')
        .map((m) => ({ name: m.name, t: m.startTime, d: m.duration }));
      return {
        origin: performance.timeOrigin,
        dcl: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        res,
        marks,
        measures,
        t: window.__t,
      };
    });
    const rel = (ms) => ms - r.origin;
    const row = {
      'node: goto called': rel(t0),
      'node: goto returned': rel(node.gotoDone),
      'node: scenario-page seen': rel(node.pageSeen),
      'node: setInputFiles called': rel(node.setStart),
      'node: setInputFiles returned': rel(node.setDone),
      domContentLoaded: r.dcl,
      load: r.load,
    };
    for (const x of r.res) row[`res ${x.name} end`] = x.end;
    for (const [k, v] of Object.entries(r.t)) row[`dom ${k}`] = v;
    for (const m of r.marks) row[`mark ${m.name}${m.detail ? ` (${m.detail})` : ''}`] = m.t;
    for (const m of r.measures) row[`measure ${m.name} dur`] = m.d;
    rows.push(row);
    await context.close();
    process.stderr.write(`load ${n + 1}/${loads}\n`);
  }
  // The harness alone, on a page with only the input and an element to wait for.
  for (let n = 0; n < loads; n++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.setContent('<input type="file" data-testid="log-input"><p data-testid="p">p</p>');
    await page.evaluate(() => {
      window.__change = null;
      document.addEventListener('change', () => (window.__change = performance.now()), true);
    });
    const origin = await page.evaluate(() => performance.timeOrigin);
    const w0 = Date.now();
    await page.getByTestId('p').waitFor();
    const w1 = Date.now();
    await page.getByTestId('log-input').setInputFiles({
      name: 'bench-access.log',
      mimeType: 'text/plain',
      buffer: Buffer.from(accessLog()),
    });
    const s1 = Date.now();
    const change = await page.evaluate(() => window.__change);
    harness.push({ waitFor: w1 - w0, toChange: origin + change - w1, returned: s1 - w1 });
    await context.close();
  }
} finally {
  await browser.close();
  stop();
}

const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
const med = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[Math.ceil(0.5 * s.length) - 1] : NaN;
};
const lines = keys.map((k) => ({ k, m: med(rows.map((r) => r[k])), all: rows.map((r) => r[k]) }));
lines.sort(
  (a, b) => (a.k.startsWith('measure') ? 1e9 : a.m) - (b.k.startsWith('measure') ? 1e9 : b.m),
);
for (const l of lines)
  process.stdout.write(
    `${l.k.padEnd(48)} ${l.m.toFixed(0).padStart(6)}   [${l.all.map((x) => (typeof x === 'number' ? x.toFixed(0) : '-')).join(' ')}]\n`,
  );
const h = (k) => med(harness.map((r) => r[k]));
process.stdout.write(
  `harness alone (blank page, median of ${harness.length}): waitFor of an element already there ${h('waitFor').toFixed(0)} ms; ` +
    `setInputFiles: change event after ${h('toChange').toFixed(0)} ms, returns after ${h('returned').toFixed(0)} ms\n`,
);
