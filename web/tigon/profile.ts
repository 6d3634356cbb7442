// The handler profile in the form of the thesis's Fig 3.5: each event's share of the firmware's
// handler time (tigon_share_<Event>), largest first, with its runs per packet and the CPU it runs
// on, the reference values of the scenario beside, and CPU A's share of the work against the
// thesis's 47% (PARALLEL, Table 3.4). D3 computes the layout; ProfileView renders it.
import { scaleLinear } from 'd3';
import { TIGON_EVENTS } from '../trace/traceKinds';
import type { Check, RunOutput } from '../engine/types';
import { tigonSetup, type EventCpu, type FirmwareFamily } from './firmware';

/** The thesis's split of the work under PARALLEL firmware (§3.3): CPU A 47%, CPU B 53%. */
export const THESIS_CPU_A_SHARE = 0.47;

export interface ProfileReference {
  /** Expected share, 0..1. */
  expected: number;
  pass: boolean;
  tolerance?: number;
  source: string;
  description: string;
}

export interface ProfileRow {
  event: number;
  name: string;
  label: string;
  short: string;
  /** Share of handler time, 0..1. */
  share: number;
  /** Handler runs per packet, or null when the run does not report it. */
  runs: number | null;
  cpu: EventCpu;
  /** Reference values of the scenario for this share (absolute ones only). */
  references: ProfileReference[];
}

export interface ProfileModel {
  firmware: string | null;
  family: FirmwareFamily;
  rows: ProfileRow[];
  /** CPU A's share of the handler work, or null. */
  cpuAShare: number | null;
  /** Reference values for tigon_cpu_a_share. */
  cpuReferences: ProfileReference[];
  /** The shares add up to (about) 1; 0 when no handler ran. */
  total: number;
}

export type ProfileProblem = 'not-tigon' | 'no-profile' | 'no-handlers';

/** Turns a check into an expected share when it is an absolute one about a fraction. */
function referenceOf(c: Check): ProfileReference | null {
  if (c.relative_to || c.factor !== undefined) return null;
  if (c.at && Object.keys(c.at).length > 0) return null; // a sweep point, not this run
  if (typeof c.expected !== 'number' || !Number.isFinite(c.expected)) return null;
  let expected = c.expected;
  if (c.unit === '%') expected /= 100;
  else if (c.unit !== undefined && c.unit !== 'fraction' && c.unit !== '') return null;
  return {
    expected,
    pass: c.pass,
    tolerance: c.tolerance,
    source: c.source,
    description: c.description,
  };
}

/** References of the run's checks for one metric. */
export function referencesFor(checks: readonly Check[] | undefined, metric: string) {
  const out: ProfileReference[] = [];
  for (const c of checks ?? []) {
    if (c.metric !== metric) continue;
    const r = referenceOf(c);
    if (r) out.push(r);
  }
  return out;
}

/**
 * The profile of a run, or the reason there is none: not a Tigon run, no tigon_share_* results,
 * or no handler ran (all shares zero).
 */
export function profileModel(
  output: Pick<RunOutput, 'system' | 'results' | 'checks'>,
): ProfileModel | ProfileProblem {
  const setup = tigonSetup(output.system);
  const results = output.results ?? {};
  if (!setup.tigon) return 'not-tigon';
  const rows: ProfileRow[] = [];
  TIGON_EVENTS.forEach((ev, e) => {
    const share = results[`tigon_share_${ev.name}`]?.value;
    if (typeof share !== 'number' || !Number.isFinite(share)) return;
    const runs = results[`tigon_runs_${ev.name}`]?.value;
    rows.push({
      event: e,
      name: ev.name,
      label: ev.label,
      short: ev.short,
      share,
      runs: typeof runs === 'number' && Number.isFinite(runs) ? runs : null,
      cpu: setup.eventCpu[e] ?? 'none',
      references: referencesFor(output.checks, `tigon_share_${ev.name}`),
    });
  });
  if (rows.length === 0) return 'no-profile';
  const total = rows.reduce((s, r) => s + r.share, 0);
  if (total <= 0) return 'no-handlers';
  // Fig 3.5: largest first; ties in event order.
  rows.sort((x, y) => y.share - x.share || x.event - y.event);
  const a = results.tigon_cpu_a_share?.value;
  return {
    firmware: setup.firmware,
    family: setup.family,
    rows,
    cpuAShare: typeof a === 'number' && Number.isFinite(a) ? Math.min(1, Math.max(0, a)) : null,
    cpuReferences: referencesFor(output.checks, 'tigon_cpu_a_share'),
    total,
  };
}

export function isProfile(m: ProfileModel | ProfileProblem): m is ProfileModel {
  return typeof m === 'object';
}

// ---------------------------------------------------------------------------------------------
// Layout

export interface ProfileLayoutOptions {
  width: number;
  /** Height of one bar row, px. */
  rowH?: number;
  /** Width of the left label column, px. */
  labelW?: number;
  /** Width kept right of the longest bar for its label, px. */
  valueW?: number;
}

export interface PlacedRow extends ProfileRow {
  y: number;
  h: number;
  x0: number;
  x1: number;
  /** x of each reference tick. */
  ticks: Array<{ x: number; ref: ProfileReference }>;
  /** x where the value label starts. */
  labelX: number;
}

export interface ProfileLayout {
  width: number;
  height: number;
  labelW: number;
  plotW: number;
  top: number;
  /** Bottom of the last bar row. */
  plotBottom: number;
  axis: Array<{ x: number; label: string }>;
  rows: PlacedRow[];
  /** The CPU A / CPU B bar, or null for a run without the share. */
  cpuBar: null | {
    y: number;
    h: number;
    x0: number;
    xSplit: number;
    x1: number;
    a: number;
    refX: number;
    ticks: Array<{ x: number; ref: ProfileReference }>;
  };
}

/** Lays the profile out: bars on a shared 0..max share axis, then the CPU share bar. */
export function profileLayout(m: ProfileModel, opts: ProfileLayoutOptions): ProfileLayout {
  const rowH = opts.rowH ?? 34;
  const labelW = opts.labelW ?? 250;
  const valueW = opts.valueW ?? 260;
  const top = 28;
  // Narrow (a half-width A/B column) the bars shorten: their value labels stay in the drawing.
  const plotW = Math.max(40, opts.width - labelW - valueW);
  const maxShare = Math.max(
    0.05,
    ...m.rows.map((r) => r.share),
    ...m.rows.flatMap((r) => r.references.map((x) => x.expected)),
  );
  const x = scaleLinear()
    .domain([0, maxShare])
    .nice(5)
    .range([labelW, labelW + plotW]);
  const axis = x.ticks(5).map((v) => ({ x: x(v), label: `${Math.round(v * 100)}%` }));
  const rows = m.rows.map((r, i): PlacedRow => {
    const y = top + i * rowH;
    const x1 = Math.max(labelW + 1, x(r.share));
    const ticks = r.references.map((ref) => ({ x: x(Math.max(0, ref.expected)), ref }));
    const far = Math.max(x1, ...ticks.map((t) => t.x));
    return { ...r, y, h: rowH - 10, x0: labelW, x1, ticks, labelX: far + 8 };
  });
  let y = top + m.rows.length * rowH + 46;
  let cpuBar: ProfileLayout['cpuBar'] = null;
  if (m.cpuAShare !== null) {
    const barW = opts.width - labelW - 24;
    const cx = scaleLinear()
      .domain([0, 1])
      .range([labelW, labelW + barW]);
    cpuBar = {
      y,
      h: 34,
      x0: labelW,
      xSplit: cx(m.cpuAShare),
      x1: labelW + barW,
      a: m.cpuAShare,
      refX: cx(THESIS_CPU_A_SHARE),
      ticks: m.cpuReferences.map((ref) => ({ x: cx(Math.min(1, Math.max(0, ref.expected))), ref })),
    };
    y += 34 + 40;
  }
  const plotBottom = top + m.rows.length * rowH;
  return { width: opts.width, height: y, labelW, plotW, top, plotBottom, axis, rows, cpuBar };
}

/** "23.7%" (one decimal below 10%, none above). */
export function sharePct(v: number): string {
  const p = v * 100;
  if (p === 0) return '0%';
  return p < 10 ? `${p.toFixed(1)}%` : `${p.toFixed(0)}%`;
}

/** "CPU A", "CPU B", "both CPUs", "no CPU", "either CPU". */
export function cpuWords(cpu: EventCpu): string {
  switch (cpu) {
    case 'A':
    case 'B':
      return `CPU ${cpu}`;
    case 'both':
      return 'both CPUs';
    case 'either':
      return 'either CPU';
    default:
      return 'no CPU';
  }
}
