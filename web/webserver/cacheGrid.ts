// The NIC data cache of the thesis Ch.4 (§4.3) as the cache-only web run records it: each request
// (WebRequest, request n at n µs) followed by what its blocks did to the cache (NicCacheBlock:
// hit, insert, evict, invalidate of one slot of one NIC's cache). The index is built once per
// run; the grid's state at the cursor comes from a replayer that applies or undoes records from
// where it stands, so scrubbing costs the distance moved, not the whole trace (D3 computes,
// React renders: nothing here touches the DOM).
import { K, componentInstance } from '../trace/traceKinds';
import { paramAt, type Metrics, type ParameterTree } from '../engine/types';
import { countUpTo, type Trace } from '../trace/trace';
import { NicCacheBlock, WebRequest } from '../trace/records.gen';

/** A slot's file when it holds no block, or when the trace cannot tell (window opened mid-run). */
export const EMPTY = -1;
export const UNKNOWN = -2;

/** NicCacheBlock's "what" (field d), and the bits of a slot's flash at the current request. */
export const WHAT = { hit: 0, insert: 1, evict: 2, invalidate: 3 } as const;
export const WHAT_NAMES = ['hit', 'insert', 'evict', 'invalidate'] as const;
export const FLASH = { hit: 1, insert: 2, evict: 4, invalidate: 8 } as const;

const US = 1e6; // ps per µs: request n sits at n µs

// ---------------------------------------------------------------------------------------------
// The run's cache (from the effective parameters and results)

export interface CacheSetup {
  /** The run is the web workload in cache-only mode. */
  web: boolean;
  /** The trace's name: berkeley … worldcup, or "log" (the user's access log). */
  trace: string | null;
  nics: number;
  /** Per NIC, KB (1 KB = 1024 B, as the thesis's "4 MB"); 0 = no cache. */
  kbytes: number;
  blockBytes: number;
  replacement: string;
  /** Slots per NIC (cache_slots, else kbytes / block). */
  slots: number;
  warmup: number;
}

function numberAt(params: ParameterTree | undefined, path: string, fallback: number): number {
  const v = paramAt(params, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

export function cacheSetup(parameters: ParameterTree | undefined, results: Metrics): CacheSetup {
  const kbytes = numberAt(parameters, 'system.nic_cache.kbytes', 0);
  const blockBytes = numberAt(parameters, 'system.nic_cache.block_bytes', 4096);
  const slotsMetric = results.cache_slots?.value;
  const trace = paramAt(parameters, 'workload.trace');
  const replacement = paramAt(parameters, 'system.nic_cache.replacement');
  return {
    web:
      paramAt(parameters, 'workload.kind') === 'web' &&
      paramAt(parameters, 'workload.web_mode') !== 'full',
    trace: typeof trace === 'string' ? trace : null,
    nics: Math.max(1, Math.min(2, numberAt(parameters, 'system.nics', 1))),
    kbytes,
    blockBytes,
    replacement: typeof replacement === 'string' ? replacement : 'lru',
    slots:
      typeof slotsMetric === 'number' && slotsMetric > 0
        ? Math.round(slotsMetric)
        : Math.floor((kbytes * 1024) / Math.max(1, blockBytes)),
    warmup: numberAt(parameters, 'workload.warmup_requests', 0),
  };
}

// ---------------------------------------------------------------------------------------------
// The index

export interface CacheGridIndex {
  nics: number;
  /** Slots per NIC. */
  slots: number;
  blockBytes: number;
  /** The cache is known to be empty before the first request (the window opens at request 0). */
  knownStart: boolean;
  /** Requests in the window, in order (struct of arrays, length `requests`). */
  requests: number;
  reqId: Uint32Array;
  reqTime: Float64Array;
  reqFile: Uint32Array;
  reqBytes: Uint32Array;
  reqNic: Uint8Array;
  /** Blocks found in its NIC's cache (the core's count). */
  reqFound: Uint32Array;
  /** Content bytes served from the cache (partial blocks counted by their cached bytes). */
  reqCached: Float64Array;
  /** Request r's block records are evStart[r] .. evStart[r + 1] - 1 (length requests + 1). */
  evStart: Uint32Array;
  /** Running totals before request r (length requests + 1). */
  cumContent: Float64Array;
  cumCached: Float64Array;
  cumHits: Uint32Array;
  cumInserts: Uint32Array;
  cumEvicts: Uint32Array;
  cumInvalidates: Uint32Array;
  /** Block records (struct of arrays, length `events`). */
  events: number;
  evNic: Uint8Array;
  evSlot: Uint32Array;
  evFile: Uint32Array;
  evBlock: Uint32Array;
  evWhat: Uint8Array;
  /** The slot before the record (to undo it). */
  evPrevFile: Int32Array;
  evPrevBlock: Uint32Array;
  /**
   * The trace is incomplete from this request on (records dropped at the trace's record limit,
   * or the core's cache-event log full): the index stops before it. Null when complete.
   */
  stop: { request: number; reason: 'dropped' | 'events' } | null;
}

/**
 * Indexes the run's WebRequest and NicCacheBlock records: one forward replay that records, for
 * each block record, the slot's previous content (for undo) and, for each request, the content
 * bytes that came from the cache. `setup.slots` and `setup.nics` size the grid (widened when a
 * record names a slot beyond them).
 */
export function cacheGridIndex(
  trace: Trace,
  setup: Pick<CacheSetup, 'nics' | 'slots' | 'blockBytes'>,
  windowStartPs = 0,
): CacheGridIndex {
  let nics = Math.max(1, setup.nics);
  let slots = Math.max(0, setup.slots);
  let nReq = 0;
  let nEv = 0;
  for (let i = 0; i < trace.length; i++) {
    if (trace.kind[i] === K.WebRequest) nReq++;
    else if (trace.kind[i] === K.NicCacheBlock) {
      nEv++;
      nics = Math.max(nics, componentInstance(trace.component[i]!) + 1);
      slots = Math.max(slots, NicCacheBlock.slot(trace, i) + 1);
    }
  }
  const B = Math.max(1, setup.blockBytes);
  const knownStart = windowStartPs < US;

  const reqId = new Uint32Array(nReq);
  const reqTime = new Float64Array(nReq);
  const reqFile = new Uint32Array(nReq);
  const reqBytes = new Uint32Array(nReq);
  const reqNic = new Uint8Array(nReq);
  const reqFound = new Uint32Array(nReq);
  const reqCached = new Float64Array(nReq);
  const evStart = new Uint32Array(nReq + 1);
  const evNic = new Uint8Array(nEv);
  const evSlot = new Uint32Array(nEv);
  const evFile = new Uint32Array(nEv);
  const evBlock = new Uint32Array(nEv);
  const evWhat = new Uint8Array(nEv);
  const evPrevFile = new Int32Array(nEv);
  const evPrevBlock = new Uint32Array(nEv);

  // The replay's state: each slot's file and block, how many of its bytes are valid (-1: not
  // known, the window opened mid-run), and the request that last hit it.
  const total = nics * slots;
  const file = new Int32Array(total).fill(knownStart ? EMPTY : UNKNOWN);
  const block = new Uint32Array(total);
  const valid = new Int32Array(total).fill(-1);
  const hitBy = new Int32Array(total).fill(-1);

  let r = -1;
  let e = 0;
  let stop: CacheGridIndex['stop'] = null;
  let cached = 0;
  let blocksSeen = 0;
  // Every block of a response is looked up once: a hit, or an insertion into a fresh slot. Fewer
  // means the core's cache-event log ran out (its records stop there).
  const complete = (): boolean =>
    slots === 0 || blocksSeen === Math.ceil(reqBytes[r]! / B) || reqBytes[r] === 0;

  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind[i];
    if (kind === K.WebRequest) {
      const id = WebRequest.request(trace, i);
      if (r >= 0) {
        reqCached[r] = cached;
        if (!complete()) {
          stop = { request: reqId[r]!, reason: 'events' };
          break;
        }
        if (id !== reqId[r]! + 1) {
          stop = { request: reqId[r]! + 1, reason: 'dropped' };
          break;
        }
      }
      r++;
      evStart[r] = e;
      reqId[r] = id;
      reqTime[r] = trace.time[i]!;
      reqFile[r] = WebRequest.file(trace, i);
      reqBytes[r] = WebRequest.contentBytes(trace, i);
      reqNic[r] = WebRequest.nic(trace, i);
      reqFound[r] = WebRequest.blocksFound(trace, i);
      cached = 0;
      blocksSeen = 0;
      continue;
    }
    if (kind !== K.NicCacheBlock || r < 0) continue;
    const nic = componentInstance(trace.component[i]!);
    const slot = NicCacheBlock.slot(trace, i);
    const f = NicCacheBlock.file(trace, i);
    const b = NicCacheBlock.block(trace, i);
    const what = NicCacheBlock.what(trace, i);
    const g = nic * slots + slot;
    evNic[e] = nic;
    evSlot[e] = slot;
    evFile[e] = f;
    evBlock[e] = b;
    evWhat[e] = what;
    evPrevFile[e] = file[g]!;
    evPrevBlock[e] = block[g]!;
    e++;
    // The bytes of this block the response sends: a whole block but for the file's last.
    const len = Math.max(0, Math.min(B, reqBytes[r]! - b * B));
    if (what === WHAT.hit) {
      blocksSeen++;
      const v = valid[g]!;
      cached += v < 0 ? len : Math.min(len, v);
      valid[g] = Math.max(v, len);
      hitBy[g] = r;
      file[g] = f;
      block[g] = b;
    } else if (what === WHAT.insert) {
      // A fresh slot holds what was just fetched; a slot hit just now grows to the request.
      if (hitBy[g] !== r) {
        blocksSeen++;
        valid[g] = len;
      }
      file[g] = f;
      block[g] = b;
    } else {
      file[g] = EMPTY;
      valid[g] = 0;
      hitBy[g] = -1;
    }
  }
  // The requests kept: all, or all but the last when its block records are incomplete.
  if (r >= 0 && !stop) {
    reqCached[r] = cached;
    if (!complete()) stop = { request: reqId[r]!, reason: 'events' };
  }
  const n = stop?.reason === 'events' ? r : r + 1;
  const events = n === r ? evStart[r]! : e;
  evStart[n] = events;

  const cumContent = new Float64Array(n + 1);
  const cumCached = new Float64Array(n + 1);
  const cumHits = new Uint32Array(n + 1);
  const cumInserts = new Uint32Array(n + 1);
  const cumEvicts = new Uint32Array(n + 1);
  const cumInvalidates = new Uint32Array(n + 1);
  const per = [0, 0, 0, 0];
  for (let k = 0; k < n; k++) {
    cumContent[k + 1] = cumContent[k]! + reqBytes[k]!;
    cumCached[k + 1] = cumCached[k]! + reqCached[k]!;
    for (let x = evStart[k]!; x < evStart[k + 1]!; x++) per[evWhat[x]! & 3]!++;
    cumHits[k + 1] = per[WHAT.hit]!;
    cumInserts[k + 1] = per[WHAT.insert]!;
    cumEvicts[k + 1] = per[WHAT.evict]!;
    cumInvalidates[k + 1] = per[WHAT.invalidate]!;
  }
  return {
    nics,
    slots,
    blockBytes: B,
    knownStart,
    requests: n,
    reqId: reqId.subarray(0, n),
    reqTime: reqTime.subarray(0, n),
    reqFile: reqFile.subarray(0, n),
    reqBytes: reqBytes.subarray(0, n),
    reqNic: reqNic.subarray(0, n),
    reqFound: reqFound.subarray(0, n),
    reqCached: reqCached.subarray(0, n),
    evStart: evStart.subarray(0, n + 1),
    cumContent,
    cumCached,
    cumHits,
    cumInserts,
    cumEvicts,
    cumInvalidates,
    events,
    evNic,
    evSlot,
    evFile,
    evBlock,
    evWhat,
    evPrevFile,
    evPrevBlock,
    stop,
  };
}

const cache = new WeakMap<Trace, { key: string; ix: CacheGridIndex }>();

/** cacheGridIndex, kept per trace (the views of one run share it). */
export function cachedCacheGridIndex(
  trace: Trace,
  setup: Pick<CacheSetup, 'nics' | 'slots' | 'blockBytes'>,
  windowStartPs = 0,
): CacheGridIndex {
  const key = `${setup.nics}/${setup.slots}/${setup.blockBytes}/${windowStartPs}`;
  const hit = cache.get(trace);
  if (hit && hit.key === key) return hit.ix;
  const ix = cacheGridIndex(trace, setup, windowStartPs);
  cache.set(trace, { key, ix });
  return ix;
}

// ---------------------------------------------------------------------------------------------
// At the cursor

/** The last request at or before t (index into the window's requests), or -1. */
export function requestAt(ix: CacheGridIndex, t: number): number {
  return countUpTo(ix.reqTime, t) - 1;
}

export interface CacheFlash {
  nic: number;
  slot: number;
  /** FLASH bits: what the request did to the slot (a slot may be evicted and refilled). */
  bits: number;
}

export interface RequestNow {
  /** Index among the window's requests. */
  index: number;
  request: number;
  time: number;
  file: number;
  bytes: number;
  nic: number;
  /** Blocks of the file (ceil(bytes / block)). */
  blocks: number;
  found: number;
  cachedBytes: number;
  inserted: number;
  evicted: number;
  invalidated: number;
  flashes: CacheFlash[];
}

export function requestNow(ix: CacheGridIndex, r: number): RequestNow | null {
  if (r < 0 || r >= ix.requests) return null;
  const bySlot = new Map<number, CacheFlash>();
  let inserted = 0;
  let evicted = 0;
  let invalidated = 0;
  for (let e = ix.evStart[r]!; e < ix.evStart[r + 1]!; e++) {
    const nic = ix.evNic[e]!;
    const slot = ix.evSlot[e]!;
    const w = ix.evWhat[e]!;
    if (w === WHAT.insert) inserted++;
    else if (w === WHAT.evict) evicted++;
    else if (w === WHAT.invalidate) invalidated++;
    const g = nic * ix.slots + slot;
    let fl = bySlot.get(g);
    if (!fl) bySlot.set(g, (fl = { nic, slot, bits: 0 }));
    fl.bits |= 1 << w;
  }
  const bytes = ix.reqBytes[r]!;
  return {
    index: r,
    request: ix.reqId[r]!,
    time: ix.reqTime[r]!,
    file: ix.reqFile[r]!,
    bytes,
    nic: ix.reqNic[r]!,
    blocks: Math.ceil(bytes / ix.blockBytes),
    found: ix.reqFound[r]!,
    cachedBytes: ix.reqCached[r]!,
    inserted,
    evicted,
    invalidated,
    flashes: [...bySlot.values()],
  };
}

export interface CacheCounts {
  /** Requests of the window up to and including the cursor's. */
  requests: number;
  /** The first request counted (the window's first). */
  from: number | null;
  contentBytes: number;
  cachedBytes: number;
  /** cachedBytes / contentBytes: the content-traffic reduction so far (0 with no content). */
  reduction: number;
  hits: number;
  insertions: number;
  evictions: number;
  invalidations: number;
}

/** Running totals over the window's requests up to request r (inclusive). */
export function countsUpTo(ix: CacheGridIndex, r: number): CacheCounts {
  const n = Math.max(0, Math.min(ix.requests, r + 1));
  const contentBytes = ix.cumContent[n] ?? 0;
  const cachedBytes = ix.cumCached[n] ?? 0;
  return {
    requests: n,
    from: ix.requests > 0 ? ix.reqId[0]! : null,
    contentBytes,
    cachedBytes,
    reduction: contentBytes > 0 ? cachedBytes / contentBytes : 0,
    hits: ix.cumHits[n] ?? 0,
    insertions: ix.cumInserts[n] ?? 0,
    evictions: ix.cumEvicts[n] ?? 0,
    invalidations: ix.cumInvalidates[n] ?? 0,
  };
}

/** Time of the next / previous request after / before t (for the step buttons), or null. */
export function nextRequestTime(ix: CacheGridIndex, t: number): number | null {
  const r = requestAt(ix, t) + 1;
  return r < ix.requests ? ix.reqTime[r]! : null;
}

export function prevRequestTime(ix: CacheGridIndex, t: number): number | null {
  const r = requestAt(ix, t);
  // At a request: the one before; between two: the one at or before.
  const k = r >= 0 && ix.reqTime[r] === t ? r - 1 : r;
  return k >= 0 ? ix.reqTime[k]! : null;
}

/** The next request after t that evicted a block (for "next eviction"), or null. */
export function nextEvictionTime(ix: CacheGridIndex, t: number): number | null {
  for (let r = requestAt(ix, t) + 1; r < ix.requests; r++)
    if (ix.cumEvicts[r + 1]! > ix.cumEvicts[r]!) return ix.reqTime[r]!;
  return null;
}

/**
 * The slots' contents at a cursor. `seek` applies the block records from where it stands to the
 * cursor's request, or undoes them going back. `takeDirty` says which slots changed since the
 * last call (a painter redraws only those), or "all" after a jump that touched many.
 */
export class CacheReplay {
  /** Per slot (nic * slots + slot): its file, EMPTY or UNKNOWN; and the block within it. */
  readonly file: Int32Array;
  readonly block: Uint32Array;
  /** Slots per NIC holding a block, and not known yet. */
  readonly used: number[];
  readonly unknown: number[];
  private applied = 0;
  private dirty: number[] = [];
  private mark: Uint8Array;
  private all = true;

  constructor(
    readonly ix: CacheGridIndex,
    /** False only for the replay that builds the checkpoints. */
    private readonly useCheckpoints = true,
  ) {
    const total = ix.nics * ix.slots;
    this.file = new Int32Array(total).fill(ix.knownStart ? EMPTY : UNKNOWN);
    this.block = new Uint32Array(total);
    this.mark = new Uint8Array(total);
    this.used = new Array<number>(ix.nics).fill(0);
    this.unknown = new Array<number>(ix.nics).fill(ix.knownStart ? 0 : ix.slots);
  }

  /** Block records applied: those of the requests up to the cursor's. */
  get position(): number {
    return this.applied;
  }

  /** The state after the cursor's request (before the window's first, the initial state). */
  seek(t: number): this {
    const r = requestAt(this.ix, t);
    return this.seekEvents(r < 0 ? 0 : this.ix.evStart[r + 1]!);
  }

  seekEvents(target: number): this {
    const ix = this.ix;
    const to = Math.max(0, Math.min(ix.events, target));
    const dist = Math.abs(to - this.applied);
    // A long jump repaints everything rather than tracking each slot.
    if (dist > Math.max(256, ix.nics * ix.slots)) this.all = true;
    // Further than a checkpoint's spacing: start from the checkpoint at or before the target
    // when that is nearer, so scrubbing costs a short replay, never one from the start.
    if (this.useCheckpoints && dist > checkpointEvery(ix)) {
      const cp = cacheCheckpoints(ix);
      const k = Math.min(cp.file.length - 1, Math.floor(to / cp.every));
      if (to - k * cp.every < dist) this.restore(cp, k);
    }
    while (this.applied < to) {
      const e = this.applied++;
      const w = ix.evWhat[e]!;
      const gone = w === WHAT.evict || w === WHAT.invalidate;
      this.put(ix.evNic[e]!, ix.evSlot[e]!, gone ? EMPTY : ix.evFile[e]!, ix.evBlock[e]!);
    }
    while (this.applied > to) {
      const e = --this.applied;
      this.put(ix.evNic[e]!, ix.evSlot[e]!, ix.evPrevFile[e]!, ix.evPrevBlock[e]!);
    }
    return this;
  }

  private restore(cp: CacheCheckpoints, k: number): void {
    this.file.set(cp.file[k]!);
    this.block.set(cp.block[k]!);
    for (let n = 0; n < this.ix.nics; n++) {
      this.used[n] = cp.used[k]![n]!;
      this.unknown[n] = cp.unknown[k]![n]!;
    }
    this.applied = k * cp.every;
    for (const g of this.dirty) this.mark[g] = 0;
    this.dirty = [];
    this.all = true;
  }

  private put(nic: number, slot: number, f: number, b: number): void {
    const g = nic * this.ix.slots + slot;
    const was = this.file[g]!;
    if (was === f && this.block[g] === b) return;
    if (was !== f) {
      if (was >= 0) this.used[nic]!--;
      else if (was === UNKNOWN) this.unknown[nic]!--;
      if (f >= 0) this.used[nic]!++;
      else if (f === UNKNOWN) this.unknown[nic]!++;
    }
    this.file[g] = f;
    this.block[g] = b;
    if (!this.all && !this.mark[g]) {
      this.mark[g] = 1;
      this.dirty.push(g);
    }
  }

  /** The slots (nic * slots + slot) changed since the last call, or "all". */
  takeDirty(): number[] | 'all' {
    const out: number[] | 'all' = this.all ? 'all' : this.dirty;
    for (const g of this.dirty) this.mark[g] = 0;
    this.dirty = [];
    this.all = false;
    return out;
  }

  /** Distinct files held in a NIC's cache. */
  filesIn(nic: number): number {
    const s = new Set<number>();
    const base = nic * this.ix.slots;
    for (let i = 0; i < this.ix.slots; i++) {
      const f = this.file[base + i]!;
      if (f >= 0) s.add(f);
    }
    return s.size;
  }
}

interface CacheCheckpoints {
  /** Block records between two checkpoints; checkpoint k holds the state after k * every. */
  every: number;
  file: Int32Array[];
  block: Uint32Array[];
  used: number[][];
  unknown: number[][];
}

/** Spacing of the cache checkpoints: their copies together take about as much as the records. */
function checkpointEvery(ix: CacheGridIndex): number {
  return Math.max(1024, 2 * ix.nics * ix.slots);
}

const checkpointsOf = new WeakMap<CacheGridIndex, CacheCheckpoints>();

/** The slots' contents every checkpointEvery() block records (one forward replay, kept). */
function cacheCheckpoints(ix: CacheGridIndex): CacheCheckpoints {
  let cp = checkpointsOf.get(ix);
  if (cp) return cp;
  const every = checkpointEvery(ix);
  cp = { every, file: [], block: [], used: [], unknown: [] };
  const r = new CacheReplay(ix, false);
  for (let at = 0; at <= ix.events; at += every) {
    r.seekEvents(at);
    cp.file.push(r.file.slice());
    cp.block.push(r.block.slice());
    cp.used.push([...r.used]);
    cp.unknown.push([...r.unknown]);
  }
  checkpointsOf.set(ix, cp);
  return cp;
}

// ---------------------------------------------------------------------------------------------
// Colours and layout

/** A 32-bit integer hash (murmur3's finaliser): neighbouring file ids get unrelated colours. */
export function hash32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

const fileColors = new Map<number, string>();

/**
 * A file's colour, the same in every run and view: hue from a hash of its id, pastel enough
 * that the green, blue and red outlines of hits, insertions and evictions stand out on it.
 */
export function fileColor(file: number): string {
  let c = fileColors.get(file);
  if (c === undefined) {
    const h = hash32(file + 1);
    const hue = h % 360;
    const sat = 42 + ((h >>> 9) % 28);
    const light = 58 + ((h >>> 17) % 18);
    c = `hsl(${hue} ${sat}% ${light}%)`;
    if (fileColors.size > 100_000) fileColors.clear();
    fileColors.set(file, c);
  }
  return c;
}

export interface GridLayout {
  slots: number;
  /** Slots drawn per cell (1, or more for caches too big for a pixel each). */
  perCell: number;
  cells: number;
  cols: number;
  rows: number;
  /** Cell pitch and the cell drawn inside it (a 1 px gap from 6 px up), CSS px. */
  pitch: number;
  cell: number;
  width: number;
  height: number;
}

/** Largest cell pitch, CSS px. */
export const MAX_PITCH = 22;

/**
 * One NIC's grid in a box `width` wide and at most `maxHeight` tall: the largest whole-pixel
 * pitch that fits, with rows of a multiple of 8 slots where that costs nothing, so slot numbers
 * read down the columns; a cache beyond a pixel per slot draws several slots per cell.
 */
export function gridLayout(slots: number, width: number, maxHeight = 440): GridLayout {
  const w = Math.max(8, Math.floor(width));
  const h = Math.max(8, Math.floor(maxHeight));
  const n = Math.max(1, slots);
  for (let pitch = MAX_PITCH; pitch >= 1; pitch--) {
    let cols = Math.min(n, Math.floor(w / pitch));
    if (cols < 1) continue;
    if (cols >= 16 && cols < n) cols -= cols % 8;
    let rows = Math.ceil(n / cols);
    if (rows * pitch > h) continue;
    // Balance the rows (the last one as full as it can be) without changing their number.
    if (cols < n) {
      const even = Math.ceil(n / rows);
      cols = even >= 16 ? Math.min(cols, Math.ceil(even / 8) * 8) : even;
      rows = Math.ceil(n / cols);
    }
    const cell = pitch >= 6 ? pitch - 1 : pitch;
    return {
      slots: n,
      perCell: 1,
      cells: n,
      cols,
      rows,
      pitch,
      cell,
      width: cols * pitch,
      height: rows * pitch,
    };
  }
  const perCell = Math.ceil(n / (w * h));
  const cells = Math.ceil(n / perCell);
  const cols = Math.min(cells, w);
  const rows = Math.ceil(cells / cols);
  return { slots: n, perCell, cells, cols, rows, pitch: 1, cell: 1, width: cols, height: rows };
}

/** Top-left corner of a cell, CSS px. */
export function cellXY(l: GridLayout, cell: number): { x: number; y: number } {
  return { x: (cell % l.cols) * l.pitch, y: Math.floor(cell / l.cols) * l.pitch };
}

/** The first slot drawn at a point of the grid, or null outside it. */
export function slotAtPoint(l: GridLayout, x: number, y: number): number | null {
  if (x < 0 || y < 0 || x >= l.width || y >= l.height) return null;
  const cell = Math.floor(y / l.pitch) * l.cols + Math.floor(x / l.pitch);
  const slot = cell * l.perCell;
  return cell < l.cells && slot < l.slots ? slot : null;
}

// ---------------------------------------------------------------------------------------------
// Words

/** Bytes as the results panel counts them (decimal): "512 B", "33.4 KB", "2.05 MB". */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  const units: Array<[number, string]> = [
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'KB'],
  ];
  for (const [scale, unit] of units)
    if (abs >= scale) return `${+(bytes / scale).toPrecision(3)} ${unit}`;
  return `${Math.round(bytes)} B`;
}

export const TRACE_LABELS: Record<string, string> = {
  berkeley: 'Berkeley',
  ibm: 'IBM',
  nasa: 'NASA',
  rice: 'Rice',
  worldcup: 'World Cup',
  log: 'your access log',
};
