// The A/B view's pure parts: the scenario's "compare" block as the UI reads it, the text each
// variant runs, and the differences between the two runs' results and parameters. Δ and % are
// arithmetic on the two runs' own results: nothing here models anything.
import { extent, line, max, scaleLinear, type ScaleLinear } from 'd3';
import type { Metrics, ParameterSpec, ParameterTree, TimeSeries } from '../engine/types';
import type { Scenario } from '../scenarios/types';
import { type ChartBox, type Tick } from '../charts';
import { seriesStart } from '../kit/sweep';
import { flattenParameters, type OverrideValue, type Overrides } from '../run/overrides';
import { referenceBasis, type CheckBasis } from '../kit/checkBasis';
import { categoryLabel, isCategorical } from '../kit/metricNames';

export type Side = 'a' | 'b';
export const SIDES: readonly Side[] = ['a', 'b'];

export interface Variant {
  label: string;
  /** Parameter path → value: sent to the engine as the run's overrides. */
  set: Overrides;
}

export interface Comparison {
  a: Variant;
  b: Variant;
  note?: string;
  /** Results the differences table lists first. */
  metrics: string[];
  /** The labels say what each side sets (a comparison the viewer builds), see describeSet. */
  auto?: boolean;
}

/**
 * A difference counts as significant at 10% of A: the tolerance most of the presets' exact
 * references hold the model to (scenarios/*.json), so a smaller one is not a claim the model makes.
 */
export const SIGNIFICANT = 0.1;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function readVariant(x: unknown): Variant | null {
  if (!isRecord(x) || typeof x.label !== 'string' || !x.label) return null;
  const set: Overrides = {};
  if (x.set !== undefined) {
    if (!isRecord(x.set)) return null;
    for (const [k, v] of Object.entries(x.set)) {
      if (v !== null && !['number', 'string', 'boolean'].includes(typeof v)) return null;
      set[k] = v as OverrideValue;
    }
  }
  return { label: x.label, set };
}

/**
 * The scenario's "compare" block, or null when it has none. The core validates the block (and
 * refuses the scenario when it is wrong); this only reads its shape, and a block it cannot read
 * counts as none.
 */
export function comparisonOf(scenario: Scenario): Comparison | null {
  const c = scenario.compare;
  if (!isRecord(c)) return null;
  const a = readVariant(c.a);
  const b = readVariant(c.b);
  if (!a || !b) return null;
  const metrics = Array.isArray(c.metrics)
    ? c.metrics.filter((m): m is string => typeof m === 'string')
    : [];
  return { a, b, metrics, ...(typeof c.note === 'string' ? { note: c.note } : {}) };
}

/** What the A/B view compares when the scenario has no block: as written against the knobs. */
export function defaultComparison(bSet: Overrides = {}): Comparison {
  return {
    a: { label: 'as written', set: {} },
    b: { label: 'changed', set: bSet },
    metrics: [],
    auto: true,
  };
}

/** A side's label from its settings: "as written", "Bus clock 66 MHz", "Bus clock 66 MHz + 2 more". */
export function describeSet(set: Overrides, text: (path: string, v: unknown) => string): string {
  const e = Object.entries(set);
  if (!e.length) return 'as written';
  const first = text(e[0]![0], e[0]![1]);
  return e.length === 1 ? first : `${first} + ${e.length - 1} more`;
}

/**
 * The scenario text each variant runs: its main run only. A sweep would run the same points for
 * both sides whenever B changes the swept parameter, and the references check the scenario as
 * written, not a variant; the main run's results are those `nicsim <file> --set …` prints.
 */
export function variantText(text: string): string {
  const doc = JSON.parse(text) as Record<string, unknown>;
  delete doc.sweep;
  delete doc.reference;
  // The tour names sweep points and views of the whole scenario; a side runs without them.
  delete doc.tour;
  return JSON.stringify(doc);
}

/** The scenario's own value of every parameter: the core's default, then the file's. */
export function scenarioValues(
  scenario: Scenario,
  specs: readonly ParameterSpec[],
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const s of specs) if (s.default !== undefined) out.set(s.path, s.default);
  for (const section of ['system', 'workload', 'run']) {
    const tree = scenario[section];
    if (isRecord(tree)) {
      for (const [path, v] of flattenParameters(tree as ParameterTree, section)) out.set(path, v);
    }
  }
  return out;
}

export { categoryLabel, isCategorical };

export interface DiffRow {
  name: string;
  unit: string;
  a: number | null;
  b: number | null;
  /** B − A, or null when either is missing or the metric is a code. */
  delta: number | null;
  /** (B − A) / |A|, or null when A is 0 or Δ is null. */
  pct: number | null;
  /** The values differ at all. */
  changed: boolean;
  /** |%| ≥ SIGNIFICANT, or from zero to something, or a code that changed. */
  significant: boolean;
  /** One of the comparison's own metrics. */
  headline: boolean;
}

function value(m: Metrics, name: string): number | null {
  const v = m[name]?.value;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * One row per metric either run reports: the comparison's metrics first (in its order), then the
 * significant differences, largest first, then the other changes, then the equal ones.
 */
export function diffResults(a: Metrics, b: Metrics, headline: readonly string[] = []): DiffRow[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const rows = names.map((name): DiffRow => {
    const unit = a[name]?.unit ?? b[name]?.unit ?? '';
    const va = value(a, name);
    const vb = value(b, name);
    const both = va !== null && vb !== null;
    const categorical = isCategorical(unit);
    const delta = both && !categorical ? vb - va : null;
    const pct = delta !== null && va !== 0 ? delta / Math.abs(va!) : null;
    const changed = va !== vb;
    const significant =
      changed &&
      (categorical || !both || (pct === null ? delta !== 0 : Math.abs(pct) >= SIGNIFICANT));
    return {
      name,
      unit,
      a: va,
      b: vb,
      delta,
      pct,
      changed,
      significant,
      headline: headline.includes(name),
    };
  });
  const rank = (r: DiffRow) => (r.headline ? 0 : r.significant ? 1 : r.changed ? 2 : 3);
  const size = (r: DiffRow) => (r.pct === null ? (r.significant ? Infinity : 0) : Math.abs(r.pct));
  return rows.sort((p, q) => {
    const d = rank(p) - rank(q);
    if (d !== 0) return d;
    if (p.headline) return headline.indexOf(p.name) - headline.indexOf(q.name);
    return size(q) - size(p) || p.name.localeCompare(q.name);
  });
}

export interface ParamDiff {
  path: string;
  a: unknown;
  b: unknown;
}

/** The effective parameters that differ between the two runs, in A's order. */
export function changedParameters(a: ParameterTree, b: ParameterTree): ParamDiff[] {
  const fa = flattenParameters(a);
  const mb = new Map(flattenParameters(b));
  const out: ParamDiff[] = [];
  const seen = new Set<string>();
  for (const [path, va] of fa) {
    seen.add(path);
    const vb = mb.get(path);
    if (JSON.stringify(va) !== JSON.stringify(vb)) out.push({ path, a: va, b: vb });
  }
  for (const [path, vb] of mb) if (!seen.has(path)) out.push({ path, a: undefined, b: vb });
  return out;
}

/**
 * The "% of A" cell. A share (unit fraction) is itself shown in % and its Δ in percentage
 * points: a relative change of it ("+100.1%" for 50% → 100%) read as a utilisation above 100%,
 * so shares get none.
 */
export function relativeText(r: Pick<DiffRow, 'unit' | 'pct' | 'changed' | 'delta'>): string {
  if (r.unit === 'fraction') return '';
  if (r.pct !== null) return signedPercent(r.pct);
  return r.changed && r.delta !== null ? 'from 0' : '';
}

/** "+12.3%", "−4.0%", "0%": a signed percentage with a real minus sign. */
export function signedPercent(pct: number, digits = 1): string {
  const v = pct * 100;
  if (Math.abs(v) < 0.5 * 10 ** -digits) return '0%';
  const s = Math.abs(v).toFixed(digits);
  return `${v > 0 ? '+' : '−'}${s}%`;
}

/** The series both runs recorded, the comparison's metrics first. */
export function sharedSeries(
  a: readonly TimeSeries[],
  b: readonly TimeSeries[],
  prefer: readonly string[] = [],
): string[] {
  const inB = new Set(b.map((s) => s.name));
  const names = a.map((s) => s.name).filter((n) => inB.has(n));
  const first = prefer.filter((n) => names.includes(n));
  return [...first, ...names.filter((n) => !first.includes(n))];
}

export interface OverlayLine {
  side: Side;
  path: string;
}

export interface OverlayModel {
  box: ChartBox;
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  lines: OverlayLine[];
  xTicks: Tick[];
  yTicks: Tick[];
  xLabel: string;
  yLabel: string;
  /** Fractions are drawn in percent. */
  percent: boolean;
  nowX: number | null;
  /** The recorded trace window (where the cursor moves), in px, or null when off the axis. */
  band: { x0: number; x1: number } | null;
}

/** Two runs' series of one name on one time axis and one value axis. */
export function overlayModel(
  series: Readonly<Record<Side, TimeSeries>>,
  cursor: number | null,
  time: { scale: number; unit: string },
  box: ChartBox,
  window: { start: number; end: number } | null = null,
): OverlayModel {
  const { width, height, margin } = box;
  const percent = series.a.unit === 'fraction';
  const k = percent ? 100 : 1;
  const pts = (s: TimeSeries) => {
    const t0 = seriesStart(s);
    return s.values.map((v, i) => ({ t: t0 + i * s.interval_ps, v: v * k }));
  };
  const all = { a: pts(series.a), b: pts(series.b) };
  const [tMin, tMax] = extent([...all.a, ...all.b], (p) => p.t) as [
    number | undefined,
    number | undefined,
  ];
  const x = scaleLinear()
    .domain([(tMin ?? 0) / time.scale, (tMax ?? 1) / time.scale])
    .range([margin.left, width - margin.right]);
  const top = max([...all.a, ...all.b], (p) => p.v) ?? 1;
  const y = scaleLinear()
    .domain([0, Math.max(percent ? 1 : 1e-9, top)])
    .range([height - margin.bottom, margin.top])
    .nice();
  const draw = line<{ t: number; v: number }>()
    .x((p) => x(p.t / time.scale))
    .y((p) => y(p.v));
  const fmt = x.tickFormat(8);
  const fmtY = y.tickFormat(5);
  const cx = cursor === null ? null : x(cursor / time.scale);
  const [r0, r1] = x.range() as [number, number];
  const unit = percent ? '%' : series.a.unit;
  return {
    box,
    x,
    y,
    lines: SIDES.map((side) => ({ side, path: draw(all[side]) ?? '' })),
    xTicks: x.ticks(8).map((v) => ({ value: v, pos: x(v), label: fmt(v) })),
    yTicks: y.ticks(5).map((v) => ({ value: v, pos: y(v), label: fmtY(v) })),
    xLabel: `simulated time (${time.unit})`,
    yLabel: `${series.a.name.replace(/_/g, ' ')}${unit ? ` (${unit})` : ''}`,
    percent,
    nowX: cx !== null && cx >= r0 && cx <= r1 ? cx : null,
    band: window
      ? (() => {
          const x0 = Math.max(r0, x(window.start / time.scale));
          const x1 = Math.min(r1, x(window.end / time.scale));
          return x1 > x0 ? { x0, x1 } : null;
        })()
      : null,
  };
}

/** A published value of one metric that one side's run is exactly the point of. */
export interface PublishedValue {
  id: string;
  expected: number;
  source: string;
  basis: CheckBasis;
}

/**
 * The scenario's absolute reference values of `metric` whose sweep point (`at`) is exactly this
 * side's run, each fitted or predicted as the core's parameter metadata says (fitted_to). A
 * reference without `at` reads the scenario as written, so only a side that changes nothing.
 * Relative claims compare two runs and are left to the scenario page's checks.
 */
export function publishedValues(
  scenario: Scenario,
  specs: readonly ParameterSpec[],
  side: ParameterTree,
  sideChangesNothing: boolean,
  metric: string,
): PublishedValue[] {
  const flat = new Map(flattenParameters(side));
  const out: PublishedValue[] = [];
  for (const r of scenario.reference ?? []) {
    if (r.metric !== metric || typeof r.expected !== 'number') continue;
    if ('relative_to' in r) continue;
    const at = Object.entries(r.at ?? {});
    if (at.length === 0 ? !sideChangesNothing : at.some(([k, v]) => flat.get(k) !== v)) continue;
    out.push({
      id: r.id,
      expected: r.expected,
      source: r.source,
      basis: referenceBasis(scenario.id, r.id, specs),
    });
  }
  return out;
}
