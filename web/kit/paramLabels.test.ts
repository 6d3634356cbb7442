import { describe, expect, it } from 'vitest';
import { formatKbytes, paramTickLabel, paramValueLabel } from './paramLabels';
import { sweepChartModel } from '../charts/chart';

/** A sweep chart over NIC cache sizes of one metric, as the presets draw it. */
function cacheSizeChart(
  sizes: number[],
  metric: string,
  y: (kb: number) => number,
  unit: string,
  yLabel: string,
) {
  return sweepChartModel(
    {
      sweep: sizes.map((value) => ({ value, results: { [metric]: { value: y(value), unit } } })),
      sweep_spec: { parameter: 'system.nic_cache.kbytes' },
    },
    { x: 'system.nic_cache.kbytes', y: metric },
    { x: 'NIC cache size', y: yLabel },
  );
}

describe('cache sizes in KB', () => {
  it('reads as KB, MB and GB (1 KB = 1024 B, as the thesis’s “4 MB”)', () => {
    expect(formatKbytes(64)).toBe('64 KiB');
    expect(formatKbytes(256)).toBe('256 KiB');
    expect(formatKbytes(1024)).toBe('1 MiB');
    expect(formatKbytes(1536)).toBe('1.5 MiB');
    expect(formatKbytes(16384)).toBe('16 MiB');
    expect(formatKbytes(1 << 20)).toBe('1 GiB');
    expect(formatKbytes(0)).toBe('0 KiB');
  });

  it('labels the NIC cache and L2 size parameters, and no other, as sizes', () => {
    expect(paramValueLabel('system.nic_cache.kbytes', 2048)).toBe('2 MiB');
    expect(paramTickLabel('system.nic_cache.kbytes', 64)).toBe('64 KiB');
    expect(paramTickLabel('system.l2.kbytes', 8192)).toBe('8 MiB');
    expect(paramTickLabel('workload.datagram_bytes', 64)).toBeNull();
    expect(paramTickLabel(undefined, 64)).toBeNull();
  });

  it('ticks the sweep chart’s x axis at the swept sizes, “64 KB” to “16 MB”', () => {
    const sizes = [64, 256, 1024, 2048, 4096, 8192, 16384];
    const m = cacheSizeChart(
      sizes,
      'content_traffic_reduction',
      (value) => value / 40000,
      'fraction',
      'Content traffic reduction',
    );
    expect(m.xLog).toBe(true);
    expect(m.xTicks.map((t) => t.label)).toEqual([
      '64 KiB',
      '256 KiB',
      '1 MiB',
      '2 MiB',
      '4 MiB',
      '8 MiB',
      '16 MiB',
    ]);
  });

  it('spaces three doublings evenly (4, 8, 16 MB), though their span is small', () => {
    const sizes = [4096, 8192, 16384];
    const m = cacheSizeChart(
      sizes,
      'content_traffic_reduction',
      (value) => value / 40000,
      'fraction',
      'Content traffic reduction',
    );
    expect(m.xLog).toBe(true);
    expect(m.xTicks.map((t) => t.label)).toEqual(['4 MiB', '8 MiB', '16 MiB']);
    const [a, b, c] = sizes.map((v) => m.x(v));
    expect(b! - a!).toBeCloseTo(c! - b!, 6);
  });

  it('ticks a linear size axis (with 0 KB) at the swept sizes', () => {
    const sizes = [0, 4096, 8192, 16384];
    const m = cacheSizeChart(
      sizes,
      'web_throughput',
      (value) => 1000 + value / 100,
      'Mb/s',
      'Web throughput',
    );
    expect(m.xLog).toBe(false);
    expect(m.xTicks.map((t) => t.label)).toEqual(['0 KiB', '4 MiB', '8 MiB', '16 MiB']);
  });
});
