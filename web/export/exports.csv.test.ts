// The web's CSV downloads are RFC 4180: d3-dsv's parser (a standard one) reads them back, every
// row has the header's number of fields, and each field holds what the run's output holds.
import { csvParseRows } from 'd3';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import type { RunOutput, TimeSeries } from '../engine/types';
import { seriesStart } from '../kit/sweep';
import { resultsCsv, seriesCsv, sweepCsv } from './exports';

/** Parses CSV text, checking what every file must hold: LF line ends, equal row widths. */
function parse(text: string): string[][] {
  expect(text.endsWith('\n')).toBe(true);
  // Outside quoted fields, lines end with LF alone.
  expect(text.replace(/"(?:[^"]|"")*"/g, '')).not.toMatch(/\r/);
  const rows = csvParseRows(text);
  for (const [i, r] of rows.entries())
    expect(r.length, `row ${i}: ${JSON.stringify(r)}`).toBe(rows[0]!.length);
  return rows;
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function checkSweep(o: Pick<RunOutput, 'sweep' | 'sweep_spec'>) {
  const rows = parse(sweepCsv(o));
  const seriesParam = o.sweep_spec?.series_parameter ?? null;
  const metrics = new Map<string, string>();
  for (const e of o.sweep)
    for (const [n, m] of Object.entries(e.results)) if (!metrics.has(n)) metrics.set(n, m.unit);
  expect(rows[0]).toEqual([
    o.sweep_spec?.parameter ?? 'value',
    ...(seriesParam ? [seriesParam] : []),
    ...[...metrics].map(([n, u]) => (u ? `${n} (${u})` : n)),
  ]);
  expect(rows.slice(1)).toEqual(
    o.sweep.map((e) => [
      cell(e.value),
      ...(seriesParam ? [cell(e.series)] : []),
      ...[...metrics.keys()].map((n) => cell(e.results[n]?.value)),
    ]),
  );
  return rows;
}

function checkResults(results: RunOutput['results']) {
  const rows = parse(resultsCsv(results));
  expect(rows).toEqual([
    ['metric', 'value', 'unit'],
    ...Object.entries(results).map(([n, m]) => [n, cell(m.value), m.unit]),
  ]);
}

function checkSeries(s: TimeSeries) {
  const rows = parse(seriesCsv(s));
  expect(rows[0]).toEqual(['time_us', s.unit ? `${s.name} (${s.unit})` : s.name]);
  expect(rows.length).toBe(s.values.length + 1);
  rows.slice(1).forEach((r, i) => {
    expect(Number(r[0])).toBe((seriesStart(s) + i * s.interval_ps) / 1e6);
    expect(Number(r[1])).toBe(s.values[i]);
  });
}

describe('CSV that holds', () => {
  it('names with commas, quotes, CR and LF come back whole', () => {
    const odd = ['a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'crlf\r\nhere', ''];
    checkResults(Object.fromEntries(odd.map((n, i) => [n || 'empty', { value: i, unit: n }])));
    checkSweep({
      sweep_spec: { parameter: 'p,"q"', series_parameter: 'workload.trace' },
      sweep: [
        { value: 'x,y', series: 'a\nb', results: { 'm "1"': { value: 1, unit: 'u, v' } } },
        { value: 2, series: 'c', results: { 'm\r2': { value: 0.5, unit: '' } } },
      ],
    });
    checkSeries({ name: 'depth, "send"', unit: 'a\nb', interval_ps: 1500, values: [1, 2.5] });
  });
});

const wasm = fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url));
const scenarios = fileURLToPath(new URL('../../scenarios/', import.meta.url));

describe.skipIf(!existsSync(wasm))('CSV of real runs', async () => {
  const core = existsSync(wasm) ? await loadNodeCore() : null;
  const run = (id: string, overrides = {}) =>
    JSON.parse(
      core!.run(readFileSync(`${scenarios}${id}.json`, 'utf8'), JSON.stringify(overrides)),
    ) as RunOutput;

  const cli = fileURLToPath(new URL('../../build/native/nicsim', import.meta.url));
  it.skipIf(!existsSync(cli))(
    'the page’s sweep CSV has the command line’s rows and columns',
    () => {
      for (const id of ['pci-cost-model', 'send-ring-full']) {
        const args = [`${scenarios}${id}.json`, '--format', 'csv'];
        const native = csvParseRows(execFileSync(cli, args, { encoding: 'utf8' }));
        const page = csvParseRows(sweepCsv(run(id)));
        expect(page[0]).toEqual(native[0]);
        expect(page.length).toBe(native.length);
        // Numbers as each writes them (0 or 0.0), the same values.
        page.forEach((row, i) =>
          row.forEach((v, j) => {
            const n = native[i]![j]!;
            if (v === n) return;
            expect(Number(v), `${id} row ${i} column ${native[0]![j]}`).toBe(Number(n));
          }),
        );
      }
    },
  );

  // A series parameter of words, one without a series, overrides; only the model's own metrics.
  for (const [id, overrides] of [
    ['pci-cost-model', {}],
    ['send-ring-full', {}],
    ['tigon-one-or-two-cpus', { 'run.seed': 7, 'workload.datagram_bytes': 64 }],
  ] as const) {
    it(`${id}: sweep, results and series`, () => {
      const o = run(id, overrides);
      expect(o.sweep.length).toBeGreaterThan(1);
      const rows = checkSweep(o);
      // Every column is a metric the model reports (absent metrics have no column).
      expect(rows[0]!.every((h) => !/^(web|bench)_/.test(h))).toBe(true);
      checkResults(o.results);
      for (const s of o.series) checkSeries(s);
    });
  }
});
