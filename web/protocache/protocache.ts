// The host caches a protocol packet runs through (seed 002, "Cache Behavior of Network
// Protocols"), from the core's typed trace records: which layer owns each line of the L1-I,
// L1-D and L2 at the playback cursor (ProtoCacheLine: fills and invalidations, and every valid
// line as the window opens), the packet under the cursor (ProtoPacket) and its references so
// far (ProtoCacheRef): per-layer references and misses, and its stall cycles by level. Nothing
// here computes the model: it replays and tallies records.
import type { ParameterTree } from '../engine/types';
import { paramAt } from '../engine/types';
import { ProtoCacheLine, ProtoCacheRef, ProtoPacket } from '../trace/records.gen';
import type { Trace } from '../trace/trace';

export const LAYERS = ['user', 'tcp', 'udp', 'ip', 'fddi', 'msg', 'event', 'checksum'] as const;
export const LAYER_LABELS = [
  'socket/user',
  'TCP',
  'UDP',
  'IP',
  'FDDI driver',
  'x-kernel msg',
  'x-kernel event',
  'checksum',
] as const;
export const CACHES = ['L1-I', 'L1-D', 'L2'] as const;
/** A cell with no valid line. */
export const EMPTY = 255;

export interface CacheShape {
  sets: number;
  ways: number;
}

// Table 8 of the paper, as the core's hierarchy_config() applies it when
// system.host_cache.machine names a year (L1 KB, ways of every cache).
const MACHINES: Record<string, { l1: number; ways: number }> = {
  '1994': { l1: 16, ways: 1 },
  '1996': { l1: 32, ways: 2 },
  '1998': { l1: 64, ways: 2 },
};

/** The three caches' sets and ways, from the run's effective parameters. */
export function cacheShapes(params: ParameterTree | undefined): CacheShape[] {
  const num = (p: string, d: number) => Number(paramAt(params, p) ?? d);
  const m = MACHINES[String(paramAt(params, 'system.host_cache.machine') ?? 'custom')];
  const l1kb = m ? m.l1 : num('system.host_cache.l1_kbytes', 16);
  const ways = m ? m.ways : num('system.host_cache.ways', 1);
  const l2kb = m ? 1024 : num('system.host_cache.l2_kbytes', 1024);
  const l1line = num('system.host_cache.l1_line_bytes', 16);
  const l2line = num('system.host_cache.l2_line_bytes', 128);
  const l1 = { sets: Math.max(1, (l1kb * 1024) / l1line / ways), ways };
  return [l1, { ...l1 }, { sets: Math.max(1, (l2kb * 1024) / l2line / ways), ways }];
}

export interface ProtoIndex {
  trace: Trace;
  packets: number[];
  refs: number[];
  lines: number[];
}

export function buildProtoIndex(trace: Trace): ProtoIndex {
  const packets: number[] = [];
  const refs: number[] = [];
  const lines: number[] = [];
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind[i]!;
    if (k === ProtoPacket.kind) packets.push(i);
    else if (k === ProtoCacheRef.kind) refs.push(i);
    else if (k === ProtoCacheLine.kind) lines.push(i);
  }
  return { trace, packets, refs, lines };
}

const indexCache = new WeakMap<Trace, ProtoIndex>();
export function cachedProtoIndex(trace: Trace): ProtoIndex {
  let ix = indexCache.get(trace);
  if (!ix) {
    ix = buildProtoIndex(trace);
    indexCache.set(trace, ix);
  }
  return ix;
}

/** Position of the last record of `list` at or before t, or -1. */
export function lastAtOrBefore(trace: Trace, list: readonly number[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trace.time[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Each cache's cells (set-major, ways inside) at time t: the owning layer in the low 4 bits, 16
 * for a data line (instructions 0), EMPTY for no line.
 */
export function linesAt(ix: ProtoIndex, shapes: CacheShape[], t: number): Uint8Array[] {
  return new LinesPlayer(ix, shapes).at(t);
}

/**
 * linesAt for a cursor that mostly moves forward (playback): the cells are kept and only the
 * records between the last time and the new one are replayed; a step back replays from the
 * window's opening. `at` returns the same arrays, changed in place; `version` counts changes.
 */
export class LinesPlayer {
  readonly cells: Uint8Array[];
  /** Changes each time `at` changes a cell. */
  version = 0;
  private applied = -1;

  constructor(
    readonly ix: ProtoIndex,
    readonly shapes: readonly CacheShape[],
  ) {
    this.cells = shapes.map((s) => new Uint8Array(s.sets * s.ways).fill(EMPTY));
  }

  at(t: number): Uint8Array[] {
    const { trace } = this.ix;
    const last = lastAtOrBefore(trace, this.ix.lines, t);
    if (last === this.applied) return this.cells;
    if (last < this.applied) {
      for (const g of this.cells) g.fill(EMPTY);
      this.applied = -1;
    }
    for (let n = this.applied + 1; n <= last; n++) {
      const i = this.ix.lines[n]!;
      const c = ProtoCacheLine.cache(trace, i);
      const s = this.shapes[c];
      const grid = this.cells[c];
      if (!s || !grid) continue;
      const set = ProtoCacheLine.set(trace, i);
      const way = ProtoCacheLine.way(trace, i);
      if (set >= s.sets || way >= s.ways) continue;
      const what = ProtoCacheLine.line(trace, i);
      grid[set * s.ways + way] =
        what === 2 ? EMPTY : (ProtoCacheLine.layer(trace, i) & 15) | (what === 1 ? 16 : 0);
    }
    this.applied = last;
    this.version++;
    return this.cells;
  }
}

export interface LayerTally {
  iRefs: number;
  iMisses: number;
  dRefs: number;
  dMisses: number;
}

export interface CurrentRef {
  layer: number;
  /** 0 instruction, 1 load, 2 store. */
  access: number;
  /** 0 L1, 1 L2, 2 memory, 3 ideal. */
  served: number;
  l1Set: number;
  l2Set: number;
  stall: number;
  time: number;
}

export interface PacketNow {
  packet: number;
  start: number;
  /** The whole packet, from its ProtoPacket record (cycles). */
  cpuCycles: number;
  l2Stall: number;
  memoryStall: number;
  instructions: number;
  /** Its references up to the cursor. */
  refsSoFar: number;
  l2StallSoFar: number;
  memoryStallSoFar: number;
  layers: LayerTally[];
  current: CurrentRef | null;
}

export function decodeReference(v: number): { access: number; served: number } {
  return { access: Math.floor(v / 4), served: v % 4 };
}

/** The packet at time t (the last to start at or before it) and its references so far. */
export function packetAt(ix: ProtoIndex, t: number): PacketNow | null {
  const tr = ix.trace;
  const p = lastAtOrBefore(tr, ix.packets, t);
  if (p < 0) return null;
  const pi = ix.packets[p]!;
  const start = tr.time[pi]!;
  const end = p + 1 < ix.packets.length ? tr.time[ix.packets[p + 1]!]! : Infinity;
  const layers: LayerTally[] = LAYERS.map(() => ({ iRefs: 0, iMisses: 0, dRefs: 0, dMisses: 0 }));
  let first = lastAtOrBefore(tr, ix.refs, start - 1) + 1;
  let refsSoFar = 0;
  let l2 = 0;
  let mem = 0;
  let current: CurrentRef | null = null;
  for (; first < ix.refs.length; first++) {
    const i = ix.refs[first]!;
    const ti = tr.time[i]!;
    if (ti > t || ti >= end) break;
    const layer = ProtoCacheRef.layer(tr, i);
    const { access, served } = decodeReference(ProtoCacheRef.reference(tr, i));
    const stall = ProtoCacheRef.stall(tr, i);
    const l = layers[layer];
    const miss = served === 1 || served === 2;
    if (l) {
      if (access === 0) {
        l.iRefs++;
        if (miss) l.iMisses++;
      } else {
        l.dRefs++;
        if (miss) l.dMisses++;
      }
    }
    if (served === 1) l2 += stall;
    else if (served === 2) mem += stall;
    refsSoFar++;
    current = {
      layer,
      access,
      served,
      l1Set: ProtoCacheRef.l1Set(tr, i),
      l2Set: ProtoCacheRef.l2Set(tr, i),
      stall,
      time: ti,
    };
  }
  return {
    packet: ProtoPacket.packet(tr, pi),
    start,
    cpuCycles: ProtoPacket.cpuCycles(tr, pi),
    l2Stall: ProtoPacket.l2Stall(tr, pi),
    memoryStall: ProtoPacket.memoryStall(tr, pi),
    instructions: ProtoPacket.instructions(tr, pi),
    refsSoFar,
    l2StallSoFar: l2,
    memoryStallSoFar: mem,
    layers,
    current,
  };
}

/** Cells per row for a cache's grid of sets (a square-ish block, a power of two). */
export function gridColumns(sets: number): number {
  let c = 1;
  while (c * c < sets) c *= 2;
  return c;
}
