import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import {
  OffloadDescriptor,
  OffloadDma,
  OffloadFrame,
  OffloadFrameIn,
  OffloadHostEvent,
} from '../trace/records.gen';
import { ledgerAt, sequence, sequenceCounts, slotLabel, tablesAt } from './offloadView';

const us = (v: number) => v * 1e6;
const dma = (
  t: number,
  dir: number,
  purpose: number,
  bytes: number,
  cycles: number,
): RawRecord => ({
  time: us(t),
  kind: OffloadDma.kind,
  component: 0,
  a: 1,
  b: dir,
  c: purpose,
  d: bytes,
  e: cycles,
});

// An E1000 connection's start: the SYN arrives and crosses (frame and descriptor), one
// coalesced interrupt, the SYN-ACK leaves; then the offload request table's SEND.
const records: RawRecord[] = [
  { time: 0, kind: OffloadFrame.kind, component: 0, a: 1, b: 1, c: 0, d: 66 },
  { time: us(25), kind: OffloadFrameIn.kind, component: 0, a: 1, b: 1, c: 0, d: 1 },
  dma(26, 1, 3, 70, 13),
  dma(27, 1, 0, 16, 6),
  { time: us(27), kind: OffloadDescriptor.kind, component: 0, a: 1, b: 2, c: 10, d: 0, e: 1 },
  { time: us(150), kind: OffloadHostEvent.kind, component: 0, a: 1, b: 1, c: 1, d: 1724 },
  { time: us(150), kind: OffloadDescriptor.kind, component: 0, a: 1, b: 3, c: 10, d: 0, e: 0 },
  { time: us(155), kind: OffloadFrame.kind, component: 0, a: 2, b: 0, c: 1, d: 66 },
  dma(156, 0, 1, 204, 30),
  { time: us(160), kind: OffloadDescriptor.kind, component: 0, a: 2, b: 0, c: 2, d: 5, e: 1 },
  { time: us(181), kind: OffloadFrameIn.kind, component: 0, a: 2, b: 0, c: 1, d: 0 },
  { time: us(182), kind: OffloadFrame.kind, component: 0, a: 3, b: 1, c: 2, d: 54 },
  { time: us(207), kind: OffloadFrameIn.kind, component: 0, a: 3, b: 1, c: 2, d: 0 },
];
const trace = decodeTrace(encodeTrace(records));

describe('the ledger', () => {
  it('counts the DMAs done by the cursor per direction and purpose, cycles as recorded', () => {
    const l = ledgerAt(trace, us(100));
    expect(l.any).toBe(true);
    expect(l.totals[1]).toEqual({ dmas: 2, bytes: 86, cycles: 19 });
    expect(l.cells[1]![3]).toEqual({ dmas: 1, bytes: 70, cycles: 13 });
    expect(l.totals[0]).toEqual({ dmas: 0, bytes: 0, cycles: 0 });
    expect(l.recent.map((d) => d.cycles)).toEqual([13, 6]);
    // The final values do not depend on the cursor.
    expect(l.final[0]).toEqual({ dmas: 1, bytes: 204, cycles: 30 });
    expect(ledgerAt(trace, us(1000)).totals[0]).toEqual(l.final[0]);
  });
  it('keeps only the last DMAs for drawing', () => {
    expect(ledgerAt(trace, us(1000), 2).recent.map((d) => d.bytes)).toEqual([16, 204]);
  });
  it('says when the run has no ledger records', () => {
    expect(ledgerAt(decodeTrace(encodeTrace([])), 0).any).toBe(false);
  });
});

describe('the sequence diagram', () => {
  it('pairs each frame with its arrival and says whether it crosses the bus', () => {
    const s = sequence(trace);
    expect(s.frames.map((f) => [f.what, f.way, f.crosses])).toEqual([
      ['SYN', 1, true],
      ['SYN-ACK', 0, false],
      ['ACK', 1, false],
    ]);
    expect(s.frames[0]!.arrived).toBe(us(25));
    expect(s.dmas).toHaveLength(3);
    expect(s.events).toEqual([{ time: us(150), items: 1 }]);
    expect(s.start).toBe(0);
    expect(s.end).toBe(us(207));
  });
  it('counts what the cursor has reached', () => {
    const c = sequenceCounts(sequence(trace), us(200));
    expect(c).toEqual({ fromClient: 2, crossed: 1, kept: 0, toClient: 1, dmas: 3, interrupts: 1 });
    expect(sequenceCounts(sequence(trace), us(300)).kept).toBe(1);
  });
});

describe('the rings and tables', () => {
  it('show each used table’s slots and occupancy at the cursor', () => {
    const at100 = tablesAt(trace, us(100));
    expect(at100.map((t) => t.table)).toEqual(['E1000 receive ring', 'request table']);
    expect(at100[0]!.slots).toEqual([
      { slot: 0, what: 'receive descriptor', state: 'written', time: us(27) },
    ]);
    expect(at100[0]!.occupancy).toBe(1);
    expect(at100[1]!.slots).toEqual([]);
    const at200 = tablesAt(trace, us(200));
    expect(at200[0]!.slots[0]!.state).toBe('taken');
    expect(at200[0]!.occupancy).toBe(0);
    expect(at200[1]!.slots[0]).toMatchObject({ slot: 5, what: 'SEND', state: 'posted' });
  });
  it('labels slots short enough for their boxes', () => {
    expect(slotLabel('SEND done')).toBe('SEND✓');
    expect(slotLabel('transmit descriptor')).toBe('tx');
    expect(slotLabel('connection established')).toBe('CONN');
    for (const w of ['ACCEPT', 'RECV', 'CLOSE', 'peer closed', 'CLOSE done'])
      expect(slotLabel(w).length).toBeLessThanOrEqual(6);
  });
});
