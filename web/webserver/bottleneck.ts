// The limiting resource of the full-system web server (the thesis §4.2, §4.5): the core's busy
// fractions of the PCI bus, the host CPU and the disk over the measured window, its choice of the
// busiest (web_bottleneck: 0 bus, 1 CPU, 2 disk), and the numbers that say why in the thesis's
// terms (the bus's content and overhead shares, the file cache's hit rate, the content the NIC
// cache keeps off the bus). Nothing is computed here but wording.
import type { Metrics, ParameterTree, SweepEntry } from '../engine/types';
import { paramAt } from '../engine/types';
import { TRACE_LABELS } from './cacheGrid';

export type Resource = 'bus' | 'cpu' | 'disk';

export const RESOURCES: readonly Resource[] = ['bus', 'cpu', 'disk'];

export const RESOURCE_LABELS: Record<Resource, string> = {
  bus: 'PCI bus',
  cpu: 'Host CPU',
  disk: 'Disk',
};

/** The thesis's classification of its traces without a cache (§4.2, Figs 4.6, 4.7). */
export const THESIS_BOTTLENECK: Record<string, Resource> = {
  nasa: 'bus',
  rice: 'bus',
  ibm: 'cpu',
  worldcup: 'cpu',
  berkeley: 'disk',
};

export interface Bottleneck {
  utilization: Record<Resource, number>;
  /** The core's web_bottleneck. */
  limit: Resource;
  /** Shares of the bus's busy cycles (null when the run reports none). */
  contentShare: number | null;
  overheadShare: number | null;
  fileCacheHitRate: number | null;
  /** Share of the content the NIC caches sent (0 without a cache). */
  contentReduction: number | null;
  /** One or two sentences: why this resource limits the server. */
  why: string;
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

function value(results: Metrics, name: string): number | null {
  const v = results[name]?.value;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The bottleneck of one run's results, or null when the run is not the full-system server. */
export function bottleneckOf(results: Metrics): Bottleneck | null {
  const bus = value(results, 'bus_utilization');
  const cpu = value(results, 'host_cpu_utilization');
  const disk = value(results, 'web_disk_utilization');
  const which = value(results, 'web_bottleneck');
  if (bus === null || cpu === null || disk === null || which === null) return null;
  const limit = RESOURCES[Math.round(which)] ?? 'bus';
  const b: Omit<Bottleneck, 'why'> = {
    utilization: { bus, cpu, disk },
    limit,
    contentShare: value(results, 'bus_content_share'),
    overheadShare: value(results, 'bus_overhead_share'),
    fileCacheHitRate: value(results, 'web_file_cache_hit_rate'),
    contentReduction: value(results, 'content_traffic_reduction'),
  };
  return { ...b, why: whyText(b) };
}

function whyText(b: Omit<Bottleneck, 'why'>): string {
  const u = b.utilization;
  const cached = b.contentReduction !== null && b.contentReduction > 0;
  if (b.limit === 'bus') {
    const shares =
      b.contentShare !== null && b.overheadShare !== null
        ? ` and ${pct(b.contentShare)} of its busy cycles carry file content (${pct(b.overheadShare)} overhead)`
        : '';
    return cached
      ? `The PCI bus is ${pct(u.bus)} busy${shares}, even with the NIC cache sending ${pct(b.contentReduction!)} of the content: a larger cache keeps more off the bus.`
      : `The PCI bus is ${pct(u.bus)} busy${shares}: a NIC cache that keeps content off the bus raises throughput.`;
  }
  if (b.limit === 'cpu') {
    const room = `the bus has room (${pct(u.bus)} busy)`;
    return cached
      ? `The host CPU is ${pct(u.cpu)} busy and ${room}: the NIC cache sends ${pct(b.contentReduction!)} of the content, so the CPU's work per request now limits throughput.`
      : `The host CPU is ${pct(u.cpu)} busy and ${room}, so a NIC cache cannot help: the CPU's work per request limits throughput.`;
  }
  const hit =
    b.fileCacheHitRate !== null
      ? ` (${pct(b.fileCacheHitRate)} of requests hit the file cache)`
      : '';
  return `The disk is ${pct(u.disk)} busy serving file-cache misses${hit}: the data set does not fit in main memory, so neither a faster bus nor a NIC cache helps.`;
}

/** What the thesis found for this run's trace, as a sentence (null for an access log). */
export function thesisNote(parameters: ParameterTree | undefined): string | null {
  const trace = paramAt(parameters, 'workload.trace');
  if (typeof trace !== 'string') return null;
  const r = THESIS_BOTTLENECK[trace];
  if (!r) return null;
  const what = { bus: 'PCI-bound', cpu: 'host-CPU-bound', disk: 'disk-bound' }[r];
  return `The thesis measured ${TRACE_LABELS[trace] ?? trace} as ${what} without a NIC cache (§4.2, Figs 4.6 and 4.7).`;
}

export interface SweepBottleneck {
  value: number | string;
  series?: number | string;
  bottleneck: Bottleneck;
}

/** The bottleneck at each sweep point that reports one, in the sweep's order. */
export function sweepBottlenecks(sweep: readonly SweepEntry[]): SweepBottleneck[] {
  const out: SweepBottleneck[] = [];
  for (const e of sweep) {
    const b = bottleneckOf(e.results);
    if (b) out.push({ value: e.value, series: e.series, bottleneck: b });
  }
  return out;
}

/** The panel's text for screen readers. */
export function describeBottleneck(b: Bottleneck): string {
  const u = b.utilization;
  return (
    `Bottleneck: ${RESOURCE_LABELS[b.limit]}. ` +
    `PCI bus ${pct(u.bus)} busy, host CPU ${pct(u.cpu)} busy, disk ${pct(u.disk)} busy. ${b.why}`
  );
}
