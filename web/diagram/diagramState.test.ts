import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace } from '../trace/trace';
import { fixtureRecords } from '../engine/fixture';
import { C, K, P } from '../trace/traceKinds';
import { buildIndex, countKindUpTo } from '../trace/traceIndex';
import { ringsAt } from '../rings/rings';
import { narrate } from './narrate';
import { countSince, cpuTimeline, diagramStateAt } from './diagramState';

describe('diagramStateAt', () => {
  const records = [
    {
      time: 100,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 1,
      b: C.DmaRead,
      c: 64,
      d: P.SendDataFetch,
      e: 7,
    },
    {
      time: 300,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 1,
      b: C.DmaRead,
      c: 64,
      d: P.SendDataFetch,
      e: 7,
    },
    { time: 400, kind: K.MacTxStart, component: C.MacTx, a: 7, b: 110 },
    { time: 800, kind: K.MacTxEnd, component: C.MacTx, a: 7, b: 110 },
    { time: 500, kind: K.RxDrop, component: C.MacRx, a: 9, b: 0 },
    { time: 450, kind: K.PeerTxStart, component: C.Peer, a: 9, b: 64 },
  ].sort((x, y) => x.time - y.time);
  const idx = buildIndex(decodeTrace(encodeTrace(records)), 0, 1000);

  it('moves a bus token from start to end of its transaction', () => {
    expect(diagramStateAt(idx, 50, 10).bus).toHaveLength(0);
    const s = diagramStateAt(idx, 200, 10);
    expect(s.bus).toHaveLength(1);
    expect(s.bus[0]!.progress).toBeCloseTo(0.5);
    expect(s.bus[0]!.towardsNic).toBe(true);
    expect(s.busy.bus).toBe(true);
    expect(diagramStateAt(idx, 300, 10).bus).toHaveLength(0);
  });

  it('moves a frame along the wire and marks a dropped receive frame', () => {
    const s = diagramStateAt(idx, 600, 10);
    expect(s.frames.find((f) => f.dir === 'tx')!.progress).toBeCloseTo(0.5);
    expect(s.busy.macTx).toBe(true);
    const rx = diagramStateAt(idx, 475, 10).frames.find((f) => f.dir === 'rx')!;
    expect(rx.dropped).toBe(true);
    expect(rx.progress).toBeCloseTo(0.5);
  });

  it('holds instantaneous events for the given time only', () => {
    expect(diagramStateAt(idx, 505, 10).drops).toHaveLength(1);
    expect(diagramStateAt(idx, 505, 10).badges.map((b) => b.label)).toContain(
      'drop: no descriptor',
    );
    expect(diagramStateAt(idx, 600, 10).drops).toHaveLength(0);
  });

  it('counts packets in the transmit buffer between data fetch and end of transmission', () => {
    const idx2 = buildIndex(decodeTrace(encodeTrace(fixtureRecords())), 0, Infinity);
    const t = fixtureRecords().find((r) => r.kind === K.MacTxStart)!.time;
    expect(diagramStateAt(idx2, t, 1).txBuffer).toBe(1);
  });
});

describe('host CPU tasks and DMA requests from the trace', () => {
  const records = [
    // A handler that started before the window (only its end is recorded).
    { time: 1_000, kind: K.IsrEnd, component: C.HostCpu, a: 3, b: 1, c: 0 },
    // Two DMA reads of the same purpose and packet in flight at once, finishing out of order.
    { time: 2_000, kind: K.DmaQueued, component: C.DmaRead, a: 10, b: P.SendBdFetch, c: 16, d: 5 },
    { time: 2_100, kind: K.DmaQueued, component: C.DmaRead, a: 11, b: P.SendBdFetch, c: 16, d: 5 },
    { time: 2_500, kind: K.DmaDone, component: C.DmaRead, a: 11, b: P.SendBdFetch, c: 16, d: 5 },
    { time: 2_900, kind: K.DmaDone, component: C.DmaRead, a: 10, b: P.SendBdFetch, c: 16, d: 5 },
    // A DMA queued before the window.
    { time: 3_000, kind: K.DmaDone, component: C.DmaWrite, a: 7, b: P.RecvDataWrite, c: 64, d: 9 },
    // Send task (300 ps), then an interrupt handler (1 000 ps) with its IsrStart/IsrEnd.
    { time: 4_000, kind: K.HostCpuBusy, component: C.HostCpu, a: 0, b: 300, c: 0 },
    { time: 5_000, kind: K.IsrStart, component: C.HostCpu, a: 4 },
    { time: 5_000, kind: K.HostCpuBusy, component: C.HostCpu, a: 1, b: 1_000, c: 0 },
    { time: 6_000, kind: K.IsrEnd, component: C.HostCpu, a: 4, b: 1, c: 0 },
  ];
  const idx = buildIndex(decodeTrace(encodeTrace(records)), 500, 10_000);

  it('pairs DmaDone with its DmaQueued by DMA id', () => {
    const reads = idx.dma.spans.filter((s) => s.engine === C.DmaRead);
    expect(reads.map((s) => [s.start, s.end])).toEqual([
      [2_000, 2_900],
      [2_100, 2_500],
    ]);
    const early = idx.dma.spans.find((s) => s.engine === C.DmaWrite)!;
    expect([early.start, early.end]).toEqual([500, 3_000]);
  });

  it('takes the CPU spans from HostCpuBusy, once per task', () => {
    const tasks = idx.cpu.spans.map((s) => [s.start, s.end, s.task]);
    expect(tasks).toEqual([
      [500, 1_000, 1],
      [4_000, 4_300, 0],
      [5_000, 6_000, 1],
    ]);
    expect(diagramStateAt(idx, 4_100, 1).busy.cpuTask).toBe(0);
    expect(diagramStateAt(idx, 5_500, 1).busy.cpuTask).toBe(1);
    expect(diagramStateAt(idx, 4_500, 1).busy.cpu).toBe(false);
  });

  it('falls back to IsrStart/IsrEnd for a trace without HostCpuBusy', () => {
    const old = buildIndex(
      decodeTrace(encodeTrace(records.filter((r) => r.kind !== K.HostCpuBusy))),
      500,
      10_000,
    );
    expect(old.cpu.spans.map((s) => [s.start, s.end, s.task])).toEqual([
      [500, 1_000, 1],
      [5_000, 6_000, 1],
    ]);
  });

  it('lays the CPU tasks around the cursor on a strip', () => {
    const tl = cpuTimeline(idx, 5_000, 1_000);
    expect(tl.now).toMatchObject({ task: 1, start: 5_000, end: 6_000 });
    expect(tl.segments.map((s) => [s.x0, s.x1, s.task, s.current])).toEqual([
      [0, 0.15, 0, false],
      [0.5, 1, 1, true],
    ]);
    expect(cpuTimeline(idx, 4_600, 200).now).toBeNull();
    expect(cpuTimeline(idx, 4_600, 200).segments).toEqual([]);
  });
});

describe('two NICs: instances in the component field', () => {
  const NIC2 = 1 << 8;
  // Both NICs send a packet numbered 7: their frames, buffers and DMAs must not mix.
  const records = [
    { time: 0, kind: K.IndexUpdate, component: C.Driver, a: 0, b: 0, c: 3, d: 0, e: 8 },
    { time: 0, kind: K.IndexUpdate, component: C.Driver | NIC2, a: 0, b: 0, c: 5, d: 1, e: 8 },
    {
      time: 10,
      kind: K.DmaQueued,
      component: C.DmaRead | NIC2,
      a: 1,
      b: P.SendDataFetch,
      c: 64,
      d: 7,
    },
    {
      time: 20,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 3,
      b: C.DmaRead | NIC2,
      c: 64,
      d: P.SendDataFetch,
      e: 7,
    },
    {
      time: 60,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 3,
      b: C.DmaRead | NIC2,
      c: 64,
      d: P.SendDataFetch,
      e: 7,
    },
    {
      time: 60,
      kind: K.DmaDone,
      component: C.DmaRead | NIC2,
      a: 1,
      b: P.SendDataFetch,
      c: 64,
      d: 7,
    },
    { time: 70, kind: K.MacTxStart, component: C.MacTx, a: 7, b: 110 },
    { time: 90, kind: K.MacTxEnd, component: C.MacTx, a: 7, b: 110 },
    { time: 100, kind: K.MacTxStart, component: C.MacTx | NIC2, a: 7, b: 110 },
    { time: 200, kind: K.MacTxEnd, component: C.MacTx | NIC2, a: 7, b: 110 },
    { time: 200, kind: K.PeerRxDone, component: C.Peer | NIC2, a: 7, b: 110 },
  ];
  const idx = buildIndex(decodeTrace(encodeTrace(records)), 0, 1000);

  it('keeps each NIC’s DMA, buffer and frame apart', () => {
    expect(idx.nicCount).toBe(2);
    const s = diagramStateAt(idx, 30, 5);
    expect(s.bus[0]!.nic).toBe(1);
    expect(s.nics[1]!.dmaRead).toBe(1);
    expect(s.nics[0]!.dmaRead).toBe(0);
    // NIC 1's frame 7 ending at 90 does not end NIC 2's buffered packet 7.
    const t = diagramStateAt(idx, 95, 5);
    expect(t.nics[1]!.txBuffer).toBe(1);
    expect(t.nics[0]!.macTx).toBe(false);
    const u = diagramStateAt(idx, 150, 5);
    expect(u.frames.map((f) => f.nic)).toEqual([1]);
    expect(u.nics[1]!.macTx).toBe(true);
    expect(u.nics[1]!.txBuffer).toBe(1);
    expect(diagramStateAt(idx, 250, 5).nics[1]!.txBuffer).toBe(0);
  });

  it('reads each NIC’s ring copies', () => {
    expect(ringsAt(idx, 10)[0]!.host.producer).toBe(3);
    expect(ringsAt(idx, 10, 1)[0]!.host.producer).toBe(5);
    expect(ringsAt(idx, 10, 1)[0]!.host.occupied).toBe(4);
  });

  it('counts a kind per NIC', () => {
    expect(countKindUpTo(idx, K.PeerRxDone, 300, 1)).toBe(1);
    expect(countKindUpTo(idx, K.PeerRxDone, 300, 0)).toBe(0);
    expect(countKindUpTo(idx, K.MacTxStart, 300)).toBe(2);
  });

  it('names the NIC in the narration', () => {
    const s = diagramStateAt(idx, 30, 5);
    expect(narrate(idx, s, 30, 5).map((a) => a.text)).toContain(
      'NIC 2 DMA-reads packet 7’s data into its transmit buffer (64 B)',
    );
  });
});

describe('the counters say where they count from', () => {
  it('adds "since" the window start when the trace window opened after the run began', () => {
    expect(countSince(0)).toBe('');
    expect(countSince(2e9)).toBe(' since 2 ms');
    expect(`received 0${countSince(2_500_000)}`).toBe('received 0 since 2.5 µs');
  });
});
