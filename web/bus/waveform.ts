// What the logic-analyser view draws for a time range: pixel runs of each signal, AD cells
// named by phase, tenure cells, ticks. Pure: (bus phase index, range, width) → geometry. Only
// the visible phases are visited; when a cycle is narrower than a few pixels, phases merge
// into bands summed from the index's prefix sums (cost independent of the trace's length).
import { countUpTo, firstAtOrAfter } from '../trace/trace';
import { BC, BP, purposeName } from '../trace/traceKinds';
import {
  CATEGORY_LABELS,
  SIG,
  dominantCategory,
  lowTimeBetween,
  phaseName,
  phaseSignals,
  portInfo,
  portOf,
  type BusPhaseIndex,
  type PortSignals,
  type SignalInterval,
} from './busPhases';
import { formatTime } from '../kit/format';

/** 0 deasserted (high), 1 asserted (low), 2 toggling faster than a pixel, 3 unknown. */
export type RunState = 0 | 1 | 2 | 3;

export interface Run {
  x0: number;
  x1: number;
  s: RunState;
}

export interface AdCell {
  x0: number;
  x1: number;
  /** 'phase': one phase; 'band': merged phases of one dominant category; 'idle': nobody drives AD. */
  kind: 'phase' | 'band' | 'idle' | 'unknown';
  phase: number;
  category: number;
  label: string;
  /** Full description for a tooltip. */
  title: string;
  cycles: number;
  /** Index of the phase (phase cells only), else -1. */
  index: number;
}

export interface TenureCell {
  x0: number;
  x1: number;
  port: number;
  label: string;
  title: string;
  tenure: number;
}

export interface WaveTick {
  x: number;
  label: string;
}

export interface PortRows {
  port: PortSignals;
  req: Run[];
  gnt: Run[];
}

export interface WaveModel {
  t0: number;
  t1: number;
  width: number;
  pxPerPs: number;
  /** Cycles wide enough to draw phase by phase. */
  detailed: boolean;
  pxPerCycle: number;
  /** x of each cycle boundary, when cycles are at least 4 px wide. */
  cycleTicks: number[];
  timeTicks: WaveTick[];
  /** Parts of the range outside the trace window. */
  outside: Array<{ x0: number; x1: number }>;
  /** Part of the window before the first known phase (a tenure was in progress). */
  unknown: { x0: number; x1: number } | null;
  tenures: TenureCell[];
  ad: AdCell[];
  /** FRAME#, IRDY#, TRDY#, STOP#. */
  control: Run[][];
  ports: PortRows[];
}

const ABBREV: Record<number, string> = {
  [BP.Arbitration]: 'arb',
  [BP.Address]: 'addr',
  [BP.DualAddress]: 'DAC',
  [BP.Attribute]: 'attr',
  [BP.Turnaround]: 'TA',
  [BP.Wait]: 'wait',
  [BP.Data]: 'data',
  [BP.Stop]: 'stop',
  [BP.Idle]: 'idle',
  [BP.SplitResponse]: 'split',
  [BP.BusIdle]: 'idle',
};

/** One-letter marks for single cycles (the waveform's hint explains them). */
export const LETTER: Record<number, string> = {
  [BP.Arbitration]: 'R',
  [BP.Address]: 'A',
  [BP.DualAddress]: 'A',
  [BP.Attribute]: 'B',
  [BP.Turnaround]: 'T',
  [BP.Wait]: 'W',
  [BP.Data]: 'D',
  [BP.Stop]: 'S',
  [BP.Idle]: 'I',
  [BP.SplitResponse]: 'P',
};

/** Approximate width of a label at the waveform's 11 px font. */
export function textWidth(s: string): number {
  return s.length * 6.1 + (s.length === 1 ? 3 : 6);
}

function fit(width: number, ...candidates: string[]): string {
  for (const c of candidates) if (c && textWidth(c) <= width) return c;
  return '';
}

/** Appends a run, merging with the previous one and folding sub-pixel runs into "toggling". */
function pushRun(out: Run[], x0: number, x1: number, s: RunState, minPx = 1): void {
  if (!(x1 > x0)) return;
  const last = out[out.length - 1];
  const narrow = x1 - x0 < minPx;
  if (last && last.s === s && x0 - last.x1 < 0.01) {
    last.x1 = x1;
    return;
  }
  if (
    last &&
    (narrow || last.x1 - last.x0 < minPx) &&
    x0 - last.x1 < 0.01 &&
    s !== 3 &&
    last.s !== 3
  ) {
    last.s = last.s === s ? s : 2;
    last.x1 = x1;
    return;
  }
  out.push({ x0, x1, s });
}

/** Runs of a signal given its asserted/unknown intervals (sorted), over [t0, t1]. */
export function runsFromIntervals(
  list: readonly SignalInterval[],
  t0: number,
  t1: number,
  x: (t: number) => number,
  from: number,
  to: number,
): Run[] {
  const out: Run[] = [];
  let cur = Math.max(t0, from);
  const end = Math.min(t1, to);
  if (!(end > cur)) return out;
  // First interval that may reach into the range.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.end <= cur) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < list.length && cur < end; i++) {
    const iv = list[i]!;
    if (iv.start >= end) break;
    const s = Math.max(iv.start, cur);
    if (s > cur) pushRun(out, x(cur), x(s), 0);
    const e = Math.min(iv.end, end);
    if (e > s) pushRun(out, x(s), x(e), iv.state);
    cur = Math.max(cur, e);
  }
  if (cur < end) pushRun(out, x(cur), x(end), 0);
  return out;
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** Tick labels relative to the cursor: "−300 ns", "0", "+1.2 µs". */
function relTime(ps: number): string {
  if (Math.abs(ps) < 0.5) return '0';
  return `${ps < 0 ? '−' : '+'}${formatTime(Math.abs(ps), 3)}`;
}

export function waveModel(
  ix: BusPhaseIndex,
  t0: number,
  t1: number,
  width: number,
  cursor: number,
): WaveModel {
  const span = Math.max(1, t1 - t0);
  const k = width / span;
  const x = (t: number) => (t - t0) * k;
  const pxPerCycle = ix.cyclePs * k;
  const detailed = pxPerCycle >= 3;
  const wStart = ix.windowStart;
  const wEnd = ix.windowEnd;
  const known0 = Math.max(t0, ix.knownFrom, wStart);
  const known1 = Math.min(t1, wEnd);

  const outside: WaveModel['outside'] = [];
  if (t0 < wStart) outside.push({ x0: 0, x1: x(Math.min(wStart, t1)) });
  if (t1 > wEnd) outside.push({ x0: x(Math.max(wEnd, t0)), x1: width });
  const unknown =
    ix.knownFrom > wStart && t0 < ix.knownFrom && t1 > wStart
      ? { x0: x(Math.max(t0, wStart)), x1: x(Math.min(t1, ix.knownFrom)) }
      : null;

  // Ticks: cycles (when wide enough), and times relative to the cursor.
  const cycleTicks: number[] = [];
  if (pxPerCycle >= 4) {
    const c0 = Math.ceil(t0 / ix.cyclePs);
    for (let c = c0; c * ix.cyclePs <= t1; c++) cycleTicks.push(x(c * ix.cyclePs));
  }
  const step = niceStep(span / Math.max(2, Math.floor(width / 110)));
  const timeTicks: WaveTick[] = [];
  for (let r = Math.ceil((t0 - cursor) / step) * step; cursor + r <= t1; r += step)
    timeTicks.push({ x: x(cursor + r), label: relTime(r) });

  // Phases in view: the one straddling t0, then those starting before t1.
  const i0 = Math.max(0, firstAtOrAfter(ix.start, t0) - 1);
  const i1 = countUpTo(ix.start, t1);

  const ad: AdCell[] = [];
  const control: Run[][] = [[], [], [], []];
  const bits = [SIG.FRAME, SIG.IRDY, SIG.TRDY, SIG.STOP];
  if (unknown) {
    ad.push({
      ...unknown,
      kind: 'unknown',
      phase: -1,
      category: -1,
      label: fit(unknown.x1 - unknown.x0, 'before the first recorded phase', 'unknown', '?'),
      title: 'A tenure was in progress when the trace window opened',
      cycles: 0,
      index: -1,
    });
    for (const runs of control) pushRun(runs, unknown.x0, unknown.x1, 3);
  }
  const idleCell = (a: number, b: number) => {
    if (!(b > a)) return;
    const cycles = Math.round((b - a) / ix.cyclePs);
    const w = x(b) - x(a);
    ad.push({
      x0: x(a),
      x1: x(b),
      kind: 'idle',
      phase: BP.BusIdle,
      category: BC.Idle,
      label: fit(w, cycles > 1 ? `bus idle ${cycles}` : 'bus idle', 'idle'),
      title: `bus idle · ${cycles} cycle${cycles === 1 ? '' : 's'}`,
      cycles,
      index: -1,
    });
    for (const runs of control) pushRun(runs, x(a), x(b), 0);
  };

  if (known1 > known0) {
    if (detailed) {
      let cur = known0;
      for (let i = i0; i < i1; i++) {
        const s = Math.max(ix.start[i]!, known0);
        const e = Math.min(ix.end[i]!, known1);
        if (!(e > s)) continue;
        if (s > cur) idleCell(cur, s);
        const ph = ix.phase[i]!;
        const cycles = Math.round((ix.end[i]! - ix.start[i]!) / ix.cyclePs);
        const w = x(e) - x(s);
        const name = phaseName(ph);
        const cat = ix.category[i]!;
        const withCycles = cycles > 1 ? `${name} ${cycles}` : name;
        const catNote =
          ph === BP.Data ? ` · ${CATEGORY_LABELS[cat]}` : cat === BC.Retry ? ' · retry' : '';
        ad.push({
          x0: x(s),
          x1: x(e),
          kind: 'phase',
          phase: ph,
          category: cat,
          label: fit(w, withCycles, name, ABBREV[ph] ?? '', LETTER[ph] ?? ''),
          title: `${name} · ${cycles} cycle${cycles === 1 ? '' : 's'}${catNote}`,
          cycles,
          index: i,
        });
        const sig = phaseSignals(ph);
        // FRAME# is released in the final data phase's last cycle.
        const frameOff = ix.finalData[i] ? Math.max(s, ix.end[i]! - ix.cyclePs) : Infinity;
        for (let b = 0; b < 4; b++) {
          const on = (sig & bits[b]!) !== 0;
          if (b === 0 && on && frameOff < e) {
            pushRun(control[b]!, x(s), x(frameOff), 1);
            pushRun(control[b]!, x(frameOff), x(e), 0);
          } else pushRun(control[b]!, x(s), x(e), on ? 1 : 0);
        }
        cur = e;
      }
      if (cur < known1) idleCell(cur, known1);
    } else {
      // Bands: 2-px bins, each named by its dominant category.
      const bin = 2 / k;
      let prev: AdCell | null = null;
      for (let b0 = known0; b0 < known1; b0 += bin) {
        const b1 = Math.min(known1, b0 + bin);
        const cat = dominantCategory(ix, b0, b1);
        if (prev && prev.category === cat) prev.x1 = x(b1);
        else {
          prev = {
            x0: x(b0),
            x1: x(b1),
            kind: cat === BC.Idle ? 'idle' : 'band',
            phase: -1,
            category: cat,
            label: '',
            title: '',
            cycles: 0,
            index: -1,
          };
          ad.push(prev);
        }
        for (let s = 0; s < 4; s++) {
          const f = lowTimeBetween(ix, s, b0, b1) / (b1 - b0);
          pushRun(control[s]!, x(b0), x(b1), f < 0.02 ? 0 : f > 0.98 ? 1 : 2, 0);
        }
      }
      for (const c of ad) {
        if (c.kind === 'unknown') continue;
        const cycles = ((c.x1 - c.x0) / k / ix.cyclePs) | 0;
        c.cycles = cycles;
        const name = c.kind === 'idle' ? 'idle' : (CATEGORY_LABELS[c.category] ?? '');
        c.label = fit(c.x1 - c.x0, name, name.split(' ')[0] ?? '');
        c.title = `${name} · about ${cycles} cycles`;
      }
    }
  }

  // Tenures: who owns the bus.
  const tenures: TenureCell[] = [];
  let ti = Math.max(0, countUpTo(ix.tenureGrant, t0) - 1);
  for (; ti < ix.tenures.length; ti++) {
    const te = ix.tenures[ti]!;
    if (te.grant >= t1) break;
    const end = Number.isFinite(te.end) ? te.end : wEnd;
    const a = Math.max(te.grant, t0, te.partial ? wStart : -Infinity);
    const b = Math.min(end, t1);
    if (!(b > a)) continue;
    const pinfo = portInfo(portOf(te.port), ix.nics);
    const what = te.purpose >= 0 ? purposeName(te.purpose) : '';
    const last = tenures[tenures.length - 1];
    if (
      last &&
      last.port === portOf(te.port) &&
      (x(b) - x(a) < 1 || last.x1 - last.x0 < 1) &&
      x(a) - last.x1 < 1
    ) {
      last.x1 = x(b);
      last.label = fit(last.x1 - last.x0, pinfo.short);
      continue;
    }
    const w = x(b) - x(a);
    tenures.push({
      x0: x(a),
      x1: x(b),
      port: portOf(te.port),
      label: fit(w, `${pinfo.short} · ${what}`, pinfo.short, pinfo.short.replace('NIC ', 'N')),
      title: `${pinfo.label}${what ? ` · ${what}` : ''}${te.moved >= 0 ? ` · ${te.moved} B` : ''}`,
      tenure: ti,
    });
  }

  const ports: PortRows[] = ix.ports.map((p) => ({
    port: p,
    req: runsFromIntervals(p.req, t0, t1, x, wStart, wEnd),
    gnt: runsFromIntervals(p.gnt, t0, t1, x, wStart, wEnd),
  }));

  return {
    t0,
    t1,
    width,
    pxPerPs: k,
    detailed,
    pxPerCycle,
    cycleTicks,
    timeTicks,
    outside,
    unknown,
    tenures,
    ad,
    control,
    ports,
  };
}

/** Zoom limits: a dozen cycles up to the whole window (at least). */
export function zoomLimits(ix: BusPhaseIndex): { min: number; max: number } {
  const min = 12 * ix.cyclePs;
  const max = Math.max(min * 4, (ix.windowEnd - ix.windowStart) * 1.1);
  return { min, max };
}
