// What the system diagram shows at the cursor: a pure function of (trace index, time, hold).
import { formatTime } from '../kit/format';
import { mailboxOf } from '../trace/steps';
import { C, K, P, componentInstance, componentKind } from '../trace/traceKinds';
import { DmaQueueFull, InterruptRaise, MailboxWrite, RingFull, RxDrop } from '../trace/records.gen';
import {
  activeAt,
  overlapping,
  recentInstants,
  type BusSpan,
  type FrameSpan,
  type TaskSpan,
  type TraceIndex,
} from '../trace/traceIndex';

export interface Token {
  key: string;
  /** 0..1 progress along its path. */
  progress: number;
  rec: number;
}

export interface BusToken extends Token {
  purpose: number;
  towardsNic: boolean;
  bytes: number;
  packet: number;
  master: number;
  /** Device instance of the transfer's master (NIC 2 is 1). */
  nic: number;
  /** Component kind of the master (dma_read, dma_write, host_bridge, disk). */
  masterKind: number;
  /** The mailbox a PIO write goes to (from its MailboxWrite record), else null. */
  mailbox: number | null;
}

export interface FrameToken extends Token {
  nic: number;
  dir: 'tx' | 'rx';
  packet: number;
  bytes: number;
  dropped: boolean;
}

export type BadgePlace =
  | 'sendRing'
  | 'recvRing'
  | 'returnRing'
  | 'driver'
  | 'bus'
  | 'txBuffer'
  | 'rxBuffer'
  | 'dmaRead'
  | 'dmaWrite';

export interface Badge {
  key: string;
  place: BadgePlace;
  /** The NIC (or its driver instance) the badge belongs to. */
  nic: number;
  label: string;
  tone: 'warn' | 'alert';
  rec: number;
}

/** What one NIC is doing at the cursor. */
export interface NicState {
  dmaRead: number;
  dmaWrite: number;
  txBuffer: number;
  rxBuffer: number;
  macTx: boolean;
  macRx: boolean;
  peer: boolean;
  busy: boolean;
  mailbox: boolean;
  interrupt: boolean;
}

export interface DiagramState {
  bus: BusToken[];
  /** Per NIC instance (index 0 is the first NIC; the fields below are also NIC 1's). */
  nics: NicState[];
  frames: FrameToken[];
  busy: {
    cpu: boolean;
    cpuTask: number | null;
    bus: boolean;
    bridge: boolean;
    memory: boolean;
    dmaRead: boolean;
    dmaWrite: boolean;
    macTx: boolean;
    macRx: boolean;
    peer: boolean;
    nic: boolean;
  };
  /** Queued + in-flight DMA requests per engine. */
  dmaDepth: { read: number; write: number };
  txBuffer: number;
  rxBuffer: number;
  interrupt: { rec: number; causes: number; nic: number } | null;
  mailbox: { rec: number; mailbox: number; nic: number } | null;
  drops: Array<{ rec: number; reason: number; packet: number; nic: number }>;
  badges: Badge[];
}

const RING_PLACE: BadgePlace[] = ['sendRing', 'recvRing', 'returnRing'];

function progress(start: number, end: number, t: number): number {
  if (!Number.isFinite(end) || end <= start) return end === start ? 1 : 0.5;
  return Math.min(1, Math.max(0, (t - start) / (end - start)));
}

function busTowardsNic(purpose: number): boolean {
  return (
    purpose === P.SendBdFetch ||
    purpose === P.SendDataFetch ||
    purpose === P.RecvBdFetch ||
    purpose === P.MailboxPio
  );
}

/**
 * @param hold how long (simulated ps) an instantaneous event such as an interrupt or a drop
 *   stays visible after it happened; the caller ties it to the playback speed.
 */
export function diagramStateAt(idx: TraceIndex, t: number, hold: number): DiagramState {
  const tr = idx.trace;
  const busSpans: BusSpan[] = activeAt(idx.bus, t);
  const frameSpans: FrameSpan[] = activeAt(idx.frames, t);
  const cpu = activeAt(idx.cpu, t);
  const dma = activeAt(idx.dma, t);

  const bus: BusToken[] = busSpans.map((s) => ({
    key: `bus-${s.txn}-${s.rec}`,
    progress: progress(s.start, s.end, t),
    rec: s.rec,
    purpose: s.purpose,
    towardsNic: busTowardsNic(s.purpose),
    bytes: s.bytes,
    packet: s.packet,
    master: s.master,
    nic: componentInstance(s.master),
    masterKind: componentKind(s.master),
    mailbox: s.purpose === P.MailboxPio ? mailboxOf(tr, s.rec) : null,
  }));
  const frames: FrameToken[] = frameSpans.map((s) => ({
    key: `frame-${s.dir}-${s.nic}-${s.packet}-${s.rec}`,
    progress: progress(s.start, s.end, t),
    rec: s.rec,
    nic: s.nic,
    dir: s.dir,
    packet: s.packet,
    bytes: s.bytes,
    dropped: s.dropped,
  }));

  const inst = (rec: number) => componentInstance(tr.component[rec]!);
  const nicCount = Math.max(idx.nicCount ?? 1, ...dma.map((d) => d.nic + 1), 1);
  const dmaCount = (engine: number, nic: number) =>
    dma.filter((s) => componentKind(s.engine) === engine && s.nic === nic).length;
  const dmaRead = dmaCount(C.DmaRead, 0);
  const dmaWrite = dmaCount(C.DmaWrite, 0);
  const busActive = bus.length > 0;

  const intr = recentInstants(idx, K.InterruptRaise, t, hold);
  const mbox = recentInstants(idx, K.MailboxWrite, t, hold);
  const drops = recentInstants(idx, K.RxDrop, t, hold).map((rec) => ({
    rec,
    reason: RxDrop.reason(tr, rec),
    packet: RxDrop.packet(tr, rec),
    nic: inst(rec),
  }));

  const badges: Badge[] = [];
  for (const rec of recentInstants(idx, K.RingFull, t, hold)) {
    badges.push({
      key: `rf-${rec}`,
      place: RING_PLACE[RingFull.ring(tr, rec)] ?? 'driver',
      nic: inst(rec),
      label: 'ring full',
      tone: 'warn',
      rec,
    });
  }
  for (const s of activeAt(idx.stalls, t)) {
    badges.push({
      key: `st-${s.rec}`,
      place: 'driver',
      nic: s.nic,
      label: `waits for ${['send', 'receive', 'return'][s.ring] ?? ''} ring space`,
      tone: 'warn',
      rec: s.rec,
    });
  }
  for (const rec of recentInstants(idx, K.DriverStall, t, hold)) {
    if (!badges.some((b) => b.rec === rec))
      badges.push({
        key: `ds-${rec}`,
        place: 'driver',
        nic: inst(rec),
        label: 'driver stalled',
        tone: 'warn',
        rec,
      });
  }
  for (const rec of recentInstants(idx, K.BusRefused, t, hold)) {
    badges.push({ key: `br-${rec}`, place: 'bus', nic: 0, label: 'bus busy', tone: 'warn', rec });
  }
  for (const rec of recentInstants(idx, K.TxBufferFull, t, hold)) {
    badges.push({
      key: `tb-${rec}`,
      place: 'txBuffer',
      nic: inst(rec),
      label: 'buffer full',
      tone: 'warn',
      rec,
    });
  }
  for (const rec of recentInstants(idx, K.DmaQueueFull, t, hold)) {
    const purpose = DmaQueueFull.purpose(tr, rec);
    const place: BadgePlace = busTowardsNic(purpose) ? 'dmaRead' : 'dmaWrite';
    badges.push({
      key: `dq-${rec}`,
      place,
      nic: inst(rec),
      label: 'DMA queue full',
      tone: 'warn',
      rec,
    });
  }
  for (const d of drops) {
    badges.push({
      key: `dr-${d.rec}`,
      place: 'rxBuffer',
      nic: d.nic,
      label: d.reason === 0 ? 'drop: no descriptor' : 'drop: buffer full',
      tone: 'alert',
      rec: d.rec,
    });
  }
  // Keep one badge per place and label (the most recent), so a burst doesn't pile up.
  const seen = new Set<string>();
  const unique = badges
    .slice()
    .reverse()
    .filter((b) => {
      const k = `${b.nic}|${b.place}|${b.label}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .reverse();

  const cpuTask = cpu.length > 0 ? cpu[cpu.length - 1]!.task : null;
  const txBufs = activeAt(idx.txBuffer, t);
  const rxBufs = activeAt(idx.rxBuffer, t);
  const lastIntr = intr.length ? intr[intr.length - 1]! : -1;
  const lastMbox = mbox.length ? mbox[mbox.length - 1]! : -1;
  const nics: NicState[] = Array.from({ length: nicCount }, (_, n) => {
    const r = dmaCount(C.DmaRead, n);
    const w = dmaCount(C.DmaWrite, n);
    const fr = frames.filter((f) => f.nic === n);
    return {
      dmaRead: r,
      dmaWrite: w,
      txBuffer: txBufs.filter((b) => b.nic === n).length,
      rxBuffer: rxBufs.filter((b) => b.nic === n).length,
      macTx: fr.some((f) => f.dir === 'tx'),
      macRx: fr.some((f) => f.dir === 'rx'),
      peer: fr.length > 0,
      busy: r + w > 0 || fr.length > 0,
      mailbox: mbox.some((rec) => inst(rec) === n),
      interrupt: intr.some((rec) => inst(rec) === n),
    };
  });
  const nic0 = nics[0]!;
  return {
    bus,
    nics,
    frames,
    busy: {
      cpu: cpu.length > 0,
      cpuTask,
      bus: busActive,
      bridge: busActive,
      // PIO (mailbox writes, register reads) goes between the CPU and the NIC, not to memory.
      memory: bus.some((b) => b.purpose !== P.MailboxPio && b.purpose !== P.RegisterRead),
      dmaRead: dmaRead > 0,
      dmaWrite: dmaWrite > 0,
      macTx: nic0.macTx,
      macRx: nic0.macRx,
      peer: nic0.peer,
      nic: nic0.busy,
    },
    dmaDepth: { read: dmaRead, write: dmaWrite },
    txBuffer: nic0.txBuffer,
    rxBuffer: nic0.rxBuffer,
    interrupt:
      lastIntr >= 0
        ? { rec: lastIntr, causes: InterruptRaise.causes(tr, lastIntr), nic: inst(lastIntr) }
        : null,
    mailbox:
      lastMbox >= 0
        ? { rec: lastMbox, mailbox: MailboxWrite.mailbox(tr, lastMbox), nic: inst(lastMbox) }
        : null,
    drops,
    badges: unique,
  };
}

/** Host CPU tasks (HostCpuBusy: 0 sending, 1 interrupt service). */
export const CPU_TASKS = ['sending', 'interrupt handler'] as const;

export interface CpuSegment {
  /** 0..1 positions in the strip [t - half, t + half]. */
  x0: number;
  x1: number;
  task: number;
  /** The segment contains the cursor. */
  current: boolean;
  rec: number;
}

export interface CpuTimeline {
  segments: CpuSegment[];
  /** The task running at the cursor with its progress, or null when the CPU is idle. */
  now: { task: number; start: number; end: number; rec: number } | null;
}

/**
 * The host CPU's busy spans around the cursor, for a strip centred on it: what it did just
 * before, what it does now, what comes next. Pure; `half` is half the strip's span in ps.
 */
export function cpuTimeline(idx: TraceIndex, t: number, half: number): CpuTimeline {
  const list = idx.cpu;
  const lo = t - half;
  const hi = t + half;
  const span = hi - lo;
  const out: CpuSegment[] = [];
  let now: CpuTimeline['now'] = null;
  for (const s of overlapping<TaskSpan>(list, lo, hi)) {
    const a = Math.max(s.start, lo);
    const b = Math.min(Number.isFinite(s.end) ? s.end : hi, hi);
    const current = s.start <= t && t < s.end;
    // Of two current tasks begun together, the later recorded one (start order keeps ties).
    if (current && (!now || s.start >= now.start))
      now = { task: s.task, start: s.start, end: s.end, rec: s.rec };
    if (span > 0)
      out.push({ x0: (a - lo) / span, x1: (b - lo) / span, task: s.task, current, rec: s.rec });
  }
  return { segments: out, now };
}

/**
 * What the diagram's counters (frames the peer received and sent, packets delivered, drops) add
 * after their number: they count the trace window's records, so when the window opened after
 * the run's start they say from when ("since 2 ms"), never passing for the run's totals.
 */
export function countSince(windowStart: number): string {
  return windowStart > 0 ? ` since ${formatTime(windowStart)}` : '';
}
