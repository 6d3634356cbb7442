// Scales and paths of the charts (D3 computes, React renders).
import {
  extent,
  line,
  max,
  min,
  scaleLinear,
  scaleLog,
  type ScaleContinuousNumeric,
  type ScaleLinear,
} from 'd3';
import type { RunOutput, SweepEntry, TimeSeries } from '../engine/types';
import { seriesColor } from '../views/palette';

export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export const DEFAULT_BOX: ChartBox = {
  width: 640,
  height: 340,
  margin: { top: 16, right: 20, bottom: 48, left: 64 },
};

export interface ChartPoint {
  x: number;
  y: number;
  px: number;
  py: number;
}

export interface ChartLine {
  /** The series value as the sweep names it ("send", "33", "fixed"). */
  name: string;
  /** What the legend and tooltip show ("send", "33 MHz", "cost model"). */
  label: string;
  color: string;
  points: ChartPoint[];
  path: string;
  limitPoints: ChartPoint[];
  limitPath: string | null;
}

export interface Tick {
  value: number;
  pos: number;
  label: string;
}

export interface SweepChartModel {
  box: ChartBox;
  x: ScaleContinuousNumeric<number, number>;
  y: ScaleLinear<number, number>;
  lines: ChartLine[];
  xTicks: Tick[];
  yTicks: Tick[];
  xLabel: string;
  yLabel: string;
  xValues: number[];
  yUnit: string;
  /** The x values span more than ~20×: a logarithmic axis. */
  xLog: boolean;
  /** The y metric is a fraction, shown in percent. */
  percent: boolean;
}

export interface SweepChartSpec {
  /** Parameter on the x axis (informational; the sweep entry's value is used). */
  x?: string;
  /** Metric on the y axis, a key of each entry's results. */
  y: string;
  /** Metric of the limit curve (dashed). */
  limit?: string;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

export function groupSweep(sweep: readonly SweepEntry[]): Map<string, SweepEntry[]> {
  const groups = new Map<string, SweepEntry[]>();
  for (const e of sweep) {
    const k = e.series === undefined ? '' : String(e.series);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(e);
  }
  for (const g of groups.values()) g.sort((p, q) => num(p.value) - num(q.value));
  return groups;
}

/** Labels of the axes, and of each series value (default: as the sweep names it). */
export interface SweepLabels {
  x: string;
  y: string;
  series?: (name: string) => string;
}

/** A log axis when positive values span more than this factor. */
export const LOG_SPAN = 20;

function isPow2(v: number): boolean {
  return v > 0 && Number.isInteger(Math.log2(v));
}

export function sweepChartModel(
  output: Pick<RunOutput, 'sweep' | 'sweep_spec'>,
  spec: SweepChartSpec,
  labels: SweepLabels,
  box: ChartBox = DEFAULT_BOX,
): SweepChartModel {
  const { width, height, margin } = box;
  const entries = output.sweep.filter((e) => Number.isFinite(num(e.value)));
  const groups = groupSweep(entries);
  const xs = entries.map((e) => num(e.value));
  let yUnit = '';
  let fractions = 0;
  let others = 0;
  for (const e of entries) {
    for (const m of [e.results[spec.y], spec.limit ? e.results[spec.limit] : undefined]) {
      if (!m) continue;
      if (m.unit === 'fraction') fractions++;
      else others++;
    }
  }
  const percent = fractions > 0 && others === 0;
  const scaleY = percent ? 100 : 1;
  const ys: number[] = [];
  for (const e of entries) {
    const m = e.results[spec.y];
    if (m) {
      ys.push(m.value * scaleY);
      yUnit ||= percent ? '%' : m.unit;
    }
    const l = spec.limit ? e.results[spec.limit] : undefined;
    if (l) ys.push(l.value * scaleY);
  }
  const xMin = min(xs) ?? 0;
  const xMax = max(xs) ?? 1;
  const xLog = xMin > 0 && xMax / xMin > LOG_SPAN;
  const range: [number, number] = [margin.left, width - margin.right];
  let x: ScaleContinuousNumeric<number, number>;
  if (xLog) {
    x = scaleLog()
      .domain([xMin / 1.18, xMax * 1.18])
      .range(range);
  } else if (xMin >= 0 && xMin <= 0.3 * xMax) {
    x = scaleLinear().domain([0, xMax]).range(range).nice();
  } else {
    const pad = (xMax - xMin) * 0.12 || 0.5;
    x = scaleLinear()
      .domain([xMin - pad, xMax + pad])
      .range(range);
  }
  const y = scaleLinear()
    .domain([0, (max(ys) ?? 1) * 1.04])
    .range([height - margin.bottom, margin.top])
    .nice();
  const mk = line<ChartPoint>()
    .x((p) => p.px)
    .y((p) => p.py);

  const lines: ChartLine[] = [];
  let i = 0;
  for (const [name, g] of groups) {
    const points: ChartPoint[] = [];
    const limitPoints: ChartPoint[] = [];
    for (const e of g) {
      const xv = num(e.value);
      const m = e.results[spec.y];
      if (m) points.push({ x: xv, y: m.value * scaleY, px: x(xv), py: y(m.value * scaleY) });
      const l = spec.limit ? e.results[spec.limit] : undefined;
      if (l) limitPoints.push({ x: xv, y: l.value * scaleY, px: x(xv), py: y(l.value * scaleY) });
    }
    lines.push({
      name: name || 'simulated',
      label: name ? (labels.series?.(name) ?? name) : 'simulated',
      color: seriesColor(name, i++),
      points,
      path: mk(points) ?? '',
      limitPoints,
      limitPath: limitPoints.length ? (mk(limitPoints) ?? null) : null,
    });
  }
  // Identical limit curves (send and receive share one) are drawn once.
  const seen = new Set<string>();
  for (const l of lines) {
    if (l.limitPath && seen.has(l.limitPath)) l.limitPath = null;
    else if (l.limitPath) seen.add(l.limitPath);
  }
  const xValues = [...new Set(xs)].sort((p, q) => p - q);
  const fmt = (v: number) => formatTick(v);
  let xTickValues: number[];
  if (xLog) {
    xTickValues = xValues.every(isPow2) ? xValues : logTicks(xMin / 1.18, xMax * 1.18);
  } else {
    xTickValues = x.ticks(8);
    if (xValues.every(Number.isInteger) && xMax - xMin <= 10)
      xTickValues = xTickValues.filter(Number.isInteger);
  }
  const fmtY = y.tickFormat(6);
  return {
    box,
    x,
    y,
    lines,
    xTicks: xTickValues.map((v) => ({ value: v, pos: x(v), label: fmt(v) })),
    yTicks: y.ticks(6).map((v) => ({ value: v, pos: y(v), label: fmtY(v) })),
    xLabel: labels.x,
    yLabel: labels.y + (yUnit ? ` (${yUnit})` : ''),
    xValues,
    yUnit,
    xLog,
    percent,
  };
}

/** 1-2-5 ticks between lo and hi (a log axis). */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let d = 10 ** Math.floor(Math.log10(lo)); d <= hi; d *= 10)
    for (const m of [1, 2, 5]) if (m * d >= lo && m * d <= hi) out.push(m * d);
  return out;
}

function formatTick(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return String(+v.toPrecision(3));
}

/** The sweep value nearest to a pointer position (for the hover tooltip). */
export function nearestX(model: SweepChartModel, px: number): number | null {
  if (model.xValues.length === 0) return null;
  let best = model.xValues[0]!;
  for (const xv of model.xValues)
    if (Math.abs(model.x(xv) - px) < Math.abs(model.x(best) - px)) best = xv;
  return best;
}

export interface TimeSeriesModel {
  box: ChartBox;
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  path: string;
  xTicks: Tick[];
  yTicks: Tick[];
  xLabel: string;
  yLabel: string;
  timeScale: number;
  timeUnit: string;
  nowX: number | null;
}

/**
 * Time of a series' first sample: the core's start_ps. Output without it (older cores) samples
 * at the end of each interval, so the first sample sits at interval_ps.
 */
export function seriesStart(s: Pick<TimeSeries, 'start_ps' | 'interval_ps'>): number {
  return typeof s.start_ps === 'number' && Number.isFinite(s.start_ps) ? s.start_ps : s.interval_ps;
}

/** Time series sample i sits at start_ps + i * interval_ps. */
export function timeSeriesModel(
  s: TimeSeries,
  cursor: number | null,
  time: { scale: number; unit: string },
  box: ChartBox = DEFAULT_BOX,
): TimeSeriesModel {
  const { width, height, margin } = box;
  const t0 = seriesStart(s);
  const pts = s.values.map((v, i) => ({ t: t0 + i * s.interval_ps, v }));
  const [tMin, tMax] = extent(pts, (p) => p.t) as [number | undefined, number | undefined];
  const x = scaleLinear()
    .domain([(tMin ?? 0) / time.scale, (tMax ?? 1) / time.scale])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1, max(s.values) ?? 1)])
    .range([height - margin.bottom, margin.top])
    .nice();
  const path =
    line<{ t: number; v: number }>()
      .x((p) => x(p.t / time.scale))
      .y((p) => y(p.v))(pts) ?? '';
  const fmt = x.tickFormat(8);
  const fmtY = y.tickFormat(5);
  const cx = cursor === null ? null : x(cursor / time.scale);
  const [r0, r1] = x.range() as [number, number];
  return {
    box,
    x,
    y,
    path,
    xTicks: x.ticks(8).map((v) => ({ value: v, pos: x(v), label: fmt(v) })),
    yTicks: y.ticks(5).map((v) => ({ value: v, pos: y(v), label: fmtY(v) })),
    xLabel: `simulated time (${time.unit})`,
    yLabel: `${s.name.replace(/_/g, ' ')}${s.unit ? ` (${s.unit})` : ''}`,
    timeScale: time.scale,
    timeUnit: time.unit,
    nowX: cx !== null && cx >= r0 && cx <= r1 ? cx : null,
  };
}
