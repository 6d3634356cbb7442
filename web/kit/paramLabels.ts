// Readable names for parameter values: sweep series ("33 MHz", "cost model", "detailed PCI-X"),
// sweep points and the "at" of a relative check.
import { paramAt, type ParameterSpec, type ParameterTree } from '../engine/types';
import { formatNumber } from '../kit/format';

const SUFFIX_UNITS: Record<string, string> = {
  bytes: 'B',
  ns: 'ns',
  us: 'µs',
  ps: 'ps',
  mhz: 'MHz',
  mbps: 'Mb/s',
  cycles: 'cycles',
  bits: 'bits',
};

const SPEC_UNITS: Record<string, string> = { bytes: 'B', microseconds: 'µs', nanoseconds: 'ns' };

/** The unit of a parameter: its spec's, else its name's suffix (_ns, _bytes, _mhz …). */
export function parameterUnit(path: string, spec?: Pick<ParameterSpec, 'unit'>): string {
  if (spec?.unit) return SPEC_UNITS[spec.unit] ?? spec.unit;
  const m = /_([a-z]+)$/.exec(path);
  return (m && SUFFIX_UNITS[m[1]!]) ?? '';
}

/**
 * A size in KB (1 KB = 1024 B, as the thesis's "4 MB" caches): "64 KB", "1 MB", "1.5 MB",
 * "16 MB", "1 GB".
 */
export function formatKbytes(kb: number): string {
  if (!Number.isFinite(kb)) return String(kb);
  const trim = (v: number) => formatNumber(+v.toFixed(2));
  // Binary sizes, named so: the thesis's "16 MB" cache is 16 × 2^20 bytes (MiB), while the
  // metrics' MB are 10^6 bytes.
  if (Math.abs(kb) >= 1 << 20) return `${trim(kb / (1 << 20))} GiB`;
  if (Math.abs(kb) >= 1024) return `${trim(kb / 1024)} MiB`;
  return `${trim(kb)} KiB`;
}

/** Parameters given in KB, labelled as sizes ("1 MB", not "1,024 KB"). */
const KBYTE_PATHS = new Set(['system.nic_cache.kbytes', 'system.l2.kbytes']);

/** A sweep axis tick for a parameter, or null for the chart's plain number. */
export function paramTickLabel(path: string | undefined, v: number): string | null {
  return path && KBYTE_PATHS.has(path) ? formatKbytes(v) : null;
}

/** "33 MHz", "cost model", "detailed PCI-X", "2 NICs", "300 ns", "send", "2 MB". */
export function paramValueLabel(
  path: string,
  v: unknown,
  params?: ParameterTree,
  spec?: Pick<ParameterSpec, 'unit'>,
): string {
  if (v === undefined || v === null || v === '') return '—';
  switch (path) {
    case 'system.bus.model':
      if (v === 'fixed') return 'cost model';
      if (v === 'pci')
        return paramAt(params, 'system.bus.protocol') === 'pci-x'
          ? 'detailed PCI-X'
          : 'detailed PCI';
      break;
    case 'system.bus.protocol':
      if (v === 'pci') return 'PCI';
      if (v === 'pci-x') return 'PCI-X';
      break;
    case 'system.nic_cache.kbytes':
    case 'system.l2.kbytes':
      if (typeof v === 'number') return formatKbytes(v);
      break;
    case 'system.nics': {
      const n = Number(v);
      return `${formatNumber(n)} NIC${n === 1 ? '' : 's'}`;
    }
    default:
      break;
  }
  if (typeof v === 'number') {
    const unit = parameterUnit(path, spec);
    return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
  }
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  return String(v);
}

/** The parameters where two "at" objects differ, as labels: "33 MHz", "receive". */
export function atDifference(
  at: Record<string, unknown> | null | undefined,
  ref: Record<string, unknown> | null | undefined,
  params?: ParameterTree,
): string[] {
  if (!ref) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(ref)) {
    if (at && at[k] === v) continue;
    out.push(paramValueLabel(k, v, params));
  }
  return out;
}
