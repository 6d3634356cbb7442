import { describe, expect, it } from 'vitest';
import type { Check, Metrics, RunOutput, SweepEntry } from '../engine/types';
import {
  cpuBreakdown,
  cpuChecks,
  cpuLayout,
  cpuParamWords,
  cpuValueLabel,
  pct,
} from './cpuBreakdown';

const m = (driver: number, stack: number, copy: number, gbps: number): Metrics => ({
  cpu_driver: { value: driver, unit: 'fraction' },
  cpu_stack: { value: stack, unit: 'fraction' },
  cpu_copy: { value: copy, unit: 'fraction' },
  cpu_user: { value: 0.01, unit: 'fraction' },
  cpu_idle: { value: Math.max(0, 1 - driver - stack - copy - 0.01), unit: 'fraction' },
  tcp_throughput: { value: gbps, unit: 'Gb/s' },
});

/** Fig 9's sweep: L2 sizes × zero-copy policy; the run on screen is 1 MB, aggressive. */
function fig9(): Pick<RunOutput, 'sweep' | 'sweep_spec' | 'results' | 'parameters'> {
  const sweep: SweepEntry[] = [];
  for (const series of ['off', 'aggressive'])
    for (const value of [1024, 8192])
      sweep.push({
        value,
        series,
        results:
          series === 'off' && value === 1024 ? m(0.16, 0.27, 0.56, 5.9) : m(0.26, 0.45, 0.07, 9.5),
      });
  return {
    sweep,
    sweep_spec: { parameter: 'system.l2.kbytes', series_parameter: 'system.sinic.zero_copy' },
    results: m(0.26, 0.45, 0.07, 9.5),
    parameters: {
      system: {
        l2: { kbytes: 1024 },
        sinic: { zero_copy: 'aggressive' },
        nic: { model: 'v-sinic' },
      },
    },
  };
}

describe('cpuBreakdown', () => {
  it('puts the NIC configurations side by side: grouped by cache size, a bar per policy', () => {
    const b = cpuBreakdown(fig9());
    expect(b.groupParam).toBe('system.l2.kbytes');
    expect(b.barParam).toBe('system.sinic.zero_copy');
    expect(b.groups.map((g) => g.label)).toEqual(['1 MiB', '8 MiB']);
    expect(b.groups[0]!.bars.map((x) => x.label)).toEqual(['off', 'aggressive']);
    expect(b.groups[0]!.bars[0]!.parts).toMatchObject({ driver: 0.16, stack: 0.27, copy: 0.56 });
    expect(b.groups[0]!.bars[0]!.throughput).toBe(5.9);
    // The run on screen (1 MB, aggressive) is the one marked.
    const marked = b.groups.flatMap((g) => g.bars).filter((x) => x.selected);
    expect(marked.map((x) => x.key)).toEqual(['1024|aggressive']);
    expect(b.empty).toBe(false);
  });

  it('turns round on request', () => {
    const b = cpuBreakdown(fig9(), true);
    expect(b.groupParam).toBe('system.sinic.zero_copy');
    expect(b.groups.map((g) => g.label)).toEqual(['off', 'aggressive']);
    expect(b.groups[0]!.bars.map((x) => x.label)).toEqual(['1 MiB', '8 MiB']);
  });

  it('keeps the NIC model as the bars when it is the swept value (Fig 6)', () => {
    const out = {
      sweep: [
        { value: 'cnic-off-chip', series: 'receive', results: m(0.26, 0.26, 0.47, 5) },
        { value: 'sinic', series: 'receive', results: m(0.19, 0.45, 0.04, 9.4) },
      ],
      sweep_spec: { parameter: 'system.nic.model', series_parameter: 'workload.direction' },
      results: m(0.19, 0.45, 0.04, 9.4),
      parameters: { system: { nic: { model: 'sinic' } }, workload: { direction: 'receive' } },
    };
    const b = cpuBreakdown(out);
    expect(b.groups.map((g) => g.label)).toEqual(['maerts (receive)']);
    expect(b.groups[0]!.bars.map((x) => [x.label, x.selected])).toEqual([
      ['CNIC off chip', false],
      ['SINIC', true],
    ]);
  });

  it('shows one bar without a sweep, none for a run without CPU parts', () => {
    const one = cpuBreakdown({
      sweep: [],
      sweep_spec: null,
      results: m(0.2, 0.4, 0.1, 9),
      parameters: { system: { nic: { model: 'cnic-on-chip' } } },
    });
    expect(one.groups[0]!.bars).toHaveLength(1);
    expect(one.groups[0]!.bars[0]).toMatchObject({ label: 'CNIC on chip', selected: true });
    const none = cpuBreakdown({ sweep: [], sweep_spec: null, results: {}, parameters: {} });
    expect(none.empty).toBe(true);
  });
});

describe('cpuLayout', () => {
  it('stacks driver, stack, copy, user, idle bottom-up, scaled to the plot', () => {
    const l = cpuLayout(cpuBreakdown(fig9()), 800, 200);
    expect(l.bars).toHaveLength(4);
    const s = l.bars[0]!.segments;
    expect(s.map((x) => x.part)).toEqual(['driver', 'stack', 'copy', 'user', 'idle']);
    expect(s[0]!.h).toBeCloseTo(0.16 * 200, 6);
    expect(s[0]!.y + s[0]!.h).toBeCloseTo(l.plot.y + 200, 6);
    expect(s[1]!.y + s[1]!.h).toBeCloseTo(s[0]!.y, 6);
    // Groups apart, bars within a group close; a few bars stay close together.
    expect(l.bars[2]!.x - l.bars[1]!.x).toBeGreaterThan(l.bars[1]!.x - l.bars[0]!.x);
    expect(l.bars[1]!.x - l.bars[0]!.x).toBeLessThanOrEqual(104);
    expect(l.slanted).toBe(false);
  });

  it('slants labels too long for their slot', () => {
    const b = cpuBreakdown(fig9());
    b.groups[0]!.bars[0]!.label = 'a label far too long for a bar';
    const l = cpuLayout(b, 400, 200);
    expect(l.slanted).toBe(true);
    expect(l.groupY).toBeGreaterThan(l.labelY + 40);
  });
});

describe('words and checks', () => {
  it('names values and parameters', () => {
    expect(cpuValueLabel('system.nic.model', 'cnic-off-chip')).toBe('CNIC off chip');
    expect(cpuValueLabel('system.l2.kbytes', 2048)).toBe('2 MiB');
    expect(cpuParamWords('system.sinic.zero_copy')).toBe('zero-copy policy');
    expect(cpuParamWords('system.sinic.some_knob')).toBe('some knob');
    expect(pct(0.456)).toBe('46%');
  });

  it('keeps the checks about the CPU’s time', () => {
    const c = (id: string, metric: string, rel?: string): Check => ({
      id,
      source: 's',
      description: 'd',
      expected: 1,
      simulated: 1,
      kind: 'qualitative',
      pass: true,
      metric,
      relative_to: rel ? { metric: rel } : null,
    });
    expect(
      cpuChecks([c('a', 'cpu_copy'), c('b', 'tcp_throughput'), c('c', 'x', 'cpu_stack')]).map(
        (x) => x.id,
      ),
    ).toEqual(['a', 'c']);
  });
});
