import { describe, expect, it } from 'vitest';
import { fixtureSweep } from '../engine/fixture';
import {
  DEFAULT_BOX,
  groupSweep,
  nearestX,
  seriesStart,
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
