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
import type { Check, RunOutput, SweepEntry, SweepSpec, TimeSeries } from '../engine/types';
import { NEUTRAL_DARK, seriesColor } from '../kit/palette';
import { formatNumber, humanize } from '../kit/format';
import { paramTickLabel } from '../kit/paramLabels';
import { groupSweep, num, seriesStart } from '../kit/sweep';

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
  /** The swept values by name when they are not numbers (x = 1, 2, …), else null. */
  xCategories: string[] | null;
  yUnit: string;
  /** The x values span more than ~20×: a logarithmic axis. */
  xLog: boolean;
  /** The y metric is a fraction, shown in percent. */
  percent: boolean;
  /** The papers' reference values at swept points, beside the simulated ones. */
  marks: ReferenceMark[];
}

export interface SweepChartSpec {
  /** Parameter on the x axis (informational; the sweep entry's value is used). */
  x?: string;
  /** Metric on the y axis, a key of each entry's results. */
  y: string;
  /** Metric of the limit curve (dashed). */
  limit?: string;
}

/**
 * The swept values in sweep order when any is not a number (traces, NIC models): the chart
 * places them evenly at 1, 2, … and labels them by name; null for a numeric sweep.
 */
export function categoricalValues(sweep: readonly SweepEntry[]): string[] | null {
  // A choice's values are names, even those that read as numbers (machines "1994", "1996").
  if (sweep.every((e) => typeof e.value === 'number' && Number.isFinite(e.value))) return null;
  return [...new Set(sweep.map((e) => String(e.value)))];
}

/** Labels of the axes, and of each series value (default: as the sweep names it). */
export interface SweepLabels {
  x: string;
  y: string;
  series?: (name: string) => string;
  /**
   * A relative check's claim in words ("≥ 0.97 × Ethernet limit", "≈ 2.57 × value for
   * release"); default: the factor and the other metric.
   */
  relation?: (c: Check) => string | null;
}

/** A log axis when positive values span more than this factor. */
export const LOG_SPAN = 20;

function isPow2(v: number): boolean {
  return v > 0 && Number.isInteger(Math.log2(v));
}

export function sweepChartModel(
  output: Pick<RunOutput, 'sweep' | 'sweep_spec'> & Partial<Pick<RunOutput, 'checks' | 'pending'>>,
  spec: SweepChartSpec,
  labels: SweepLabels,
  box: ChartBox = DEFAULT_BOX,
): SweepChartModel {
  const { width, height, margin } = box;
  // While the sweep runs, the x axis spans the points still to come, so it stays put as they do.
  const toCome = (output.pending?.sweep_points ?? []).map((p) => ({ ...p, results: {} }));
  const categories = categoricalValues([...output.sweep, ...toCome]);
  const toX = categories ? (v: unknown) => categories.indexOf(String(v)) + 1 : num;
  const entries = output.sweep.filter((e) => Number.isFinite(toX(e.value)));
  const groups = groupSweep(entries, toX);
  const xs = [...entries, ...toCome].map((e) => toX(e.value)).filter((v) => Number.isFinite(v));
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
  const xValues = [...new Set(xs)].sort((p, q) => p - q);
  const picks = referencePicks(
    output.checks ?? [],
    spec.y,
    output.sweep_spec,
    [...groups.keys()].map(lineName),
    xValues,
    toX,
  );
  const bands = picks.map((p) => referenceBand(p.check, scaleY));
  for (const b of bands) ys.push(b.hi);
  const xMin = min(xs) ?? 0;
  const xMax = max(xs) ?? 1;
  // Powers of two (cache and block sizes: 4, 8, 16 MB) read best evenly spaced, as doublings.
  const doublings = xValues.length >= 3 && xValues.every(isPow2) && xMax / xMin >= 4;
  const xLog = !categories && xMin > 0 && (xMax / xMin > LOG_SPAN || doublings);
  const range: [number, number] = [margin.left, width - margin.right];
  let x: ScaleContinuousNumeric<number, number>;
  if (xLog) {
    x = scaleLog()
      .domain([xMin / 1.18, xMax * 1.18])
      .range(range);
  } else if (categories) {
    x = scaleLinear()
      .domain([0.5, categories.length + 0.5])
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
    .domain([Math.min(0, min(bands, (b) => b.lo) ?? 0), (max(ys) ?? 1) * 1.04])
    .range([height - margin.bottom, margin.top])
    .nice();
  const mk = line<ChartPoint>()
    .x((p) => p.px)
    .y((p) => p.py);

  const lines: ChartLine[] = [];
  let i = 0;
  // Categories (web traces, firmware names) are separate runs, not points along an axis: no
  // line joins them, and the series of one category sit side by side instead of on top.
  const dodge = (k: number) =>
    categories && groups.size > 1 ? (k - (groups.size - 1) / 2) * 9 : 0;
  for (const [name, g] of groups) {
    const points: ChartPoint[] = [];
    const limitPoints: ChartPoint[] = [];
    const dx = dodge(i);
    for (const e of g) {
      const xv = toX(e.value);
      const m = e.results[spec.y];
      if (m) points.push({ x: xv, y: m.value * scaleY, px: x(xv) + dx, py: y(m.value * scaleY) });
      const l = spec.limit ? e.results[spec.limit] : undefined;
      if (l)
        limitPoints.push({ x: xv, y: l.value * scaleY, px: x(xv) + dx, py: y(l.value * scaleY) });
    }
    lines.push({
      name: lineName(name),
      label: name ? (labels.series?.(name) ?? name) : 'simulated',
      color: seriesColor(name, i++),
      points,
      path: categories ? '' : (mk(points) ?? ''),
      limitPoints,
      limitPath: !limitPoints.length
        ? null
        : categories
          ? limitPoints.map((p) => `M${p.px - 8},${p.py}H${p.px + 8}`).join('')
          : (mk(limitPoints) ?? null),
    });
  }
  // Identical limit curves (send and receive share one) are drawn once.
  const seen = new Set<string>();
  for (const l of lines) {
    if (l.limitPath && seen.has(l.limitPath)) l.limitPath = null;
    else if (l.limitPath) seen.add(l.limitPath);
  }
  const fmt = categories
    ? (v: number) => categories[v - 1] ?? ''
    : (v: number) => paramTickLabel(spec.x, v) ?? formatTick(v);
  let xTickValues: number[];
  if (categories) {
    xTickValues = categories.map((_, k) => k + 1);
  } else if (xLog) {
    xTickValues = xValues.every(isPow2) ? xValues : logTicks(xMin / 1.18, xMax * 1.18);
  } else {
    xTickValues = x.ticks(8);
    if (xValues.every(Number.isInteger) && xMax - xMin <= 10)
      xTickValues = xTickValues.filter(Number.isInteger);
    // Sizes ("0 KB", "4 MB", "16 MB") read best at the swept values, not at round KB counts.
    if (paramTickLabel(spec.x, xMax) !== null && xValues.length <= 10) xTickValues = xValues;
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
    xCategories: categories,
    yUnit,
    xLog,
    percent,
    marks: referenceMarks(
      picks,
      bands,
      lines,
      { x, y, unit: yUnit, scale: scaleY },
      labels.relation,
    ),
  };
}

/** The line of a groupSweep key: the series value, or "simulated" for a sweep without series. */
function lineName(key: string): string {
  return key || 'simulated';
}

export type ReferenceShape = 'diamond' | 'floor' | 'ceiling';

/** within: the value ± tolerance; at_least: a floor; at_most: a ceiling. */
const SHAPES: Record<string, ReferenceShape> = {
  within: 'diamond',
  at_least: 'floor',
  at_most: 'ceiling',
};

/** A check the sweep chart can draw: its swept x value and the line it is compared with. */
export interface ReferencePick {
  check: Check & { expected: number };
  x: number;
  line: string;
}

/**
 * The checks that belong on a sweep chart: those of the y metric whose `at` names the swept
 * parameter with a value on the x axis and, when the sweep has series, the series parameter with
 * a value among the lines (a check without it belongs to the only line, if there is one).
 * Relative checks qualify too: the core already gives their expected value in the metric's units.
 */
export function referencePicks(
  checks: readonly Check[],
  yMetric: string,
  sweepSpec: SweepSpec | null | undefined,
  lineNames: readonly string[],
  xValues: readonly number[],
  toX: (v: unknown) => number = num,
): ReferencePick[] {
  const xParam = sweepSpec?.parameter;
  const seriesParam = sweepSpec?.series_parameter ?? undefined;
  const out: ReferencePick[] = [];
  for (const c of checks) {
    const at = c.at;
    const expected = c.expected;
    if (!xParam || !at || c.metric !== yMetric || !(xParam in at)) continue;
    if (typeof expected !== 'number' || !Number.isFinite(expected)) continue;
    if (!SHAPES[c.comparison ?? 'within']) continue;
    const x = toX(at[xParam]);
    if (!xValues.includes(x)) continue;
    const line =
      seriesParam !== undefined && seriesParam in at
        ? lineNames.find((n) => n === String(at[seriesParam]))
        : lineNames.length === 1
          ? lineNames[0]
          : undefined;
    if (line !== undefined) out.push({ check: { ...c, expected }, x, line });
  }
  return out;
}

/** Where a check's mark sits (y) and the values it accepts (lo … hi), in the axis's units. */
export interface ReferenceBand {
  shape: ReferenceShape;
  y: number;
  lo: number;
  hi: number;
}

/**
 * The values a check accepts, exactly as the core compares them (core-cpp/api/api.cpp): with
 * tol = tolerance × |expected|, 'within' accepts expected ± tol, 'at_least' anything from
 * expected − tol up, 'at_most' anything up to expected + tol. `scale` is 100 on a percent axis.
 */
export function referenceBand(
  c: Pick<Check, 'comparison' | 'tolerance'> & { expected: number },
  scale = 1,
): ReferenceBand {
  const shape = SHAPES[c.comparison ?? 'within'] ?? 'diamond';
  const y = c.expected * scale;
  const tol = (c.tolerance ?? 0) * Math.abs(y);
  if (shape === 'floor') return { shape, y, lo: y - tol, hi: y };
  if (shape === 'ceiling') return { shape, y, lo: y, hi: y + tol };
  return { shape, y, lo: y - tol, hi: y + tol };
}

/** A published value drawn beside the simulated line it is compared with. */
export interface ReferenceMark extends ReferenceBand {
  check: Check;
  /** The line's name and colour. */
  line: string;
  color: string;
  /** The swept value; the simulated value in the axis's units (null when the core found none). */
  x: number;
  simulated: number | null;
  /** The mark's position, a little right of the simulated point; the ends of its error bar. */
  px: number;
  py: number;
  pyLo: number;
  pyHi: number;
  pass: boolean;
  /** No parameter was tuned on this value (drawn filled); a fitted one is drawn hollow. */
  predicted: boolean;
  /** "thesis", "paper" or "reference", from the check's source. */
  who: string;
  /** "938 Mb/s ± 5%", "≥ 919 Mb/s": the absolute value the simulated one is compared with. */
  short: string;
  /** The same with a relative check's factor: "≥ 0.97 × Ethernet limit = 919 Mb/s". */
  claim: string;
  /** The tooltip: who, claim, source, the simulated value, ✓ or ✗; then the description. */
  title: string;
}

/** A mark sits this far right of its simulated point; marks that would collide, a step further. */
export const REF_DX = 10;
export const REF_STEP = 11;
/** How far each glyph reaches above and below its value (px). */
const GLYPH_REACH: Record<ReferenceShape, [number, number]> = {
  diamond: [6, 6],
  floor: [12, 1],
  ceiling: [1, 12],
};

/** "thesis" for the thesis, "paper" for the other seeds, else "reference". */
export function referencePublisher(source: string): string {
  if (/^seed 000\b/.test(source)) return 'thesis';
  if (/^seed \d+/.test(source)) return 'paper';
  return 'reference';
}

/** At least three significant digits, never fewer than the integer part: 919, 42.5, 1,562. */
function sig(v: number): string {
  const digits = Math.max(3, Math.floor(Math.log10(Math.abs(v) || 1)) + 1);
  return formatNumber(+v.toPrecision(Math.min(digits, 21)));
}

function withUnit(v: number, unit: string): string {
  if (unit === '%') return `${sig(v)}%`;
  return unit ? `${sig(v)} ${unit}` : sig(v);
}

const COMPARATOR: Record<ReferenceShape, string> = { diamond: '≈', floor: '≥', ceiling: '≤' };

/**
 * A check in words, `short` with the absolute value only ("938 Mb/s ± 5%", "≥ 919 Mb/s",
 * "≤ 1,283 Mb/s (+2%)"), `claim` with a relative check's factor too ("≥ 0.97 × Ethernet limit =
 * 919 Mb/s"; an absolute check's claim is its short form).
 */
export function referenceClaim(
  c: Check,
  band: ReferenceBand,
  unit: string,
  relation?: (c: Check) => string | null,
): { short: string; claim: string } {
  const pct = `${+((c.tolerance ?? 0) * 100).toFixed(2)}%`;
  const tol = !c.tolerance
    ? ''
    : band.shape === 'diamond'
      ? ` ± ${pct}`
      : ` (${band.shape === 'floor' ? '−' : '+'}${pct})`;
  const value = `${withUnit(band.y, unit)}${tol}`;
  const short = band.shape === 'diamond' ? value : `${COMPARATOR[band.shape]} ${value}`;
  const rel = c.relative_to;
  if (!rel || c.factor === undefined) return { short, claim: short };
  const other = rel.metric && rel.metric !== c.metric ? humanize(rel.metric) : 'value';
  const words = relation?.(c) ?? `${COMPARATOR[band.shape]} ${+c.factor.toFixed(3)} × ${other}`;
  return { short, claim: `${words} = ${value}` };
}

/**
 * The marks of the picked checks: coloured like their line, a step right of the simulated point,
 * further right when another mark at the same x would overlap it.
 */
function referenceMarks(
  picks: readonly ReferencePick[],
  bands: readonly ReferenceBand[],
  lines: readonly ChartLine[],
  axes: { x: (v: number) => number; y: (v: number) => number; unit: string; scale: number },
  relation?: (c: Check) => string | null,
): ReferenceMark[] {
  const placed: Array<{ x: number; slot: number; top: number; bottom: number }> = [];
  return picks.map((p, i) => {
    const band = bands[i]!;
    const c = p.check;
    const py = axes.y(band.y);
    const pyLo = axes.y(band.lo);
    const pyHi = axes.y(band.hi);
    const [above, below] = GLYPH_REACH[band.shape];
    const top = Math.min(pyHi, py - above) - 2;
    const bottom = Math.max(pyLo, py + below) + 2;
    let slot = 0;
    while (placed.some((q) => q.x === p.x && q.slot === slot && q.top < bottom && top < q.bottom))
      slot++;
    placed.push({ x: p.x, slot, top, bottom });
    const simulated = typeof c.simulated === 'number' ? c.simulated * axes.scale : null;
    const who = referencePublisher(c.source);
    const { short, claim } = referenceClaim(c, band, axes.unit, relation);
    const sim =
      simulated === null ? 'not simulated' : `simulated ${withUnit(simulated, axes.unit)}`;
    return {
      ...band,
      check: c,
      line: p.line,
      color: lines.find((l) => l.name === p.line)?.color ?? NEUTRAL_DARK,
      x: p.x,
      simulated,
      px: axes.x(p.x) + REF_DX + slot * REF_STEP,
      py,
      pyLo,
      pyHi,
      pass: c.pass,
      predicted: c.basis === 'predicted',
      who,
      short,
      claim,
      title: `${who}: ${claim} (${c.source}) — ${sim} ${c.pass ? '✓' : '✗'} (${c.kind || 'approximate'} comparison)${c.basis ? `, ${c.basis}` : ''}\n${c.description}${c.known_miss ? `\nWhy it misses: ${c.known_miss}` : ''}`,
    };
  });
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
