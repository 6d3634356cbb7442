// The receive path of the SINIC paper's NICs (the SINIC paper §2.2, §3.1-3.3) as the trace records it,
// one packet at a time: the frame on the wire, in the NIC's FIFO, moved by DMA (the conventional
// NIC) or by the copy engine driven through RxData/RxWait (SINIC, V-SINIC), its header examined
// by TCP/IP, and its payload copied into the user's buffer by the kernel — or, with zero copy,
// once, by the copy engine from the FIFO at read(). Built once per trace; the view is a pure
// function of this index and the cursor. Nothing here models: every step is a record.
import { countUpTo, firstAtOrAfter, type Trace } from '../trace/trace';
import { ANY_VNIC, K, P } from '../trace/traceKinds';
import { paramAt, type ParameterTree } from '../engine/types';
import { formatNumber, formatTime } from '../kit/format';
import { regField, regHi, regLo } from './vnics';
import {
  CpuPart,
  DmaDone,
  DmaQueued,
  FifoLevel,
  L2Copy,
  MacRxDone,
  NicRegister,
  PeerRxDone,
  PeerTxStart,
  SinicCopy,
  VnicState,
} from '../trace/records.gen';

export type RxNic = 'cnic-off-chip' | 'cnic-on-chip' | 'sinic' | 'v-sinic';

export interface RxSetup {
  nic: RxNic | null;
  /** system.sinic.zero_copy ("off", "aggressive", "conservative"). */
  zeroCopy: string;
  /** Where the kernel's receive buffers (sk_buffs) are: DRAM off chip, else the L2 (§6). */
  kernelIn: 'dram' | 'l2';
  rateMbps: number;
}

export function rxSetup(params: ParameterTree | undefined): RxSetup {
  const m = paramAt(params, 'system.nic.model');
  const nic =
    m === 'cnic-off-chip' || m === 'cnic-on-chip' || m === 'sinic' || m === 'v-sinic' ? m : null;
  const zc = paramAt(params, 'system.sinic.zero_copy');
  return {
    nic,
    zeroCopy: typeof zc === 'string' && nic === 'v-sinic' ? zc : 'off',
    kernelIn: nic === 'cnic-off-chip' ? 'dram' : 'l2',
    rateMbps: Number(paramAt(params, 'system.link.rate_mbps') ?? 0),
  };
}

export function isSinic(nic: RxNic | null): boolean {
  return nic === 'sinic' || nic === 'v-sinic';
}

/** Places of the diagram a packet's bytes can be in or move between. */
export type RxPlace = 'peer' | 'fifo' | 'kernel' | 'cpu' | 'user';
/** What part of the packet a place holds. */
export type RxPart = 'frame' | 'header' | 'payload';

export type RxStepKind =
  | 'wire'
  | 'arrive'
  | 'dma'
  | 'interrupt'
  | 'driver'
  | 'rxdata'
  | 'engine'
  | 'rxwait'
  | 'stack'
  | 'copy'
  | 'zcsetup';

export interface RxStep {
  kind: RxStepKind;
  /** Start (ps); `end` for a step that lasts (a DMA, a CPU unit, an engine copy). */
  start: number;
  end: number;
  /** Record index of the step's (opening) record. */
  rec: number;
  /** Where the bytes (or the access) go: the diagram's arrow. */
  from: RxPlace;
  to: RxPlace;
  text: string;
  /** What the packet's places hold once the step is done (absent: unchanged). */
  holds?: Array<{ place: RxPlace; part: RxPart }>;
  vnic?: number;
  bytes?: number;
  /** Kernel copy (L2Copy): cache lines read from DRAM, of `lines`. */
  missed?: number;
  lines?: number;
  /** The CPU part of a CPU step (0 driver, 1 stack, 2 copy). */
  cpuPart?: number;
}

export interface RxPacket {
  id: number;
  steps: RxStep[];
  /** The frame arrived before the trace window (its first steps are not in the trace). */
  before: boolean;
}

export interface RxPathIndex {
  setup: RxSetup;
  /** Received packets in order of their first step. */
  packets: RxPacket[];
  byId: Map<number, RxPacket>;
  /** Sorted step starts of every packet with the packet's position: the packet at a time. */
  starts: Float64Array;
  startPacket: Int32Array;
}

function dur(ps: number): string {
  return formatTime(ps, 2);
}

/** "More: 1,450 B left in the FIFO" / "Complete: 1,514 B copied" from an RxDone/RxWait value. */
export function rxDoneWords(lo: number, hi: number): string {
  const len = regField(lo, hi, 0, 20);
  if (regField(lo, hi, 29, 1)) return `More: ${formatNumber(len)} B left in the FIFO`;
  return `Complete: ${formatNumber(len)} B copied`;
}

interface Builder {
  steps: Map<number, RxStep[]>;
  rx: Set<number>;
  tx: Set<number>;
  arrivals: Map<number, number>;
}

function add(b: Builder, packet: number, s: RxStep): void {
  if (packet === 0) return;
  let l = b.steps.get(packet);
  if (!l) b.steps.set(packet, (l = []));
  l.push(s);
}

/** Builds the receive-path index of a trace (cached per trace and setup). */
export function buildRxPath(trace: Trace, setup: RxSetup): RxPathIndex {
  const b: Builder = { steps: new Map(), rx: new Set(), tx: new Set(), arrivals: new Map() };
  const sinic = isSinic(setup.nic);
  const offChip = setup.nic === 'cnic-off-chip';
  // Open spans: wire (packet → start record), DMA (dma id → record), engine copy per VNIC.
  const wire = new Map<number, number>();
  const dmaOpen = new Map<number, number>();
  const engine = new Map<number, number>(); // vnic → VnicState copying record
  // Per VNIC: RxData writes (with the driver unit and RxDone read before them) not yet tied to
  // a packet, and the VNIC's current packet.
  const pendingRxData = new Map<
    number,
    Array<{ rxdata: number; driver: number; rxdone: number }>
  >();
  let lastDriver = -1; // the last driver unit not tied to a packet (SINIC's receive poll)
  let lastRxDone = -1; // the last device-wide RxDone read
  const current = new Map<number, number>();
  const interrupts: Array<{ t: number; rec: number; statusNs: number | null }> = [];
  let fifoBytes: number | null = null;
  const n = trace.length;

  const cpuStep = (i: number, kind: RxStepKind, from: RxPlace, to: RxPlace, text: string) => {
    const t = trace.time[i]!;
    const d = CpuPart.durationNs(trace, i) * 1000;
    return { kind, start: t, end: t + d, rec: i, from, to, text, cpuPart: CpuPart.part(trace, i) };
  };

  for (let i = 0; i < n; i++) {
    const k = trace.kind[i]!;
    const t = trace.time[i]!;
    switch (k) {
      case K.PeerTxStart:
        wire.set(PeerTxStart.packet(trace, i), i);
        break;
      case K.MacRxDone: {
        const a = MacRxDone.packet(trace, i);
        b.rx.add(a);
        b.arrivals.set(a, t);
        const w = wire.get(a);
        wire.delete(a);
        if (w !== undefined)
          add(b, a, {
            kind: 'wire',
            start: trace.time[w]!,
            end: t,
            rec: w,
            from: 'peer',
            to: 'fifo',
            bytes: MacRxDone.frameBytes(trace, i),
            text: `The stressor sends the ${formatNumber(MacRxDone.frameBytes(trace, i))}-byte frame${
              setup.rateMbps ? ` at ${formatNumber(setup.rateMbps / 1000)} Gb/s` : ''
            }`,
          });
        add(b, a, {
          kind: 'arrive',
          start: t,
          end: t,
          rec: i,
          from: 'fifo',
          to: 'fifo',
          bytes: MacRxDone.frameBytes(trace, i),
          holds: [{ place: 'fifo', part: 'frame' }],
          text: sinic
            ? "The frame's last bit is in SINIC's receive FIFO"
            : "The frame's last bit is in the NIC's receive FIFO",
        });
        break;
      }
      case K.FifoLevel: {
        fifoBytes = FifoLevel.fifoBytes(trace, i);
        // The level after the arrival recorded just before: say it on that step.
        const prev =
          i > 0 && trace.kind[i - 1] === K.MacRxDone ? MacRxDone.packet(trace, i - 1) : 0;
        const st = b.steps.get(prev);
        const last = st?.[st.length - 1];
        if (sinic && last?.kind === 'arrive')
          last.text += ` (${formatNumber(+(fifoBytes / 1024).toFixed(1))} KB in the FIFO)`;
        break;
      }
      case K.DmaQueued:
        if (DmaQueued.purpose(trace, i) === P.RecvDataWrite)
          dmaOpen.set(DmaQueued.dma(trace, i), i);
        else if (DmaQueued.purpose(trace, i) === P.SendDataFetch)
          b.tx.add(DmaQueued.packet(trace, i));
        break;
      case K.DmaDone: {
        if (DmaDone.purpose(trace, i) !== P.RecvDataWrite) break;
        const p = DmaDone.packet(trace, i);
        b.rx.add(p);
        const dma = DmaDone.dma(trace, i);
        const q = dmaOpen.get(dma);
        dmaOpen.delete(dma);
        const start = q !== undefined ? trace.time[q]! : t;
        add(b, p, {
          kind: 'dma',
          start,
          end: t,
          rec: q ?? i,
          from: 'fifo',
          to: 'kernel',
          bytes: DmaDone.bytes(trace, i),
          holds: [{ place: 'kernel', part: 'frame' }],
          text: offChip
            ? `DMA writes the frame into a posted buffer in DRAM, across the I/O bridge (${dur(t - start)})`
            : `DMA writes the frame into a posted buffer, straight into the L2 (${dur(t - start)})`,
        });
        break;
      }
      case K.InterruptRaise:
        interrupts.push({ t, rec: i, statusNs: null });
        break;
      case K.NicRegister: {
        const a = NicRegister.reg(trace, i);
        const vnic = NicRegister.vnic(trace, i);
        const lo = regLo(trace, i);
        const hi = regHi(trace, i);
        const ns = NicRegister.accessNs(trace, i);
        if (a === 6 /* IntrStatus */) {
          const last = interrupts[interrupts.length - 1];
          if (last && last.t === t) last.statusNs = ns;
        } else if (a === 1 && vnic === ANY_VNIC) {
          lastRxDone = i;
        } else if (a === 0 /* RxData */ && vnic !== ANY_VNIC) {
          const l = pendingRxData.get(vnic) ?? [];
          // The driver unit that ends with this write (the zero-copy one has a packet).
          const d =
            lastDriver >= 0 &&
            trace.time[lastDriver]! + CpuPart.durationNs(trace, lastDriver) * 1000 <= t + 1000 &&
            trace.time[lastDriver]! + CpuPart.durationNs(trace, lastDriver) * 1000 >= t - 1000
              ? lastDriver
              : -1;
          // The RxDone read the unit starts with (recorded just before it).
          const rd =
            d >= 0 && lastRxDone >= 0 && trace.time[lastRxDone] === trace.time[d] ? lastRxDone : -1;
          l.push({ rxdata: i, driver: d, rxdone: rd });
          lastDriver = -1;
          pendingRxData.set(vnic, l);
        } else if ((a === 2 || a === 1) /* RxWait, RxDone */ && vnic !== ANY_VNIC) {
          const p = current.get(vnic);
          if (p !== undefined)
            add(b, p, {
              kind: 'rxwait',
              start: t,
              end: t,
              rec: i,
              from: 'fifo',
              to: 'cpu',
              vnic,
              text: `${a === 2 ? 'RxWait' : 'RxDone'} returns${
                a === 2 ? ` after ${dur(ns * 1000)}` : ''
              }: ${rxDoneWords(lo, hi)}`,
            });
        }
        break;
      }
      case K.VnicState: {
        const vnic = VnicState.vnic(trace, i);
        const st = VnicState.state(trace, i);
        const p = VnicState.packet(trace, i);
        const bytes = VnicState.bytes(trace, i);
        if (p === 0) break; // posted for a packet not yet bound (the RxData it follows waits)
        b.rx.add(p);
        current.set(vnic, p);
        // The RxData writes that led here belong to this packet.
        for (const { rxdata: r, driver, rxdone } of pendingRxData.get(vnic) ?? []) {
          if (driver >= 0) {
            const waiting =
              rxdone >= 0 ? regField(regLo(trace, rxdone), regHi(trace, rxdone), 32, 16) : null;
            add(
              b,
              p,
              cpuStep(
                driver,
                'driver',
                'cpu',
                'cpu',
                `The driver reads RxDone${
                  waiting !== null ? ` (${plural(waiting, 'packet')} waiting)` : ''
                }, allocates an sk_buff${
                  setup.nic === 'v-sinic' ? ` and picks a free VNIC, ${vnic}` : ''
                } (${dur(CpuPart.durationNs(trace, driver) * 1000)})`,
              ),
            );
          }
          const len = regField(regLo(trace, r), regHi(trace, r), 40, 20);
          const noDelay = regField(regLo(trace, r), regHi(trace, r), 61, 1);
          add(b, p, {
            kind: 'rxdata',
            start: trace.time[r]!,
            end: trace.time[r]!,
            rec: r,
            from: 'cpu',
            to: 'fifo',
            vnic,
            bytes: len,
            text: noDelay
              ? `The driver writes RxData on VNIC ${vnic}: the user buffer's address, ${formatNumber(len)} B, NoDelay`
              : `The driver writes RxData on VNIC ${vnic}: an sk_buff's address and size, ${formatNumber(len)} B`,
          });
        }
        pendingRxData.delete(vnic);
        if (st === 2 /* copying */) {
          engine.set(vnic, i);
        } else if (st === 3 || st === 4 /* deferred, done */) {
          const c = engine.get(vnic);
          engine.delete(vnic);
          if (c === undefined) {
            // As the window opens (the snapshot): a deferred packet's header is in its sk_buff.
            if (st === 3)
              add(b, p, {
                kind: 'engine',
                start: t,
                end: t,
                rec: i,
                from: 'fifo',
                to: 'kernel',
                vnic,
                holds: [
                  { place: 'kernel', part: 'header' },
                  { place: 'fifo', part: 'payload' },
                ],
                text: `As the trace window opens, the header is in the sk_buff and the payload (${formatNumber(bytes)} B) waits in the FIFO, bound to VNIC ${vnic}`,
              });
            break;
          }
          const start = trace.time[c]!;
          const moved = VnicState.bytes(trace, c);
          const toUser = st === 4 && isPayloadCopy(b, p);
          const step: RxStep = {
            kind: 'engine',
            start,
            end: t,
            rec: c ?? i,
            from: 'fifo',
            to: toUser ? 'user' : 'kernel',
            vnic,
            bytes: moved,
            text: '',
          };
          if (st === 3) {
            step.holds = [
              { place: 'kernel', part: 'header' },
              { place: 'fifo', part: 'payload' },
            ];
            step.text = `Copy engine: the ${formatNumber(moved)}-byte header only, FIFO → sk_buff in the L2; the payload (${formatNumber(bytes)} B) stays in the FIFO, bound to VNIC ${vnic}`;
          } else if (toUser) {
            step.holds = [{ place: 'user', part: 'payload' }];
            step.text = `Copy engine: the ${formatNumber(moved)}-byte payload, FIFO → the user's buffer: the one copy left`;
          } else {
            step.holds = [{ place: 'kernel', part: 'frame' }];
            step.text = `Copy engine: the whole ${formatNumber(moved)}-byte frame, FIFO → sk_buff in the L2 (checksums checked as it copies)`;
          }
          add(b, p, step);
        }
        break;
      }
      case K.CpuPart: {
        const a = CpuPart.part(trace, i);
        const p = CpuPart.packet(trace, i);
        if (p === 0) {
          if (a === 0) lastDriver = i;
          break;
        }
        if (a === 0 /* driver */) {
          // CNIC: the descriptor, the sk_buff, the refill and the header read. SINIC: a unit
          // with a packet is the header read that missed the L2 (eth_type_trans()).
          const what = sinic
            ? "The driver reads the frame's header (eth_type_trans()): not in the L2, a load from DRAM"
            : 'The driver takes the filled descriptor, makes the sk_buff, refills the ring and reads the header';
          add(
            b,
            p,
            cpuStep(
              i,
              'driver',
              'kernel',
              'cpu',
              `${what} (${dur(CpuPart.durationNs(trace, i) * 1000)})`,
            ),
          );
        } else if (a === 1 /* stack */) {
          add(
            b,
            p,
            cpuStep(
              i,
              'stack',
              'kernel',
              'cpu',
              `TCP/IP examines the header in the sk_buff (${dur(CpuPart.durationNs(trace, i) * 1000)})`,
            ),
          );
        } else if (a === 2 /* copy */) {
          // The kernel copy's L2Copy is recorded just before its CPU unit.
          const prev =
            i > 0 && trace.kind[i - 1] === K.L2Copy && L2Copy.packet(trace, i - 1) === p
              ? i - 1
              : -1;
          if (prev >= 0) {
            const missed = L2Copy.linesMissed(trace, prev);
            const lines = L2Copy.lines(trace, prev);
            const s = cpuStep(
              i,
              'copy',
              'kernel',
              'user',
              `read(): the kernel copies ${formatNumber(L2Copy.bytes(trace, prev))} B, sk_buff → user buffer: ${
                missed === 0
                  ? `all ${lines} lines from the L2`
                  : missed === lines
                    ? `all ${lines} lines missed, read from DRAM`
                    : `${missed} of ${lines} lines missed (DRAM), the rest from the L2`
              } (${dur(CpuPart.durationNs(trace, i) * 1000)})`,
            );
            add(b, p, {
              ...s,
              missed,
              lines,
              bytes: L2Copy.bytes(trace, prev),
              holds: [{ place: 'user', part: 'payload' }],
            });
          } else {
            add(
              b,
              p,
              cpuStep(
                i,
                'zcsetup',
                'cpu',
                'fifo',
                `read(): skb_copy_datagram_iovec() finds the payload still in the FIFO; the CPU translates the user buffer's address (${dur(CpuPart.durationNs(trace, i) * 1000)})`,
              ),
            );
          }
        }
        break;
      }
      case K.SinicCopy:
        if (SinicCopy.direction(trace, i) === 1) b.tx.add(SinicCopy.packet(trace, i));
        break;
      case K.PeerRxDone:
        b.tx.add(PeerRxDone.packet(trace, i));
        break;
      default:
        break;
    }
  }

  // The interrupt that brought the driver to each packet: the first after it arrived, before
  // the host's first step on it.
  const its = Float64Array.from(interrupts, (x) => x.t);
  const packets: RxPacket[] = [];
  for (const [id, steps] of b.steps) {
    if (!b.rx.has(id) || b.tx.has(id)) continue;
    steps.sort((x, y) => x.start - y.start || x.rec - y.rec);
    const arrival = b.arrivals.get(id);
    const host = steps.find((s) => s.kind !== 'wire' && s.kind !== 'arrive' && s.kind !== 'dma');
    if (arrival !== undefined && host) {
      const j = firstAtOrAfter(its, arrival);
      const it = interrupts[j];
      if (it && it.t <= host.start) {
        steps.push({
          kind: 'interrupt',
          start: it.t,
          end: it.t,
          rec: it.rec,
          from: 'fifo',
          to: 'cpu',
          text: `The NIC raises the interrupt (at most one per 10 µs); the handler reads the interrupt status${
            it.statusNs !== null
              ? ` (${dur(it.statusNs * 1000)}${offChip ? ', an uncached read across the I/O bridge' : ''})`
              : ''
          }`,
        });
        steps.sort((x, y) => x.start - y.start || x.rec - y.rec);
      }
    }
    packets.push({ id, steps, before: arrival === undefined });
  }
  packets.sort((x, y) => x.steps[0]!.start - y.steps[0]!.start || x.id - y.id);
  const byId = new Map(packets.map((p) => [p.id, p]));
  const all: Array<[number, number]> = [];
  packets.forEach((p, pi) => {
    for (const s of p.steps) all.push([s.start, pi]);
  });
  all.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return {
    setup,
    packets,
    byId,
    starts: Float64Array.from(all, (x) => x[0]),
    startPacket: Int32Array.from(all, (x) => x[1]),
  };
}

/** A done engine copy of a packet whose header went before: the zero-copy payload copy. */
function isPayloadCopy(b: Builder, p: number): boolean {
  return (b.steps.get(p) ?? []).some(
    (s) => s.kind === 'engine' && s.holds?.some((h) => h.part === 'payload' && h.place === 'fifo'),
  );
}

function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
}

const cache = new WeakMap<Trace, { key: string; ix: RxPathIndex }>();

export function cachedRxPath(trace: Trace, setup: RxSetup): RxPathIndex {
  const key = JSON.stringify(setup);
  const c = cache.get(trace);
  if (c && c.key === key) return c.ix;
  const ix = buildRxPath(trace, setup);
  cache.set(trace, { key, ix });
  return ix;
}

/**
 * The packet at time t: the one with the latest step started at or before t (the first packet
 * before any step), or null when the trace has none.
 */
export function packetAt(ix: RxPathIndex, t: number): RxPacket | null {
  if (ix.packets.length === 0) return null;
  const n = countUpTo(ix.starts, t);
  return n === 0 ? ix.packets[0]! : ix.packets[ix.startPacket[n - 1]!]!;
}

export interface RxNow {
  /** Index of the packet's current step (the last started at or before t), -1 before its first. */
  step: number;
  /** 0..1 along the current step's arrow; 1 once it is done. */
  progress: number;
  /** True while the current step lasts (t before its end). */
  moving: boolean;
  /** What each place holds for this packet at t. */
  holds: Array<{ place: RxPlace; part: RxPart }>;
  /** The packet has not arrived yet (t before its first step) / has finished (after its last). */
  pending: boolean;
  finished: boolean;
}

/** Where a packet is at time t. */
export function packetNow(p: RxPacket, t: number): RxNow {
  let step = -1;
  for (let i = 0; i < p.steps.length; i++) if (p.steps[i]!.start <= t) step = i;
  let holds: RxNow['holds'] = [];
  for (const s of p.steps) {
    if (!s.holds) continue;
    if (s.end <= t) holds = s.holds;
  }
  // A frame on the wire at t is nowhere else yet.
  const cur = step >= 0 ? p.steps[step]! : null;
  const moving = !!cur && t < cur.end;
  const progress = cur
    ? cur.end > cur.start
      ? Math.min(1, (t - cur.start) / (cur.end - cur.start))
      : 1
    : 0;
  const last = p.steps[p.steps.length - 1]!;
  return {
    step,
    progress,
    moving,
    holds,
    pending: step < 0,
    finished: t >= Math.max(last.end, last.start) && step === p.steps.length - 1,
  };
}

/** The packets before and after p in arrival order (null at the ends). */
export function neighbours(
  ix: RxPathIndex,
  p: RxPacket,
): { prev: RxPacket | null; next: RxPacket | null } {
  const i = ix.packets.indexOf(p);
  return {
    prev: i > 0 ? ix.packets[i - 1]! : null,
    next: i >= 0 && i + 1 < ix.packets.length ? ix.packets[i + 1]! : null,
  };
}

/** How the NIC's path reads, in the paper's words (the view's caption). */
export function pathWords(setup: RxSetup): string {
  switch (setup.nic) {
    case 'cnic-off-chip':
      return 'Conventional NIC off chip (§2.2): DMA into posted buffers in DRAM across the I/O bridge, then the kernel copies each payload to the user — from DRAM.';
    case 'cnic-on-chip':
      return 'Conventional NIC on chip (§6): DMA into posted buffers placed in the L2, then the kernel copies each payload to the user.';
    case 'sinic':
      return 'SINIC (§3.1): the driver writes RxData with an sk_buff and waits on RxWait while the copy engine moves the frame from the FIFO into the L2; the kernel copies the payload to the user.';
    case 'v-sinic':
      return setup.zeroCopy === 'off'
        ? 'V-SINIC (§3.2): as SINIC, with a VNIC (RxData/RxDone/RxWait) per packet; the kernel copies the payload to the user.'
        : 'V-SINIC with zero copy (§3.3): only the header is copied into the sk_buff; at read() the VNIC copies the payload from the FIFO straight into the user buffer — once.';
    default:
      return 'This run is not one of the SINIC paper’s NICs.';
  }
}

/** The diagram's arrows a step uses. */
export type RxArrow =
  'wire' | 'toKernel' | 'toUser' | 'desc' | 'header' | 'copy' | 'reg' | 'irq' | 'none';

export function stepArrow(s: RxStep): RxArrow {
  switch (s.kind) {
    case 'wire':
      return 'wire';
    case 'dma':
      return 'toKernel';
    case 'engine':
      return s.to === 'user' ? 'toUser' : 'toKernel';
    case 'interrupt':
    case 'rxwait':
      return 'irq';
    case 'driver':
      return s.from === 'kernel' ? 'desc' : 'reg';
    case 'rxdata':
      return 'reg';
    case 'stack':
      return 'header';
    case 'copy':
      return 'copy';
    default:
      return 'none';
  }
}

/** The token's label on the arrow: what moves. */
export function stepToken(s: RxStep): string {
  switch (s.kind) {
    case 'wire':
    case 'dma':
      return 'frame';
    case 'engine':
      return s.to === 'user' ? 'payload' : (s.holds?.length ?? 0) > 1 ? 'header' : 'frame';
    case 'stack':
      return 'header';
    case 'copy':
      return 'payload';
    case 'interrupt':
      return 'IRQ';
    case 'rxwait':
      return 'RxWait';
    case 'rxdata':
      return 'RxData';
    case 'driver':
      return s.from === 'kernel' ? 'descriptor' : 'RxDone';
    default:
      return '';
  }
}
