// A knob's slider: the values its positions stand for, read from the core's parameter spec (min,
// max, type). Nothing here knows a parameter: a spec without a finite range gets no slider.
// Ranges that span decades are logarithmic, so a ring of 4 to 65536 descriptors or a cost of
// 0 to 1,000,000 ns can be set as finely at its small end as at its large one.
import type { ParameterSpec } from '../engine/types';

export interface SliderScale {
  kind: 'linear' | 'log';
  /** The value of each slider position, ascending and distinct; the first is min, the last max. */
  values: readonly number[];
}

/** A range is logarithmic from this many decades on (min > 0). */
export const LOG_DECADES = 2;
/** Positions per decade of a logarithmic slider (values rounded to two significant digits). */
const PER_DECADE = 20;
/** About this many positions on a linear slider. */
const LINEAR_POSITIONS = 400;

type RangeSpec = Pick<
  ParameterSpec,
  'type' | 'min' | 'max' | 'default' | 'choices' | 'power_of_two' | 'step' | 'multiple_of'
>;

function isNumeric(spec: RangeSpec): boolean {
  return (spec.type === 'integer' || spec.type === 'number') && !spec.choices;
}

/** 1, 2 or 5 times a power of ten, the smallest not below x. */
export function niceStep(x: number): number {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}

/** Rounds to `digits` significant digits without binary noise (0.30000000000000004). */
function roundSig(x: number, digits: number): number {
  if (x === 0) return 0;
  return Number(x.toPrecision(digits));
}

function decimalsOf(step: number): number {
  return step >= 1 ? 0 : Math.min(12, Math.ceil(-Math.log10(step) - 1e-9));
}

function logValues(lo: number, hi: number, integer: boolean): number[] {
  const decades = Math.log10(hi / lo);
  const n = Math.max(1, Math.round(decades * PER_DECADE));
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    let v = i === 0 ? lo : i === n ? hi : roundSig(lo * 10 ** ((i / n) * decades), 2);
    if (integer && i > 0 && i < n) v = Math.round(v);
    out.push(v);
  }
  return out;
}

function isPowerOfTwo(x: number): boolean {
  return Number.isInteger(x) && x > 0 && (x & (x - 1)) === 0;
}

/** lo, 2·lo, 4·lo, … hi. */
function powersOfTwo(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = lo; v <= hi; v *= 2) out.push(v);
  return out;
}

function dedupe(values: number[]): number[] {
  const out: number[] = [];
  for (const v of values) if (out.length === 0 || v > out[out.length - 1]!) out.push(v);
  return out;
}

/**
 * The slider of a numeric parameter with a finite range, or null (choices, text, no range).
 * Logarithmic when the range spans LOG_DECADES or more: from min when min > 0; when min is 0,
 * position 0 is 0 and the rest runs logarithmically from 1 (or from the decade of a default
 * below 1) to max. Between powers of two it steps through the powers of two. The core's rules
 * keep it to what the core accepts: powers of two (spec.power_of_two), whole steps (spec.step),
 * and multiples of another parameter's current value, `unit` (spec.multiple_of: a cache of
 * whole blocks, a step of unit / factor). Any other value can still be typed, and the core
 * names what is wrong with it.
 */
export function sliderScale(spec: RangeSpec, unit?: unknown): SliderScale | null {
  const scale = rangeScale(spec);
  if (!scale) return null;
  const lo = scale.values[0]!;
  const hi = scale.values[scale.values.length - 1]!;
  let values = scale.values;
  if (spec.power_of_two) {
    const first = Math.max(1, 2 ** Math.ceil(Math.log2(Math.max(lo, 1))));
    values = powersOfTwo(first, hi);
    if (lo === 0) values = [0, ...values];
  }
  // A unit that gives no whole step (512-byte blocks for a size in KB, or a block size the core
  // refuses anyway) leaves the values as they are.
  const m = spec.multiple_of;
  const unitStep = m && typeof unit === 'number' ? unit / m.factor : 0;
  const step = spec.step && spec.step > 0 ? spec.step : Number.isInteger(unitStep) ? unitStep : 0;
  if (step > 0) {
    const first = Math.ceil(lo / step) * step;
    const last = Math.floor(hi / step) * step;
    values = dedupe(
      values.map((v) => Math.min(last, Math.max(first, Math.round(v / step) * step))),
    );
  }
  if (values === scale.values) return scale;
  // Powers of two are evenly spaced in ratio: a logarithmic slider whatever the range.
  const kind = spec.power_of_two ? 'log' : scale.kind;
  return values.length >= 2 ? { kind, values } : scale;
}

function rangeScale(spec: RangeSpec): SliderScale | null {
  if (!isNumeric(spec)) return null;
  const { min, max } = spec;
  if (typeof min !== 'number' || typeof max !== 'number') return null;
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) return null;
  const integer = spec.type === 'integer';
  // An integer range between powers of two (ring sizes, block sizes, caches) steps by doubling.
  const binary = integer && isPowerOfTwo(max);
  if (min > 0 && max / min >= 10 ** LOG_DECADES) {
    const values =
      binary && isPowerOfTwo(min) ? powersOfTwo(min, max) : logValues(min, max, integer);
    return { kind: 'log', values: dedupe(values) };
  }
  if (min === 0) {
    const d = typeof spec.default === 'number' && spec.default > 0 ? spec.default : 1;
    const lo = integer ? 1 : Math.min(1, 10 ** Math.floor(Math.log10(d)));
    if (max / lo >= 10 ** LOG_DECADES) {
      const values = binary ? powersOfTwo(1, max) : logValues(lo, max, integer);
      return { kind: 'log', values: dedupe([0, ...values]) };
    }
  }
  const step = integer
    ? Math.max(1, niceStep((max - min) / LINEAR_POSITIONS))
    : niceStep((max - min) / LINEAR_POSITIONS);
  const decimals = decimalsOf(step);
  const n = Math.floor((max - min) / step + 1e-9);
  const values: number[] = [];
  for (let i = 0; i <= n; i++) {
    const v = Number((min + i * step).toFixed(decimals));
    if (v < max) values.push(v);
  }
  values.push(max);
  return { kind: 'linear', values: dedupe(values) };
}

/**
 * The slider position nearest to a value (clamped to the ends); nearest in ratio on a
 * logarithmic slider. Not-a-number values sit at the start.
 */
export function positionOf(scale: SliderScale, value: unknown): number {
  const vs = scale.values;
  const last = vs.length - 1;
  if (typeof value !== 'number' || Number.isNaN(value)) return 0;
  if (value <= vs[0]!) return 0;
  if (value >= vs[last]!) return last;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (vs[mid]! <= value) lo = mid;
    else hi = mid;
  }
  const a = vs[lo]!;
  const b = vs[hi]!;
  const nearerB = scale.kind === 'log' && a > 0 ? value * value > a * b : value - a > b - value;
  return nearerB ? hi : lo;
}

export function valueAt(scale: SliderScale, position: number): number {
  const i = Math.min(scale.values.length - 1, Math.max(0, Math.round(position)));
  return scale.values[i]!;
}
