import { describe, expect, it } from 'vitest';
import type { Check } from '../engine/types';
import { checkUnits, relativeClaim, toleranceText } from './ChecksPanel';

const at = (d: number) => ({ 'system.tigon.firmware': 'release', 'workload.datagram_bytes': d });
const output = {
  parameters: {},
  results: { bus_overhead_share: { value: 0.4, unit: 'fraction' } },
  sweep: [
    {
      value: 1200,
      results: {
        udp_tx_throughput: { value: 948.5, unit: 'Mb/s' },
        ethernet_limit: { value: 947.9, unit: 'Mb/s' },
      },
    },
  ],
};
const check = (over: Partial<Check>): Check => ({
  id: 'c',
  source: 'seed 000 §3.4.2 (Fig 3.6)',
  description: 'd',
  metric: 'udp_tx_throughput',
  expected: 919.4,
  simulated: 948.5,
  unit: '× limit',
  tolerance: 0,
  comparison: 'at_least',
  kind: 'qualitative',
  pass: true,
  at: at(1200),
  ...over,
});

describe('ChecksPanel: relative claims', () => {
  it('shows a check relative to another metric in the metric’s units, factor and value', () => {
    const c = check({
      factor: 0.97,
      relative_to: { metric: 'ethernet_limit', at: at(1200), value: 947.9 },
    });
    expect(checkUnits(c, output)).toEqual({ value: 'Mb/s', base: 'Mb/s' });
    expect(relativeClaim(c, output)).toEqual({
      words: '≥ 0.97 × Ethernet limit',
      base: '947.9 Mb/s',
      expected: '919.4 Mb/s',
    });
  });

  it('shows fractions in percent and the tolerance of a "within" claim', () => {
    const c = check({
      metric: 'bus_overhead_share',
      unit: '×',
      expected: 0.601,
      comparison: 'within',
      tolerance: 0.1,
      factor: 1.5,
      relative_to: { metric: 'bus_overhead_share', at: at(800), value: 0.4007 },
    });
    expect(relativeClaim(c, output)).toEqual({
      words: '≈ 1.5 × value at 800 B',
      base: '40.1 %',
      expected: '60.1 % ±10%',
    });
  });

  it('leaves an absolute check alone', () => {
    const c = check({ unit: 'Mb/s', comparison: 'within', tolerance: 0.05 });
    expect(relativeClaim(c, output)).toBeNull();
    expect(checkUnits(c, output).value).toBe('Mb/s');
    expect(toleranceText(0.05, 'within')).toBe('±5%');
  });
});
