import { describe, expect, it } from 'vitest';
import type { Metrics } from '../engine/types';
import { NASA_16MB, NASA_NONE, metrics as m } from './bottleneck.example';
import { bottleneckOf, describeBottleneck, sweepBottlenecks, thesisNote } from './bottleneck';

const BERKELEY = m({
  bus_utilization: 0.02,
  host_cpu_utilization: 0.06,
  web_disk_utilization: 0.95,
  web_bottleneck: 2,
  web_file_cache_hit_rate: 0.88,
  content_traffic_reduction: 0,
});

describe('the bottleneck of a run', () => {
  it('names the resource the core chose and says why in the thesis’s terms', () => {
    const bus = bottleneckOf(NASA_NONE)!;
    expect(bus.limit).toBe('bus');
    expect(bus.why).toBe(
      'The PCI bus is 96% busy and 59% of its busy cycles carry file content (33% overhead): a NIC cache that keeps content off the bus raises throughput.',
    );
    const cpu = bottleneckOf(NASA_16MB)!;
    expect(cpu.limit).toBe('cpu');
    expect(cpu.why).toContain('The host CPU is 91% busy and the bus has room (30% busy)');
    expect(cpu.why).toContain('the NIC cache sends 95% of the content');
    const disk = bottleneckOf(BERKELEY)!;
    expect(disk.limit).toBe('disk');
    expect(disk.why).toContain('The disk is 95% busy serving file-cache misses (88% of requests');
  });

  it('says a CPU-bound server without a cache cannot gain from one', () => {
    const ibm = bottleneckOf(m({ ...flat(NASA_NONE), web_bottleneck: 1, bus_utilization: 0.43 }))!;
    expect(ibm.why).toContain('so a NIC cache cannot help');
  });

  it('is null for a run that is not the full-system server', () => {
    expect(bottleneckOf(m({ bus_utilization: 0.5 }))).toBeNull();
  });

  it('describes itself for screen readers', () => {
    expect(describeBottleneck(bottleneckOf(NASA_NONE)!)).toMatch(
      /^Bottleneck: PCI bus\. PCI bus 96% busy, host CPU 72% busy, disk 0% busy\. The PCI bus/,
    );
  });

  it('reads each sweep point', () => {
    const s = sweepBottlenecks([
      { value: 0, results: NASA_NONE },
      { value: 16384, results: NASA_16MB },
      { value: 1, results: m({}) },
    ]);
    expect(s.map((p) => [p.value, p.bottleneck.limit])).toEqual([
      [0, 'bus'],
      [16384, 'cpu'],
    ]);
  });

  it('recalls the thesis’s classification of the trace', () => {
    expect(thesisNote({ workload: { trace: 'worldcup' } })).toBe(
      'The thesis measured World Cup as host-CPU-bound without a NIC cache (§4.2, Figs 4.6 and 4.7).',
    );
    expect(thesisNote({ workload: { trace: 'log' } })).toBeNull();
  });
});

function flat(x: Metrics): Record<string, number> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v.value]));
}
