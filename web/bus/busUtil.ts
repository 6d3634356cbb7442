// Stacked bars of bus cycles by category (thesis Figs 4.6/4.7): shares of elapsed cycles, from
// the trace (summed up to the cursor) or from a run's results (bus_util_*).
import { BC } from '../trace/traceKinds';
import type { Metrics, SweepEntry } from '../engine/types';
import {
  CATEGORY_COUNT,
  CATEGORY_RESULT_KEYS,
  OVERHEAD_CATEGORIES,
  PAYLOAD_CATEGORIES,
  trafficShares,
} from './busPhases';
import { groupSweep } from '../kit/sweep';
import { paramTickLabel } from '../kit/paramLabels';
import { formatNumber } from '../kit/format';

/** Bottom to top: what the bus carried, then the overheads; idle is the unfilled rest. */
export const STACK_ORDER: readonly number[] = [...PAYLOAD_CATEGORIES, ...OVERHEAD_CATEGORIES];

export interface UtilBar {
  /** Share of elapsed cycles per category (sums to 1 with idle). */
  shares: number[];
  /** Busy share of elapsed cycles. */
  utilization: number;
  /** Overhead and content as shares of busy cycles (of traffic). */
  overhead: number;
  content: number;
  /** Elapsed cycles the bar covers (0 when unknown). */
  cycles: number;
}

export function barFromCycles(cycles: readonly number[]): UtilBar {
  const total = cycles.reduce((s, v) => s + v, 0);
  const shares = cycles.map((v) => (total > 0 ? v / total : 0));
  const t = trafficShares(cycles);
  return {
    shares,
    utilization: t.utilization,
    overhead: t.overhead,
    content: t.content,
    cycles: total,
  };
}

/** The bar of a run's results, or null when it has no bus_util_* metrics. */
export function barFromResults(results: Metrics): UtilBar | null {
  const shares = new Array<number>(CATEGORY_COUNT).fill(0);
  let found = 0;
  CATEGORY_RESULT_KEYS.forEach((key, k) => {
    const m = results[`bus_util_${key}`];
    if (m && Number.isFinite(m.value)) {
      shares[k] = m.value;
      found++;
    }
  });
  if (found === 0) return null;
  const bar = barFromCycles(shares);
  const cycles = results.bus_cycles?.value ?? 0;
  // The core's own shares of traffic, when it reports them.
  return {
    ...bar,
    overhead: results.bus_overhead_share?.value ?? bar.overhead,
    content: results.bus_content_share?.value ?? bar.content,
    utilization: bar.utilization,
    cycles,
  };
}

export interface SweepBarGroup {
  /** Series value as the sweep names it ('' without a series). */
  series: string;
  bars: Array<{ value: number | string; bar: UtilBar; entry: SweepEntry }>;
}

/** One bar per sweep point, grouped by series (each group sorted by the swept value). */
export function sweepBars(sweep: readonly SweepEntry[]): SweepBarGroup[] {
  const out: SweepBarGroup[] = [];
  for (const [series, entries] of groupSweep(sweep)) {
    const bars = entries
      .map((entry) => ({ value: entry.value, bar: barFromResults(entry.results), entry }))
      .filter((b): b is { value: number | string; bar: UtilBar; entry: SweepEntry } => !!b.bar);
    if (bars.length) out.push({ series, bars });
  }
  return out;
}

/** Stacked segments of a bar: [category, from, to] as shares (0 at the bottom). */
export function stackSegments(bar: UtilBar): Array<{ category: number; y0: number; y1: number }> {
  const out: Array<{ category: number; y0: number; y1: number }> = [];
  let y = 0;
  for (const k of STACK_ORDER) {
    const v = bar.shares[k] ?? 0;
    if (v > 0) out.push({ category: k, y0: y, y1: y + v });
    y += v;
  }
  return out;
}

export const IDLE = BC.Idle;

/** A sweep bar's value under it: a size with its unit ("16 MiB", never "16380"), else the number. */
export function sweepBarLabel(param: string | undefined, v: unknown): string {
  if (typeof v !== 'number') return String(v);
  return paramTickLabel(param, v) ?? formatNumber(v);
}
