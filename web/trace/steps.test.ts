import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from './trace';
import { C, K, P } from './traceKinds';
import { mailboxOf, recordStep } from './steps';
import { traceIndex } from './traceIndex';
import { diagramStateAt } from '../diagram/diagramState';
import { narrate } from '../diagram/narrate';

// Mailbox ids: send producer 0, receive producer 1, return consumer 2, interrupt ack 3.
const RECEIVE_PRODUCER = 1;
const SEND_PRODUCER = 0;

/** A driver's mailbox write and the bus tenure that carries it (its causes lead back to it). */
function pio(box: number, t0: number, id0: number): RawRecord[] {
  return [
    { time: t0, kind: K.MailboxWrite, component: C.Driver, a: box, b: 8, id: id0 },
    {
      time: t0 + 10,
      kind: K.BusGrant,
      component: C.Bus,
      a: C.HostBridge,
      b: 7,
      id: id0 + 1,
      cause: id0,
    },
    {
      time: t0 + 10,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 7,
      b: C.HostBridge,
      c: 4,
      d: P.MailboxPio,
      id: id0 + 2,
      cause: id0 + 1,
    },
    {
      time: t0 + 90,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 7,
      b: C.HostBridge,
      c: 4,
      d: P.MailboxPio,
      id: id0 + 3,
      cause: id0 + 2,
    },
    {
      time: t0 + 95,
      kind: K.MailboxArrive,
      component: C.Nic,
      a: box,
      b: 8,
      id: id0 + 4,
      cause: id0,
    },
  ];
}

describe('steps from the records', () => {
  const trace = decodeTrace(
    encodeTrace([...pio(RECEIVE_PRODUCER, 0, 1), ...pio(SEND_PRODUCER, 1000, 10)]),
  );

  it('names a receive-buffer mailbox write pre-allocation, not the send step S2', () => {
    expect(recordStep(trace, 0)).toBe('pre');
    expect(recordStep(trace, 4)).toBe('pre');
    expect(recordStep(trace, 5)).toBe('S2');
  });

  it('finds the mailbox of the bus tenure that carries a write through its causes', () => {
    expect(mailboxOf(trace, 2)).toBe(RECEIVE_PRODUCER);
    expect(mailboxOf(trace, 7)).toBe(SEND_PRODUCER);
  });

  it('labels the diagram’s mailbox write at 0 ps of a receive run by its mailbox', () => {
    const idx = traceIndex(trace, 0, 2000);
    const at = (t: number) =>
      narrate(idx, diagramStateAt(idx, t, 0), t, 0).filter((a) => a.kind === 'bus');
    const rx = at(50);
    expect(rx).toHaveLength(1);
    expect(rx[0]!.step).toBe('pre');
    expect(rx[0]!.text).toContain('receive producer');
    expect(at(1050)[0]!.step).toBe('S2');
  });

  it('splits an interrupt by its causes: S6 for sends, R4 for receives', () => {
    const t = decodeTrace(
      encodeTrace([
        { time: 0, kind: K.InterruptRaise, component: C.Nic, a: 1 },
        { time: 1, kind: K.InterruptRaise, component: C.Nic, a: 2 },
        { time: 2, kind: K.InterruptRaise, component: C.Nic, a: 3 },
      ]),
    );
    expect([0, 1, 2].map((i) => recordStep(t, i))).toEqual(['S6', 'R4', 'S6/R4']);
  });
});
