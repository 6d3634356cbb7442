// Sweeps and time series as the charts and other views read them: the swept parameter's axis
// label, a sweep's points grouped by series, a series' first sample time.
import type { ParameterSpec, SweepEntry, TimeSeries } from '../engine/types';
import { humanize } from './format';

/** A swept value as a number (NaN for a name). */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

export function groupSweep(
  sweep: readonly SweepEntry[],
  toX: (v: unknown) => number = num,
): Map<string, SweepEntry[]> {
  const groups = new Map<string, SweepEntry[]>();
  for (const e of sweep) {
    const k = e.series === undefined ? '' : String(e.series);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(e);
  }
  for (const g of groups.values()) g.sort((p, q) => toX(p.value) - toX(q.value));
  return groups;
}

/**
 * Time of a series' first sample: the core's start_ps. Output without it (older cores) samples
 * at the end of each interval, so the first sample sits at interval_ps.
 */
export function seriesStart(s: Pick<TimeSeries, 'start_ps' | 'interval_ps'>): number {
  return typeof s.start_ps === 'number' && Number.isFinite(s.start_ps) ? s.start_ps : s.interval_ps;
}

const AXIS_LABELS: Record<string, { label: string; unit: string }> = {
  'workload.datagram_bytes': { label: 'UDP datagram size', unit: 'B' },
  'workload.segment_bytes': { label: 'TCP segment size', unit: 'B' },
  'system.nics': { label: 'NICs on the bus', unit: '' },
  'system.bus.memory_latency_ns': { label: 'Main-memory latency (stall)', unit: 'ns' },
  'system.nic.dma_max_burst_bytes': { label: 'DMA burst cap', unit: 'B' },
  'system.bus.clock_mhz': { label: 'Bus clock', unit: 'MHz' },
  // The ticks say the size ("64 KB" … "16 MB"), so no unit in the label.
  'system.nic_cache.kbytes': { label: 'NIC cache size (per NIC)', unit: '' },
  'system.nic_cache.block_bytes': { label: 'Cache block size', unit: 'B' },
  'system.l2.kbytes': { label: 'L2 cache size', unit: '' },
  'system.sinic.vnics': { label: 'VNICs', unit: '' },
};

const UNIT_SHORT: Record<string, string> = { bytes: 'B', bits: 'bits' };

export function sweepAxisLabel(
  param: string | undefined,
  spec?: ParameterSpec,
): { label: string; unit: string } {
  if (!param) return { label: 'swept value', unit: '' };
  const known = AXIS_LABELS[param];
  if (known) return known;
  if (spec?.unit !== undefined) {
    const base = param.replace(/_(bytes|us|ns|ps|mhz|bits)$/, '');
    return { label: humanize(base), unit: UNIT_SHORT[spec.unit] ?? spec.unit };
  }
  const unitMatch = /_(bytes|us|ns|ps|mhz|bits)$/.exec(param);
  const units: Record<string, string> = {
    bytes: 'B',
    us: 'µs',
    ns: 'ns',
    ps: 'ps',
    mhz: 'MHz',
    bits: 'bits',
  };
  return {
    label: humanize(param.replace(/_(bytes|us|ns|ps|mhz|bits)$/, '')),
    unit: unitMatch ? units[unitMatch[1]!]! : '',
  };
}
