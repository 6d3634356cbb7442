import { describe, expect, it } from 'vitest';
import {
  countUpTo,
  decodeTrace,
  encodeTrace,
  nextEventTime,
  prevEventTime,
  RECORD_BYTES,
  TraceFormatError,
} from './trace';
import { fixtureRecords } from '../engine/fixture';

describe('decodeTrace', () => {
  it('decodes the 40-byte little-endian layout field by field', () => {
    const buf = new ArrayBuffer(80);
    const v = new DataView(buf);
    // record 0: time 2^40 + 5 ps, kind 4, component 2, a..e = 1..5, id 7, cause 3
    v.setUint32(0, 5, true);
    v.setUint32(4, 256, true);
    v.setUint16(8, 4, true);
    v.setUint16(10, 2, true);
    [1, 2, 3, 4, 5].forEach((x, i) => v.setUint32(12 + 4 * i, x, true));
    v.setUint32(32, 7, true);
    v.setUint32(36, 3, true);
    // record 1: max uint32 fields
    v.setUint32(40, 1000, true);
    v.setUint16(48, 27, true);
    v.setUint16(50, 11, true);
    for (let i = 0; i < 7; i++) v.setUint32(52 + 4 * i, 0xffffffff, true);
    const t = decodeTrace(buf);
    expect(t.length).toBe(2);
    expect(t.time[0]).toBe(2 ** 40 + 5);
    expect(t.kind[0]).toBe(4);
    expect(t.component[0]).toBe(2);
    expect([t.a[0], t.b[0], t.c[0], t.d[0], t.e[0]]).toEqual([1, 2, 3, 4, 5]);
    expect([t.id[0], t.cause[0]]).toEqual([7, 3]);
    expect(t.time[1]).toBe(1000);
    expect(t.kind[1]).toBe(27);
    expect(t.component[1]).toBe(11);
    expect(t.e[1]).toBe(0xffffffff);
    expect(t.cause[1]).toBe(0xffffffff);
  });

  it('encodes ids as positions unless given, and causes', () => {
    const t = decodeTrace(
      encodeTrace([
        { time: 1, kind: 0, component: 0 },
        { time: 2, kind: 0, component: 0, id: 9, cause: 1 },
      ]),
    );
    expect([...t.id]).toEqual([1, 9]);
    expect([...t.cause]).toEqual([0, 1]);
  });

  it('accepts a Uint8Array view at an offset', () => {
    const records = fixtureRecords();
    const enc = new Uint8Array(encodeTrace(records));
    const padded = new Uint8Array(enc.length + 16);
    padded.set(enc, 8);
    const t = decodeTrace(padded.subarray(8, 8 + enc.length));
    expect(t.length).toBe(records.length);
    records.forEach((r, i) => {
      expect(t.time[i]).toBe(r.time);
      expect(t.kind[i]).toBe(r.kind);
      expect(t.a[i]).toBe(r.a ?? 0);
    });
  });

  it('round-trips times near 2^53 ps exactly', () => {
    const time = 2 ** 53 - 1;
    const t = decodeTrace(encodeTrace([{ time, kind: 0, component: 0 }]));
    expect(t.time[0]).toBe(time);
  });

  it('rejects a length that is not a whole number of records', () => {
    expect(() => decodeTrace(new ArrayBuffer(RECORD_BYTES + 3))).toThrow(TraceFormatError);
  });

  it('decodes an empty trace', () => {
    expect(decodeTrace(new ArrayBuffer(0)).length).toBe(0);
  });
});

describe('time search', () => {
  const t = decodeTrace(
    encodeTrace([10, 20, 20, 30].map((time) => ({ time, kind: 0, component: 0 }))),
  );
  it('counts records at or before a time', () => {
    expect(countUpTo(t.time, 5)).toBe(0);
    expect(countUpTo(t.time, 20)).toBe(3);
    expect(countUpTo(t.time, 99)).toBe(4);
  });
  it('steps between distinct event times', () => {
    expect(nextEventTime(t, 10)).toBe(20);
    expect(nextEventTime(t, 20)).toBe(30);
    expect(nextEventTime(t, 30)).toBeNull();
    expect(prevEventTime(t, 30)).toBe(20);
    expect(prevEventTime(t, 20)).toBe(10);
    expect(prevEventTime(t, 10)).toBeNull();
  });
});
