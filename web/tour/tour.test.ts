import { readFileSync } from 'node:fs';
import { fixtureSystem } from '../engine/fixture';
import { describe, expect, it } from 'vitest';
import type { RunOutput } from '../engine/types';
import type { Scenario } from '../scenarios/types';
import {
  PART_LABELS,
  metricLabel,
  TOUR_PARTS,
  metricOf,
  metricRows,
  paperValue,
  samePoint,
  stepCursorPs,
  stepHighlight,
  tourKeyAction,
  tourSteps,
  valueText,
  variantOverrides,
} from './tour';

const schema = JSON.parse(
  readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
) as {
  properties: { tour: { items: { properties: { highlight: { items: { enum: string[] } } } } } };
};

const output = (over: Partial<RunOutput> = {}): RunOutput => ({
  format: 'nicsim-results/1',
  system: fixtureSystem(),
  scenario: 't',
  seed: 1,
  parameters: {},
  results: { udp_tx_throughput: { value: 956.8, unit: 'Mb/s' } },
  series: [],
  histograms: [],
  sweep: [
    {
      value: 18,
      series: 'send',
      results: { bus_utilization: { value: 0.5, unit: 'fraction' } },
    },
    {
      value: 18,
      series: 'bidirectional',
      results: { bus_utilization: { value: 0.99, unit: 'fraction' } },
    },
  ],
  sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
  checks: [],
  trace: { records: 0, dropped: 0, start_ps: 0, end_ps: 0 },
  ...over,
});

const scenario: Scenario = {
  id: 't',
  title: 'T',
  summary: 's',
  reference: [
    {
      id: 'limit',
      source: 'seed 000 §3.4.2',
      description: 'd',
      metric: 'udp_tx_throughput',
      expected: 957.1,
      unit: 'Mb/s',
      comparison: 'within',
      kind: 'approximate',
    },
    {
      id: 'bus-bound',
      source: 'seed 000 §1.17',
      description: 'd',
      metric: 'bus_utilization',
      at: { 'workload.direction': 'bidirectional', 'workload.datagram_bytes': 18 },
      expected: 0.95,
      unit: 'fraction',
      comparison: 'at_least',
      kind: 'qualitative',
    },
    {
      id: 'relative',
      source: 'Fig 3.6',
      description: 'd',
      metric: 'udp_rx_throughput',
      expected: 0.97,
      unit: '× limit',
      comparison: 'at_least',
      kind: 'qualitative',
      relative_to: { metric: 'ethernet_limit' },
    } as Scenario['reference'] extends (infer R)[] | undefined ? R : never,
  ],
  tour: [
    { title: 'One', text: 'a', at_us: 3.3, highlight: ['mailbox', 'flux'] },
    { title: 'Two', text: 'b', predict: { question: 'q', reveal: 'r', set: { 'a.b': 1 } } },
  ],
};

describe('tour parts', () => {
  it('are the core schema’s highlight parts, each with words for a screen reader', () => {
    expect([...TOUR_PARTS].sort()).toEqual(
      [...schema.properties.tour.items.properties.highlight.items.enum].sort(),
    );
    for (const p of TOUR_PARTS) expect(PART_LABELS[p]).toBeTruthy();
  });
});

describe('tour steps', () => {
  it('reads the steps, leaving out malformed ones of an unvalidated file', () => {
    const s = { ...scenario, tour: [...scenario.tour!, { text: 'no title' }, 7, null] };
    expect(tourSteps(s as unknown as Scenario).map((x) => x.title)).toEqual(['One', 'Two']);
    expect(tourSteps({ ...scenario, tour: 'x' } as unknown as Scenario)).toEqual([]);
    expect(tourSteps(undefined)).toEqual([]);
  });

  it('puts the cursor at at_us in ps, and highlights only known parts', () => {
    const [one, two] = tourSteps(scenario);
    expect(stepCursorPs(one!)).toBe(3_300_000);
    expect(stepCursorPs(two!)).toBeNull();
    expect(stepHighlight(one!)).toEqual(['mailbox']);
    expect(stepHighlight(two!)).toEqual([]);
  });

  it('a variant adds its settings to what was requested before', () => {
    expect(variantOverrides({ 'x.y': 2, 'a.b': 0 }, { 'a.b': 1, bad: { o: 1 } })).toEqual({
      'x.y': 2,
      'a.b': 1,
    });
  });
});

describe('live metrics', () => {
  it('reads the main run or a sweep point, whatever the key order of the point', () => {
    const out = output();
    expect(metricOf(out, 'udp_tx_throughput')?.value).toBe(956.8);
    expect(
      metricOf(out, {
        metric: 'bus_utilization',
        at: { 'workload.direction': 'bidirectional', 'workload.datagram_bytes': 18 },
      })?.value,
    ).toBe(0.99);
    expect(
      metricOf(out, { metric: 'bus_utilization', at: { 'workload.datagram_bytes': 64 } }),
    ).toBe(null);
    expect(metricOf(null, 'udp_tx_throughput')).toBeNull();
    expect(samePoint({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(samePoint(undefined, {})).toBe(true);
    expect(samePoint({ a: 1 }, { a: 2 })).toBe(false);
  });

  it('shows the paper’s value beside the live one, with source and kind', () => {
    expect(paperValue(scenario.reference, 'udp_tx_throughput')).toEqual({
      text: '957.1 Mb/s',
      source: 'seed 000 §3.4.2',
      kind: 'approximate',
    });
    expect(
      paperValue(scenario.reference, {
        metric: 'bus_utilization',
        at: { 'workload.datagram_bytes': 18, 'workload.direction': 'bidirectional' },
      })?.text,
    ).toBe('≥ 95 %');
    expect(paperValue(scenario.reference, 'udp_rx_throughput')?.text).toBe('≥ 0.97 × limit');
    // A reference at a sweep point is not the main run's.
    expect(paperValue(scenario.reference, 'bus_utilization')).toBeNull();
  });

  it('compares a variant with the run before it', () => {
    const before = output();
    const after = output({ results: { udp_tx_throughput: { value: 500, unit: 'Mb/s' } } });
    const rows = metricRows(['udp_tx_throughput'], scenario, after, before);
    expect(rows[0]).toMatchObject({
      label: 'UDP send throughput',
      live: '500 Mb/s',
      before: '956.8 Mb/s',
      paper: { text: '957.1 Mb/s' },
    });
    // While the variant runs there is no live value yet, never a made-up one.
    expect(metricRows(['udp_tx_throughput'], scenario, null)[0]!.live).toBeNull();
    expect(valueText(0.123, 'fraction')).toBe('12.3 %');
  });
});

describe('tour keys', () => {
  const ctx = { steps: 4, step: 1 as number | null, presenter: false };
  it('number keys jump while a tour runs or in presenter mode', () => {
    expect(tourKeyAction('3', ctx)).toEqual({ kind: 'jump', step: 2 });
    expect(tourKeyAction('5', ctx)).toBeNull();
    expect(tourKeyAction('2', { ...ctx, step: null })).toBeNull();
    expect(tourKeyAction('2', { ...ctx, step: null, presenter: true })).toEqual({
      kind: 'jump',
      step: 1,
    });
  });

  it('arrows go back and next in presenter mode only; Page keys and Esc always', () => {
    expect(tourKeyAction('ArrowRight', ctx)).toBeNull();
    expect(tourKeyAction('ArrowRight', { ...ctx, presenter: true })).toEqual({ kind: 'next' });
    expect(tourKeyAction('ArrowLeft', { ...ctx, presenter: true })).toEqual({ kind: 'back' });
    expect(tourKeyAction('PageDown', ctx)).toEqual({ kind: 'next' });
    expect(tourKeyAction('PageUp', ctx)).toEqual({ kind: 'back' });
    expect(tourKeyAction('Escape', ctx)).toEqual({ kind: 'exit' });
    // In presenter mode Esc leaves presenter mode (the presenter's key), not the tour.
    expect(tourKeyAction('Escape', { ...ctx, presenter: true })).toBeNull();
    expect(tourKeyAction('ArrowRight', { ...ctx, step: null, presenter: true })).toBeNull();
    expect(tourKeyAction('1', { ...ctx, steps: 0 })).toBeNull();
  });
});

describe('metric labels', () => {
  it('reads as words, Tigon handlers by their names', () => {
    expect(metricLabel('tigon_share_SendDataReady')).toBe('Handler time: Send Data Ready');
    expect(metricLabel('udp_tx_throughput')).toBe('UDP send throughput');
    expect(metricLabel('bench_mips_a')).toBe('CPU A instruction rate');
    expect(valueText(1, '0 bus, 1 CPU, 2 disk')).toBe('the host CPU');
  });
});
