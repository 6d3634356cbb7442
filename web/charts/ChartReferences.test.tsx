// Every preset's chart shows the papers' values beside the simulated ones, with their source and
// whether the comparison is exact, approximate or qualitative.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { fixtureSweep } from '../engine/fixture';
import type { Check } from '../engine/types';
import { referencePicks, sweepChartModel } from './chart';
import { SCENARIOS } from '../scenarios/eager';
import { ChartReferences, KIND_WORDS, SeriesReferencesNote } from './ChartReferences';

const KINDS = ['exact', 'approximate', 'qualitative'];

/** A reference of a scenario file as the core reports it, enough for referencePicks. */
function asCheck(r: Record<string, unknown>): Check {
  return {
    id: String(r.id),
    source: String(r.source ?? ''),
    description: String(r.description ?? ''),
    expected: typeof r.expected === 'number' ? r.expected : 1,
    simulated: null,
    comparison: r.comparison as string | undefined,
    kind: String(r.kind ?? ''),
    pass: true,
    metric: r.metric as string | undefined,
    at: (r.at as Record<string, unknown> | undefined) ?? null,
  };
}

describe('the charts of the presets', () => {
  const charted = SCENARIOS.filter((e) => (e.scenario.views ?? []).includes('chart'));

  it('are many, and every reference value names its source and its kind', () => {
    expect(charted.length).toBeGreaterThan(20);
    for (const e of SCENARIOS)
      for (const r of e.scenario.reference ?? []) {
        // A paper (seed NNN) or the public facts (nic_facts, pci_facts), with where in it.
        expect(r.source, `${e.id} ${r.id}`).toMatch(
          /(seed \d{3}|[a-z]+_facts)\b.*(§|Fig|Table|Abstract)/,
        );
        expect(KINDS, `${e.id} ${r.id}`).toContain(r.kind);
      }
  });

  for (const e of charted) {
    const s = e.scenario;
    it(`${e.id}: the chart draws a published value, or has none to draw`, () => {
      const refs = (s.reference ?? []) as unknown as Record<string, unknown>[];
      if (refs.length === 0) {
        // Only a preset with the user's own data has nothing from the papers.
        expect(e.id).toBe('web-access-log');
        return;
      }
      expect(s.sweep, `${e.id} has a chart without a sweep`).toBeDefined();
      const sweep = s.sweep!;
      const y = s.chart?.y;
      expect(y, `${e.id}: chart.y`).toBeTruthy();
      const numeric = sweep.values.every((v) => typeof v === 'number');
      const toX = (v: unknown) => (numeric ? Number(v) : sweep.values.indexOf(v) + 1);
      const xValues = sweep.values.map(toX);
      const lines = sweep.series ? sweep.series.values.map(String) : ['simulated'];
      const picks = referencePicks(
        refs.map(asCheck),
        y!,
        { parameter: sweep.parameter, series_parameter: sweep.series?.parameter },
        lines,
        xValues,
        toX,
      );
      expect(
        picks.length,
        `${e.id}: none of its ${refs.length} reference values sits on the chart (${y})`,
      ).toBeGreaterThan(0);
    });
  }
});

describe('ChartReferences', () => {
  const base = {
    metric: 'udp_total_throughput',
    unit: 'Mb/s',
    description: 'd',
    comparison: 'within',
    tolerance: 0.05,
  };
  const checks: Check[] = [
    {
      ...base,
      id: 'bidi',
      source: 'seed 000 §3.4.2 (Fig 3.10)',
      kind: 'exact',
      at: { 'workload.datagram_bytes': 1472, 'workload.direction': 'bidirectional' },
      expected: 1553,
      simulated: 1560.2,
      pass: true,
    },
    {
      ...base,
      id: 'send',
      source: 'seed 001 Table 2',
      kind: 'qualitative',
      at: { 'workload.datagram_bytes': 18, 'workload.direction': 'send' },
      expected: 50,
      simulated: 80,
      pass: false,
    },
  ];
  const model = sweepChartModel(
    {
      sweep: fixtureSweep(),
      sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
      checks,
    },
    { y: 'udp_total_throughput', limit: 'ethernet_limit' },
    { x: 'UDP datagram size (B)', y: 'UDP total throughput' },
  );
  const html = renderToStaticMarkup(<ChartReferences model={model} xUnit="B" otherChecks={3} />);

  it('lists each value drawn: the line and x, who and what, simulated, source and kind', () => {
    expect(html.match(/data-testid="chart-reference"/g)).toHaveLength(2);
    // Sorted by x: the 18-byte send first.
    expect(html.indexOf('data-check="send"')).toBeLessThan(html.indexOf('data-check="bidi"'));
    expect(html).toContain('<b>bidirectional · 1,472 B</b>');
    expect(html).toContain('<b>send · 18 B</b>');
    expect(html).toContain('thesis: <span class="nowrap">1,553 Mb/s ± 5%</span>');
    expect(html).toContain('paper: <span class="nowrap">50 Mb/s ± 5%</span>');
    expect(html).toMatch(
      /simulated <span class="nowrap">1,560 Mb\/s <span class="ref-ok">✓ within/,
    );
    expect(html).toMatch(/simulated <span class="nowrap">80 Mb\/s <span class="ref-bad">✗ outside/);
    expect(html).toContain('seed 000 §3.4.2 (Fig 3.10)');
    expect(html).toContain('seed 001 Table 2');
    expect(html).toContain('data-kind="exact"');
    expect(html).toContain('data-kind="qualitative"');
    expect(html).toContain(KIND_WORDS.exact!);
    expect(html).toContain(KIND_WORDS.qualitative!);
    expect(html).toContain('3 more reference values of other metrics');
  });

  it('says so when the chart has no published value', () => {
    const bare = sweepChartModel(
      { sweep: fixtureSweep(), sweep_spec: { parameter: 'workload.datagram_bytes' } },
      { y: 'udp_total_throughput' },
      { x: 'x', y: 'y' },
    );
    expect(renderToStaticMarkup(<ChartReferences model={bare} otherChecks={0} />)).toContain(
      'the papers give none for this chart',
    );
    expect(renderToStaticMarkup(<ChartReferences model={bare} otherChecks={2} />)).toContain(
      'the 2 reference values of this scenario are compared in “Checks against the reference”',
    );
    expect(
      renderToStaticMarkup(<SeriesReferencesNote output={{ sweep: fixtureSweep(), checks }} />),
    ).toContain('their 2 values are on the Sweep chart and in “Checks against the reference”');
  });
});
