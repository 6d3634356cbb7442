// Types of the core's output JSON ("nicsim-results/1"), see core-cpp/README.md.

export interface Metric {
  value: number;
  unit: string;
}

export type Metrics = Record<string, Metric>;

export interface TimeSeries {
  name: string;
  unit: string;
  interval_ps: number;
  /** Time of the first sample (see seriesStart in model/chart.ts for output without it). */
  start_ps?: number;
  values: number[];
}

export interface Histogram {
  name: string;
  unit: string;
  bin_width: number;
  weights: number[];
}

export interface SweepEntry {
  value: number | string;
  /** Present only when the sweep has a series parameter. */
  series?: number | string;
  results: Metrics;
}

export interface SweepSpec {
  parameter: string;
  series_parameter?: string | null;
}

export interface Check {
  id: string;
  source: string;
  description: string;
  expected: number | string | boolean;
  simulated: number | string | boolean | null;
  unit?: string;
  tolerance?: number;
  comparison?: string;
  kind: 'exact' | 'qualitative' | string;
  pass: boolean;
  /** The metric and sweep point the check reads. */
  metric?: string;
  at?: Record<string, unknown> | null;
  /** A claim relative to another value: expected = factor × relative_to.value. */
  factor?: number;
  relative_to?: {
    metric?: string;
    at?: Record<string, unknown> | null;
    value?: number;
  } | null;
}

export interface TraceInfo {
  records: number;
  dropped: number;
  start_ps: number;
  end_ps: number;
}

export type ParameterTree = { [key: string]: ParameterValue };
export type ParameterValue = number | string | boolean | null | ParameterValue[] | ParameterTree;

/** A value of the nested parameter tree by its dotted path ("system.bus.clock_mhz"). */
export function paramAt(tree: ParameterTree | undefined, path: string): unknown {
  let cur: unknown = tree;
  for (const k of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

export interface RunOutput {
  format: string;
  scenario: string;
  seed: number;
  parameters: ParameterTree;
  results: Metrics;
  series: TimeSeries[];
  histograms: Histogram[];
  sweep: SweepEntry[];
  sweep_spec: SweepSpec | null;
  checks: Check[];
  trace: TraceInfo;
}

export interface ValidationError {
  path: string;
  message: string;
}

export function isErrorOutput(x: unknown): x is { errors: ValidationError[] } {
  return typeof x === 'object' && x !== null && Array.isArray((x as { errors?: unknown }).errors);
}

/** One entry of the core's parameterInfo(). */
export interface ParameterSpec {
  path: string;
  type: 'number' | 'integer' | 'choice' | 'boolean' | 'string' | string;
  unit?: string;
  default?: unknown;
  min?: number;
  max?: number;
  choices?: unknown[];
  description?: string;
  /** Where the value comes from: a source reference, or "chosen: why" for a modelling choice. */
  origin?: string;
}
