// The "Change a knob" panel's pure parts: grouping the core's parameter specs, reading what the
// user typed, building the overrides object sent to the core ({path: value}), and placing the
// core's validation messages next to their fields. Nothing here checks a range: the core does,
// and its message (which names the field and the allowed values) is what the user sees.
import type { ParameterSpec, ParameterTree, ValidationError } from '../engine/types';
import { humanize } from '../kit/format';

export type OverrideValue = number | string | boolean | null;
export type Overrides = Record<string, OverrideValue>;

/** Sections in display order; a parameter belongs to the longest one its path starts with. */
export const SECTIONS: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'system.host', label: 'Host CPU' },
  { id: 'system.driver', label: 'Driver and rings' },
  { id: 'system.bus', label: 'I/O bus' },
  { id: 'system.nic', label: 'NIC' },
  { id: 'system.link', label: 'Ethernet link' },
  { id: 'workload', label: 'Workload' },
  { id: 'run', label: 'Run and trace' },
];

/** The knobs most worth turning first, in this order. */
export const KEY_PARAMETERS: readonly string[] = [
  'system.bus.width_bits',
  'system.bus.clock_mhz',
  'system.bus.protocol',
  'system.driver.send_ring_size',
  'system.driver.receive_ring_size',
  'system.driver.return_ring_size',
  'workload.datagram_bytes',
  'workload.direction',
  'system.nic.coalesce.send_bds',
  'system.nic.coalesce.receive_bds',
  'system.nic.coalesce.send_timer_us',
  'system.nic.coalesce.receive_timer_us',
];

const LABELS: Record<string, string> = {
  'system.bus.width_bits': 'Bus width',
  'system.bus.clock_mhz': 'Bus clock',
  'system.bus.protocol': 'Bus protocol',
  'workload.datagram_bytes': 'Datagram size',
  'system.nic.coalesce.send_bds': 'Send coalescing: descriptors',
  'system.nic.coalesce.receive_bds': 'Receive coalescing: descriptors',
  'system.nic.coalesce.send_timer_us': 'Send coalescing: timer',
  'system.nic.coalesce.receive_timer_us': 'Receive coalescing: timer',
  'system.link.rate_mbps': 'Line rate',
};

export function sectionOf(path: string): string {
  let best = '';
  for (const s of SECTIONS) {
    if ((path === s.id || path.startsWith(`${s.id}.`)) && s.id.length > best.length) best = s.id;
  }
  if (best) return best;
  const parts = path.split('.');
  return parts[0] === 'system' && parts.length > 2 ? `${parts[0]}.${parts[1]}` : parts[0]!;
}

export function sectionLabel(section: string): string {
  return SECTIONS.find((s) => s.id === section)?.label ?? humanize(section.replace(/\./g, '_'));
}

const UNIT_SUFFIX = /_(bytes|bits|mhz|mbps|us|ns|ps)$/;

/** A short label: "Bus clock", "Send ring size", "Coalesce · send timer". */
export function parameterLabel(path: string): string {
  const known = LABELS[path];
  if (known) return known;
  const section = sectionOf(path);
  const rest = path.startsWith(`${section}.`) ? path.slice(section.length + 1) : path;
  const parts = rest.split('.').map((p, i, all) => {
    const stripped = i === all.length - 1 ? p.replace(UNIT_SUFFIX, '') : p;
    const h = humanize(stripped || p);
    // Later parts start lower case, unless they start with an acronym ("BD", "MAC").
    if (i === 0 || /^[A-Z]{2}/.test(h)) return h;
    return h.charAt(0).toLowerCase() + h.slice(1);
  });
  return parts.join(' · ');
}

export interface ParameterGroup {
  id: string;
  label: string;
  specs: ParameterSpec[];
}

/**
 * The "most relevant" group first (KEY_PARAMETERS that exist), then one group per section with
 * the rest in the core's order. Parameters outside the known sections get a group of their own.
 */
export function groupParameters(specs: readonly ParameterSpec[]): ParameterGroup[] {
  const byPath = new Map(specs.map((s) => [s.path, s]));
  const key = KEY_PARAMETERS.map((p) => byPath.get(p)).filter((s): s is ParameterSpec => !!s);
  const keySet = new Set(key.map((s) => s.path));
  const groups = new Map<string, ParameterSpec[]>();
  for (const s of SECTIONS) groups.set(s.id, []);
  for (const s of specs) {
    if (keySet.has(s.path)) continue;
    const sec = sectionOf(s.path);
    let g = groups.get(sec);
    if (!g) groups.set(sec, (g = []));
    g.push(s);
  }
  const out: ParameterGroup[] = [];
  if (key.length) out.push({ id: 'key', label: 'Most relevant', specs: key });
  for (const [id, g] of groups) if (g.length) out.push({ id, label: sectionLabel(id), specs: g });
  return out;
}

/** Case-insensitive match on path, label, description and unit; every word must match. */
export function matchesQuery(spec: ParameterSpec, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [spec.path, parameterLabel(spec.path), spec.description ?? '', spec.unit ?? '']
    .join(' ')
    .toLowerCase()
    .replace(/_/g, ' ');
  const hayRaw = hay + ' ' + spec.path.toLowerCase();
  return words.every((w) => hayRaw.includes(w));
}

/** Flattens nested parameters to dotted paths, in order. */
export function flattenParameters(tree: ParameterTree, prefix = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      out.push(...flattenParameters(v, path));
    else out.push([path, v]);
  }
  return out;
}

export function parameterMap(tree: ParameterTree | undefined): Map<string, unknown> {
  return new Map(tree ? flattenParameters(tree) : []);
}

/** How a value reads in a text field: numbers without grouping separators. */
export function fieldText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  return String(v);
}

export type ParsedField = { kind: 'value'; value: OverrideValue } | { kind: 'empty' };

/**
 * Reads the text of a number field. Only the number text is parsed: a number becomes a JSON
 * number; text that is not a number is sent as typed (a JSON string) so the core answers with
 * its own message naming the field and the allowed range. An empty field means "no override".
 */
export function parseFieldText(spec: Pick<ParameterSpec, 'type'>, text: string): ParsedField {
  const t = text.trim();
  if (t === '') return { kind: 'empty' };
  if (spec.type === 'integer' || spec.type === 'number') {
    const n = Number(t);
    return { kind: 'value', value: Number.isFinite(n) ? n : t };
  }
  if (spec.type === 'boolean') {
    if (t === 'true') return { kind: 'value', value: true };
    if (t === 'false') return { kind: 'value', value: false };
  }
  return { kind: 'value', value: t };
}

/** A choice as an <option> value (its JSON text), and back. */
export function choiceKey(v: unknown): string {
  return JSON.stringify(v) ?? 'null';
}

export function choiceFromKey(key: string): OverrideValue {
  try {
    const v = JSON.parse(key) as unknown;
    if (v === null || ['number', 'string', 'boolean'].includes(typeof v)) return v as OverrideValue;
  } catch {
    // fall through: send the text as it is
  }
  return key;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return a === b;
}

/** The same changes, in any order. */
export function sameOverrides(a: Overrides, b: Overrides): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

/**
 * Sets (or, with undefined or a value equal to the scenario's, removes) one override.
 * `base` holds the scenario's own effective values, path → value.
 */
export function withOverride(
  overrides: Overrides,
  path: string,
  value: OverrideValue | undefined,
  base: ReadonlyMap<string, unknown>,
): Overrides {
  const next = { ...overrides };
  if (value === undefined || (base.has(path) && sameValue(base.get(path), value)))
    delete next[path];
  else next[path] = value;
  return next;
}

/**
 * Applies the field edits (path → typed text or chosen value) to the current overrides; every
 * override equal to the scenario's own value is dropped, so the result lists real changes only.
 */
export function buildOverrides(
  current: Overrides,
  edits: Readonly<Record<string, string | OverrideValue>>,
  specs: ReadonlyMap<string, Pick<ParameterSpec, 'type'>>,
  base: ReadonlyMap<string, unknown>,
): Overrides {
  let next: Overrides = { ...current };
  for (const [path, raw] of Object.entries(edits)) {
    const spec = specs.get(path);
    let value: OverrideValue | undefined;
    if (typeof raw === 'string' && spec && spec.type !== 'choice') {
      const p = parseFieldText(spec, raw);
      value = p.kind === 'empty' ? undefined : p.value;
    } else {
      value = raw;
    }
    next = withOverride(next, path, value, base);
  }
  for (const [path, v] of Object.entries(next)) {
    if (base.has(path) && sameValue(base.get(path), v)) delete next[path];
  }
  return next;
}

export interface MappedErrors {
  /** Messages per parameter path that has a field. */
  byPath: Map<string, string[]>;
  /** Messages with no field to sit next to (whole scenario, unknown paths). */
  other: ValidationError[];
}

/** Places the core's messages next to their fields; the rest stays in the error panel. */
export function mapErrors(
  errors: readonly ValidationError[],
  fields: Iterable<string>,
): MappedErrors {
  const known = new Set(fields);
  const byPath = new Map<string, string[]>();
  const other: ValidationError[] = [];
  for (const e of errors) {
    if (known.has(e.path)) {
      let list = byPath.get(e.path);
      if (!list) byPath.set(e.path, (list = []));
      list.push(e.message);
    } else {
      other.push(e);
    }
  }
  return { byPath, other };
}

/** "33 MHz", "bidirectional", "none", "yes": a value with the spec's unit (numbers only). */
export function valueWithUnit(v: unknown, unit: string | undefined): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v !== 'number') return fieldText(v);
  const text = v.toLocaleString('en-US');
  return unit ? `${text} ${unit}` : text;
}
