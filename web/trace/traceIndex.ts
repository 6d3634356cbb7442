// Pure derived data of a decoded trace: spans (bus transactions, frames, CPU tasks, DMAs,
// buffer residency), instants, ring index updates. Built once per trace; every view reads it
// together with the cursor time, so nothing here depends on playback.
import { K, P, componentInstance } from './traceKinds';
import { countUpTo, type Trace } from './trace';
import {
  BusTxnEnd,
  BusTxnStart,
  DmaDone,
  DmaQueued,
  DriverResume,
  DriverStall,
  HostCpuBusy,
  IndexUpdate,
  MacRxDone,
  MacTxEnd,
  MacTxStart,
  PeerTxStart,
} from './records.gen';

export interface Span {
  start: number;
  end: number;
  /** Record index of the opening record (or the closing one when the opening lies before the window). */
  rec: number;
}

export interface BusSpan extends Span {
  txn: number;
  /** Component field of the transfer's master (kind | instance << 8). */
  master: number;
  /** Device instance of the master (the second NIC is 1). */
  nic: number;
  bytes: number;
  purpose: number;
  packet: number;
}

export interface FrameSpan extends Span {
  /** NIC instance. */
  nic: number;
  packet: number;
  bytes: number;
  /** tx: NIC → peer; rx: peer → NIC. */
  dir: 'tx' | 'rx';
  /** Receive frame that ended in RxDrop. */
  dropped: boolean;
}

export interface TaskSpan extends Span {
  task: number;
}

export interface DmaSpan extends Span {
  /** Component field of the DMA channel (dma_read/dma_write with the NIC instance). */
  engine: number;
  nic: number;
  purpose: number;
  packet: number;
}

export interface SpanList<S extends Span> {
  spans: S[];
  /** Sorted start times (parallel to spans). */
  starts: Float64Array;
}

export interface TraceIndex {
  trace: Trace;
  windowStart: number;
  windowEnd: number;
  bus: SpanList<BusSpan>;
  frames: SpanList<FrameSpan>;
  cpu: SpanList<TaskSpan>;
  dma: SpanList<DmaSpan>;
  txBuffer: SpanList<PacketSpan>;
  rxBuffer: SpanList<PacketSpan>;
  stalls: SpanList<Span & { ring: number; nic: number }>;
  /** Record indices by kind, in time order. */
  byKind: Map<number, number[]>;
  /** Record indices by kind and device instance: key kind * 256 + instance. */
  byKindNic: Map<number, number[]>;
  /** IndexUpdate record indices per NIC instance, then ring*2+copy. */
  ringUpdatesByNic: number[][][];
  /** Highest NIC instance seen, plus one (at least 1). */
  nicCount: number;
}

export interface PacketSpan extends Span {
  packet: number;
  nic: number;
}

/** Maps keyed by (instance, id): packet ids are per NIC. */
function key(nic: number, id: number): number {
  return nic * 4294967296 + id;
}

function spanList<S extends Span>(spans: S[]): SpanList<S> {
  spans.sort((x, y) => x.start - y.start || x.rec - y.rec);
  return { spans, starts: Float64Array.from(spans.map((s) => s.start)) };
}

/**
 * Checkpoints of a span list: every CHECKPOINT_SPANS spans (by start), the spans begun before
 * that may still be open there. A query at t takes the checkpoint at or before t's position and
 * replays only the spans begun since, instead of walking back over every span that could have
 * lasted the longest duration (one span still open at the window's end made that the whole list).
 */
export const CHECKPOINT_SPANS = 128;

const checkpointCache = new WeakMap<SpanList<Span>, Int32Array[]>();

/** open[k]: indices i < k * CHECKPOINT_SPANS with end >= the start of span k * CHECKPOINT_SPANS - 1. */
function spanCheckpoints(list: SpanList<Span>): Int32Array[] {
  let open = checkpointCache.get(list);
  if (open) return open;
  open = [new Int32Array(0)];
  const { spans, starts } = list;
  let carry: number[] = [];
  for (let c = CHECKPOINT_SPANS; c <= spans.length; c += CHECKPOINT_SPANS) {
    const edge = starts[c - 1]!;
    const next: number[] = [];
    for (const i of carry) if (spans[i]!.end >= edge) next.push(i);
    for (let i = c - CHECKPOINT_SPANS; i < c; i++) if (spans[i]!.end >= edge) next.push(i);
    open.push(Int32Array.from(next));
    carry = next;
  }
  checkpointCache.set(list, open);
  return open;
}

/**
 * Indices of the spans with start <= hi that may still be open at lo (lo <= hi): a checkpoint's
 * open spans plus those begun since, in start order. Callers apply their exact test.
 */
function candidates(list: SpanList<Span>, lo: number, hi: number): number[] {
  const nLo = countUpTo(list.starts, lo);
  const nHi = countUpTo(list.starts, hi);
  const k = Math.floor(nLo / CHECKPOINT_SPANS);
  const out = Array.from(spanCheckpoints(list)[k]!);
  for (let i = k * CHECKPOINT_SPANS; i < nHi; i++) out.push(i);
  return out;
}

/** Spans open at time t (start <= t < end; a zero-length span is open at exactly its start). */
export function activeAt<S extends Span>(list: SpanList<S>, t: number): S[] {
  const out: S[] = [];
  for (const i of candidates(list, t, t)) {
    const s = list.spans[i]!;
    if (t < s.end || (s.end === s.start && t === s.start)) out.push(s);
  }
  return out;
}

/** Spans that overlap (lo, hi]: start <= hi and end > lo, in start order. */
export function overlapping<S extends Span>(list: SpanList<S>, lo: number, hi: number): S[] {
  const out: S[] = [];
  for (const i of candidates(list, lo, Math.max(lo, hi))) {
    const s = list.spans[i]!;
    if (s.start <= hi && s.end > lo) out.push(s);
  }
  return out;
}

const indexCache = new WeakMap<Trace, TraceIndex>();

export function traceIndex(trace: Trace, windowStart: number, windowEnd: number): TraceIndex {
  const cached = indexCache.get(trace);
  if (cached && cached.windowStart === windowStart && cached.windowEnd === windowEnd) return cached;
  const idx = buildIndex(trace, windowStart, windowEnd);
  indexCache.set(trace, idx);
  return idx;
}

export function buildIndex(trace: Trace, windowStart: number, windowEnd: number): TraceIndex {
  const n = trace.length;
  const open = Infinity;
  const byKind = new Map<number, number[]>();
  const byKindNic = new Map<number, number[]>();
  const ringUpdatesByNic: number[][][] = [Array.from({ length: 6 }, () => [])];
  const bus: BusSpan[] = [];
  const frames: FrameSpan[] = [];
  const dma: DmaSpan[] = [];
  const txBuf: PacketSpan[] = [];
  const rxBuf: PacketSpan[] = [];
  const stalls: Array<Span & { ring: number; nic: number }> = [];
  let nicCount = 1;

  const openBus = new Map<number, BusSpan>();
  const openDma = new Map<number, DmaSpan>();
  const openTx = new Map<number, FrameSpan>();
  const openRx = new Map<number, FrameSpan>();
  const openTxBuf = new Map<number, PacketSpan>();
  const openRxBuf = new Map<number, PacketSpan>();
  const openStall = new Map<number, Span & { ring: number; nic: number }>();
  const openIsr: TaskSpan[] = [];
  const cpuBusy: TaskSpan[] = [];
  const isr: TaskSpan[] = [];
  const isrBefore: TaskSpan[] = [];

  // A start record opens a span; its end record closes it. An end whose start came before the
  // trace window gets a span from the window's start.
  function closeSpan<S extends Span>(
    openSpans: Map<number, S>,
    k: number,
    t: number,
  ): S | undefined {
    const s = openSpans.get(k);
    if (s) {
      s.end = t;
      openSpans.delete(k);
    }
    return s;
  }
  const busFields = (i: number) => ({
    rec: i,
    txn: BusTxnStart.txn(trace, i),
    master: BusTxnStart.master(trace, i),
    nic: componentInstance(BusTxnStart.master(trace, i)),
    bytes: BusTxnStart.bytes(trace, i),
    purpose: BusTxnStart.purpose(trace, i),
    packet: BusTxnStart.packet(trace, i),
  });
  const dmaFields = (i: number) => ({
    rec: i,
    engine: trace.component[i]!,
    nic: componentInstance(trace.component[i]!),
    purpose: DmaQueued.purpose(trace, i),
    packet: DmaQueued.packet(trace, i),
  });
  const frameFields = (i: number, dir: 'tx' | 'rx') => ({
    rec: i,
    nic: componentInstance(trace.component[i]!),
    packet: MacTxStart.packet(trace, i),
    bytes: MacTxStart.frameBytes(trace, i),
    dir,
    dropped: false,
  });

  for (let i = 0; i < n; i++) {
    const k = trace.kind[i]!;
    const t = trace.time[i]!;
    const inst = componentInstance(trace.component[i]!);
    let list = byKind.get(k);
    if (!list) byKind.set(k, (list = []));
    list.push(i);
    let listNic = byKindNic.get(k * 256 + inst);
    if (!listNic) byKindNic.set(k * 256 + inst, (listNic = []));
    listNic.push(i);
    switch (k) {
      case K.IndexUpdate: {
        const ring = IndexUpdate.ring(trace, i);
        const copy = IndexUpdate.copy(trace, i);
        if (ring < 3 && copy < 2) {
          while (ringUpdatesByNic.length <= inst)
            ringUpdatesByNic.push(Array.from({ length: 6 }, () => []));
          ringUpdatesByNic[inst]![ring * 2 + copy]!.push(i);
          nicCount = Math.max(nicCount, inst + 1);
        }
        break;
      }
      case K.BusTxnStart: {
        const s: BusSpan = { start: t, end: open, ...busFields(i) };
        openBus.set(BusTxnStart.txn(trace, i), s);
        bus.push(s);
        break;
      }
      case K.BusTxnEnd:
        if (!closeSpan(openBus, BusTxnEnd.txn(trace, i), t))
          bus.push({ start: windowStart, end: t, ...busFields(i) });
        break;
      case K.DmaQueued: {
        const s: DmaSpan = { start: t, end: open, ...dmaFields(i) };
        openDma.set(key(inst, DmaQueued.dma(trace, i)), s);
        dma.push(s);
        break;
      }
      case K.DmaDone: {
        // DmaDone.a is the id its DmaQueued gave. A request queued before the trace window has
        // no open span: it is drawn from the window's start.
        if (!closeSpan(openDma, key(inst, DmaDone.dma(trace, i)), t)) {
          dma.push({ start: windowStart, end: t, ...dmaFields(i) });
        }
        const purpose = DmaDone.purpose(trace, i);
        if (purpose === P.SendDataFetch) {
          const buf = { start: t, end: open, rec: i, packet: DmaDone.packet(trace, i), nic: inst };
          openTxBuf.set(key(inst, buf.packet), buf);
          txBuf.push(buf);
        } else if (purpose === P.RecvDataWrite) {
          closeSpan(openRxBuf, key(inst, DmaDone.packet(trace, i)), t);
        }
        break;
      }
      case K.MacTxStart: {
        const s: FrameSpan = { start: t, end: open, ...frameFields(i, 'tx') };
        openTx.set(key(inst, MacTxStart.packet(trace, i)), s);
        frames.push(s);
        break;
      }
      case K.MacTxEnd: {
        const packet = MacTxEnd.packet(trace, i);
        if (!closeSpan(openTx, key(inst, packet), t)) {
          frames.push({ start: windowStart, end: t, ...frameFields(i, 'tx') });
        }
        closeSpan(openTxBuf, key(inst, packet), t);
        break;
      }
      case K.PeerTxStart: {
        const s: FrameSpan = { start: t, end: open, ...frameFields(i, 'rx') };
        openRx.set(key(inst, PeerTxStart.packet(trace, i)), s);
        frames.push(s);
        break;
      }
      case K.MacRxDone:
      case K.RxDrop: {
        // MacRxDone and RxDrop both name the packet first.
        const packet = MacRxDone.packet(trace, i);
        const s = closeSpan(openRx, key(inst, packet), t);
        if (s) s.dropped = k === K.RxDrop;
        else if (k === K.MacRxDone) {
          frames.push({ start: windowStart, end: t, ...frameFields(i, 'rx') });
        }
        if (k === K.MacRxDone) {
          const buf = { start: t, end: open, rec: i, packet, nic: inst };
          openRxBuf.set(key(inst, packet), buf);
          rxBuf.push(buf);
        }
        break;
      }
      case K.HostCpuBusy: {
        // Recorded when a host CPU task starts (task: 0 send, 1 interrupt service).
        const dur = HostCpuBusy.durationPs(trace, i);
        cpuBusy.push({ start: t, end: t + dur, rec: i, task: HostCpuBusy.task(trace, i) });
        break;
      }
      case K.IsrStart: {
        const s: TaskSpan = { start: t, end: open, rec: i, task: 1 };
        openIsr.push(s);
        isr.push(s);
        break;
      }
      case K.IsrEnd: {
        const s = openIsr.shift();
        if (s) s.end = t;
        // The handler started before the trace window.
        else if (t > windowStart) isrBefore.push({ start: windowStart, end: t, rec: i, task: 1 });
        break;
      }
      case K.DriverStall: {
        const ring = DriverStall.ring(trace, i);
        const s = { start: t, end: open, rec: i, ring, nic: inst };
        if (!openStall.has(key(inst, ring))) {
          openStall.set(key(inst, ring), s);
          stalls.push(s);
        }
        break;
      }
      case K.DriverResume:
        closeSpan(openStall, key(inst, DriverResume.ring(trace, i)), t);
        break;
      default:
        break;
    }
  }
  // Host CPU tasks come from HostCpuBusy (start and duration of every task, sending and
  // interrupt service). Traces without it fall back to the interrupt handler's IsrStart/IsrEnd.
  // A handler already running when the window opens shows from the window's start.
  const cpu = cpuBusy.length > 0 ? cpuBusy : isr;
  for (const s of isrBefore)
    if (!cpu.some((c) => c.start <= windowStart && c.end >= s.end)) cpu.push(s);
  // Spans still open at the end of the trace stay open to the window's end (and beyond).
  return {
    trace,
    windowStart,
    windowEnd,
    bus: spanList(bus),
    frames: spanList(frames),
    cpu: spanList(cpu),
    dma: spanList(dma),
    txBuffer: spanList(txBuf),
    rxBuffer: spanList(rxBuf),
    stalls: spanList(stalls),
    byKind,
    byKindNic,
    ringUpdatesByNic,
    nicCount,
  };
}

/** Record indices of a kind recorded by one device instance (time order). */
export function kindOfNic(idx: TraceIndex, kind: number, nic: number): number[] {
  return idx.byKindNic.get(kind * 256 + nic) ?? [];
}

/** Records of a kind (of one instance, when given) at or before t. */
export function countKindUpTo(idx: TraceIndex, kind: number, t: number, nic?: number): number {
  const list = nic === undefined ? (idx.byKind.get(kind) ?? []) : kindOfNic(idx, kind, nic);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (idx.trace.time[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Most recent record of one of the kinds at or before t, if within `hold` ps of t. */
export function recentInstant(
  idx: TraceIndex,
  kind: number,
  t: number,
  hold: number,
): number | null {
  const list = idx.byKind.get(kind);
  if (!list || list.length === 0) return null;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (idx.trace.time[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  const i = lo - 1;
  if (i < 0) return null;
  const rec = list[i]!;
  return t - idx.trace.time[rec]! <= hold ? rec : null;
}

/** All records of a kind within [t - hold, t]. */
export function recentInstants(idx: TraceIndex, kind: number, t: number, hold: number): number[] {
  const list = idx.byKind.get(kind);
  if (!list) return [];
  const out: number[] = [];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (idx.trace.time[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const rec = list[i]!;
    if (t - idx.trace.time[rec]! > hold) break;
    out.push(rec);
  }
  return out.reverse();
}
