// Navigation in simulated time: step to the next or previous event of one kind, and
// run until a condition (a breakpoint on what the trace records, or a time). Pure functions of
// the decoded trace and its index; the store calls them while playing.
//
// The conditions and the records that carry them (core-cpp/trace/trace_kinds.hpp):
//   ring full      RingFull (a = ring): the producer found no free slot.
//   receive drop   RxDrop (b = reason: 0 no receive descriptor, 1 receive buffer full).
//   PCI retry      BusRefused: the master's REQ# waits while another owns the bus ("bus busy");
//                  BusPhase with phase Stop and category retry: the target answered Retry
//                  (STOP#) to a read it could not serve within the initial latency limit. A
//                  retried tenure records several retry-category phases; its Stop is the one
//                  moment the Retry is signalled, so it is the one that matches.
//   NIC cache miss NicCacheBlock with what = 1 (insert: the bytes asked for were not in the
//                  NIC's cache; cache-only runs); CacheCommand with command = 2 (cache_insert:
//                  the driver sends content the NIC did not hold; full-system web runs).
//   FIFO full      TxBufferFull: the data fetch waits for transmit buffer space (the Tigon's and
//                  the fixed NIC's buffer); RxDrop with reason 1 (receive buffer full); FifoLevel
//                  (a = receive FIFO bytes after a frame arrived) when the FIFO has no room for
//                  another frame of the largest size the run carries: the SINIC/CNIC then holds
//                  the lossless link back, like PAUSE frames. No record marks the pause itself;
//                  the FIFO's capacity comes from the run's parameters.
//   interrupt      InterruptRaise: the NIC raises an interrupt (S6/R4).
import { BC, BP, K, RING_NAMES, TRACE_KINDS, componentLabel, kindName } from '../trace/traceKinds';
import { countUpTo, type Trace } from '../trace/trace';
import { paramAt, type ParameterTree } from '../engine/types';
import { formatInstant, formatTime } from '../kit/format';
import {
  BusPhase,
  BusRefused,
  CacheCommand,
  FifoLevel,
  InterruptRaise,
  MacRxDone,
  NicCacheBlock,
  RingFull,
  RxDrop,
} from '../trace/records.gen';

export type ConditionId =
  'ring-full' | 'rx-drop' | 'pci-retry' | 'cache-miss' | 'fifo-full' | 'interrupt';

/** What a condition needs beyond the trace: the receive FIFO's capacity and the largest frame. */
export interface BreakContext {
  /** Receive FIFO bytes (SINIC, V-SINIC, CNIC), or null when the NIC has none. */
  fifoBytes: number | null;
  /** The largest frame the run carries (bytes), for "no room for another frame". */
  maxFrame: number;
}

export interface Condition {
  id: ConditionId;
  /** Short name, as the playback bar lists it. */
  label: string;
  /** Which records mean it (shown as the condition's tooltip). */
  doc: string;
  kinds: readonly number[];
  /** Words for a matching record ("send ring full"), or null when the record does not match. */
  match: (trace: Trace, i: number, ctx: BreakContext) => string | null;
}

const RX_DROP_REASONS = ['no receive descriptor', 'receive buffer full'];

export const CONDITIONS: readonly Condition[] = [
  {
    id: 'ring-full',
    label: 'ring full',
    doc: 'RingFull: the producer found no free slot',
    kinds: [K.RingFull],
    match: (tr, i) => `${RING_NAMES[RingFull.ring(tr, i)] ?? 'a'} ring full`,
  },
  {
    id: 'rx-drop',
    label: 'receive drop',
    doc: 'RxDrop: a received frame was dropped',
    kinds: [K.RxDrop],
    match: (tr, i) =>
      `receive drop (${RX_DROP_REASONS[RxDrop.reason(tr, i)] ?? `reason ${RxDrop.reason(tr, i)}`}) of packet ${RxDrop.packet(tr, i)}`,
  },
  {
    id: 'pci-retry',
    label: 'PCI retry',
    doc: 'BusRefused (bus busy: REQ# waits) and the Stop phase of a tenure the target answered with Retry',
    kinds: [K.BusRefused, K.BusPhase],
    match: (tr, i) => {
      if (tr.kind[i] === K.BusRefused)
        return `bus busy: ${componentLabel(BusRefused.master(tr, i))} waits`;
      if (BusPhase.phase(tr, i) === BP.Stop && BusPhase.category(tr, i) === BC.Retry)
        return `PCI Retry to ${componentLabel(BusPhase.master(tr, i))}`;
      return null;
    },
  },
  {
    id: 'cache-miss',
    label: 'NIC cache miss',
    doc: 'NicCacheBlock "insert" (cache-only runs) and CacheCommand cache_insert (full-system web runs)',
    kinds: [K.NicCacheBlock, K.CacheCommand],
    match: (tr, i) => {
      if (tr.kind[i] === K.NicCacheBlock)
        return NicCacheBlock.what(tr, i) === 1
          ? `NIC cache miss (file ${NicCacheBlock.file(tr, i)} block ${NicCacheBlock.block(tr, i)})`
          : null;
      return CacheCommand.command(tr, i) === 2
        ? `NIC cache miss (cache_insert of ${CacheCommand.bytes(tr, i)} B)`
        : null;
    },
  },
  {
    id: 'fifo-full',
    label: 'FIFO full',
    doc: 'TxBufferFull, RxDrop "receive buffer full", and a receive FIFO (FifoLevel) with no room for another frame',
    kinds: [K.TxBufferFull, K.RxDrop, K.FifoLevel],
    match: (tr, i, ctx) => {
      const k = tr.kind[i];
      if (k === K.TxBufferFull) return 'transmit buffer full';
      if (k === K.RxDrop) return RxDrop.reason(tr, i) === 1 ? 'receive buffer full' : null;
      if (ctx.fifoBytes === null || ctx.maxFrame <= 0) return null;
      const level = FifoLevel.fifoBytes(tr, i);
      return ctx.fifoBytes - level < ctx.maxFrame
        ? `receive FIFO full (${level} of ${ctx.fifoBytes} B): the link pauses`
        : null;
    },
  },
  {
    id: 'interrupt',
    label: 'interrupt',
    doc: 'InterruptRaise: the NIC raises an interrupt',
    kinds: [K.InterruptRaise],
    match: (tr, i) => {
      const bits = InterruptRaise.causes(tr, i);
      const what = [bits & 2 ? 'receive' : '', bits & 1 ? 'send' : ''].filter(Boolean).join(' + ');
      return `interrupt${what ? ` (${what})` : ''}`;
    },
  },
];

export const CONDITION_BY_ID: ReadonlyMap<ConditionId, Condition> = new Map(
  CONDITIONS.map((c) => [c.id, c]),
);

export type Breakpoint = { type: 'condition'; id: ConditionId } | { type: 'time'; at: number };

/** Where playing stopped, and why. */
export interface BreakHit {
  time: number;
  /** The matching record, or null for a time breakpoint. */
  rec: number | null;
  /** "ring full", "send ring full", "time 12.345 µs". */
  words: string;
}

/** "stopped: send ring full at 12.345 µs". */
export function stopText(hit: BreakHit): string {
  return `stopped: ${hit.words} at ${formatInstant(hit.time)}`;
}

/** The receive FIFO's capacity and the largest frame: what the FIFO-full condition compares. */
export function breakContext(trace: Trace, params: ParameterTree | undefined): BreakContext {
  const model = String(paramAt(params, 'system.nic.model') ?? '');
  const kb = Number(paramAt(params, 'system.sinic.rx_fifo_kbytes') ?? 0);
  const slot = Number(paramAt(params, 'system.sinic.fifo_bytes_per_vnic') ?? 0);
  const vnics = Number(paramAt(params, 'system.sinic.vnics') ?? 0);
  // sinic_params.cpp: a per-VNIC slot sizes V-SINIC's FIFO; every other FIFO is rx_fifo_kbytes.
  let fifoBytes: number | null = null;
  if (model === 'v-sinic' && slot > 0 && vnics > 0) fifoBytes = vnics * slot;
  else if (/sinic|cnic/.test(model) && kb > 0) fifoBytes = kb * 1024;
  let maxFrame = 0;
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind[i];
    if (k === K.MacRxDone || k === K.PeerTxStart)
      maxFrame = Math.max(maxFrame, MacRxDone.frameBytes(trace, i));
  }
  return { fifoBytes, maxFrame };
}

/** Record indices by kind (the trace index has them; a bare trace is scanned once). */
export type KindLists = ReadonlyMap<number, readonly number[]>;

export function kindLists(trace: Trace): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind[i]!;
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    l.push(i);
  }
  return m;
}

/** Position in a kind's list of its first record with time > t (or >= t when `inclusive`). */
function firstAfter(trace: Trace, list: readonly number[], t: number, inclusive = false): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const tm = trace.time[list[mid]!]!;
    if (inclusive ? tm < t : tm <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first armed breakpoint that fires in (from, to]: the earliest matching record (ties go to
 * the first record), or a time breakpoint. Null when none fires in the span.
 */
export function nextBreak(
  trace: Trace,
  byKind: KindLists,
  breakpoints: readonly Breakpoint[],
  from: number,
  to: number,
  ctx: BreakContext,
): BreakHit | null {
  let best: BreakHit | null = null;
  const better = (time: number, rec: number | null) =>
    !best ||
    time < best.time ||
    (time === best.time && rec !== null && (best.rec === null || rec < best.rec));
  for (const bp of breakpoints) {
    if (bp.type === 'time') {
      if (bp.at > from && bp.at <= to && better(bp.at, null))
        best = { time: bp.at, rec: null, words: `time ${formatInstant(bp.at)}` };
      continue;
    }
    const cond = CONDITION_BY_ID.get(bp.id);
    if (!cond) continue;
    for (const kind of cond.kinds) {
      const list = byKind.get(kind);
      if (!list) continue;
      for (let p = firstAfter(trace, list, from); p < list.length; p++) {
        const rec = list[p]!;
        const time = trace.time[rec]!;
        if (time > to || (best && time > best.time)) break;
        const words = cond.match(trace, rec, ctx);
        if (words !== null) {
          if (better(time, rec)) best = { time, rec, words };
          break;
        }
      }
    }
  }
  return best;
}

/** The conditions this run's trace can fire at all (some record of theirs matches). */
export function conditionsPresent(
  trace: Trace,
  byKind: KindLists,
  ctx: BreakContext,
): Set<ConditionId> {
  const out = new Set<ConditionId>();
  for (const c of CONDITIONS) {
    for (const k of c.kinds) {
      const list = byKind.get(k) ?? [];
      if (list.some((rec) => c.match(trace, rec, ctx) !== null)) {
        out.add(c.id);
        break;
      }
    }
  }
  return out;
}

// ---- step to an event of one kind ------------------------------------------------------------

/** Time of the next record of `kind` strictly after t (dir 1) or strictly before t (dir -1). */
export function kindEventTime(
  trace: Trace,
  byKind: KindLists,
  kind: number,
  t: number,
  dir: 1 | -1,
): number | null {
  const list = byKind.get(kind);
  if (!list || list.length === 0) return null;
  if (dir === 1) {
    const p = firstAfter(trace, list, t);
    return p < list.length ? trace.time[list[p]!]! : null;
  }
  const p = firstAfter(trace, list, t, true) - 1;
  return p >= 0 ? trace.time[list[p]!]! : null;
}

/** A kind named in words: "driver creates a send descriptor (S1)". */
export function kindWords(kind: number): string {
  const doc = TRACE_KINDS[kind];
  if (!doc) return kindName(kind);
  return `${doc.doc}${doc.step ? ` (${doc.step})` : ''}`;
}

/** The kinds present in the trace, with their words and counts, in the kind list's order. */
export function kindsPresent(
  byKind: KindLists,
): Array<{ kind: number; name: string; words: string; count: number }> {
  return [...byKind.entries()]
    .filter(([, l]) => l.length > 0)
    .sort((x, y) => x[0] - y[0])
    .map(([kind, l]) => ({ kind, name: kindName(kind), words: kindWords(kind), count: l.length }));
}

// ---- playing: collapse idle stretches, stop at breakpoints -----------------------------------

/** What one playback tick does: the new cursor, and a stop or a skip to tell the viewer about. */
export interface PlayStep {
  cursor: number;
  stop: BreakHit | null;
  /** Simulated time jumped over (ps), 0 when nothing was skipped. */
  skipped: number;
  /** Reached the window's end. */
  ended: boolean;
}

/**
 * Collapses an idle stretch: a gap between consecutive records (or the window's edges) longer
 * than `threshold` plays as if it were `threshold` long: its first and last threshold/2 play
 * at the chosen speed, the middle is jumped over. Returns where an advance from `from` to `to`
 * lands, and how much it jumped.
 */
export function skipIdle(
  times: Float64Array,
  from: number,
  to: number,
  threshold: number,
  windowStart: number,
  windowEnd: number,
): { cursor: number; skipped: number } {
  if (!(threshold > 0) || to <= from) return { cursor: to, skipped: 0 };
  const i = countUpTo(times, from);
  const e0 = i > 0 ? Math.max(windowStart, times[i - 1]!) : windowStart;
  const e1 = i < times.length ? Math.min(windowEnd, times[i]!) : windowEnd;
  if (e1 - e0 <= threshold) return { cursor: to, skipped: 0 };
  const jumpAt = e0 + threshold / 2;
  const landAt = e1 - threshold / 2;
  if (to < jumpAt || from >= landAt) return { cursor: to, skipped: 0 };
  // The part of the advance beyond the jump point continues from the landing point.
  const start = Math.max(from, jumpAt);
  const cursor = Math.min(e1, landAt + (to - start));
  return { cursor, skipped: landAt - start };
}

export interface PlayInput {
  trace: Trace;
  byKind: KindLists;
  ctx: BreakContext;
  breakpoints: readonly Breakpoint[];
  /** Idle stretches longer than this (ps) are collapsed; null plays every stretch as it is. */
  idleThreshold: number | null;
  windowStart: number;
  windowEnd: number;
}

/** One tick of playing from `from` by `advance` ps of simulated time. */
export function playStep(input: PlayInput, from: number, advance: number): PlayStep {
  const { trace, windowStart, windowEnd } = input;
  // Playing never moves back, nor before the window (a negative frame step once showed -32 ns).
  let to = Math.max(windowStart, from + Math.max(0, advance));
  let skipped = 0;
  if (input.idleThreshold !== null) {
    const s = skipIdle(trace.time, from, to, input.idleThreshold, windowStart, windowEnd);
    to = s.cursor;
    skipped = s.skipped;
  }
  const end = Math.min(to, windowEnd);
  // A skipped stretch holds no record, so checking (from, end] still sees every event passed.
  const hit = input.breakpoints.length
    ? nextBreak(trace, input.byKind, input.breakpoints, from, end, input.ctx)
    : null;
  if (hit) return { cursor: hit.time, stop: hit, skipped: 0, ended: false };
  return { cursor: end, stop: null, skipped, ended: to >= windowEnd };
}

/** The first breakpoint after t up to the window's end (the "run to breakpoint" button). */
export function runUntil(input: PlayInput, from: number): BreakHit | null {
  return nextBreak(input.trace, input.byKind, input.breakpoints, from, input.windowEnd, input.ctx);
}

/** Idle-collapse thresholds the playback bar offers (ps). */
export const IDLE_THRESHOLDS: readonly number[] = [1e6, 5e6, 2e7, 1e8, 1e9];

export interface NavState {
  /** The kind the "step to kind" buttons look for, or null. */
  kind: number | null;
  breakpoints: Breakpoint[];
  /** Collapse idle stretches longer than idleThreshold while playing. */
  skipIdle: boolean;
  idleThreshold: number;
  /** The last stop or skip, for the playback bar to say (id changes with each). */
  note: { id: number; text: string; at: number; type: 'stop' | 'skip' } | null;
}

export const INITIAL_NAV_STATE: NavState = {
  kind: null,
  breakpoints: [],
  skipIdle: false,
  idleThreshold: 5e6,
  note: null,
};

/** Same breakpoint (a condition by id, a time by its instant). */
export function sameBreakpoint(x: Breakpoint, y: Breakpoint): boolean {
  return x.type === 'time'
    ? y.type === 'time' && y.at === x.at
    : y.type === x.type && y.id === x.id;
}

/** The parts of a finished run playing needs. */
export interface PlayableRun {
  trace: Trace;
  index: { byKind: KindLists };
  output: { parameters?: ParameterTree };
}

const contexts = new WeakMap<Trace, BreakContext>();

/** breakContext, computed once per run's trace. */
export function cachedBreakContext(run: PlayableRun): BreakContext {
  let c = contexts.get(run.trace);
  if (!c) contexts.set(run.trace, (c = breakContext(run.trace, run.output.parameters)));
  return c;
}

/** The input of playStep for a run, the navigation settings and the trace window. */
export function playInput(
  run: PlayableRun,
  nav: NavState,
  window: { start: number; end: number },
): PlayInput {
  return {
    trace: run.trace,
    byKind: run.index.byKind,
    ctx: cachedBreakContext(run),
    breakpoints: nav.breakpoints,
    idleThreshold: nav.skipIdle ? nav.idleThreshold : null,
    windowStart: window.start,
    windowEnd: window.end,
  };
}

let noteIds = 0;

/** A new note for the playback bar (each gets its own id, so it shows afresh). */
export function makeNote(text: string, at: number, type: 'stop' | 'skip'): NavState['note'] {
  return { id: ++noteIds, text, at, type };
}

/** The note a tick leaves: why it stopped, or what it skipped (else the previous note). */
export function navNote(step: PlayStep, previous: NavState['note']): NavState['note'] {
  if (step.stop) return makeNote(stopText(step.stop), step.stop.time, 'stop');
  if (step.skipped > 0)
    return makeNote(`skipped ${formatTime(step.skipped, 1)} idle`, step.cursor, 'skip');
  return previous;
}
