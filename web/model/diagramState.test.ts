import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace } from '../engine/trace';
import { fixtureRecords } from '../engine/fixture';
import { C, K, P } from '../engine/traceKinds';
import { buildIndex } from './traceIndex';
import { diagramStateAt } from './diagramState';

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
