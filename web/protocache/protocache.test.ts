import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { ProtoCacheLine, ProtoCacheRef, ProtoPacket } from '../trace/records.gen';
import type { ParameterTree } from '../engine/types';
import {
  EMPTY,
  LinesPlayer,
  buildProtoIndex,
  cacheShapes,
  decodeReference,
  gridColumns,
  linesAt,
  packetAt,
} from './protocache';

// A hand-made trace: a line already held as the window opens, one packet with three references
// (an instruction hit, a load miss the L2 serves, an instruction that misses to memory), their
// fills, and an inclusion invalidation.
const line = (
  time: number,
  cache: number,
  set: number,
  way: number,
  layer: number,
  what: number,
): RawRecord => ({
  time,
  kind: ProtoCacheLine.kind,
  component: 0,
  a: cache,
  b: set,
  c: way,
  d: layer,
  e: what,
});
const ref = (
  time: number,
  layer: number,
  reference: number,
  l1: number,
  l2: number,
  stall: number,
): RawRecord => ({
  time,
  kind: ProtoCacheRef.kind,
  component: 0,
  a: layer,
  b: reference,
  c: l1,
  d: l2,
  e: stall,
});
const records: RawRecord[] = [
  line(1000, 0, 5, 0, 2, 0), // L1-I set 5: UDP code
  { time: 1000, kind: ProtoPacket.kind, component: 0, a: 7, b: 100, c: 11, d: 141, e: 90 },
  ref(1000, 2, 0, 5, 0, 0), // UDP instruction, L1 hit
  ref(2000, 3, 1 * 4 + 1, 9, 40, 11), // IP load, L2
  line(2000, 1, 9, 0, 3, 1),
  ref(3000, 5, 0 * 4 + 2, 7, 41, 141), // msg instruction, memory
  line(3000, 0, 7, 0, 5, 0),
  line(3000, 2, 41, 0, 5, 0),
  line(3000, 0, 5, 0, 0, 2), // inclusion drops UDP's L1-I line
];
const trace = decodeTrace(encodeTrace(records));
const params = {
  system: { host_cache: { l1_kbytes: 16, ways: 1, l2_kbytes: 1024 } },
} as unknown as ParameterTree;

describe('protocol-cache view data', () => {
  it('shapes the caches from the parameters and the machines of Table 8', () => {
    expect(cacheShapes(params)).toEqual([
      { sets: 1024, ways: 1 },
      { sets: 1024, ways: 1 },
      { sets: 8192, ways: 1 },
    ]);
    const m = { system: { host_cache: { machine: '1996' } } } as unknown as ParameterTree;
    expect(cacheShapes(m)[0]).toEqual({ sets: 1024, ways: 2 }); // 32 KB of 16 B lines, 2-way
    expect(gridColumns(1024)).toBe(32);
    expect(gridColumns(8192)).toBe(128);
  });

  it('replays fills and invalidations up to the cursor', () => {
    const ix = buildProtoIndex(trace);
    const shapes = cacheShapes(params);
    const at1 = linesAt(ix, shapes, 1500);
    expect(at1[0]![5]).toBe(2); // UDP code
    expect(at1[1]![9]).toBe(EMPTY);
    const at3 = linesAt(ix, shapes, 3000);
    expect(at3[1]![9]).toBe(3 | 16); // IP data, striped
    expect(at3[0]![7]).toBe(5);
    expect(at3[2]![41]).toBe(5);
    expect(at3[0]![5]).toBe(EMPTY); // invalidated by inclusion
  });

  it('a player moved forward and back gives what replaying from the opening gives', () => {
    const ix = buildProtoIndex(trace);
    const shapes = cacheShapes(params);
    const player = new LinesPlayer(ix, shapes);
    for (const t of [0, 1000, 2500, 3000, 1500, 999, 3000, 2000]) {
      const before = player.version;
      const got = player.at(t).map((g) => Array.from(g));
      expect(got).toEqual(linesAt(ix, shapes, t).map((g) => Array.from(g)));
      // Unchanged cursor, unchanged cells: no new version, the same arrays.
      const again = player.at(t);
      expect(again).toBe(player.cells);
      expect(player.version).toBeGreaterThanOrEqual(before);
    }
    const v = player.version;
    player.at(2000);
    expect(player.version).toBe(v);
  });

  it('tallies the packet so far by layer and stall level', () => {
    const ix = buildProtoIndex(trace);
    const now = packetAt(ix, 2500)!;
    expect(now.packet).toBe(7);
    expect(now.refsSoFar).toBe(2);
    expect(now.layers[2]).toEqual({ iRefs: 1, iMisses: 0, dRefs: 0, dMisses: 0 });
    expect(now.layers[3]).toEqual({ iRefs: 0, iMisses: 0, dRefs: 1, dMisses: 1 });
    expect(now.l2StallSoFar).toBe(11);
    expect(now.memoryStallSoFar).toBe(0);
    expect(now.current).toMatchObject({ layer: 3, access: 1, served: 1, l1Set: 9, l2Set: 40 });
    const end = packetAt(ix, 5000)!;
    expect(end.memoryStallSoFar).toBe(141);
    expect(end.cpuCycles + end.l2Stall + end.memoryStall).toBe(252);
    expect(packetAt(ix, 10)).toBeNull();
    expect(decodeReference(10)).toEqual({ access: 2, served: 2 });
  });
});
