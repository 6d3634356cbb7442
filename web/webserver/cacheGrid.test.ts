import { existsSync, readFileSync } from 'node:fs';
import { variantText } from '../compare/ab';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { isErrorOutput, type RunOutput } from '../engine/types';
import { loadNodeCore } from '../engine/nodeCore';
import {
  CacheReplay,
  EMPTY,
  FLASH,
  UNKNOWN,
  WHAT,
  cacheGridIndex,
  cacheSetup,
  cellXY,
  countsUpTo,
  fileColor,
  formatBytes,
  gridLayout,
  nextEvictionTime,
  nextRequestTime,
  prevRequestTime,
  requestAt,
  requestNow,
  slotAtPoint,
  type CacheGridIndex,
} from './cacheGrid';
import { FOUR_SLOTS, US, blockRecord, requestRecord } from './cacheGrid.example';

const req = requestRecord;
const blk = blockRecord;
const { hit, insert, invalidate } = WHAT;
const records = [...FOUR_SLOTS];
const setup = { nics: 1, slots: 4, blockBytes: 4096 };
const build = (recs: RawRecord[], s = setup, start = 0) =>
  cacheGridIndex(decodeTrace(encodeTrace(recs)), s, start);
const ix = build(records);

/** The slots after replaying the first `events` records from scratch. */
function fresh(index: CacheGridIndex, events: number): number[] {
  const r = new CacheReplay(index).seekEvents(events);
  return [...r.file];
}

describe('cacheGridIndex', () => {
  it('indexes each request with its block records and running totals', () => {
    expect(ix.requests).toBe(4);
    expect(ix.events).toBe(11);
    expect([...ix.evStart.slice(0, 5)]).toEqual([0, 3, 4, 7, 11]);
    expect([...ix.reqCached.slice(0, 4)]).toEqual([0, 0, 10000, 0]);
    expect(ix.knownStart).toBe(true);
    expect(ix.stop).toBeNull();
    const c = countsUpTo(ix, 3);
    expect(c).toMatchObject({
      requests: 4,
      from: 0,
      contentBytes: 32288,
      cachedBytes: 10000,
      hits: 3,
      insertions: 6,
      evictions: 2,
      invalidations: 0,
    });
    expect(c.reduction).toBeCloseTo(10000 / 32288, 12);
    expect(countsUpTo(ix, -1)).toMatchObject({ requests: 0, contentBytes: 0, reduction: 0 });
  });

  it('counts a partial hit by its cached bytes only', () => {
    const p = build([
      req(0, 1, 2000),
      blk(0, insert, 0, 1, 0),
      req(1, 1, 3000, 1),
      blk(1, hit, 0, 1, 0),
      blk(1, insert, 0, 1, 0),
      req(2, 1, 3000, 1),
      blk(2, hit, 0, 1, 0),
    ]);
    expect(p.stop).toBeNull();
    expect([...p.reqCached.slice(0, 3)]).toEqual([0, 2000, 3000]);
  });

  it('does not know what the cache held when the window opens mid-run', () => {
    const mid = build([req(5, 7, 4096, 1), blk(5, hit, 2, 7, 0)], setup, 5 * US);
    expect(mid.knownStart).toBe(false);
    const r = new CacheReplay(mid);
    expect([...r.file]).toEqual([UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]);
    expect(r.unknown).toEqual([4]);
    r.seek(5 * US);
    expect([...r.file]).toEqual([UNKNOWN, UNKNOWN, 7, UNKNOWN]);
    expect(r.unknown).toEqual([3]);
    expect(r.used).toEqual([1]);
    expect(countsUpTo(mid, 0)).toMatchObject({ from: 5, cachedBytes: 4096 });
  });

  it('stops at a gap in the requests (records dropped at the trace limit)', () => {
    const g = build([...records.slice(0, 4), ...records.slice(10)]);
    expect(g.stop).toEqual({ request: 1, reason: 'dropped' });
    expect(g.requests).toBe(1);
    expect(g.events).toBe(3);
  });

  it('stops where the core’s cache-event log ran out (a request without its blocks)', () => {
    const g = build([...records.slice(0, 6), req(2, 7, 10000, 0), req(3, 5, 8192)]);
    expect(g.stop).toEqual({ request: 2, reason: 'events' });
    expect(g.requests).toBe(2);
    expect(g.events).toBe(4);
    expect(countsUpTo(g, 9)).toMatchObject({ requests: 2, contentBytes: 14096 });
  });

  it('puts the second NIC’s slots after the first’s', () => {
    const two = build(
      [req(0, 3, 100), blk(0, insert, 0, 3, 0), req(1, 4, 100, 0, 1), blk(1, insert, 0, 4, 0, 1)],
      { nics: 2, slots: 2, blockBytes: 4096 },
    );
    expect(two.nics).toBe(2);
    const r = new CacheReplay(two).seek(1 * US);
    expect([...r.file]).toEqual([3, EMPTY, 4, EMPTY]);
    expect(r.filesIn(0)).toBe(1);
    expect(requestNow(two, 1)).toMatchObject({ nic: 1, flashes: [{ nic: 1, slot: 0 }] });
  });

  it('widens the grid to the slots the records name', () => {
    const w = build([req(0, 3, 100), blk(0, insert, 9, 3, 0)], { ...setup, slots: 0 });
    expect(w.slots).toBe(10);
  });
});

describe('at the cursor', () => {
  it('finds the request at or before a time', () => {
    expect(requestAt(ix, -1)).toBe(-1);
    expect(requestAt(ix, 0)).toBe(0);
    expect(requestAt(ix, 2.5 * US)).toBe(2);
    expect(requestAt(ix, 99 * US)).toBe(3);
    expect(nextRequestTime(ix, 2.5 * US)).toBe(3 * US);
    expect(nextRequestTime(ix, 3 * US)).toBeNull();
    expect(prevRequestTime(ix, 2 * US)).toBe(1 * US);
    expect(prevRequestTime(ix, 2.5 * US)).toBe(2 * US);
    expect(prevRequestTime(ix, 0)).toBeNull();
    expect(nextEvictionTime(ix, 0)).toBe(3 * US);
    expect(nextEvictionTime(ix, 3 * US)).toBeNull();
  });

  it('describes the current request and what it did to each slot', () => {
    const now = requestNow(ix, 3)!;
    expect(now).toMatchObject({
      request: 3,
      file: 5,
      bytes: 8192,
      blocks: 2,
      found: 0,
      cachedBytes: 0,
      inserted: 2,
      evicted: 2,
      invalidated: 0,
    });
    expect(now.flashes).toEqual([
      { nic: 0, slot: 3, bits: FLASH.evict | FLASH.insert },
      { nic: 0, slot: 0, bits: FLASH.evict | FLASH.insert },
    ]);
    expect(requestNow(ix, 2)!.flashes.map((f) => f.bits)).toEqual([1, 1, 1]);
    expect(requestNow(ix, 4)).toBeNull();
  });

  it('replays the slots forward and back to the same state as a fresh replay', () => {
    const r = new CacheReplay(ix);
    expect([...r.seek(-1).file]).toEqual([EMPTY, EMPTY, EMPTY, EMPTY]);
    expect([...r.seek(0).file]).toEqual([7, 7, 7, EMPTY]);
    expect([...r.seek(3 * US).file]).toEqual([5, 7, 7, 5]);
    expect([...r.block]).toEqual([1, 1, 2, 0]);
    expect(r.used).toEqual([4]);
    expect([...r.seek(1 * US).file]).toEqual([7, 7, 7, 9]);
    expect([...r.block]).toEqual([0, 1, 2, 0]);
    // Random jumps, checked against a replay from scratch.
    let seed = 7;
    for (let k = 0; k < 200; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const to = seed % (ix.events + 1);
      r.seekEvents(to);
      expect([...r.file]).toEqual(fresh(ix, to));
      expect(r.used[0]).toBe([...r.file].filter((f) => f >= 0).length);
    }
  });

  it('reports the slots that changed since the last paint', () => {
    const r = new CacheReplay(ix);
    expect(r.takeDirty()).toBe('all');
    r.seek(1 * US);
    expect(r.takeDirty()).toEqual([0, 1, 2, 3]);
    r.seek(3 * US);
    expect(r.takeDirty()).toEqual([3, 0]);
    expect(r.takeDirty()).toEqual([]);
    r.seek(0);
    expect(r.takeDirty()).toEqual([0, 3]);
  });

  it('applies an invalidation as an emptied slot', () => {
    const inv = build([
      req(0, 2, 100),
      blk(0, insert, 1, 2, 0),
      req(1, 2, 100),
      blk(1, invalidate, 1, 2, 0),
      blk(1, insert, 1, 2, 0),
    ]);
    expect(countsUpTo(inv, 1)).toMatchObject({ invalidations: 1, insertions: 2, cachedBytes: 0 });
    expect(requestNow(inv, 1)!.flashes).toEqual([
      { nic: 0, slot: 1, bits: FLASH.invalidate | FLASH.insert },
    ]);
  });
});

describe('colours and layout', () => {
  it('gives a file the same colour every time, and neighbours different ones', () => {
    expect(fileColor(3626)).toBe(fileColor(3626));
    expect(fileColor(3626)).toMatch(/^hsl\(\d+ \d+% \d+%\)$/);
    const colors = new Set(Array.from({ length: 50 }, (_, i) => fileColor(i)));
    expect(colors.size).toBeGreaterThan(45);
  });

  it('lays a 2 MB cache of 4 KB blocks out in rows of a multiple of 8 slots', () => {
    const l = gridLayout(512, 900, 440);
    expect(l.cols % 8).toBe(0);
    expect(l.cols * l.rows).toBeGreaterThanOrEqual(512);
    expect(l.height).toBeLessThanOrEqual(440);
    expect(l.width).toBeLessThanOrEqual(900);
    expect(l.pitch).toBeGreaterThanOrEqual(12);
    expect(l.cell).toBe(l.pitch - 1);
    expect(l.perCell).toBe(1);
  });

  it('puts a small cache in one row and a 16 MB cache of 512 B blocks at a few px a slot', () => {
    expect(gridLayout(16, 900)).toMatchObject({ cols: 16, rows: 1, pitch: 22 });
    const big = gridLayout(32768, 430, 440);
    expect(big.perCell).toBe(1);
    expect(big.pitch).toBeGreaterThanOrEqual(2);
    expect(big.width).toBeLessThanOrEqual(430);
    expect(big.height).toBeLessThanOrEqual(440);
    expect(big.cols * big.rows).toBeGreaterThanOrEqual(32768);
  });

  it('draws several slots a cell when a pixel each does not fit', () => {
    const huge = gridLayout(2_097_152, 400, 400);
    expect(huge.perCell).toBeGreaterThan(1);
    expect(huge.cells * huge.perCell).toBeGreaterThanOrEqual(2_097_152);
    expect(huge.height).toBeLessThanOrEqual(400);
  });

  it('maps a point back to the slot drawn there', () => {
    const l = gridLayout(512, 900, 440);
    for (const slot of [0, 1, 37, 511]) {
      const { x, y } = cellXY(l, slot);
      expect(slotAtPoint(l, x + 1, y + 1)).toBe(slot);
    }
    expect(slotAtPoint(l, -1, 0)).toBeNull();
    expect(slotAtPoint(l, l.width, 0)).toBeNull();
  });

  it('reads the setup from the parameters and results', () => {
    const s = cacheSetup(
      {
        system: { nics: 2, nic_cache: { kbytes: 2048, block_bytes: 4096, replacement: 'lfu' } },
        workload: { kind: 'web', web_mode: 'cache-only', trace: 'nasa' },
      },
      { cache_slots: { value: 512, unit: 'blocks' } },
    );
    expect(s).toMatchObject({ web: true, nics: 2, kbytes: 2048, slots: 512, trace: 'nasa' });
    expect(s.replacement).toBe('lfu');
    expect(cacheSetup({ workload: { kind: 'udp' } }, {}).web).toBe(false);
    expect(formatBytes(33440)).toBe('33.4 KB');
    expect(formatBytes(2_054_499_834)).toBe('2.05 GB');
    expect(formatBytes(512)).toBe('512 B');
  });
});

const wasmBuilt = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);
const scenarioFile = fileURLToPath(
  new URL('../../scenarios/web-cache-sizes.json', import.meta.url),
);

describe.skipIf(!wasmBuilt || !existsSync(scenarioFile))('the real core’s cache', async () => {
  const core = wasmBuilt ? await loadNodeCore() : null;
  // Its main run only: the checks and the tour name sweep points.
  const scenario = JSON.parse(variantText(readFileSync(scenarioFile, 'utf8'))) as Record<
    string,
    unknown
  >;

  for (const nics of [1, 2]) {
    it(`replays to the core's content-traffic reduction (${nics} NIC${nics > 1 ? 's' : ''})`, () => {
      const overrides = {
        'system.nics': nics,
        'system.nic_cache.kbytes': 256,
        'workload.trace': 'nasa',
        'workload.trace_requests': 1500,
        'workload.warmup_requests': 0,
        'run.trace.start_us': 0,
        'run.trace.end_us': 1499,
      };
      const out = JSON.parse(core!.run(JSON.stringify(scenario), JSON.stringify(overrides)));
      expect(isErrorOutput(out), JSON.stringify(out).slice(0, 300)).toBe(false);
      const o = out as RunOutput;
      const s = cacheSetup(o.parameters, o.results);
      expect(s).toMatchObject({ web: true, nics, slots: 64, blockBytes: 4096 });
      const index = cacheGridIndex(decodeTrace(core!.traceBytes()), s, o.trace.start_ps);
      expect(index.stop).toBeNull();
      expect(index.requests).toBe(1500);
      const c = countsUpTo(index, index.requests - 1);
      expect(c.contentBytes / 1e6).toBeCloseTo(o.results.web_content_mb!.value, 5);
      expect(c.reduction).toBeCloseTo(o.results.content_traffic_reduction!.value, 9);
      expect(c.insertions).toBe(o.results.cache_insertions!.value);
      expect(c.evictions).toBe(o.results.cache_evictions!.value);
      const r = new CacheReplay(index).seek(Infinity);
      for (let n = 0; n < nics; n++) expect(r.used[n]).toBe(64);
      for (let k = 0; k < index.requests; k++) expect(index.reqNic[k]).toBe(index.reqId[k]! % nics);
    });
  }
});
