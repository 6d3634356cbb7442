// The guided tour's logic, free of React: which steps a scenario has, where a step puts
// the cursor, the live values a step shows beside the paper's, and the keys that drive a tour.
// The core validates the tour block (core-cpp/scenario/tour.cpp); numbers shown come from the run.
import type { Metric, RunOutput } from '../engine/types';
import type { ReferenceValue, Scenario, TourMetric, TourStep } from '../scenarios/types';
import { formatNumber, humanize } from '../kit/format';
import { metricLabel } from '../kit/metricNames';
import type { OverrideValue, Overrides } from '../run/overrides';

/**
 * Parts of the machine a step may highlight: the core's tour_parts() (its component names and
 * the diagram's rings, mailbox, buffers and interrupt line). A test keeps this list in step with
 * the schema the core generates.
 */
export const TOUR_PARTS: readonly string[] = [
  'bus',
  'disk',
  'dma_read',
  'dma_write',
  'driver',
  'host_bridge',
  'host_cpu',
  'interrupt',
  'mac_rx',
  'mac_tx',
  'mailbox',
  'memory',
  'nic',
  'peer',
  'receive_ring',
  'return_ring',
  'rx_buffer',
  'send_ring',
  'sram',
  'tigon_cpu',
  'tx_buffer',
  'wire_rx',
  'wire_tx',
];

/** Parts in words, for screen readers and the tour's "look at" line. */
export const PART_LABELS: Readonly<Record<string, string>> = {
  bus: 'I/O bus',
  disk: 'disk controller',
  dma_read: 'DMA read engine',
  dma_write: 'DMA write engine',
  driver: 'driver (host CPU)',
  host_bridge: 'host bridge',
  host_cpu: 'host CPU',
  interrupt: 'interrupt line',
  mac_rx: 'MAC (receive)',
  mac_tx: 'MAC (transmit)',
  mailbox: 'mailbox registers',
  memory: 'main memory',
  nic: 'NIC',
  peer: 'peer',
  receive_ring: 'receive ring',
  return_ring: 'return ring',
  rx_buffer: 'NIC receive buffer',
  send_ring: 'send ring',
  sram: 'Tigon SRAM',
  tigon_cpu: 'Tigon CPUs',
  tx_buffer: 'NIC transmit buffer',
  wire_rx: 'wire (from peer)',
  wire_tx: 'wire (to peer)',
};

/** "mailbox registers, DMA read engine" for the parts highlighted. */
export function partsText(parts: readonly string[]): string {
  return parts.map((p) => PART_LABELS[p] ?? p).join(', ');
}

/** The views that draw ui.highlight (a step that highlights should open one of them). */
export const HIGHLIGHTING_VIEWS: readonly string[] = ['diagram'];

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The scenario's tour steps. A preset's tour is validated by the core; an opened file's may not
 * be (it is only validated when it runs), so malformed steps are left out rather than thrown on.
 */
export function tourSteps(s: Scenario | undefined): TourStep[] {
  const t = s?.tour;
  if (!Array.isArray(t)) return [];
  return t.filter(
    (x): x is TourStep =>
      isObject(x) && typeof x.title === 'string' && typeof x.text === 'string' && x.title !== '',
  );
}

/** The step's cursor time in ps, or null when the step leaves the cursor where it is. */
export function stepCursorPs(step: TourStep): number | null {
  return typeof step.at_us === 'number' && Number.isFinite(step.at_us)
    ? Math.round(step.at_us * 1e6)
    : null;
}

/** The parts the step highlights (only names the diagram knows). */
export function stepHighlight(step: TourStep): string[] {
  return Array.isArray(step.highlight)
    ? step.highlight.filter((h) => typeof h === 'string' && TOUR_PARTS.includes(h))
    : [];
}

/** A predict step's overrides on top of what was requested before it (the knob panel's path). */
export function variantOverrides(
  before: Overrides,
  set: Record<string, unknown> | undefined,
): Overrides {
  const out: Overrides = { ...before };
  for (const [k, v] of Object.entries(set ?? {})) {
    if (v === null || ['number', 'string', 'boolean'].includes(typeof v))
      out[k] = v as OverrideValue;
  }
  return out;
}

function canonical(x: unknown): string {
  if (!isObject(x)) return JSON.stringify(x ?? null);
  return `{${Object.keys(x)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`)
    .join(',')}}`;
}

/** Two sweep points (objects of parameter → value) are the same point. */
export function samePoint(a: unknown, b: unknown): boolean {
  const empty = (x: unknown) =>
    x === undefined || x === null || (isObject(x) && !Object.keys(x).length);
  if (empty(a) && empty(b)) return true;
  return canonical(a) === canonical(b);
}

function refOf(m: TourMetric): { metric: string; at?: Record<string, unknown> } {
  return typeof m === 'string' ? { metric: m } : m;
}

/** A metric of the run: the main run's, or the sweep point's when `at` names one. */
export function metricOf(
  output: Pick<RunOutput, 'results' | 'sweep' | 'sweep_spec'> | null | undefined,
  m: TourMetric,
): Metric | null {
  if (!output) return null;
  const { metric, at } = refOf(m);
  if (!at || !Object.keys(at).length) return output.results?.[metric] ?? null;
  const spec = output.sweep_spec;
  if (!spec) return null;
  const entry = (output.sweep ?? []).find(
    (e) =>
      samePoint(e.value, at[spec.parameter]) &&
      (!spec.series_parameter || samePoint(e.series, at[spec.series_parameter])),
  );
  return entry?.results?.[metric] ?? null;
}

/** A metric's name in words: the one table of display names (kit/metricNames). */
export { metricLabel };

/** web_bottleneck's code, in words (its unit says "0 bus, 1 CPU, 2 disk"). */
const BOTTLENECK = ['the bus', 'the host CPU', 'the disk'];

/** A value for display: fractions as percentages. */
export function valueText(value: number, unit: string | undefined): string {
  if (unit === '0 bus, 1 CPU, 2 disk') return BOTTLENECK[Math.round(value)] ?? formatNumber(value);
  if (unit === 'fraction') return `${formatNumber(Math.round(value * 1000) / 10)} %`;
  const v = Number.isInteger(value) ? value : Math.round(value * 10) / 10;
  return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
}

/** "workload.datagram_bytes = 18, system.tigon.firmware = release" → "datagram bytes 18 · release". */
export function pointText(at: Record<string, unknown> | undefined): string {
  if (!at) return '';
  return Object.entries(at)
    .map(([k, v]) => (typeof v === 'string' ? v : `${humanize(k).toLowerCase()} ${String(v)}`))
    .join(' · ');
}

export interface PaperValue {
  /** "1553 Mb/s", "≥ 0.97 × limit". */
  text: string;
  source: string;
  kind: string;
}

const COMPARE: Record<string, string> = { within: '≈', at_least: '≥', at_most: '≤' };

/** The paper's value for this metric at this point, from the scenario's reference values. */
export function paperValue(
  refs: readonly ReferenceValue[] | undefined,
  m: TourMetric,
): PaperValue | null {
  const { metric, at } = refOf(m);
  const r = (refs ?? []).find((x) => x.metric === metric && samePoint(x.at, at));
  if (!r || typeof r.expected !== 'number') return null;
  const relative = isObject((r as { relative_to?: unknown }).relative_to);
  const sign = COMPARE[r.comparison ?? 'within'] ?? '≈';
  const text = relative
    ? `${sign} ${formatNumber(r.expected)} ${r.unit ?? '× the compared value'}`
    : `${sign === '≈' ? '' : `${sign} `}${valueText(r.expected, r.unit)}`;
  return { text, source: r.source, kind: r.kind ?? 'qualitative' };
}

export interface MetricRow {
  key: string;
  label: string;
  /** The sweep point, in words ('' for the main run). */
  point: string;
  /** The value in the run on screen, or null while there is none. */
  live: string | null;
  /** The scenario's own value when a variant is on screen (what the variant is compared with). */
  before: string | null;
  paper: PaperValue | null;
}

/** The rows a step's metrics show: live from the run, beside the paper's value. */
export function metricRows(
  metrics: readonly TourMetric[] | undefined,
  scenario: Scenario,
  output: RunOutput | null | undefined,
  before?: RunOutput | null,
): MetricRow[] {
  if (!Array.isArray(metrics)) return [];
  return metrics.map((m, i) => {
    const { metric, at } = refOf(m);
    const live = metricOf(output, m);
    const was = before ? metricOf(before, m) : null;
    return {
      key: `${i}:${metric}`,
      label: metricLabel(metric),
      point: pointText(at),
      live: live ? valueText(live.value, live.unit) : null,
      before: was ? valueText(was.value, was.unit) : null,
      paper: paperValue(scenario.reference, m),
    };
  });
}

/** "system.driver.receive_ring_size = 256" for the variant a predict step runs. */
export function setText(set: Record<string, unknown> | undefined): string {
  return Object.entries(set ?? {})
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

export type TourKeyAction =
  { kind: 'next' } | { kind: 'back' } | { kind: 'jump'; step: number } | { kind: 'exit' } | null;

/**
 * What a key does to the tour. Number keys jump to a step (1 = the first) while a tour runs or in
 * presenter mode; arrows and Page Up/Down (a presentation clicker) go back and next in presenter
 * mode while a tour runs (outside it the arrows keep stepping through events); Esc leaves the
 * tour when presenter mode is off (in presenter mode Esc leaves presenter mode first).
 */
export function tourKeyAction(
  key: string,
  ctx: { steps: number; step: number | null; presenter: boolean },
): TourKeyAction {
  if (ctx.steps === 0) return null;
  if (/^[1-9]$/.test(key)) {
    const n = Number(key) - 1;
    if (n >= ctx.steps || (ctx.step === null && !ctx.presenter)) return null;
    return { kind: 'jump', step: n };
  }
  if (ctx.step === null) return null;
  if (key === 'PageDown' || (ctx.presenter && key === 'ArrowRight')) return { kind: 'next' };
  if (key === 'PageUp' || (ctx.presenter && key === 'ArrowLeft')) return { kind: 'back' };
  if (key === 'Escape' && !ctx.presenter) return { kind: 'exit' };
  return null;
}
