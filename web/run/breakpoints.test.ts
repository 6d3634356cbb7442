import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { BC, BP, C, K } from '../trace/traceKinds';
import {
  CONDITIONS,
  INITIAL_NAV_STATE,
  breakContext,
  conditionsPresent,
  kindEventTime,
  kindLists,
  kindsPresent,
  kindWords,
  navNote,
  nextBreak,
  playStep,
  runUntil,
  skipIdle,
  stopText,
  type BreakContext,
  type Breakpoint,
  type ConditionId,
  type PlayInput,
} from './breakpoints';

const US = 1e6;
const NO_FIFO: BreakContext = { fifoBytes: null, maxFrame: 0 };

function traceOf(records: RawRecord[]) {
  const trace = decodeTrace(encodeTrace(records));
  return { trace, byKind: kindLists(trace) };
}

// A send: descriptor, a bus busy, a retried read, the ring filling, a drop, an interrupt.
const { trace, byKind } = traceOf([
  { time: 0, kind: K.RunStart, component: C.HostCpu },
  { time: 1 * US, kind: K.DriverPostSendBd, component: C.Driver, a: 1, b: 0, c: 1518 },
  { time: 2 * US, kind: K.BusRefused, component: C.Bus, a: C.DmaRead },
  { time: 3 * US, kind: K.BusPhase, component: C.Bus, a: C.DmaRead, b: BP.Address, d: BC.Retry },
  { time: 3.1 * US, kind: K.BusPhase, component: C.Bus, a: C.DmaRead, b: BP.Stop, d: BC.Retry },
  { time: 3.2 * US, kind: K.BusPhase, component: C.Bus, a: C.DmaRead, b: BP.Stop, d: BC.Content },
  { time: 12.345 * US, kind: K.RingFull, component: C.Driver, a: 0 },
  { time: 12.345 * US, kind: K.InterruptRaise, component: C.Nic, a: 1 },
  { time: 20 * US, kind: K.RxDrop, component: C.Nic, a: 7, b: 0 },
  { time: 21 * US, kind: K.RxDrop, component: C.Nic, a: 8, b: 1 },
  { time: 30 * US, kind: K.RingFull, component: C.Driver, a: 2 },
  { time: 80 * US, kind: K.InterruptRaise, component: C.Nic, a: 2 },
]);

const cond = (id: ConditionId): Breakpoint => ({ type: 'condition', id });

describe('breakpoints: conditions on the records that carry them', () => {
  it('ring full stops exactly at the first RingFull strictly after the cursor', () => {
    const hit = nextBreak(trace, byKind, [cond('ring-full')], 0, Infinity, NO_FIFO)!;
    expect(hit.time).toBe(12.345 * US);
    expect(trace.kind[hit.rec!]).toBe(K.RingFull);
    expect(stopText(hit)).toBe('stopped: send ring full at 12.345 µs');
    // To the nanosecond in a window that starts at 1 ms.
    expect(stopText({ time: 1_000_476_000, rec: null, words: 'interrupt' })).toBe(
      'stopped: interrupt at 1.000476 ms',
    );
    // From the event itself, the next one.
    const again = nextBreak(trace, byKind, [cond('ring-full')], hit.time, Infinity, NO_FIFO)!;
    expect(again.time).toBe(30 * US);
    expect(again.words).toBe('return ring full');
    expect(nextBreak(trace, byKind, [cond('ring-full')], 30 * US, Infinity, NO_FIFO)).toBeNull();
  });

  it('PCI retry matches bus busy and the Stop of a retried tenure, not its other phases', () => {
    const bp = [cond('pci-retry')];
    const first = nextBreak(trace, byKind, bp, 0, Infinity, NO_FIFO)!;
    expect(first.time).toBe(2 * US);
    expect(first.words).toMatch(/^bus busy: DMA read waits/);
    const retry = nextBreak(trace, byKind, bp, first.time, Infinity, NO_FIFO)!;
    expect(retry.time).toBe(3.1 * US); // not the Address phase at 3 µs
    expect(retry.words).toBe('PCI Retry to DMA read');
    // The Stop of a tenure that completed (category content) is no retry.
    expect(nextBreak(trace, byKind, bp, retry.time, Infinity, NO_FIFO)).toBeNull();
  });

  it('receive drop and FIFO full tell the reasons apart', () => {
    const drop = nextBreak(trace, byKind, [cond('rx-drop')], 0, Infinity, NO_FIFO)!;
    expect(drop.words).toBe('receive drop (no receive descriptor) of packet 7');
    const full = nextBreak(trace, byKind, [cond('fifo-full')], 0, Infinity, NO_FIFO)!;
    expect(full.time).toBe(21 * US);
    expect(full.words).toBe('receive buffer full');
  });

  it('FIFO full on a SINIC: a receive FIFO without room for another frame', () => {
    const t = traceOf([
      { time: 1 * US, kind: K.MacRxDone, component: C.Nic, a: 1, b: 1514 },
      { time: 1 * US, kind: K.FifoLevel, component: C.Nic, a: 1514 },
      { time: 2 * US, kind: K.FifoLevel, component: C.Nic, a: 4096 - 1514 }, // exactly room
      { time: 3 * US, kind: K.FifoLevel, component: C.Nic, a: 4096 - 1513 },
      { time: 4 * US, kind: K.TxBufferFull, component: C.Nic, a: 2 },
    ]);
    const ctx = breakContext(t.trace, {
      system: { nic: { model: 'sinic' }, sinic: { rx_fifo_kbytes: 4, vnics: 1 } },
    });
    expect(ctx).toEqual({ fifoBytes: 4096, maxFrame: 1514 });
    const hit = nextBreak(t.trace, t.byKind, [cond('fifo-full')], 0, Infinity, ctx)!;
    expect(hit.time).toBe(3 * US);
    expect(hit.words).toBe('receive FIFO full (2583 of 4096 B): the link pauses');
    // Without a FIFO (a descriptor-ring NIC) FifoLevel never matches; the buffer still does.
    const none = nextBreak(t.trace, t.byKind, [cond('fifo-full')], 0, Infinity, NO_FIFO)!;
    expect(none.words).toBe('transmit buffer full');
  });

  it("V-SINIC's FIFO is VNICs × the per-VNIC slot; CNICs use rx_fifo_kbytes", () => {
    const empty = traceOf([]).trace;
    const v = breakContext(empty, {
      system: {
        nic: { model: 'v-sinic' },
        sinic: { rx_fifo_kbytes: 512, vnics: 64, fifo_bytes_per_vnic: 1536 },
      },
    });
    expect(v.fifoBytes).toBe(64 * 1536);
    const c = breakContext(empty, {
      system: { nic: { model: 'cnic-on-chip' }, sinic: { rx_fifo_kbytes: 512 } },
    });
    expect(c.fifoBytes).toBe(512 * 1024);
    expect(breakContext(empty, { system: { nic: { model: 'tigon' } } }).fifoBytes).toBeNull();
  });

  it('NIC cache miss: block inserts (cache-only) and cache_insert commands (full system)', () => {
    const t = traceOf([
      { time: 1, kind: K.NicCacheBlock, component: C.Nic, a: 3, b: 9, c: 0, d: 0 }, // hit
      { time: 2, kind: K.NicCacheBlock, component: C.Nic, a: 4, b: 9, c: 1, d: 1 }, // insert
      { time: 3, kind: K.CacheCommand, component: C.Driver, a: 5, b: 1, c: 1448 }, // append
      { time: 4, kind: K.CacheCommand, component: C.Driver, a: 5, b: 2, c: 200 }, // insert
    ]);
    const bp = [cond('cache-miss')];
    const a = nextBreak(t.trace, t.byKind, bp, 0, Infinity, NO_FIFO)!;
    expect([a.time, a.words]).toEqual([2, 'NIC cache miss (file 9 block 1)']);
    const b = nextBreak(t.trace, t.byKind, bp, a.time, Infinity, NO_FIFO)!;
    expect([b.time, b.words]).toEqual([4, 'NIC cache miss (cache_insert of 200 B)']);
  });

  it('several armed: the earliest wins; a time breakpoint fires when crossed', () => {
    const bps: Breakpoint[] = [cond('interrupt'), cond('rx-drop'), { type: 'time', at: 15 * US }];
    const a = nextBreak(trace, byKind, bps, 0, Infinity, NO_FIFO)!;
    expect([a.time, a.words]).toEqual([12.345 * US, 'interrupt (send)']);
    const b = nextBreak(trace, byKind, bps, a.time, Infinity, NO_FIFO)!;
    expect(b).toEqual({ time: 15 * US, rec: null, words: 'time 15 µs' });
    // Only what lies in (from, to].
    expect(nextBreak(trace, byKind, bps, 0, 12 * US, NO_FIFO)).toBeNull();
    expect(nextBreak(trace, byKind, bps, 0, 12.345 * US, NO_FIFO)!.time).toBe(12.345 * US);
  });

  it('lists only the conditions this trace can fire', () => {
    const present = conditionsPresent(trace, byKind, NO_FIFO);
    expect([...present].sort()).toEqual(
      ['fifo-full', 'interrupt', 'pci-retry', 'ring-full', 'rx-drop'].sort(),
    );
    expect(CONDITIONS.map((c) => c.id)).toContain('cache-miss');
  });
});

describe('step to an event of a kind', () => {
  it('finds the next and the previous record of the kind, strictly', () => {
    expect(kindEventTime(trace, byKind, K.InterruptRaise, 0, 1)).toBe(12.345 * US);
    expect(kindEventTime(trace, byKind, K.InterruptRaise, 12.345 * US, 1)).toBe(80 * US);
    expect(kindEventTime(trace, byKind, K.InterruptRaise, 80 * US, 1)).toBeNull();
    expect(kindEventTime(trace, byKind, K.InterruptRaise, 80 * US, -1)).toBe(12.345 * US);
    expect(kindEventTime(trace, byKind, K.InterruptRaise, 12.345 * US, -1)).toBeNull();
    expect(kindEventTime(trace, byKind, K.MacTxStart, 0, 1)).toBeNull();
  });

  it('names the kinds present in words', () => {
    const kinds = kindsPresent(byKind);
    expect(kinds.map((k) => k.name)).toEqual([
      'RunStart',
      'DriverPostSendBd',
      'BusRefused',
      'RingFull',
      'RxDrop',
      'InterruptRaise',
      'BusPhase',
    ]);
    expect(kinds.find((k) => k.kind === K.InterruptRaise)!.count).toBe(2);
    expect(kindWords(K.DriverPostSendBd)).toBe('driver creates a send descriptor (S1)');
  });
});

describe('playing: idle stretches and breakpoints', () => {
  const input = (over: Partial<PlayInput> = {}): PlayInput => ({
    trace,
    byKind,
    ctx: NO_FIFO,
    breakpoints: [],
    idleThreshold: null,
    windowStart: 0,
    windowEnd: 100 * US,
    ...over,
  });

  it('collapses a gap longer than the threshold to the threshold', () => {
    // Gap 30 → 80 µs, threshold 10 µs: play 30–35, jump to 75, play 75–80.
    const times = trace.time;
    expect(skipIdle(times, 31 * US, 34 * US, 10 * US, 0, 100 * US)).toEqual({
      cursor: 34 * US,
      skipped: 0,
    });
    expect(skipIdle(times, 34 * US, 36 * US, 10 * US, 0, 100 * US)).toEqual({
      cursor: 76 * US,
      skipped: 40 * US,
    });
    // Starting inside the skipped middle (after a pause there): straight to the landing.
    expect(skipIdle(times, 50 * US, 51 * US, 10 * US, 0, 100 * US)).toEqual({
      cursor: 76 * US,
      skipped: 25 * US,
    });
    // Past the landing point, nothing more is skipped.
    expect(skipIdle(times, 76 * US, 77 * US, 10 * US, 0, 100 * US).skipped).toBe(0);
    // A gap no longer than the threshold plays as it is.
    expect(skipIdle(times, 13 * US, 19 * US, 10 * US, 0, 100 * US).skipped).toBe(0);
    // The tail after the last record up to the window's end is a gap too.
    expect(skipIdle(times, 84 * US, 86 * US, 10 * US, 0, 100 * US)).toEqual({
      cursor: 96 * US,
      skipped: 10 * US,
    });
  });

  it('a tick stops at the breakpoint, the cursor exactly on the event, and says why', () => {
    const step = playStep(input({ breakpoints: [cond('ring-full')] }), 10 * US, 5 * US);
    expect(step.cursor).toBe(12.345 * US);
    expect(step.stop!.words).toBe('send ring full');
    const note = navNote(step, null)!;
    expect(note.text).toBe('stopped: send ring full at 12.345 µs');
    expect(note.type).toBe('stop');
    // Without breakpoints the same tick plays through.
    expect(playStep(input(), 10 * US, 5 * US)).toEqual({
      cursor: 15 * US,
      stop: null,
      skipped: 0,
      ended: false,
    });
  });

  it('a tick never moves the cursor back nor before the window (the clock once read -32 ns)', () => {
    // The first animation frame's time can precede the moment Play was pressed.
    expect(playStep(input(), 0, -32_000).cursor).toBe(0);
    expect(playStep(input({ windowStart: 5 * US }), 5 * US, -1).cursor).toBe(5 * US);
    expect(playStep(input(), 10 * US, -2 * US).cursor).toBe(10 * US);
  });

  it('a tick that skips idle time says how much; the end of the window ends playing', () => {
    const step = playStep(input({ idleThreshold: 10 * US }), 34 * US, 2 * US);
    expect(step.cursor).toBe(76 * US);
    expect(navNote(step, null)!.text).toBe('skipped 40 µs idle');
    const end = playStep(input(), 99 * US, 5 * US);
    expect(end).toEqual({ cursor: 100 * US, stop: null, skipped: 0, ended: true });
    // A breakpoint beyond a skipped stretch still stops playing there.
    const hit = playStep(
      input({ idleThreshold: 10 * US, breakpoints: [cond('interrupt')] }),
      74 * US,
      10 * US,
    );
    expect(hit.cursor).toBe(80 * US);
    expect(hit.stop!.words).toBe('interrupt (receive)');
  });

  it('runs until the next breakpoint from the cursor', () => {
    expect(runUntil(input({ breakpoints: [cond('rx-drop')] }), 0)!.time).toBe(20 * US);
    expect(runUntil(input({ breakpoints: [] }), 0)).toBeNull();
    expect(INITIAL_NAV_STATE.breakpoints).toEqual([]);
  });
});
