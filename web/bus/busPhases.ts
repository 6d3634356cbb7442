// The cycle-accounted PCI/PCI-X bus as the trace records it, indexed once per run (typed
// arrays): every BusPhase with its real end, the tenures (BusGrant … BusTxnEnd), each master's
// REQ#/GNT#, and prefix sums of cycles per category so that any time range is summed in
// O(log n). The waveform and the utilisation bar are pure functions of this index and a time.
//
// A phase lasts until the next BusPhase record or its tenure's BusTxnEnd, and never longer than
// its planned cycles (a latency-timer cut ends a data phase early: the next record comes sooner).
// Between tenures the bus is idle (no record).
import { countUpTo, firstAtOrAfter, type Trace } from '../trace/trace';
import {
  BC,
  BP,
  BUS_PHASE_NAMES,
  C,
  K,
  P,
  componentInstance,
  componentKind,
  purposeName,
} from '../trace/traceKinds';
import { paramAt, type ParameterTree, type SystemInfo } from '../engine/types';
import {
  BusGrant,
  BusPhase,
  BusRefused,
  BusRequest,
  BusTxnEnd,
  BusTxnStart,
  TABLES,
} from '../trace/records.gen';

export const CATEGORY_COUNT = TABLES.busCategory.names.length;
/** What the bus carried: packet content … other devices (thesis Figs 4.6/4.7). */
export const PAYLOAD_CATEGORIES: readonly number[] = [
  BC.Content,
  BC.NetworkHeaders,
  BC.AppHeaders,
  BC.Descriptors,
  BC.OtherDevices,
];
/** Cycles spent on the transfer, not carrying it. */
export const OVERHEAD_CATEGORIES: readonly number[] = [
  BC.Arbitration,
  BC.Address,
  BC.Wait,
  BC.Retry,
  BC.Turnaround,
];
/** Result keys bus_util_<key>, by category id. */
export const CATEGORY_RESULT_KEYS: readonly string[] = [
  'content',
  'network_headers',
  'app_headers',
  'descriptors',
  'other_devices',
  'arbitration',
  'address',
  'wait',
  'retry',
  'turnaround',
  'idle',
];
/** Short legend labels by category id. */
export const CATEGORY_LABELS: readonly string[] = [
  'packet content',
  'network headers',
  'application headers',
  'descriptors & indices',
  'other devices',
  'arbitration',
  'address',
  'wait/stall',
  'retry',
  'turnaround',
  'idle',
];

/** Control signals, as bits: set = asserted (driven low). */
export const SIG = { FRAME: 1, IRDY: 2, TRDY: 4, STOP: 8 } as const;
export const SIGNAL_NAMES = ['FRAME#', 'IRDY#', 'TRDY#', 'STOP#'] as const;
const SIGNAL_BITS = [SIG.FRAME, SIG.IRDY, SIG.TRDY, SIG.STOP] as const;

/**
 * Which control signals a phase asserts (pci_facts §2): the address puts FRAME# low; after it the
 * initiator is ready (IRDY#) while the target is not (TRDY# high) through turnaround and wait
 * states; a data phase has both; a Retry/disconnect asserts STOP#; idle cycles assert nothing.
 */
export function phaseSignals(phase: number): number {
  switch (phase) {
    case BP.Address:
    case BP.DualAddress:
    case BP.Attribute:
      return SIG.FRAME;
    case BP.Turnaround:
    case BP.Wait:
      return SIG.FRAME | SIG.IRDY;
    case BP.Data:
      return SIG.FRAME | SIG.IRDY | SIG.TRDY;
    case BP.Stop:
      return SIG.IRDY | SIG.STOP;
    case BP.SplitResponse:
      return SIG.IRDY;
    default:
      return 0;
  }
}

export function phaseName(phase: number): string {
  return BUS_PHASE_NAMES[phase] ?? `phase ${phase}`;
}

/** The bus clock period in ps, as the core built the bus (1 when the run has no bus). */
export function busCyclePs(system: Pick<SystemInfo, 'bus'> | undefined): number {
  const v = system?.bus?.cycle_ps;
  return typeof v === 'number' && v > 0 ? v : 1;
}

// ---------------------------------------------------------------------------------------------
// Masters (bus ports)

export type PortRole = 'nic' | 'bridge' | 'completer' | 'disk' | 'other';

export interface BusPortInfo {
  /** Component field value: kind | instance << 8. */
  id: number;
  role: PortRole;
  instance: number;
  /** "NIC 1", "Host bridge", "Host bridge (split completions)", "Disk". */
  label: string;
  /** Short row label: "NIC 1", "Bridge", "Completer", "Disk". */
  short: string;
}

/** The bus port a component field names: a NIC's DMA channels are one master, the NIC. */
export function portOf(component: number): number {
  const kind = componentKind(component);
  const inst = componentInstance(component);
  if (kind === C.DmaRead || kind === C.DmaWrite) return C.Nic | (inst << 8);
  return component;
}

export function portInfo(id: number, nics = 1): BusPortInfo {
  const kind = componentKind(id);
  const inst = componentInstance(id);
  if (kind === C.Nic || kind === C.DmaRead || kind === C.DmaWrite) {
    const label = nics > 1 || inst > 0 ? `NIC ${inst + 1}` : 'NIC';
    return { id: portOf(id), role: 'nic', instance: inst, label, short: label };
  }
  if (kind === C.HostBridge)
    return inst === 0
      ? { id, role: 'bridge', instance: 0, label: 'Host bridge', short: 'Bridge' }
      : {
          id,
          role: 'completer',
          instance: inst,
          label: 'Host bridge (split completions)',
          short: 'Completer',
        };
  if (kind === C.Disk)
    return {
      id,
      role: 'disk',
      instance: inst,
      label: inst ? `Disk ${inst + 1}` : 'Disk',
      short: inst ? `Disk ${inst + 1}` : 'Disk',
    };
  return { id, role: 'other', instance: inst, label: `master ${id}`, short: `m${id}` };
}

const ROLE_ORDER: Record<PortRole, number> = { nic: 0, bridge: 1, completer: 2, disk: 3, other: 4 };

/** The masters the parameters promise (every NIC, the bridge, PCI-X's completer, the disk). */
export function expectedPorts(params: ParameterTree | undefined): number[] {
  const nics = Math.max(1, Number(paramAt(params, 'system.nics') ?? 1) || 1);
  const out: number[] = [];
  for (let i = 0; i < nics; i++) out.push(C.Nic | (i << 8));
  out.push(C.HostBridge);
  const detailed = (paramAt(params, 'system.bus.model') ?? 'pci') !== 'fixed';
  if (detailed && paramAt(params, 'system.bus.protocol') === 'pci-x')
    out.push(C.HostBridge | (1 << 8));
  if (Number(paramAt(params, 'system.disk.rate_mbps') ?? 0) > 0) out.push(C.Disk);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The index

export interface Tenure {
  txn: number;
  /** Master (port component id). */
  port: number;
  /** BusGrant time (the window's start when the tenure began before it). */
  grant: number;
  /** BusTxnStart time: the address phase (NaN if not seen). */
  start: number;
  /** BusTxnEnd time (Infinity if the window ends first). */
  end: number;
  /** BusTxnStart/End b: the DMA channel or master component the transfer belongs to (-1 unknown). */
  channel: number;
  /** Bytes still to move when the tenure began (BusTxnStart c), -1 unknown. */
  remaining: number;
  /** Bytes this tenure moved (BusTxnEnd c), -1 unknown. */
  moved: number;
  purpose: number;
  packet: number;
  /** [phase0, phase1) phase indices of this tenure. */
  phase0: number;
  phase1: number;
  /** Began before the trace window (no BusGrant seen). */
  partial: boolean;
  /** Record index of the BusGrant (or the first record seen). */
  rec: number;
}

export interface SignalInterval {
  start: number;
  end: number;
  /** 1: asserted (low); 3: unknown (the request was made before the trace window). */
  state: 1 | 3;
}

export interface PortSignals extends BusPortInfo {
  req: SignalInterval[];
  gnt: SignalInterval[];
  /** Times of BusRefused ("bus busy") for this master. */
  refused: number[];
}

export interface BusPhaseIndex {
  cyclePs: number;
  windowStart: number;
  windowEnd: number;
  /** From here the bus is known: the window's start, or the first record of a tenure in progress. */
  knownFrom: number;
  n: number;
  start: Float64Array;
  end: Float64Array;
  port: Uint16Array;
  phase: Uint8Array;
  category: Uint8Array;
  planned: Uint32Array;
  /** Tenure index of each phase. */
  tenure: Int32Array;
  /** 1 for the last data phase of a tenure (FRAME# is released in its final cycle). */
  finalData: Uint8Array;
  rec: Int32Array;
  /** cum[k][i]: cycles of category k in phases [0, i). */
  cum: Float64Array[];
  /** cumLow[s][i]: ps during which signal s is asserted in phases [0, i). */
  cumLow: Float64Array[];
  tenures: Tenure[];
  /** Grant times of the tenures (sorted). */
  tenureGrant: Float64Array;
  /** Masters in display order: NICs, host bridge, split completer, disk. */
  ports: PortSignals[];
  nics: number;
}

const cache = new WeakMap<Trace, BusPhaseIndex>();

export function busPhaseIndex(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  params?: ParameterTree,
  system?: Pick<SystemInfo, 'bus'>,
): BusPhaseIndex {
  const c = cache.get(trace);
  const cyc = busCyclePs(system);
  if (c && c.windowStart === windowStart && c.windowEnd === windowEnd && c.cyclePs === cyc)
    return c;
  const ix = buildBusPhaseIndex(trace, windowStart, windowEnd, params, system);
  cache.set(trace, ix);
  return ix;
}

export function buildBusPhaseIndex(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  params?: ParameterTree,
  system?: Pick<SystemInfo, 'bus'>,
): BusPhaseIndex {
  const cyc = busCyclePs(system);
  const nicsParam = Math.max(1, Number(paramAt(params, 'system.nics') ?? 1) || 1);
  // When a master stopped by Retry or a disconnect requests again (the core's bus timing).
  const retryGap = system?.bus?.retry_gap_ps ?? 0;
  const N = trace.length;
  let n = 0;
  for (let i = 0; i < N; i++) if (trace.kind[i] === K.BusPhase) n++;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const port = new Uint16Array(n);
  const phase = new Uint8Array(n);
  const category = new Uint8Array(n);
  const planned = new Uint32Array(n);
  const tenureOf = new Int32Array(n);
  const rec = new Int32Array(n);
  const tenures: Tenure[] = [];
  const byTxn = new Map<number, number>();
  const requests = new Map<number, number[]>();
  const refused = new Map<number, number[]>();
  let firstBusRec = -1;
  let firstBusTenure = -1;

  const tenureFor = (txn: number, t: number, i: number, portGuess: number): number => {
    let ti = byTxn.get(txn);
    if (ti === undefined) {
      ti = tenures.length;
      tenures.push({
        txn,
        port: portGuess,
        grant: Math.min(windowStart, t),
        start: NaN,
        end: Infinity,
        channel: -1,
        remaining: -1,
        moved: -1,
        purpose: -1,
        packet: -1,
        phase0: -1,
        phase1: -1,
        partial: true,
        rec: i,
      });
      byTxn.set(txn, ti);
    }
    return ti;
  };

  let p = 0;
  for (let i = 0; i < N; i++) {
    const k = trace.kind[i]!;
    const t = trace.time[i]!;
    switch (k) {
      case K.BusGrant: {
        const txn = BusGrant.txn(trace, i);
        if (!byTxn.has(txn)) {
          byTxn.set(txn, tenures.length);
          tenures.push({
            txn,
            port: BusGrant.master(trace, i),
            grant: t,
            start: NaN,
            end: Infinity,
            channel: -1,
            remaining: -1,
            moved: -1,
            purpose: -1,
            packet: -1,
            phase0: -1,
            phase1: -1,
            partial: false,
            rec: i,
          });
        }
        if (firstBusRec < 0) {
          firstBusRec = i;
          firstBusTenure = byTxn.get(txn)!;
        }
        break;
      }
      case K.BusTxnStart: {
        const channel = BusTxnStart.master(trace, i);
        const ti = tenureFor(BusTxnStart.txn(trace, i), t, i, portOf(channel));
        const te = tenures[ti]!;
        te.start = t;
        te.channel = channel;
        te.remaining = BusTxnStart.bytes(trace, i);
        te.purpose = BusTxnStart.purpose(trace, i);
        te.packet = BusTxnStart.packet(trace, i);
        if (firstBusRec < 0) {
          firstBusRec = i;
          firstBusTenure = ti;
        }
        break;
      }
      case K.BusTxnEnd: {
        const ti = tenureFor(BusTxnEnd.txn(trace, i), t, i, portOf(BusTxnEnd.master(trace, i)));
        const te = tenures[ti]!;
        te.end = t;
        te.moved = BusTxnEnd.bytes(trace, i);
        if (te.channel < 0) {
          te.channel = BusTxnEnd.master(trace, i);
          te.purpose = BusTxnEnd.purpose(trace, i);
          te.packet = BusTxnEnd.packet(trace, i);
        }
        if (firstBusRec < 0) {
          firstBusRec = i;
          firstBusTenure = ti;
        }
        break;
      }
      case K.BusPhase: {
        const master = BusPhase.master(trace, i);
        const ti = tenureFor(BusPhase.txn(trace, i), t, i, master);
        const te = tenures[ti]!;
        te.port = master;
        if (te.phase0 < 0) te.phase0 = p;
        te.phase1 = p + 1;
        start[p] = t;
        port[p] = master;
        phase[p] = BusPhase.phase(trace, i);
        planned[p] = BusPhase.cycles(trace, i);
        category[p] = Math.min(BusPhase.category(trace, i), CATEGORY_COUNT - 1);
        tenureOf[p] = ti;
        rec[p] = i;
        p++;
        if (firstBusRec < 0) {
          firstBusRec = i;
          firstBusTenure = ti;
        }
        break;
      }
      case K.BusRequest: {
        // The requesting master is the record's component; older cores put it in field a.
        const comp = trace.component[i]!;
        const m = portOf(componentKind(comp) === C.Bus ? BusRequest.master(trace, i) : comp);
        let l = requests.get(m);
        if (!l) requests.set(m, (l = []));
        l.push(t);
        break;
      }
      case K.BusRefused: {
        const m = portOf(BusRefused.master(trace, i));
        let l = refused.get(m);
        if (!l) refused.set(m, (l = []));
        l.push(t);
        break;
      }
      default:
        break;
    }
  }

  // Phase ends: the next phase, the tenure's end, or the planned cycles, whichever comes first.
  for (let i = 0; i < n; i++) {
    let e = start[i]! + planned[i]! * cyc;
    if (i + 1 < n && start[i + 1]! < e) e = start[i + 1]!;
    const te = tenures[tenureOf[i]!]!;
    if (te.end >= start[i]! && te.end < e) e = te.end;
    end[i] = Math.max(start[i]!, e);
  }
  const finalData = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (phase[i] !== BP.Data) continue;
    const last = i + 1 >= n || tenureOf[i + 1] !== tenureOf[i] || phase[i + 1] !== BP.Data;
    if (last) finalData[i] = 1;
  }

  const knownFrom =
    firstBusRec >= 0 && tenures[firstBusTenure]?.partial
      ? Math.max(windowStart, trace.time[firstBusRec]!)
      : windowStart;

  // Prefix sums: cycles per category, asserted time per signal.
  const cum: Float64Array[] = [];
  for (let k = 0; k < CATEGORY_COUNT; k++) cum.push(new Float64Array(n + 1));
  const cumLow: Float64Array[] = SIGNAL_BITS.map(() => new Float64Array(n + 1));
  for (let i = 0; i < n; i++) {
    const d = end[i]! - start[i]!;
    const cycles = d / cyc;
    for (let k = 0; k < CATEGORY_COUNT; k++) cum[k]![i + 1] = cum[k]![i]!;
    cum[category[i]!]![i + 1]! += cycles;
    const bits = phaseSignals(phase[i]!);
    for (let s = 0; s < SIGNAL_BITS.length; s++)
      cumLow[s]![i + 1] = cumLow[s]![i]! + (bits & SIGNAL_BITS[s]! ? d : 0);
  }

  // Masters: the promised ones, then any other seen.
  const seen = new Set<number>(expectedPorts(params));
  for (const te of tenures) seen.add(portOf(te.port));
  for (const m of requests.keys()) seen.add(m);
  const nics = Math.max(
    nicsParam,
    ...[...seen].filter((id) => componentKind(id) === C.Nic).map((id) => componentInstance(id) + 1),
  );
  const ports: PortSignals[] = [...seen]
    .map((id) => ({
      ...portInfo(id, nics),
      req: [] as SignalInterval[],
      gnt: [] as SignalInterval[],
      refused: refused.get(id) ?? [],
    }))
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.instance - b.instance);
  const portIx = new Map(ports.map((ps, i) => [ps.id, i]));

  // GNT#: asserted from the grant to the end of the tenure.
  const byPort: number[][] = ports.map(() => []);
  tenures.forEach((te, ti) => {
    const pi = portIx.get(portOf(te.port));
    if (pi === undefined) return;
    byPort[pi]!.push(ti);
    const lastEnd = te.phase1 > 0 ? end[te.phase1 - 1]! : te.grant;
    ports[pi]!.gnt.push({
      start: te.partial ? windowStart : te.grant,
      end: Number.isFinite(te.end) ? te.end : Math.max(windowEnd, lastEnd),
      state: 1,
    });
  });
  const addressTime = (te: Tenure) =>
    Number.isFinite(te.start)
      ? te.start
      : te.phase0 >= 0
        ? (firstNonArbitration(te, phase, start) ?? te.grant)
        : te.grant;

  // REQ#: asserted from a request until the master's tenure begins its transaction (the master
  // keeps REQ# through arbitration); re-asserted when a transfer needs another tenure.
  ports.forEach((ps, pi) => {
    const own = byPort[pi]!;
    const reqTimes = requests.get(ps.id) ?? [];
    const nextTenureAfter = (t: number): Tenure | undefined => {
      for (const ti of own) {
        const te = tenures[ti]!;
        if (!te.partial && te.grant >= t) return te;
      }
      return undefined;
    };
    for (const r of reqTimes) {
      const te = nextTenureAfter(r);
      ps.req.push({ start: r, end: te ? addressTime(te) : windowEnd, state: 1 });
    }
    // The first tenure of a master whose request came before the window: unknown since then.
    const first = own.map((ti) => tenures[ti]!).find((te) => !te.partial);
    if (first && !(reqTimes.length && reqTimes[0]! <= first.grant)) {
      const before = own.map((ti) => tenures[ti]!).filter((te) => te.partial);
      const from = before.length ? Math.min(before[0]!.end, first.grant) : windowStart;
      ps.req.push({ start: from, end: addressTime(first), state: before.length ? 1 : 3 });
    }
  });
  // Continuations: a tenure that moved only part of its transfer (latency timer, disconnect,
  // Retry) or a split completion leaves the transfer's master requesting again at once.
  for (let ti = 0; ti < tenures.length; ti++) {
    const te = tenures[ti]!;
    if (!Number.isFinite(te.end) || te.channel < 0) continue;
    const phases = tenurePhases(te, phase);
    if (phases.has(BP.SplitResponse)) continue;
    const q = portOf(te.channel);
    const pi = portIx.get(q);
    if (pi === undefined) continue;
    const completion = portOf(te.port) !== q;
    // Unknown remaining (the tenure began before the window): judged by the next tenure below.
    const partialMove = te.moved >= 0 && (te.remaining < 0 || te.moved < te.remaining);
    if (!completion && !partialMove) continue;
    // The same transfer's next tenure of that master, with no fresh request in between.
    let next: Tenure | undefined;
    for (const tj of byPort[pi]!) {
      const u = tenures[tj]!;
      if (u.partial || u.grant < te.end || tj === ti) continue;
      next = u;
      break;
    }
    if (!next) {
      if (!completion && te.remaining >= 0)
        ports[pi]!.req.push({
          start: te.end + gapAfter(phases, retryGap),
          end: windowEnd,
          state: 1,
        });
      continue;
    }
    if (next.channel !== te.channel || next.purpose !== te.purpose || next.packet !== te.packet)
      continue;
    const reqs = requests.get(q) ?? [];
    const fresh = reqs.some((r) => r >= te.end && r <= next.grant);
    if (fresh) continue;
    const from = Math.min(te.end + gapAfter(phases, retryGap), next.grant);
    ports[pi]!.req.push({ start: from, end: addressTime(next), state: 1 });
  }
  for (const ps of ports) {
    ps.req = mergeIntervals(ps.req);
    ps.gnt = mergeIntervals(ps.gnt);
  }

  return {
    cyclePs: cyc,
    windowStart,
    windowEnd,
    knownFrom,
    n,
    start,
    end,
    port,
    phase,
    category,
    planned,
    tenure: tenureOf,
    finalData,
    rec,
    cum,
    cumLow,
    tenures,
    tenureGrant: Float64Array.from(tenures.map((te) => te.grant)),
    ports,
    nics,
  };
}

function firstNonArbitration(
  te: Tenure,
  phase: Uint8Array,
  start: Float64Array,
): number | undefined {
  for (let i = te.phase0; i < te.phase1; i++) if (phase[i] !== BP.Arbitration) return start[i];
  return undefined;
}

function tenurePhases(te: Tenure, phase: Uint8Array): Set<number> {
  const s = new Set<number>();
  if (te.phase0 >= 0) for (let i = te.phase0; i < te.phase1; i++) s.add(phase[i]!);
  return s;
}

/** After a Retry the master drops REQ# for the retry gap (pci_facts §7). */
function gapAfter(phases: Set<number>, retryGapPs: number): number {
  return phases.has(BP.Stop) ? retryGapPs : 0;
}

export function mergeIntervals(list: SignalInterval[]): SignalInterval[] {
  // Known (asserted) time wins over unknown time; then touching runs of one state join.
  const known = list.filter((iv) => iv.end > iv.start && iv.state === 1);
  known.sort((a, b) => a.start - b.start);
  const low: SignalInterval[] = [];
  for (const iv of known) {
    const last = low[low.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else low.push({ ...iv });
  }
  const out: SignalInterval[] = [...low];
  for (const u of list) {
    if (u.state !== 3 || !(u.end > u.start)) continue;
    // The parts of u not covered by a known interval.
    let from = u.start;
    for (const k of low) {
      if (k.end <= from) continue;
      if (k.start >= u.end) break;
      if (k.start > from) out.push({ start: from, end: k.start, state: 3 });
      from = Math.max(from, k.end);
    }
    if (from < u.end) out.push({ start: from, end: u.end, state: 3 });
  }
  out.sort((a, b) => a.start - b.start);
  const merged: SignalInterval[] = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last && last.state === iv.state && iv.start <= last.end)
      last.end = Math.max(last.end, iv.end);
    else merged.push(iv);
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Index of the phase in progress at t, or -1 (bus idle, or unknown). */
export function phaseAt(ix: BusPhaseIndex, t: number): number {
  const i = countUpTo(ix.start, t) - 1;
  if (i < 0) return -1;
  // Zero-length phases (a cut at their first cycle) are skipped.
  for (let j = i; j >= 0 && ix.start[j] === ix.start[i]; j--) if (t < ix.end[j]!) return j;
  return -1;
}

/** Tenure index whose [grant, end) contains t, or -1. */
export function tenureAt(ix: BusPhaseIndex, t: number): number {
  const i = countUpTo(ix.tenureGrant, t) - 1;
  for (let j = i; j >= 0 && j >= i - 2; j--) {
    const te = ix.tenures[j]!;
    if (t >= te.grant && t < te.end) return j;
  }
  return -1;
}

export type Level = 'high' | 'low' | 'unknown';

export interface SignalsAt {
  /** The bus state is known at t (inside the window, after a tenure in progress was seen). */
  known: boolean;
  phase: number;
  /** Phase index in the index, or -1 when the bus is idle. */
  phaseIndex: number;
  tenure: number;
  frame: Level;
  irdy: Level;
  trdy: Level;
  stop: Level;
  /** What AD carries: a phase name, 'idle' (no driver) or 'unknown'. */
  ad: string;
  req: Map<number, Level>;
  gnt: Map<number, Level>;
}

function levelIn(list: SignalInterval[], t: number): Level {
  for (const iv of list) {
    if (iv.start > t) break;
    if (t < iv.end) return iv.state === 3 ? 'unknown' : 'low';
  }
  return 'high';
}

/** Every signal's level at time t (the waveform's column at t). */
export function signalsAt(ix: BusPhaseIndex, t: number): SignalsAt {
  const req = new Map<number, Level>();
  const gnt = new Map<number, Level>();
  for (const ps of ix.ports) {
    req.set(ps.id, levelIn(ps.req, t));
    gnt.set(ps.id, levelIn(ps.gnt, t));
  }
  const known = t >= ix.knownFrom && t >= ix.windowStart && t <= ix.windowEnd;
  if (!known) {
    return {
      known,
      phase: -1,
      phaseIndex: -1,
      tenure: tenureAt(ix, t),
      frame: 'unknown',
      irdy: 'unknown',
      trdy: 'unknown',
      stop: 'unknown',
      ad: 'unknown',
      req,
      gnt,
    };
  }
  const i = phaseAt(ix, t);
  const ph = i >= 0 ? ix.phase[i]! : BP.BusIdle;
  let bits = phaseSignals(ph);
  if (i >= 0 && ix.finalData[i] && t >= ix.end[i]! - ix.cyclePs) bits &= ~SIG.FRAME;
  const lv = (b: number): Level => (bits & b ? 'low' : 'high');
  return {
    known,
    phase: ph,
    phaseIndex: i,
    tenure: i >= 0 ? ix.tenure[i]! : tenureAt(ix, t),
    frame: lv(SIG.FRAME),
    irdy: lv(SIG.IRDY),
    trdy: lv(SIG.TRDY),
    stop: lv(SIG.STOP),
    ad: i >= 0 ? phaseName(ph) : 'idle',
    req,
    gnt,
  };
}

/** Cycles of category k in phases before t (phases straddling t count up to t). */
function cumAt(ix: BusPhaseIndex, k: number, t: number): number {
  const i = firstAtOrAfter(ix.start, t);
  let v = ix.cum[k]![i]!;
  if (i > 0 && ix.end[i - 1]! > t && ix.category[i - 1] === k)
    v -= (ix.end[i - 1]! - t) / ix.cyclePs;
  return v;
}

export interface CycleTotals {
  /** Cycles per category (idle included: elapsed minus busy). */
  cycles: number[];
  elapsed: number;
  busy: number;
  from: number;
  to: number;
}

/** Bus cycles by category between two times (clipped to the known part of the window). */
export function cyclesBetween(ix: BusPhaseIndex, t0: number, t1: number): CycleTotals {
  const from = Math.max(t0, ix.knownFrom);
  const to = Math.min(t1, ix.windowEnd);
  const cycles = new Array<number>(CATEGORY_COUNT).fill(0);
  if (!(to > from)) return { cycles, elapsed: 0, busy: 0, from, to: Math.max(from, to) };
  let busy = 0;
  for (let k = 0; k < CATEGORY_COUNT; k++) {
    if (k === BC.Idle) continue;
    const v = Math.max(0, cumAt(ix, k, to) - cumAt(ix, k, from));
    cycles[k] = v;
    busy += v;
  }
  // Phases recorded as idle cycles (none today) and the gaps between tenures.
  const elapsed = (to - from) / ix.cyclePs;
  cycles[BC.Idle] += Math.max(0, elapsed - busy);
  return { cycles, elapsed, busy, from, to };
}

/** Bus cycles by category from the start of the known window up to the cursor. */
export function cyclesUpTo(ix: BusPhaseIndex, t: number): CycleTotals {
  return cyclesBetween(ix, ix.knownFrom, t);
}

/** Time signal s (0 FRAME#, 1 IRDY#, 2 TRDY#, 3 STOP#) is asserted within [t0, t1], in ps. */
export function lowTimeBetween(ix: BusPhaseIndex, s: number, t0: number, t1: number): number {
  if (!(t1 > t0)) return 0;
  const arr = ix.cumLow[s]!;
  const bit = SIGNAL_BITS[s]!;
  const at = (t: number) => {
    const i = firstAtOrAfter(ix.start, t);
    let v = arr[i]!;
    if (i > 0 && ix.end[i - 1]! > t && phaseSignals(ix.phase[i - 1]!) & bit)
      v -= ix.end[i - 1]! - t;
    return v;
  };
  return Math.max(0, at(t1) - at(t0));
}

/** The category with most cycles in [t0, t1] (BC.Idle when the bus mostly idles). */
export function dominantCategory(ix: BusPhaseIndex, t0: number, t1: number): number {
  const c = cyclesBetween(ix, t0, t1).cycles;
  let best: number = BC.Idle;
  let bestV = -1;
  for (let k = 0; k < CATEGORY_COUNT; k++) {
    if (c[k]! > bestV) {
      bestV = c[k]!;
      best = k;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Tenures in words

export interface PhaseWord {
  phase: number;
  name: string;
  cycles: number;
  /** "memory stall", "target decode", "6 network headers + 184 content", … */
  note?: string;
  /** The cursor is in this phase. */
  current: boolean;
  /** Category of the phase (the first one for merged data phases). */
  category: number;
  /** Cycle of the cursor within the phase (1-based), when current. */
  at?: number;
}

export interface TenureWords {
  tenure: number;
  /** "NIC 1 DMA read". */
  title: string;
  /** "send data fetch · packet 1 · 1514 B". */
  what: string;
  phases: PhaseWord[];
  /** "NIC 1 DMA read: arbitration 2, address 1, …". */
  sentence: string;
  /** Why the transfer needs another tenure, or a note on a split read. */
  outcome: string | null;
  port: BusPortInfo;
  total: number;
  partial: boolean;
}

function channelWords(te: Tenure, ix: BusPhaseIndex, phases: Set<number>): string {
  const kind = componentKind(te.channel);
  const pinfo = portInfo(portOf(te.port), ix.nics);
  if (pinfo.role === 'completer') {
    const origin = portInfo(portOf(te.channel), ix.nics);
    return `${pinfo.label.replace(' (split completions)', '')}: split completion to ${origin.label}`;
  }
  if (kind === C.DmaRead)
    return `${pinfo.label} DMA read${phases.has(BP.SplitResponse) ? ' (split request)' : ''}`;
  if (kind === C.DmaWrite) return `${pinfo.label} DMA write`;
  if (kind === C.HostBridge)
    return te.purpose === P.RegisterRead
      ? `${pinfo.label} PIO read of a NIC register (the CPU waits)`
      : `${pinfo.label} PIO write (from the CPU)`;
  if (kind === C.Disk) return `${pinfo.label} DMA write to memory`;
  return pinfo.label;
}

function waitNote(te: Tenure, phases: Set<number>, ix: BusPhaseIndex, cat: number): string {
  if (cat === BC.Retry) return 'Retry';
  if (phases.has(BP.Attribute)) return 'target decode';
  if (te.purpose === P.RegisterRead) return 'the NIC answers';
  if (phases.has(BP.Turnaround)) return 'memory stall';
  return portInfo(portOf(te.port), ix.nics).role === 'bridge' ? 'target not ready' : 'target wait';
}

/** A tenure's phases in words; `t` marks the phase at the cursor. */
export function describeTenure(
  ix: BusPhaseIndex,
  ti: number,
  t: number,
  params?: ParameterTree,
): TenureWords | null {
  const te = ix.tenures[ti];
  if (!te) return null;
  const set = tenurePhases(te, ix.phase);
  const words: PhaseWord[] = [];
  const catNames = ['content', 'network headers', 'app headers', 'descriptor', 'other device'];
  if (te.phase0 >= 0) {
    for (let i = te.phase0; i < te.phase1; i++) {
      const ph = ix.phase[i]!;
      const cycles = Math.round((ix.end[i]! - ix.start[i]!) / ix.cyclePs);
      const current = t >= ix.start[i]! && t < ix.end[i]!;
      const at = current ? Math.floor((t - ix.start[i]!) / ix.cyclePs) : 0;
      const last = words[words.length - 1];
      if (last && last.phase === ph) {
        if (current) {
          last.current = true;
          last.at = last.cycles + at + 1;
        }
        last.cycles += cycles;
        const parts = (last as PhaseWord & { parts?: number[] }).parts;
        if (parts) parts[ix.category[i]!] = (parts[ix.category[i]!] ?? 0) + cycles;
        continue;
      }
      const w: PhaseWord & { parts?: number[] } = {
        phase: ph,
        name: phaseName(ph),
        cycles,
        current,
        category: ix.category[i]!,
        ...(current ? { at: at + 1 } : {}),
      };
      if (ph === BP.Data) {
        w.parts = new Array<number>(CATEGORY_COUNT).fill(0);
        w.parts[ix.category[i]!] = cycles;
      }
      if (ph === BP.Wait) w.note = waitNote(te, set, ix, ix.category[i]!);
      if (ix.category[i] === BC.Retry && ph !== BP.Wait) w.note = 'Retry';
      words.push(w);
    }
  }
  for (const w of words as Array<PhaseWord & { parts?: number[] }>) {
    if (!w.parts) continue;
    const used = w.parts.map((v, k) => [k, v] as const).filter(([, v]) => v > 0);
    if (used.length > 1) w.note = used.map(([k, v]) => `${v} ${catNames[k] ?? ''}`).join(' + ');
    else if (used.length === 1 && used[0]![0] < catNames.length)
      w.note = catNames[used[0]![0]] + (used[0]![0] === BC.Descriptors ? 's & indices' : '');
    delete w.parts;
  }
  const pinfo = portInfo(portOf(te.port), ix.nics);
  const title = te.channel >= 0 ? channelWords(te, ix, set) : pinfo.label;
  const bytes =
    te.moved >= 0 && te.remaining > te.moved && !set.has(BP.SplitResponse)
      ? `${te.moved} of ${te.remaining} B`
      : te.remaining >= 0
        ? `${te.remaining} B`
        : te.moved >= 0
          ? `${te.moved} B`
          : '';
  const what = [
    te.purpose >= 0 ? purposeName(te.purpose) : null,
    te.packet > 0 && te.purpose !== P.DiskTransfer ? `packet ${te.packet}` : null,
    bytes || null,
  ]
    .filter(Boolean)
    .join(' · ');
  let outcome: string | null = null;
  if (set.has(BP.SplitResponse))
    outcome =
      'Split request: the host bridge reads memory off the bus and sends the data back in its own tenure.';
  else if (set.has(BP.Stop))
    outcome =
      'The target answered Retry: memory is too slow for the initial latency limit, so the bridge fetches the data in the background and the read is repeated.';
  else if (te.moved >= 0 && te.remaining > te.moved) {
    const disc = paramAt(params, 'system.bus.read_disconnect_bytes');
    const byTimer = disc === undefined || disc === 'none' || disc === 0;
    outcome = `The burst ended after ${te.moved} of ${te.remaining} B (${
      byTimer
        ? 'the latency timer expired while another master waited'
        : 'a disconnect or the latency timer'
    }); the rest needs a new tenure.`;
  }
  const total = words.reduce((s, w) => s + w.cycles, 0);
  const sentence = `${title}: ${words
    .map((w) => `${w.name} ${w.cycles}${w.note && w.phase === BP.Wait ? ` (${w.note})` : ''}`)
    .join(', ')}`;
  return {
    tenure: ti,
    title,
    what,
    phases: words,
    sentence,
    outcome,
    port: pinfo,
    total,
    partial: te.partial,
  };
}

/** The tenure at t, else the last one before t, else the first one after. */
export function tenureNear(
  ix: BusPhaseIndex,
  t: number,
): { ti: number; when: 'now' | 'last' | 'next' } | null {
  const now = tenureAt(ix, t);
  if (now >= 0) return { ti: now, when: 'now' };
  const i = countUpTo(ix.tenureGrant, t) - 1;
  if (i >= 0) return { ti: i, when: 'last' };
  if (ix.tenures.length) return { ti: 0, when: 'next' };
  return null;
}

/** Shares of busy cycles: overhead (arbitration … turnaround) and content. */
export function trafficShares(cycles: readonly number[]): {
  busy: number;
  overhead: number;
  content: number;
  utilization: number;
} {
  let busy = 0;
  let overhead = 0;
  let total = 0;
  for (let k = 0; k < cycles.length; k++) {
    total += cycles[k]!;
    if (k === BC.Idle) continue;
    busy += cycles[k]!;
    if (OVERHEAD_CATEGORIES.includes(k)) overhead += cycles[k]!;
  }
  return {
    busy,
    overhead: busy > 0 ? overhead / busy : 0,
    content: busy > 0 ? cycles[BC.Content]! / busy : 0,
    utilization: total > 0 ? busy / total : 0,
  };
}
