// Number and time formatting shared by every view.

const UNITS: Array<[number, string]> = [
  [1e12, 's'],
  [1e9, 'ms'],
  [1e6, 'µs'],
  [1e3, 'ns'],
  [1, 'ps'],
];

/** Picoseconds to a readable string: 850 ps, 12.5 ns, 503.210 µs, 2.000 ms. */
export function formatTime(ps: number, digits = 3): string {
  if (!Number.isFinite(ps)) return '—';
  const abs = Math.abs(ps);
  if (abs === 0) return '0 ps';
  for (const [scale, unit] of UNITS) {
    if (abs >= scale) {
      if (scale === 1) return `${Math.round(ps)} ps`;
      return `${trimFixed(ps / scale, digits)} ${unit}`;
    }
  }
  return `${Math.round(ps)} ps`;
}

/** Like formatTime but always with the given decimals (for a steady, non-jumping display). */
export function formatTimeFixed(
  ps: number,
  unitScale: number,
  unit: string,
  digits: number,
): string {
  return `${(ps / unitScale).toFixed(digits)} ${unit}`;
}

/** Picks the unit for a time span so that values read between 1 and 1000. */
export function timeUnitFor(ps: number): { scale: number; unit: string } {
  const abs = Math.abs(ps);
  for (const [scale, unit] of UNITS) if (abs >= scale) return { scale, unit };
  return { scale: 1, unit: 'ps' };
}

function trimFixed(v: number, digits: number): string {
  const s = v.toFixed(digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Playback speed in simulated picoseconds per wall second: "1 µs/s", "20 ns/s". */
export function formatSpeed(psPerSecond: number): string {
  const { scale, unit } = timeUnitFor(psPerSecond);
  const v = psPerSecond / scale;
  const s = v >= 100 ? v.toFixed(0) : v >= 10 ? trimFixed(v, 1) : trimFixed(v, 2);
  return `${s} ${unit}/s`;
}

// Number#toLocaleString(locale, options) builds an Intl.NumberFormat on every call (slow: a
// results table formats hundreds of values as a run is drawn); these are the same formats, built once.
const INTEGER = new Intl.NumberFormat('en-US');
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const THREE_DECIMALS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const THREE_DIGITS = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 0.001 || abs >= 1e9)) return v.toExponential(3);
  if (Number.isInteger(v)) return INTEGER.format(v);
  if (abs >= 100) return ONE_DECIMAL.format(v);
  if (abs >= 1) return THREE_DECIMALS.format(v);
  return THREE_DIGITS.format(v);
}

export function formatValue(v: unknown): string {
  if (typeof v === 'number') return formatNumber(v);
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

/**
 * "udp_total_throughput" → "UDP total throughput": an identifier in words. A metric's display
 * name is metricLabel's (kit/metricNames), the one table of them.
 */
export function humanize(name: string): string {
  const last = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  const words = last.split(/[_\s]+/).filter(Boolean);
  const ACRONYMS: Record<string, string> = {
    udp: 'UDP',
    tcp: 'TCP',
    nic: 'NIC',
    cpu: 'CPU',
    dma: 'DMA',
    ip: 'IP',
    mhz: 'MHz',
    pci: 'PCI',
    bd: 'BD',
    mac: 'MAC',
    isr: 'ISR',
    us: 'µs',
    ns: 'ns',
    ps: 'ps',
  };
  return words
    .map((w, i) => {
      const a = ACRONYMS[w.toLowerCase()];
      if (a) return a;
      return i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w;
    })
    .join(' ');
}

/** An instant to the nanosecond in its own unit: "10.57 µs", "1.000476 ms" (a cursor, a stop). */
export function formatInstant(ps: number): string {
  const { scale } = timeUnitFor(ps);
  return formatTime(ps, Math.max(0, Math.round(Math.log10(scale / 1e3))));
}

/**
 * A log's time to the nanosecond, with the digits kept so a column lines up: "20.000030 ms",
 * "10.570 µs", "12 ns"; under 1 ns in ps.
 */
export function formatLogTime(ps: number): string {
  if (!Number.isFinite(ps)) return '—';
  const { scale, unit } = timeUnitFor(ps);
  if (scale <= 1e3) return `${Math.round(ps / scale)} ${unit}`;
  const digits = Math.round(Math.log10(scale / 1e3));
  return `${(Math.round(ps / 1e3) / (scale / 1e3)).toFixed(digits)} ${unit}`;
}

/** A trace time in µs with ns precision: "1,009.675 µs". */
export function formatUs(ps: number): string {
  return `${(ps / 1e6).toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 })} µs`;
}

/** Descriptors produced and not consumed. Works with indices modulo size and with free-running counters. */
export function occupancy(producer: number, consumer: number, size: number): number {
  if (size <= 0) return 0;
  const diff = producer - consumer;
  if (diff >= 0 && diff <= size) return diff;
  return ((diff % size) + size) % size;
}
