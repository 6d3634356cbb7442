import { describe, expect, it } from 'vitest';
import type { Check, SweepEntry } from '../engine/types';
import { fixtureSweep } from '../engine/fixture';
import { groupSweep, seriesStart } from '../kit/sweep';
import {
  categoricalValues,
  DEFAULT_BOX,
  nearestX,
  REF_DX,
  REF_STEP,
  referenceBand,
  referencePicks,
  referencePublisher,
  sweepChartModel,
  timeSeriesModel,
} from './chart';

const output = {
  sweep: fixtureSweep(),
  sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
};
const spec = { x: 'workload.datagram_bytes', y: 'udp_total_throughput', limit: 'ethernet_limit' };
const labels = { x: 'UDP datagram size (B)', y: 'UDP total throughput' };

describe('sweepChartModel', () => {
  const m = sweepChartModel(output, spec, labels);

  it('groups the sweep by series, sorted by x', () => {
    const g = groupSweep(output.sweep);
    expect([...g.keys()]).toEqual(['send', 'receive', 'bidirectional']);
    expect(g.get('send')!.map((e) => e.value)).toEqual([
      18, 64, 100, 200, 300, 400, 600, 800, 1000, 1200, 1472,
    ]);
  });

  it('maps x on a log scale when the swept values span more than 20× (18 … 1472 B)', () => {
    const { margin, width } = DEFAULT_BOX;
    expect(m.xLog).toBe(true);
    expect(m.x.domain()[0]).toBeLessThan(18);
    expect(m.x.domain()[1]).toBeGreaterThan(1472);
    expect(m.x(m.x.domain()[0]!)).toBeCloseTo(margin.left);
    expect(m.x(m.x.domain()[1]!)).toBeCloseTo(width - margin.right);
    // Equal ratios, equal distances.
    expect(m.x(200) - m.x(100)).toBeCloseTo(m.x(800) - m.x(400));
    expect(m.xTicks.map((t) => t.value)).toEqual([20, 50, 100, 200, 500, 1000]);
  });

  it('maps y from 0 to above the largest value or limit, inverted for SVG', () => {
    const { margin, height } = DEFAULT_BOX;
    const maxLimit = Math.max(...output.sweep.map((e) => e.results.ethernet_limit!.value));
    expect(m.y.domain()[0]).toBe(0);
    expect(m.y.domain()[1]).toBeGreaterThanOrEqual(maxLimit);
    expect(m.y(0)).toBe(height - margin.bottom);
    expect(m.y(m.y.domain()[1]!)).toBe(margin.top);
  });

  it('builds one line per series with a point per entry', () => {
    expect(m.lines.map((l) => l.name)).toEqual(['send', 'receive', 'bidirectional']);
    for (const l of m.lines) {
      expect(l.points).toHaveLength(11);
      expect(l.path.startsWith('M')).toBe(true);
      expect(l.path.split('L')).toHaveLength(11);
      const p = l.points[10]!;
      expect(p.px).toBeCloseTo(m.x(1472));
      expect(p.py).toBeCloseTo(m.y(p.y));
    }
  });

  it('draws identical limit curves once (send and receive share the one-way limit)', () => {
    const limits = m.lines.filter((l) => l.limitPath);
    expect(limits.map((l) => l.name)).toEqual(['send', 'bidirectional']);
    const bidi = m.lines[2]!.limitPoints.at(-1)!;
    expect(bidi.y).toBeCloseTo(1914.2, 0);
  });

  it('finds the nearest swept value under the pointer', () => {
    expect(nearestX(m, m.x(1450))).toBe(1472);
    expect(nearestX(m, m.x(30))).toBe(18);
    expect(nearestX(m, m.x(650))).toBe(600);
  });

  it('labels the axes with units', () => {
    expect(m.xLabel).toBe('UDP datagram size (B)');
    expect(m.yLabel).toBe('UDP total throughput (Mb/s)');
    expect(m.xTicks.length).toBeGreaterThan(3);
    expect(m.yTicks[0]!.value).toBe(0);
  });
});

describe('sweepChartModel with the PCI presets', () => {
  const entry = (
    value: number | string,
    series: number | string,
    y: number,
    unit = 'fraction',
  ) => ({
    value,
    series,
    results: { bus_overhead_share: { value: y, unit } },
  });

  it('keeps a linear axis from 0 for 0 … 600 ns, shows fractions in percent, labels series', () => {
    const sweep = [0, 100, 300, 600].flatMap((v) => [
      entry(v, 33, 0.1 + v / 2000),
      entry(v, 66, 0.2 + v / 1000),
    ]);
    const m = sweepChartModel(
      {
        sweep,
        sweep_spec: {
          parameter: 'system.bus.memory_latency_ns',
          series_parameter: 'system.bus.clock_mhz',
        },
      },
      { y: 'bus_overhead_share' },
      { x: 'Main-memory latency (ns)', y: 'Bus overhead share', series: (n) => `${n} MHz` },
    );
    expect(m.xLog).toBe(false);
    expect(m.x.domain()[0]).toBe(0);
    expect(m.percent).toBe(true);
    expect(m.yUnit).toBe('%');
    expect(m.yLabel).toBe('Bus overhead share (%)');
    expect(m.lines.map((l) => [l.name, l.label])).toEqual([
      ['33', '33 MHz'],
      ['66', '66 MHz'],
    ]);
    expect(m.lines[1]!.points.at(-1)!.y).toBeCloseTo(80);
  });

  it('places named values (traces) evenly in sweep order, labelled by name, with their checks', () => {
    const traces = ['berkeley', 'ibm', 'nasa'];
    const sweep = traces.flatMap((t, k) => [
      entry(t, 33, 0.2 + k / 10),
      entry(t, 66, 0.3 + k / 10),
    ]);
    const check = {
      id: 'nasa-33',
      metric: 'bus_overhead_share',
      at: { 'workload.trace': 'nasa', 'system.bus.clock_mhz': 33 },
      expected: 0.4,
      comparison: 'within',
      tolerance: 0.1,
    } as unknown as Check;
    const m = sweepChartModel(
      {
        sweep,
        sweep_spec: { parameter: 'workload.trace', series_parameter: 'system.bus.clock_mhz' },
        checks: [check],
      },
      { y: 'bus_overhead_share' },
      { x: 'Trace', y: 'Bus overhead share' },
    );
    expect(m.xCategories).toEqual(traces);
    expect(m.xLog).toBe(false);
    expect(m.xTicks.map((t) => t.label)).toEqual(traces);
    expect(m.lines[0]!.points.map((p) => p.x)).toEqual([1, 2, 3]);
    expect(m.lines[0]!.points.every((p) => Number.isFinite(p.px))).toBe(true);
    expect(m.marks.map((k) => k.check.id)).toEqual(['nasa-33']);
  });

  it('joins no categories with lines: each trace is its own run, the series side by side', () => {
    const sweep = ['worldcup', 'ibm', 'nasa'].flatMap((v, k) => [
      entry(v, 'sendfile', 700 + k, 'Mb/s'),
      entry(v, 'write', 600 + k, 'Mb/s'),
    ]);
    const m = sweepChartModel(
      {
        sweep,
        sweep_spec: { parameter: 'workload.trace', series_parameter: 'system.server.send_api' },
      },
      { y: 'bus_overhead_share' },
      { x: 'trace', y: 'Web throughput' },
    );
    expect(m.lines).toHaveLength(2);
    for (const l of m.lines) {
      expect(l.path).toBe('');
      expect(l.points).toHaveLength(3);
    }
    const [send, write] = m.lines;
    expect(send!.points[0]!.x).toBe(write!.points[0]!.x);
    expect(send!.points[0]!.px).not.toBe(write!.points[0]!.px);
  });

  it('uses integer ticks around a small integer range (1 or 2 NICs)', () => {
    const sweep = [1, 2].flatMap((v) => [entry(v, 33, 900, 'Mb/s'), entry(v, 66, 950, 'Mb/s')]);
    const m = sweepChartModel(
      { sweep, sweep_spec: { parameter: 'system.nics', series_parameter: 'system.bus.clock_mhz' } },
      { y: 'bus_overhead_share' },
      { x: 'NICs on the bus', y: 'UDP tx throughput' },
    );
    expect(m.xLog).toBe(false);
    expect(m.percent).toBe(false);
    expect(m.xTicks.map((t) => t.value)).toEqual([1, 2]);
    expect(m.x(1)).toBeGreaterThan(DEFAULT_BOX.margin.left);
  });

  it('ticks a log axis at the swept powers of two (16 B … 1 KB bursts), string series kept', () => {
    const sweep = [16, 32, 64, 128, 256, 1024].flatMap((v) => [
      entry(v, 'send', 0.5),
      entry(v, 'receive', 0.9),
    ]);
    const m = sweepChartModel(
      {
        sweep,
        sweep_spec: {
          parameter: 'system.nic.dma_max_burst_bytes',
          series_parameter: 'workload.direction',
        },
      },
      { y: 'bus_efficiency' },
      { x: 'DMA burst cap (B)', y: 'Bus efficiency' },
    );
    expect(m.xLog).toBe(true);
    expect(m.xTicks.map((t) => t.label)).toEqual(['16', '32', '64', '128', '256', '1,024']);
    expect(m.lines.map((l) => l.label)).toEqual(['send', 'receive']);
  });
});

describe('reference marks on the sweep chart', () => {
  const X = 'workload.datagram_bytes';
  const S = 'workload.direction';
  const check = (id: string, over: Partial<Check>): Check => ({
    id,
    source: 'seed 000 §3.4.2',
    description: `${id}.`,
    metric: 'udp_total_throughput',
    expected: 1000,
    simulated: 990,
    unit: 'Mb/s',
    tolerance: 0.05,
    comparison: 'within',
    kind: 'exact',
    pass: true,
    ...over,
  });
  const checks: Check[] = [
    check('abs', { at: { [X]: 1472, [S]: 'bidirectional' }, expected: 1882, simulated: 1885.5 }),
    // Relative to another metric: expected is already factor × that value, in Mb/s.
    check('floor', {
      at: { [X]: 1200, [S]: 'send' },
      comparison: 'at_least',
      tolerance: 0,
      expected: 919.43,
      simulated: 948.5,
      unit: '× limit',
      factor: 0.97,
      relative_to: { metric: 'ethernet_limit', at: { [X]: 1200, [S]: 'send' }, value: 947.87 },
    }),
    check('ceiling', {
      at: { [X]: 800, [S]: 'receive' },
      comparison: 'at_most',
      tolerance: 0.02,
      expected: 800,
      simulated: 850,
      pass: false,
    }),
    check('other-metric', { at: { [X]: 1472, [S]: 'send' }, metric: 'udp_tx_throughput' }),
    check('x-not-swept', { at: { [X]: 1500, [S]: 'send' } }),
    check('series-not-drawn', { at: { [X]: 1472, [S]: 'loopback' } }),
    check('no-series-key', { at: { [X]: 1472 } }),
    check('main-run', { at: null }),
    check('string', { at: { [X]: 1472, [S]: 'send' }, expected: 'yes' }),
    check('unknown-comparison', { at: { [X]: 1472, [S]: 'send' }, comparison: 'equals' }),
  ];
  const m = sweepChartModel({ ...output, checks }, spec, labels);
  const byId = (id: string) => m.marks.find((k) => k.check.id === id)!;

  it('picks the checks of the y metric at a swept x and a drawn line', () => {
    expect(m.marks.map((k) => [k.check.id, k.line, k.x, k.shape])).toEqual([
      ['abs', 'bidirectional', 1472, 'diamond'],
      ['floor', 'send', 1200, 'floor'],
      ['ceiling', 'receive', 800, 'ceiling'],
    ]);
  });

  it('gives a check without the series key to the only line of a sweep without series', () => {
    const lines = ['simulated'];
    const spec1 = { parameter: X, series_parameter: null };
    const picks = referencePicks(checks, 'udp_total_throughput', spec1, lines, [800, 1472]);
    expect(picks.map((p) => [p.check.id, p.line])).toEqual([
      ['abs', 'simulated'],
      ['ceiling', 'simulated'],
      // Like the core's sweep lookup, other keys of `at` do not matter without a series.
      ['series-not-drawn', 'simulated'],
      ['no-series-key', 'simulated'],
    ]);
    expect(referencePicks(checks, 'udp_total_throughput', null, lines, [1472])).toEqual([]);
  });

  it('accepts what the core accepts: tol = tolerance × |expected| (api.cpp)', () => {
    expect(referenceBand({ expected: 938, tolerance: 0.05, comparison: 'within' })).toEqual({
      shape: 'diamond',
      y: 938,
      lo: 938 - 46.9,
      hi: 938 + 46.9,
    });
    const floor = referenceBand({ expected: 0.3, tolerance: 0.1, comparison: 'at_least' }, 100);
    expect(floor.shape).toBe('floor');
    expect([floor.lo, floor.hi]).toEqual([27, 30]);
    const ceiling = referenceBand({ expected: -10, tolerance: 0.1, comparison: 'at_most' });
    expect([ceiling.lo, ceiling.hi]).toEqual([-10, -9]);
  });

  it('places a diamond with a ± tolerance error bar right of the simulated point', () => {
    const d = byId('abs');
    expect(d.color).toBe(m.lines[2]!.color);
    expect(d.px).toBeCloseTo(m.x(1472) + REF_DX);
    expect(d.py).toBeCloseTo(m.y(1882));
    expect(d.pyHi).toBeCloseTo(m.y(1882 * 1.05));
    expect(d.pyLo).toBeCloseTo(m.y(1882 * 0.95));
    expect(d.simulated).toBe(1885.5);
  });

  it('draws a floor and a ceiling at expected, the one-sided tolerance beyond it', () => {
    const f = byId('floor');
    expect(f.py).toBeCloseTo(m.y(919.43));
    expect(f.pyLo).toBe(f.py); // tolerance 0: no bar
    const c = byId('ceiling');
    expect(c.pyLo).toBeCloseTo(m.y(800));
    expect(c.pyHi).toBeCloseTo(m.y(816));
    expect(c.pass).toBe(false);
  });

  it('extends the y domain so that every mark and error bar is visible', () => {
    const high = check('high', { at: { [X]: 600, [S]: 'send' }, expected: 3000, tolerance: 0.1 });
    const mh = sweepChartModel({ ...output, checks: [high] }, spec, labels);
    expect(mh.y.domain()[1]).toBeGreaterThanOrEqual(3300);
    expect(mh.marks[0]!.pyHi).toBeGreaterThanOrEqual(DEFAULT_BOX.margin.top);
  });

  it('moves marks at one x that would overlap a step right; distant ones stay', () => {
    const at = { [X]: 1472, [S]: 'bidirectional' };
    const three = [
      check('a', { at, expected: 1553 }),
      check('b', { at, expected: 1562, tolerance: 0.12 }),
      check('c', { at: { [X]: 1472, [S]: 'send' }, expected: 938 }),
    ];
    const mm = sweepChartModel({ ...output, checks: three }, spec, labels);
    const px = mm.marks.map((k) => k.px - mm.x(1472));
    expect(px[0]).toBeCloseTo(REF_DX);
    expect(px[1]).toBeCloseTo(REF_DX + REF_STEP);
    expect(px[2]).toBeCloseTo(REF_DX);
  });

  it('writes the tooltip: who, the claim, the source, the simulated value, ✓ or ✗ and the kind', () => {
    expect(byId('abs').title).toBe(
      'thesis: 1,882 Mb/s ± 5% (seed 000 §3.4.2) — simulated 1,886 Mb/s ✓ (exact comparison)\nabs.',
    );
    expect(byId('floor').claim).toBe('≥ 0.97 × Ethernet limit = 919 Mb/s');
    expect(byId('floor').short).toBe('≥ 919 Mb/s');
    expect(byId('ceiling').title).toMatch(/^thesis: ≤ 800 Mb\/s \(\+2%\) .* simulated 850 Mb\/s ✗/);
    const words = sweepChartModel({ ...output, checks }, spec, {
      ...labels,
      relation: (c) => `≥ ${c.factor} × the limit`,
    });
    expect(words.marks[1]!.claim).toBe('≥ 0.97 × the limit = 919 Mb/s');
    expect(referencePublisher('seed 000 Abstract')).toBe('thesis');
    expect(referencePublisher('seed 002 Fig 5')).toBe('paper');
    expect(referencePublisher('pci_facts §12.5')).toBe('reference');
  });

  it('shows a fraction metric in percent, its marks too', () => {
    const sweep = [0, 350].flatMap((v) => [
      { value: v, series: 33, results: { bus_overhead_share: { value: 0.4, unit: 'fraction' } } },
      { value: v, series: 66, results: { bus_overhead_share: { value: 0.6, unit: 'fraction' } } },
    ]);
    const mp = sweepChartModel(
      {
        sweep,
        sweep_spec: {
          parameter: 'system.bus.memory_latency_ns',
          series_parameter: 'system.bus.clock_mhz',
        },
        checks: [
          check('pct', {
            metric: 'bus_overhead_share',
            at: { 'system.bus.clock_mhz': 33, 'system.bus.memory_latency_ns': 350 },
            comparison: 'at_least',
            tolerance: 0,
            expected: 0.3,
            simulated: 0.401,
            unit: 'fraction',
          }),
        ],
      },
      { y: 'bus_overhead_share' },
      { x: 'Main-memory latency (ns)', y: 'Bus overhead share' },
    );
    const k = mp.marks[0]!;
    expect([k.line, k.y]).toEqual(['33', 30]);
    expect(k.py).toBeCloseTo(mp.y(30));
    expect(k.title).toMatch(/^thesis: ≥ 30% \(seed 000 §3\.4\.2\) — simulated 40\.1% ✓/);
  });

  it('has no marks without checks', () => {
    expect(m.marks.length).toBe(3);
    expect(sweepChartModel(output, spec, labels).marks).toEqual([]);
  });
});

describe('timeSeriesModel', () => {
  const s = {
    name: 'send_ring_occupancy',
    unit: 'descriptors',
    interval_ps: 10_000_000,
    values: [0, 5, 10, 5, 0],
  };
  it('places samples at start_ps + i * interval and the now marker at the cursor', () => {
    const m = timeSeriesModel({ ...s, start_ps: 0 }, 20_000_000, { scale: 1e6, unit: 'µs' });
    expect(m.x.domain()).toEqual([0, 40]);
    expect(m.nowX).toBeCloseTo(m.x(20));
    expect(m.path.split('L')).toHaveLength(5);
    expect(m.xLabel).toBe('simulated time (µs)');
    expect(m.yLabel).toBe('send ring occupancy (descriptors)');
  });
  it('uses start_ps for the first sample, and interval_ps when the output has none', () => {
    const withStart = timeSeriesModel({ ...s, start_ps: 2_000_000_000 }, null, {
      scale: 1e6,
      unit: 'µs',
    });
    expect(withStart.x.domain()).toEqual([2000, 2040]);
    expect(seriesStart({ interval_ps: 10_000_000 })).toBe(10_000_000);
    expect(seriesStart({ interval_ps: 10_000_000, start_ps: 0 })).toBe(0);
    expect(timeSeriesModel(s, null, { scale: 1e6, unit: 'µs' }).x.domain()).toEqual([10, 50]);
  });
  it('hides the now marker outside the series', () => {
    expect(timeSeriesModel(s, 90_000_000, { scale: 1e6, unit: 'µs' }).nowX).toBeNull();
  });
});

describe('a sweep still running', () => {
  it('spans the points still to come on its x axis, so the axis stays put as they arrive', () => {
    const entry = (value: number) => ({
      value,
      results: { throughput: { value: value / 10, unit: 'Mb/s' } },
    });
    const all = [64, 256, 1024, 4096];
    const labels = { x: 'size', y: 'throughput' };
    const done = sweepChartModel(
      { sweep: all.map(entry), sweep_spec: { parameter: 'size' } },
      { y: 'throughput' },
      labels,
    );
    const partial = sweepChartModel(
      {
        sweep: [entry(64)],
        sweep_spec: { parameter: 'size' },
        pending: { sweep_points: all.map((value) => ({ value })), checks: 0 },
      },
      { y: 'throughput' },
      labels,
    );
    expect(partial.lines[0]!.points[0]!.px).toBe(done.lines[0]!.points[0]!.px);
  });
});

describe('categoricalValues', () => {
  const at = (value: unknown) => ({ value, results: {} }) as unknown as SweepEntry;
  it('places named values evenly, numbers-as-names included (machines 1994, 1996, 1998)', () => {
    expect(categoricalValues(['1994', '1996', '1998'].map(at))).toEqual(['1994', '1996', '1998']);
    expect(categoricalValues(['hot', 'cold'].map(at))).toEqual(['hot', 'cold']);
  });
  it('keeps a numeric sweep on a numeric axis', () => {
    expect(categoricalValues([64, 512, 1472].map(at))).toBeNull();
  });
});
