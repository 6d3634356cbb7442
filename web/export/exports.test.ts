import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K } from '../trace/traceKinds';
import type { RunOutput } from '../engine/types';
import {
  csvField,
  durationUs,
  exportFileName,
  perfettoTrace,
  resultsCsv,
  scenarioWithOverrides,
  seriesCsv,
  sweepCsv,
} from './exports';
import { buildIndex } from '../trace/traceIndex';
import { formatViolations, validateTraceEvents, type TraceEvent } from './traceEventFormat';

describe('CSV', () => {
  it('quotes only the fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(csvField(0.25)).toBe('0.25');
  });

  it('writes a sweep with its series column and every metric with its unit', () => {
    const csv = sweepCsv({
      sweep_spec: { parameter: 'system.nic_cache.kbytes', series_parameter: 'workload.trace' },
      sweep: [
        { value: 64, series: 'nasa', results: { reduction: { value: 0.1, unit: 'fraction' } } },
        {
          value: 128,
          series: 'rice',
          results: {
            reduction: { value: 0.2, unit: 'fraction' },
            requests: { value: 5, unit: '' },
          },
        },
      ],
    });
    expect(csv.trimEnd().split('\n')).toEqual([
      'system.nic_cache.kbytes,workload.trace,reduction (fraction),requests',
      '64,nasa,0.1,',
      '128,rice,0.2,5',
    ]);
  });

  it('writes a time series in µs and the main run’s metrics', () => {
    expect(
      seriesCsv({ name: 'tx', unit: 'Mb/s', interval_ps: 2e6, start_ps: 1e6, values: [1, 2] }),
    ).toBe('time_us,tx (Mb/s)\n1,1\n3,2\n');
    expect(resultsCsv({ a: { value: 3, unit: 'x, y' } })).toBe('metric,value,unit\na,3,"x, y"\n');
  });

  it('names files after the scenario', () => {
    expect(exportFileName('udp-throughput', 'sweep', 'csv')).toBe('udp-throughput-sweep.csv');
    expect(exportFileName('A b/c', 'Trace (Perfetto)', 'json')).toBe('a-b-c-trace-perfetto.json');
  });
});

describe('scenario with overrides', () => {
  it('writes dotted paths into the nested document', () => {
    const text = JSON.stringify({ id: 's', system: { bus: { clock_mhz: 33 } } });
    const out = JSON.parse(
      scenarioWithOverrides(text, { 'system.bus.clock_mhz': 66, 'workload.direction': 'send' }),
    );
    expect(out).toEqual({
      id: 's',
      system: { bus: { clock_mhz: 66 } },
      workload: { direction: 'send' },
    });
  });

  it('refuses text that is not a scenario object', () => {
    expect(() => scenarioWithOverrides('[1]', {})).toThrow(/not a JSON object/);
  });
});

describe('slice durations', () => {
  it('never reach past the next slice, as written or as Perfetto reads whole nanoseconds', () => {
    const trunc = (x: number) => Math.trunc(x * 1000);
    const round = (x: number) => Math.round(x * 1000);
    // Slice [a, b] and the next one starting at c (ps), where ps / 1e6 or the nanoseconds of ts
    // and dur, each on its own, would reach past c.
    for (const [a, b, c] of [
      [3006510000, 3007740000, 3007740000],
      [2086335000, 2086410000, 2086410000],
      [1012950000, 1012987500, 1012987500],
      [600, 1400, 1450],
      [0, 1, 1],
      [5, 5, 9],
    ] as const) {
      const d = durationUs(a, b, c);
      const [ts, next] = [a / 1e6, c / 1e6];
      expect(ts + d).toBeLessThanOrEqual(next);
      expect(trunc(ts) + trunc(d)).toBeLessThanOrEqual(trunc(next));
      expect(round(ts) + round(d)).toBeLessThanOrEqual(round(next));
      expect(d).toBeGreaterThanOrEqual(0);
      // Less than the exact duration by under a nanosecond.
      expect(b - a - d * 1e6).toBeLessThan(1000);
      expect(b - a - d * 1e6).toBeGreaterThanOrEqual(-1e-6);
    }
    // With nothing after it, the exact duration.
    expect(durationUs(600, 1400)).toBe(800 / 1e6);
  });
});

describe('Perfetto trace of a synthetic causal chain', () => {
  // A mailbox write starts two DMAs that overlap on the read channel; the first one's bus
  // transaction, its completion, the Tigon handler it wakes, the frame and copies follow, each
  // naming its cause; one record's cause lies before the trace window.
  const P0 = 0; // send descriptor fetch
  const P1 = 1; // send data fetch
  const records: RawRecord[] = [
    { time: 1000, kind: K.MailboxWrite, component: C.Driver, a: 0, b: 1 },
    { time: 2000, kind: K.DmaQueued, component: C.DmaRead, a: 1, b: P0, c: 16, d: 7, cause: 1 },
    { time: 2500, kind: K.DmaQueued, component: C.DmaRead, a: 2, b: P1, c: 1500, d: 7, cause: 1 },
    {
      time: 3000,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 1,
      b: C.DmaRead,
      c: 16,
      d: P0,
      e: 7,
      cause: 2,
    },
    {
      time: 4000,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 1,
      b: C.DmaRead,
      c: 16,
      d: P0,
      e: 7,
      cause: 4,
    },
    { time: 4000, kind: K.DmaDone, component: C.DmaRead, a: 1, b: P0, c: 16, d: 7, cause: 5 },
    {
      time: 4500,
      kind: K.TigonHandler,
      component: C.TigonCpu,
      a: 7,
      b: 0,
      c: 5,
      d: 800,
      e: 7,
      cause: 6,
    },
    { time: 5300, kind: K.TigonHandlerEnd, component: C.TigonCpu, a: 7, b: 0, c: 5, cause: 7 },
    { time: 6000, kind: K.DmaDone, component: C.DmaRead, a: 2, b: P1, c: 1500, d: 7, cause: 3 },
    { time: 7000, kind: K.MacTxStart, component: C.MacTx, a: 7, b: 1514, c: 0, cause: 9 },
    { time: 9000, kind: K.MacTxEnd, component: C.MacTx, a: 7, b: 1514, cause: 10 },
    { time: 9000, kind: K.CpuPart, component: C.HostCpu, a: 0, b: 2, c: 7, cause: 999 },
    { time: 9500, kind: K.SinicCopy, component: C.Nic, a: 0, b: 1, c: 7, d: 1514, e: 0, cause: 12 },
    { time: 9600, kind: K.L2Copy, component: C.HostCpu, a: 7, b: 1472, c: 3, d: 23, cause: 13 },
    // A cause and its effect at one time: the effect's slice (a DMA) is made before the
    // cause's (a record), yet the flow must start before it ends in the viewer's reading.
    { time: 9800, kind: K.MailboxArrive, component: C.Nic, a: 0, b: 2 },
    { time: 9800, kind: K.DmaQueued, component: C.DmaRead, a: 3, b: P0, c: 16, d: 8, cause: 15 },
  ];
  const trace = decodeTrace(encodeTrace(records));
  const idx = buildIndex(trace, 0, 20000);
  const series = [
    { name: 'throughput', unit: 'Mb/s', interval_ps: 5000, start_ps: 5000, values: [10, 20] },
  ];
  const doc = JSON.parse(perfettoTrace(trace, idx, { scenario: 'synthetic', seed: 1, series })) as {
    traceEvents: TraceEvent[];
    otherData: { flows: number; causes_outside_trace: number };
  };
  const ev = doc.traceEvents;
  const report = validateTraceEvents(doc);
  const threads = new Map(
    ev.filter((e) => e.name === 'thread_name').map((e) => [e.tid, e.args!.name as string]),
  );
  const where = (i: number) => `${ev[i]!.name} on ${threads.get(ev[i]!.tid)}`;

  it('is valid Trace Event Format', () => {
    expect(report.violations, formatViolations(report.violations)).toEqual([]);
  });

  it('puts overlapping DMAs on two tracks of their channel, named by purpose', () => {
    const dmas = ev.filter((e) => e.cat === 'dma');
    expect(dmas.map((e) => [e.name, threads.get(e.tid), e.ts, e.dur])).toEqual([
      ['send descriptor fetch', 'DMA read · DMAs in flight', 0.002, 0.002],
      ['send data fetch', 'DMA read · DMAs in flight 2', 0.0025, 0.0035],
      ['send descriptor fetch', 'DMA read · DMAs in flight', 0.0098, 0.0102],
    ]);
    expect(dmas[1]!.args).toMatchObject({ dma: 2, packet: 7, bytes: 1500 });
  });

  it('turns each cause into a flow from the cause’s slice to the effect’s', () => {
    const links = report.flows.map((f) => `${where(f.fromSlice)} → ${where(f.toSlice)}`);
    expect(links).toEqual([
      'MailboxWrite on driver → send descriptor fetch on DMA read · DMAs in flight',
      'MailboxWrite on driver → send data fetch on DMA read · DMAs in flight 2',
      'send descriptor fetch on DMA read · DMAs in flight → send descriptor fetch on I/O bus · transactions',
      'send descriptor fetch on I/O bus · transactions → BusTxnEnd on I/O bus',
      'BusTxnEnd on I/O bus → DmaDone on DMA read',
      'DmaDone on DMA read → DMA Read Complete on Tigon CPU · handlers, CPU A',
      'DMA Read Complete on Tigon CPU · handlers, CPU A → TigonHandlerEnd on Tigon CPU',
      'send data fetch on DMA read · DMAs in flight 2 → DmaDone on DMA read',
      'DmaDone on DMA read → frame to the peer on MAC transmit · frames',
      'frame to the peer on MAC transmit · frames → MacTxEnd on MAC transmit',
      'driver on host CPU · parts → receive copy (whole) on NIC · copies',
      'receive copy (whole) on NIC · copies → kernel copy to the user buffer on host CPU · copies',
      'MailboxArrive on NIC → send descriptor fetch on DMA read · DMAs in flight',
    ]);
    expect(doc.otherData).toMatchObject({
      flows: 13,
      causes_outside_trace: 1,
      causes_after_their_effect: 0,
    });
  });

  it('names slices by what they are, with the packet and sizes as arguments', () => {
    const slices = ev.filter((e) => e.ph === 'X' && e.cat !== 'record');
    for (const e of slices) expect(e.name).not.toMatch(/#|\d{2,}/);
    const handler = slices.find((e) => e.cat === 'tigon')!;
    expect(handler).toMatchObject({ name: 'DMA Read Complete', ts: 0.0045 });
    expect(handler.dur).toBeCloseTo(0.0008, 12);
    expect(handler.args).toMatchObject({ packet: 7, path: 'ReadDoneSendBds', cpu: 'A' });
    const part = slices.find((e) => e.name === 'driver')!;
    expect(part.ts).toBe(0.009);
    expect(part.dur).toBeCloseTo(0.002, 12);
    const frame = slices.find((e) => e.cat === 'frame')!;
    expect(frame.args).toMatchObject({ packet: 7, bytes: 1514 });
  });

  it('writes every record as a zero-length slice with its named fields', () => {
    const recs = ev.filter((e) => e.cat === 'record');
    expect(recs).toHaveLength(records.length);
    expect(recs.every((e) => e.ph === 'X' && e.dur === 0)).toBe(true);
    expect(recs[1]!.args).toMatchObject({
      dma: 1,
      purpose: 'send descriptor fetch',
      bytes: 16,
      packet: 7,
      record: 2,
      cause: 1,
    });
  });

  it('writes the time series as counter tracks with their unit', () => {
    expect(ev.filter((e) => e.ph === 'C')).toEqual([
      { name: 'throughput', ph: 'C', pid: 1, ts: 0.005, cat: 'series', args: { 'Mb/s': 10 } },
      { name: 'throughput', ph: 'C', pid: 1, ts: 0.01, cat: 'series', args: { 'Mb/s': 20 } },
    ]);
  });
});

const wasm = fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url));
const scenarios = fileURLToPath(new URL('../../scenarios/', import.meta.url));

describe.skipIf(!existsSync(wasm))('exports of a real run', async () => {
  const core = existsSync(wasm) ? await loadNodeCore() : null;

  it('the downloaded scenario runs to the same results as the page’s run with overrides', () => {
    const text = readFileSync(`${scenarios}udp-throughput.json`, 'utf8');
    const overrides = { 'workload.datagram_bytes': 512, 'system.bus.clock_mhz': 66 };
    const page = JSON.parse(core!.run(text, JSON.stringify(overrides))) as RunOutput;
    const file = JSON.parse(core!.run(scenarioWithOverrides(text, overrides), '{}')) as RunOutput;
    expect(file.results).toEqual(page.results);
    expect(file.sweep).toEqual(page.sweep);
  });

  it('the trace becomes Trace Event Format JSON: named tracks, work, records and counters', () => {
    const text = readFileSync(`${scenarios}anatomy-of-a-send.json`, 'utf8');
    const o = JSON.parse(core!.run(text, '{}')) as RunOutput;
    const trace = decodeTrace(core!.traceBytes());
    const idx = buildIndex(trace, o.trace.start_ps, o.trace.end_ps);
    const doc = JSON.parse(
      perfettoTrace(trace, idx, { scenario: o.scenario, seed: o.seed, series: o.series }),
    ) as { traceEvents: TraceEvent[] };
    const report = validateTraceEvents(doc);
    expect(report.violations, formatViolations(report.violations)).toEqual([]);
    const ev = doc.traceEvents;
    expect(ev.filter((e) => e.cat === 'record')).toHaveLength(trace.length);
    const work = ev.filter((e) => e.ph === 'X' && e.cat !== 'record');
    expect(work.length).toBeGreaterThanOrEqual(
      idx.bus.spans.length + idx.dma.spans.length + idx.frames.spans.length + idx.cpu.spans.length,
    );
    const lanes = ev.filter((e) => e.name === 'thread_name').map((e) => e.args!.name);
    expect(lanes).toContain('I/O bus');
    expect(lanes).toContain('host CPU');
    expect(lanes).toContain('I/O bus · transactions');
    expect(ev.filter((e) => e.ph === 'C').length).toBe(
      o.series.reduce((n, s) => n + s.values.length, 0),
    );
    // Timestamps are in µs and in order, within the window.
    const ts = ev.filter((e) => e.ph === 'X').map((e) => e.ts!);
    for (let i = 1; i < ts.length; i++) expect(ts[i]!).toBeGreaterThanOrEqual(ts[i - 1]!);
    expect(ts[ts.length - 1]!).toBeLessThanOrEqual(o.trace.end_ps / 1e6 + 1e-9);
  });
});
