import { describe, expect, it } from 'vitest';
import type { RunOutput } from '../engine/types';
import {
  EtaAck,
  EtaCpuWork,
  EtaDone,
  EtaDoorbell,
  EtaEvent,
  EtaIdle,
  EtaInterrupt,
  EtaIteration,
  EtaRequest,
  EtaSegment,
  EtaSignal,
} from '../trace/records.gen';
import {
  describeEta,
  describeRings,
  etaBinBars,
  etaCurves,
  etaLanes,
  etaQueuesAt,
  systemLabel,
} from './etaView';

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

/** A trace from records [time ps, kind, a, b, c, d, e]. */
function traceOf(recs: readonly (readonly number[])[]) {
  const col = (k: number) => new Uint32Array(recs.map((r) => r[k] ?? 0));
  return {
    length: recs.length,
    time: new Float64Array(recs.map((r) => r[0]!)),
    kind: new Uint16Array(recs.map((r) => r[1]!)),
    a: col(2),
    b: col(3),
    c: col(4),
    d: col(5),
    e: col(6),
  };
}

describe('the descriptor queues and the NICs’ rings at the cursor', () => {
  // Request 7 reaches NIC 1 (one frame on its ring); the PPE takes it and posts its receive
  // completion (the ring empty again); the application posts a receive and a send (one RX, one TX
  // descriptor); two segments leave NIC 1, each 12 µs on the wire; an ACK waits on NIC 1's ring
  // and is taken; the response is done (the TX descriptor completes).
  const t = traceOf([
    [1e6, EtaRequest.kind, 7, 1, 1000, 0, 1],
    [2e6, EtaEvent.kind, 0, 7, 1, 0, 0],
    [3e6, EtaDoorbell.kind, 2, 7, 1, 0, 1],
    [3e6, EtaDoorbell.kind, 1, 7, 2, 1, 1],
    [4e6, EtaSegment.kind, 1, 7, 1, 1000, 12_000],
    [5e6, EtaSegment.kind, 2, 7, 1, 460, 23_000],
    [30e6, EtaAck.kind, 7, 2, 0, 0, 1],
    [30e6, EtaDone.kind, 7, 1460, 29_000, 0],
  ]);
  it('follow the records: a request fills a ring, its completion drains it', () => {
    expect(etaQueuesAt(t, 1.5e6).nics[1]).toEqual({ rx: 1, tx: 0 });
    expect(etaQueuesAt(t, 2.5e6).nics[1]).toEqual({ rx: 0, tx: 0 });
    expect(etaQueuesAt(t, 0).txDescriptors).toBeNull();
  });
  it('count the posted descriptors until the send completes', () => {
    const q = etaQueuesAt(t, 3.5e6);
    expect([q.txDescriptors, q.rxDescriptors]).toEqual([1, 1]);
    expect(etaQueuesAt(t, 31e6).txDescriptors).toBe(0);
  });
  it('hold a segment on the transmit queue until it has left the wire', () => {
    expect(etaQueuesAt(t, 5.5e6).nics[1]!.tx).toBe(2);
    expect(etaQueuesAt(t, 20e6).nics[1]!.tx).toBe(1);
    expect(etaQueuesAt(t, 28e6).nics[1]!.tx).toBe(0);
    expect(etaQueuesAt(t, 28e6).nics).toHaveLength(4);
  });
  it('empty a baseline NIC’s ring at its interrupt', () => {
    const b = traceOf([
      [1e6, EtaRequest.kind, 1, 2, 1000, 0, 3],
      [2e6, EtaInterrupt.kind, 2, 3],
    ]);
    expect(etaQueuesAt(b, 1e6).nics[2]!.rx).toBe(3);
    expect(etaQueuesAt(b, 2e6).nics[2]!.rx).toBe(0);
    expect(etaQueuesAt(b, 2e6).txDescriptors).toBeNull();
  });
  it('are described in words', () => {
    expect(describeRings(etaQueuesAt(t, 5.5e6).nics)).toBe(
      'Frames on the NICs’ rings at the cursor: NIC 0 0 received, 0 to send; NIC 1 0 received, 2 to send; NIC 2 0 received, 0 to send; NIC 3 0 received, 0 to send',
    );
    const out = output({ results: bins(0.07, 0.25, 0.39) });
    const index = { windowStart: 0, windowEnd: 40e6 };
    const words = describeEta({ output: out, trace: t as never, index: index as never }, 3.5e6);
    expect(words).toContain(
      'the TX descriptor queue holds 1 send awaiting completion and the RX descriptor queue 1 receive awaiting a request',
    );
  });
});
