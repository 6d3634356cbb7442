// Decoding of the core's trace records (40 bytes, little-endian; see core-cpp/README.md)
// into a struct of arrays, plus binary searches over time.

export const RECORD_BYTES = 40;

export interface Trace {
  readonly length: number;
  /** Picoseconds. Exact: trace times stay below 2^53 ps (about 104 days). */
  readonly time: Float64Array;
  readonly kind: Uint16Array;
  readonly component: Uint16Array;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly c: Uint32Array;
  readonly d: Uint32Array;
  readonly e: Uint32Array;
  /** The record's id: 1, 2, … in the order the model made its records (see core-cpp/README.md). */
  readonly id: Uint32Array;
  /** The id of the record this one follows from (a flow), or 0 when none is known. */
  readonly cause: Uint32Array;
}

export class TraceFormatError extends Error {}

export function decodeTrace(bytes: ArrayBuffer | ArrayBufferView): Trace {
  const view =
    bytes instanceof ArrayBuffer
      ? new DataView(bytes)
      : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength % RECORD_BYTES !== 0) {
    throw new TraceFormatError(
      `trace is ${view.byteLength} bytes, not a multiple of the ${RECORD_BYTES}-byte record`,
    );
  }
  const n = view.byteLength / RECORD_BYTES;
  const t: Trace = {
    length: n,
    time: new Float64Array(n),
    kind: new Uint16Array(n),
    component: new Uint16Array(n),
    a: new Uint32Array(n),
    b: new Uint32Array(n),
    c: new Uint32Array(n),
    d: new Uint32Array(n),
    e: new Uint32Array(n),
    id: new Uint32Array(n),
    cause: new Uint32Array(n),
  };
  for (let i = 0, o = 0; i < n; i++, o += RECORD_BYTES) {
    const lo = view.getUint32(o, true);
    const hi = view.getInt32(o + 4, true);
    t.time[i] = hi * 4294967296 + lo;
    t.kind[i] = view.getUint16(o + 8, true);
    t.component[i] = view.getUint16(o + 10, true);
    t.a[i] = view.getUint32(o + 12, true);
    t.b[i] = view.getUint32(o + 16, true);
    t.c[i] = view.getUint32(o + 20, true);
    t.d[i] = view.getUint32(o + 24, true);
    t.e[i] = view.getUint32(o + 28, true);
    t.id[i] = view.getUint32(o + 32, true);
    t.cause[i] = view.getUint32(o + 36, true);
  }
  return t;
}

/** Encodes records (used by tests and fixtures; the inverse of decodeTrace). */
export interface RawRecord {
  time: number;
  kind: number;
  component: number;
  a?: number;
  b?: number;
  c?: number;
  d?: number;
  e?: number;
  /** Default: the record's position + 1. */
  id?: number;
  cause?: number;
}

export function encodeTrace(records: readonly RawRecord[]): ArrayBuffer {
  const buf = new ArrayBuffer(records.length * RECORD_BYTES);
  const v = new DataView(buf);
  records.forEach((r, i) => {
    const o = i * RECORD_BYTES;
    const hi = Math.floor(r.time / 4294967296);
    v.setUint32(o, r.time - hi * 4294967296, true);
    v.setInt32(o + 4, hi, true);
    v.setUint16(o + 8, r.kind, true);
    v.setUint16(o + 10, r.component, true);
    v.setUint32(o + 12, r.a ?? 0, true);
    v.setUint32(o + 16, r.b ?? 0, true);
    v.setUint32(o + 20, r.c ?? 0, true);
    v.setUint32(o + 24, r.d ?? 0, true);
    v.setUint32(o + 28, r.e ?? 0, true);
    v.setUint32(o + 32, r.id ?? i + 1, true);
    v.setUint32(o + 36, r.cause ?? 0, true);
  });
  return buf;
}

/** Number of records with time <= t (index of the first record after t). */
export function countUpTo(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first record with time >= t. */
export function firstAtOrAfter(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Time of the next record strictly after t, or null. */
export function nextEventTime(trace: Trace, t: number): number | null {
  const i = countUpTo(trace.time, t);
  return i < trace.length ? trace.time[i]! : null;
}

/** Time of the last record strictly before t, or null. */
export function prevEventTime(trace: Trace, t: number): number | null {
  const i = firstAtOrAfter(trace.time, t) - 1;
  return i >= 0 ? trace.time[i]! : null;
}
