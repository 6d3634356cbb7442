// What the ETA+AIO view draws (Brecht et al., "Evaluating Network Processing Efficiency with
// Processor Partitioning and Asynchronous I/O", EuroSys 2006), from the core's records and
// metrics: the two CPUs' lanes (the PPE's iterations and empty stretches, the application's work
// and its signals), the doorbell and event queues filling and draining, Table 1's cycle bins per
// sweep point and Fig 4's utilisation against throughput. Nothing is computed but the layout.
import { ETA_BIN_PALETTE } from '../kit/palette';
import type { Check, RunOutput } from '../engine/types';
import { paramAt } from '../engine/types';
import type { TraceColumns } from '../trace/records.gen';
import type { DoneRun } from '../run/store';
import { formatTime } from '../kit/format';
import {
  EtaAck,
  EtaCpuWork,
  EtaDone,
  EtaDoorbell,
  EtaEvent,
  EtaIdle,
  EtaInterrupt,
  EtaIteration,
  EtaRequest,
  EtaSegment,
  EtaSignal,
} from '../trace/records.gen';

export const ETA_BINS = ['user', 'tcpip', 'ethernet', 'kernel_other', 'ppe_other', 'idle'] as const;
export type EtaBinKey = (typeof ETA_BINS)[number];
export const ETA_BIN_LABELS: Record<EtaBinKey, string> = {
  user: 'user',
  tcpip: 'TCP/IP',
  ethernet: 'Ethernet',
  kernel_other: 'kernel other',
  ppe_other: 'PPE other',
  idle: 'idle',
};
// Okabe-Ito hues, distinct for colour-blind readers; idle is the page's light grey.
export const ETA_BIN_COLORS: Record<EtaBinKey, string> = ETA_BIN_PALETTE;
/** The trace's etaBin table order (core-cpp/trace/trace_kinds.json). */
const BIN_OF_TABLE: readonly EtaBinKey[] = [
  'user',
  'tcpip',
  'ethernet',
  'kernel_other',
  'ppe_other',
];

const SYSTEM_LABELS: Record<string, string> = {
  'eta-aio': 'ETA+AIO',
  'baseline-sendfile': 'baseline, sendfile',
  'baseline-write': 'baseline, write',
  'baseline-1cpu': '1-CPU baseline (×2)',
};
export function systemLabel(v: unknown): string {
  return SYSTEM_LABELS[String(v)] ?? String(v);
}

export interface BinBar {
  key: string;
  label: string;
  parts: Record<EtaBinKey, number>;
  /** Table 1's shares for this point, when the scenario's checks give them. */
  paper: Partial<Record<EtaBinKey, number>> | null;
  throughput: number | null;
}

function pointLabel(at: Record<string, unknown>): string {
  return Object.entries(at)
    .map(([k, v]) =>
      k === 'system.eta.system'
        ? systemLabel(v)
        : `${k.split('.').pop()?.replace(/_/g, ' ')} ${String(v)}`,
    )
    .join(', ');
}

function sameAt(a: Record<string, unknown> | null | undefined, b: Record<string, unknown>) {
  if (!a) return Object.keys(b).length === 0;
  return Object.entries(a).every(([k, v]) => b[k] === v);
}

/** One bar per sweep point (or the main run): Table 1's bins, with the paper's beside. */
export function etaBinBars(out: RunOutput): BinBar[] {
  const spec = out.sweep_spec;
  const points: { at: Record<string, unknown>; results: RunOutput['results'] }[] =
    spec && out.sweep.length > 0
      ? out.sweep.map((e) => {
          const at: Record<string, unknown> = { [spec.parameter]: e.value };
          if (spec.series_parameter && e.series !== undefined) at[spec.series_parameter] = e.series;
          return { at, results: e.results };
        })
      : [{ at: {}, results: out.results }];
  return points
    .filter((p) => p.results.eta_bin_tcpip !== undefined)
    .map((p) => {
      const parts = {} as Record<EtaBinKey, number>;
      for (const b of ETA_BINS) parts[b] = p.results[`eta_bin_${b}`]?.value ?? 0;
      const paper: Partial<Record<EtaBinKey, number>> = {};
      for (const c of out.checks) {
        if (!c.metric?.startsWith('eta_bin_') || c.comparison !== 'within') continue;
        if (!sameAt(c.at, p.at) || typeof c.expected !== 'number') continue;
        paper[c.metric.slice('eta_bin_'.length) as EtaBinKey] = c.expected;
      }
      return {
        key: JSON.stringify(p.at),
        label: pointLabel(p.at) || 'this run',
        parts,
        paper: Object.keys(paper).length > 0 ? paper : null,
        throughput: p.results.eta_throughput?.value ?? null,
      };
    });
}

export interface CurvePoint {
  throughput: number;
  utilization: number;
}
export interface Curve {
  label: string;
  points: CurvePoint[];
}
/** The paper's Fig 4 points the text gives (§7): ETA+AIO 62% and sendfile 71% at 2,266 Mb/s,
 * and Table 1's utilisations at 2,218 Mb/s. */
export const PAPER_POINTS: readonly (CurvePoint & { label: string })[] = [
  { label: 'ETA+AIO', throughput: 2266, utilization: 0.62 },
  { label: 'baseline, sendfile', throughput: 2266, utilization: 0.71 },
  { label: 'ETA+AIO', throughput: 2218, utilization: 0.6076 },
  { label: 'baseline, sendfile', throughput: 2218, utilization: 0.707 },
  { label: '1-CPU baseline (×2)', throughput: 2218, utilization: 0.5992 },
];
/** The peaks the paper gives (Fig 4), Mb/s. */
export const PAPER_PEAKS: readonly { label: string; throughput: number }[] = [
  { label: 'baseline, write', throughput: 1916 },
  { label: 'ETA+AIO', throughput: 2266 },
  { label: 'baseline, sendfile', throughput: 2832 },
];

/** Utilisation against throughput, one curve per system of the sweep (Fig 4). */
export function etaCurves(out: RunOutput): Curve[] {
  const spec = out.sweep_spec;
  if (!spec || out.sweep.length === 0) return [];
  const bySystem = new Map<string, CurvePoint[]>();
  for (const e of out.sweep) {
    const sys =
      spec.series_parameter === 'system.eta.system'
        ? e.series
        : spec.parameter === 'system.eta.system'
          ? e.value
          : paramAt(out.parameters, 'system.eta.system');
    const t = e.results.eta_throughput?.value;
    const u = e.results.eta_cpu_utilization?.value;
    if (t === undefined || u === undefined) continue;
    const label = systemLabel(sys);
    const list = bySystem.get(label) ?? [];
    list.push({ throughput: t, utilization: u });
    bySystem.set(label, list);
  }
  return [...bySystem.entries()].map(([label, points]) => ({
    label,
    points: [...points].sort((a, b) => a.throughput - b.throughput),
  }));
}

export interface LaneSpan {
  cpu: number;
  start: number;
  end: number;
  /** A Table 1 bin, or 'empty' for the PPE's empty iterations. */
  what: EtaBinKey | 'empty';
  title: string;
  /** The empty iterations of an empty stretch (1 for work). */
  iterations: number;
}
export interface DepthStep {
  time: number;
  depth: number;
}
export interface EtaLanes {
  spans: LaneSpan[];
  signals: { time: number; step: number }[];
  doorbell: DepthStep[];
  events: DepthStep[];
}

const SIGNAL_WORDS = ['armed', 'raised (IQ + IPI)', 'delivered'];
export function signalWord(step: number): string {
  return SIGNAL_WORDS[step] ?? 'signal';
}

/** The lanes' spans and the queues' depths from the records between `from` and `to` (ps). */
export function etaLanes(
  t: TraceColumns & { readonly time: Float64Array; readonly length: number },
  mhz: number,
  from: number,
  to: number,
): EtaLanes {
  const psPerCycle = 1e6 / mhz;
  const out: EtaLanes = { spans: [], signals: [], doorbell: [], events: [] };
  let dbq = -1;
  let evq = -1;
  for (let i = 0; i < t.length; i++) {
    const time = t.time[i]!;
    if (EtaIdle.is(t, i)) {
      const start = time - EtaIdle.durationNs(t, i) * 1000;
      if (time >= from && start <= to)
        out.spans.push({
          cpu: 0,
          start,
          end: time,
          what: 'empty',
          title: `${EtaIdle.iterations(t, i)} empty iterations`,
          iterations: EtaIdle.iterations(t, i),
        });
      continue;
    }
    if (time > to) continue;
    if (EtaIteration.is(t, i)) {
      const end = time + EtaIteration.cycles(t, i) * psPerCycle;
      const op = EtaIteration.op(t, i);
      if (op !== 0 && dbq > 0) dbq -= 1;
      if (op !== 0 && time >= from) out.doorbell.push({ time, depth: Math.max(0, dbq) });
      if (end < from) continue;
      const frames = EtaIteration.frames(t, i);
      out.spans.push({
        cpu: 0,
        start: time,
        end,
        what: op === 1 ? 'tcpip' : frames > 0 ? 'ethernet' : 'ppe_other',
        title: `NIC ${EtaIteration.nic(t, i)}: ${frames} frames${op === 1 ? ', a send' : op === 2 ? ', a receive posted' : ''}`,
        iterations: 1,
      });
    } else if (EtaCpuWork.is(t, i)) {
      const end = time + EtaCpuWork.cycles(t, i) * psPerCycle;
      if (end < from) continue;
      const what = BIN_OF_TABLE[EtaCpuWork.bin(t, i)] ?? 'user';
      out.spans.push({
        cpu: EtaCpuWork.cpu(t, i),
        start: time,
        end,
        what,
        title: `${ETA_BIN_LABELS[what]}, ${EtaCpuWork.cycles(t, i)} cycles`,
        iterations: 1,
      });
    } else if (EtaDoorbell.is(t, i)) {
      dbq = EtaDoorbell.depth(t, i);
      if (time >= from) out.doorbell.push({ time, depth: dbq });
    } else if (EtaEvent.is(t, i)) {
      evq = EtaEvent.depth(t, i);
      if (time >= from) out.events.push({ time, depth: evq });
    } else if (EtaSignal.is(t, i)) {
      if (time >= from) out.signals.push({ time, step: EtaSignal.step(t, i) });
    }
  }
  return out;
}

/** A NIC's queues at the cursor: frames on its receive ring waiting for the PPE's poll (or the
 * interrupt), frames waiting for or on the wire. */
export interface NicRings {
  rx: number;
  tx: number;
}
/** The application's TX/RX descriptor queues (§5) and the four NICs' rings at the cursor. */
export interface EtaQueuesAt {
  /** Sends posted and not yet complete (null: no doorbell or completion recorded yet). */
  txDescriptors: number | null;
  /** Receives posted and not yet filled by a request. */
  rxDescriptors: number | null;
  nics: NicRings[];
}

/** The queues at `cursor` (ps), as the core's records last gave them: the TX descriptors from the
 * last doorbell or finished response, the RX descriptors from the last doorbell or receive
 * completion; a receive ring from its NIC's last request, ACK taken, receive completion or
 * interrupt (which empties it); a transmit queue from the segments still on their way out. */
export function etaQueuesAt(
  t: TraceColumns & { readonly time: Float64Array; readonly length: number },
  cursor: number,
  nicCount = 4,
): EtaQueuesAt {
  const out: EtaQueuesAt = {
    txDescriptors: null,
    rxDescriptors: null,
    nics: Array.from({ length: nicCount }, () => ({ rx: 0, tx: 0 })),
  };
  const nic = (n: number) => out.nics[n] ?? (out.nics[n] = { rx: 0, tx: 0 });
  const nicOf = new Map<number, number>(); // request id → the NIC it came through
  for (let i = 0; i < t.length; i++) {
    const time = t.time[i]!;
    if (time > cursor) break;
    if (EtaDoorbell.is(t, i)) {
      out.txDescriptors = EtaDoorbell.txDescriptors(t, i);
      out.rxDescriptors = EtaDoorbell.rxDescriptors(t, i);
    } else if (EtaDone.is(t, i)) {
      if (out.txDescriptors !== null) out.txDescriptors = EtaDone.txDescriptors(t, i);
    } else if (EtaEvent.is(t, i)) {
      out.rxDescriptors = EtaEvent.rxDescriptors(t, i);
      const n = nicOf.get(EtaEvent.request(t, i));
      if (EtaEvent.queue(t, i) === 0 && n !== undefined) nic(n).rx = EtaEvent.ring(t, i);
    } else if (EtaRequest.is(t, i)) {
      nicOf.set(EtaRequest.request(t, i), EtaRequest.nic(t, i));
      nic(EtaRequest.nic(t, i)).rx = EtaRequest.ring(t, i);
    } else if (EtaAck.is(t, i)) {
      nic(EtaAck.nic(t, i)).rx = EtaAck.ring(t, i);
    } else if (EtaInterrupt.is(t, i)) {
      nic(EtaInterrupt.nic(t, i)).rx = 0;
    } else if (EtaSegment.is(t, i)) {
      if (time + EtaSegment.wireNs(t, i) * 1000 > cursor) nic(EtaSegment.nic(t, i)).tx += 1;
    }
  }
  return out;
}

/** The checks that read Table 1's bins or Fig 4's points, for the view's caption. */
export function etaChecks(checks: readonly Check[]): Check[] {
  return checks.filter((c) => c.metric?.startsWith('eta_') ?? false);
}

/** The lanes show 100 µs from the cursor, kept inside the trace window. */
export const LANE_WINDOW_PS = 100e6;
export function laneWindowFrom(
  index: { windowStart: number; windowEnd: number },
  cursor: number,
): number {
  return Math.max(index.windowStart, Math.min(cursor, index.windowEnd - LANE_WINDOW_PS));
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The NICs' rings at the cursor, in words. */
export function describeRings(nics: readonly NicRings[]): string {
  const each = nics.map((n, i) => `NIC ${i} ${n.rx} received, ${n.tx} to send`).join('; ');
  return `Frames on the NICs’ rings at the cursor: ${each}`;
}
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the view shows at the cursor, in words, for screen readers (the lanes, the bars, Fig 4). */
export function describeEta(run: Pick<DoneRun, 'output' | 'trace' | 'index'>, cursor: number) {
  const out = run.output;
  const system = paramAt(out.parameters, 'system.eta.system');
  if (system === undefined) return 'This run is not the ETA+AIO paper’s server: no CPU lanes.';
  const mhz = Number(paramAt(out.parameters, 'system.eta.cpu_mhz') ?? 2800);
  const eta = system === 'eta-aio';
  const from = laneWindowFrom(run.index, cursor);
  const lanes = etaLanes(run.trace, mhz, from, from + LANE_WINDOW_PS);
  const on = (cpu: number) => lanes.spans.filter((s) => s.cpu === cpu);
  const busy = (cpu: number) => on(cpu).filter((s) => s.what !== 'empty').length;
  const empty = on(0)
    .filter((s) => s.what === 'empty')
    .reduce((n, s) => n + s.iterations, 0);
  const parts: string[] = [];
  const span = `over 100 µs from ${formatTime(from)}`;
  if (eta) {
    parts.push(
      `ETA+AIO ${span}: the PPE (CPU 0) ran ${plural(busy(0), 'iteration')} with work and ${plural(empty, 'empty iteration')}; the application (CPU 1) ran ${plural(busy(1), 'unit')} of work and saw ${plural(lanes.signals.length, 'signal step')}`,
    );
    const deepest = (d: DepthStep[]) => d.reduce((m, x) => Math.max(m, x.depth), 0);
    parts.push(
      `the doorbell queue held at most ${deepest(lanes.doorbell)}, the event queues at most ${deepest(lanes.events)}`,
    );
    const q = etaQueuesAt(run.trace, cursor);
    parts.push(
      `At the cursor the TX descriptor queue holds ${plural(q.txDescriptors ?? 0, 'send')} awaiting completion and the RX descriptor queue ${plural(q.rxDescriptors ?? 0, 'receive')} awaiting a request`,
    );
  } else {
    parts.push(
      `The baseline ${span}: CPU 0 ran ${plural(busy(0), 'unit')} of work, CPU 1 ${plural(busy(1), 'unit')}`,
    );
  }
  parts.push(describeRings(etaQueuesAt(run.trace, cursor).nics));
  const bars = etaBinBars(out).slice(0, 4);
  for (const b of bars) {
    const shares = ETA_BINS.filter((k) => b.parts[k] >= 0.005)
      .map((k) => `${ETA_BIN_LABELS[k]} ${pct(b.parts[k])}`)
      .join(', ');
    parts.push(`Cycles, ${b.label}: ${shares}`);
  }
  const curves = etaCurves(out);
  if (curves.length > 1)
    parts.push(
      `Fig 4: utilisation against throughput for ${curves.map((c) => c.label).join(', ')}, with the paper's peaks ${PAPER_PEAKS.map((p) => `${p.label} ${p.throughput} Mb/s`).join(', ')}`,
    );
  return `${parts.join('. ')}.`;
}
