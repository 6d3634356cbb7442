import { describe, expect, it } from 'vitest';
import type { RunOutput } from '../engine/types';
import { EtaDoorbell, EtaCpuWork, EtaIdle, EtaIteration, EtaSignal } from '../trace/records.gen';
import { describeEta, etaBinBars, etaCurves, etaLanes, systemLabel } from './etaView';

const m = (value: number) => ({ value, unit: 'fraction' });
const bins = (user: number, tcpip: number, idle: number) => ({
  eta_bin_user: m(user),
  eta_bin_tcpip: m(tcpip),
  eta_bin_ethernet: m(0.1),
  eta_bin_kernel_other: m(0.05),
  eta_bin_ppe_other: m(0),
  eta_bin_idle: m(idle),
});

function output(partial: Partial<RunOutput>): RunOutput {
  return {
    format: 'nicsim-results/1',
    scenario: 't',
    seed: 1,
    parameters: { system: { eta: { system: 'eta-aio', cpu_mhz: 2800 } } },
    system: {} as RunOutput['system'],
    results: {},
    series: [],
    histograms: [],
    sweep: [],
    sweep_spec: null,
    checks: [],
    trace: { records: 0, dropped: 0, start_ps: 0, end_ps: 0 },
    ...partial,
  } as RunOutput;
}

describe('Table 1 bars', () => {
  it('give one bar per sweep point with the paper’s shares beside it', () => {
    const out = output({
      sweep_spec: { parameter: 'system.eta.system' },
      sweep: [
        { value: 'eta-aio', results: { ...bins(0.07, 0.25, 0.39), eta_throughput: m(2218) } },
        { value: 'baseline-sendfile', results: bins(0.05, 0.3, 0.29) },
      ],
      checks: [
        {
          id: 'x',
          source: 's',
          description: 'd',
          expected: 0.2502,
          simulated: 0.25,
          kind: 'exact',
          pass: true,
          comparison: 'within',
          metric: 'eta_bin_tcpip',
          at: { 'system.eta.system': 'eta-aio' },
        },
      ],
    });
    const bars = etaBinBars(out);
    expect(bars.map((b) => b.label)).toEqual(['ETA+AIO', 'baseline, sendfile']);
    expect(bars[0]!.parts.tcpip).toBe(0.25);
    expect(bars[0]!.paper).toEqual({ tcpip: 0.2502 });
    expect(bars[1]!.paper).toBeNull();
    expect(bars[0]!.throughput).toBe(2218);
  });

  it('fall back to the main run without a sweep, and to nothing for another model', () => {
    expect(etaBinBars(output({ results: bins(0.1, 0.2, 0.5) }))).toHaveLength(1);
    expect(etaBinBars(output({ results: { tcp_throughput: m(1) } }))).toHaveLength(0);
  });
});

describe('Fig 4 curves', () => {
  it('are one per system of the series, sorted by throughput', () => {
    const out = output({
      sweep_spec: { parameter: 'workload.eta.request_rate', series_parameter: 'system.eta.system' },
      sweep: [
        {
          value: 2000,
          series: 'eta-aio',
          results: { eta_throughput: m(240), eta_cpu_utilization: m(0.51) },
        },
        {
          value: 1000,
          series: 'eta-aio',
          results: { eta_throughput: m(120), eta_cpu_utilization: m(0.5) },
        },
        {
          value: 1000,
          series: 'baseline-write',
          results: { eta_throughput: m(120), eta_cpu_utilization: m(0.05) },
        },
      ],
    });
    const curves = etaCurves(out);
    expect(curves.map((c) => c.label)).toEqual(['ETA+AIO', 'baseline, write']);
    expect(curves[0]!.points.map((p) => p.throughput)).toEqual([120, 240]);
    expect(systemLabel('baseline-1cpu')).toBe('1-CPU baseline (×2)');
  });
});

describe('the CPU lanes', () => {
  // A tiny trace: an empty stretch, a PPE iteration that takes a send from the doorbell queue,
  // the application's work and a signal raised.
  const n = 5;
  const t = {
    length: n,
    time: new Float64Array([1e6, 2e6, 3e6, 4e6, 5e6]),
    kind: new Uint16Array([
      EtaIdle.kind,
      EtaDoorbell.kind,
      EtaIteration.kind,
      EtaCpuWork.kind,
      EtaSignal.kind,
    ]),
    a: new Uint32Array([18, 1, 2, 1, 1]),
    b: new Uint32Array([1000, 7, 1, 0, 0]),
    c: new Uint32Array([0, 1, 1, 2800, 0]),
    d: new Uint32Array([0, 0, 2800, 0, 0]),
    e: new Uint32Array([0, 0, 7, 0, 0]),
  };
  it('place spans in time on their CPU, with the bin’s colour key', () => {
    const l = etaLanes(t, 2800, 0, 10e6);
    expect(l.spans).toHaveLength(3);
    const [idle, iter, work] = l.spans;
    expect(idle).toMatchObject({ cpu: 0, start: 0, end: 1e6, what: 'empty' });
    // 2,800 cycles at 2,800 MHz is 1 µs.
    expect(iter).toMatchObject({ cpu: 0, start: 3e6, end: 4e6, what: 'tcpip' });
    expect(work).toMatchObject({ cpu: 1, start: 4e6, end: 5e6, what: 'user' });
    expect(l.signals).toEqual([{ time: 5e6, step: 1 }]);
  });
  it('track the doorbell queue filling and draining', () => {
    const l = etaLanes(t, 2800, 0, 10e6);
    expect(l.doorbell).toEqual([
      { time: 2e6, depth: 1 },
      { time: 3e6, depth: 0 },
    ]);
  });
  it('leave out what lies outside the window', () => {
    const l = etaLanes(t, 2800, 4.5e6, 10e6);
    expect(l.spans.map((s) => s.what)).toEqual(['user']);
  });
  it('are described in words for a screen reader, with the cycle bins', () => {
    const out = output({ results: { ...bins(0.07, 0.25, 0.39), eta_throughput: m(2218) } });
    const index = { windowStart: 0, windowEnd: 10e6 };
    const words = describeEta({ output: out, trace: t as never, index: index as never }, 0);
    expect(words).toMatch(/^ETA\+AIO over 100 µs from 0/);
    expect(words).toContain('the PPE (CPU 0) ran 1 iteration with work and 18 empty iterations');
    expect(words).toContain('the application (CPU 1) ran 1 unit of work and saw 1 signal step');
    expect(words).toContain('the doorbell queue held at most 1');
    expect(words).toContain('Cycles, this run: user 7.0%, TCP/IP 25.0%');
  });
});
