// SINIC's registers and V-SINIC's VNICs as the trace records them (the SINIC paper Fig 3, §3.2;
// nic_facts §1.2-1.4): each register's last access with its 64-bit value decoded into the fields
// of sinicreg.hh, each receive VNIC's state, and the receive FIFO's level — at the cursor. Built
// once per trace; the view is a pure function of this index and the time.
import { countUpTo, type Trace } from '../trace/trace';
import { K, NIC_REGISTER_NAMES, VNIC_STATE_NAMES } from '../trace/traceKinds';
import { paramAt, type ParameterTree } from '../engine/types';
import {
  FifoLevel,
  KINDS,
  NicRegister,
  VnicState,
  column,
  type TraceColumns,
} from '../trace/records.gen';

// NicRegister's value is 64 bits; a double holds only 53, so the decoders take its two words.
const VALUE_COLUMN = KINDS[K.NicRegister]!.fields.find((f) => f.id === 'value')!.column;
/** Bits 31..0 of NicRegister record r's value. */
export const regLo = (tr: TraceColumns, r: number): number => column(tr, VALUE_COLUMN, r);
/** Bits 63..32 of NicRegister record r's value. */
export const regHi = (tr: TraceColumns, r: number): number => column(tr, VALUE_COLUMN + 1, r);

/** A field of a 64-bit value given as two 32-bit halves: `width` bits from bit `shift`. */
export function regField(lo: number, hi: number, shift: number, width: number): number {
  const v = hi * 2 ** 32 + (lo >>> 0);
  return Math.floor(v / 2 ** shift) % 2 ** width;
}

/** "0x00000009_04000000" */
export function hex64(lo: number, hi: number): string {
  const h = (v: number) => (v >>> 0).toString(16).padStart(8, '0');
  return `0x${h(hi)}_${h(lo)}`;
}

export interface RegFieldDoc {
  name: string;
  shift: number;
  width: number;
  /** flag: one bit; bytes / count: a number. */
  kind: 'flag' | 'bytes' | 'count';
  /** What the field means, for the tooltip. */
  doc: string;
}

const flag = (name: string, shift: number, doc: string): RegFieldDoc => ({
  name,
  shift,
  width: 1,
  kind: 'flag',
  doc,
});

// nic_facts §1.3 (gem5 sinicreg.hh), only the fields the model sets.
const RX_DONE: RegFieldDoc[] = [
  {
    name: 'Packets',
    shift: 32,
    width: 16,
    kind: 'count',
    doc: 'packets in the FIFO not yet bound',
  },
  flag('Busy', 31, 'a copy is outstanding'),
  flag('Complete', 30, 'the last copy completed'),
  flag('More', 29, 'the packet has bytes left in the FIFO: copy again on this VNIC'),
  flag('Empty', 28, 'the receive FIFO is empty'),
  flag('NotHigh', 26, 'below the marks: zero / deferred copy allowed'),
  flag('TcpError', 25, 'TCP checksum mismatch'),
  flag('IpError', 23, 'IP checksum mismatch'),
  flag('TcpPacket', 22, 'the comparators found TCP'),
  flag('IpPacket', 20, 'the comparators found IP'),
  { name: 'CopyLen', shift: 0, width: 20, kind: 'bytes', doc: 'bytes copied (left, with More)' },
];
const TX_DONE: RegFieldDoc[] = [
  { name: 'Packets', shift: 32, width: 16, kind: 'count', doc: 'packets in the transmit FIFO' },
  flag('Busy', 31, 'a copy is outstanding'),
  flag('Complete', 30, 'the last copy completed'),
  flag('Full', 29, 'less free space than one maximal copy'),
  { name: 'CopyLen', shift: 0, width: 20, kind: 'bytes', doc: 'bytes copied by the last copy' },
];
const INTR: RegFieldDoc[] = [
  flag('Soft', 8, 'software interrupt'),
  flag('TxLow', 7, 'transmit FIFO below its low mark'),
  flag('RxHigh', 3, 'receive FIFO above its high mark'),
  flag('RxPacket', 0, 'a packet was accepted into the receive FIFO'),
];

/** The fields of each register (NIC_REGISTER_NAMES order). */
export const REGISTER_LAYOUT: readonly (readonly RegFieldDoc[])[] = [
  [
    flag('NoDelay', 61, 'do not cut this copy to the header'),
    { name: 'Len', shift: 40, width: 20, kind: 'bytes', doc: 'bytes to copy at most' },
  ],
  RX_DONE,
  RX_DONE,
  [
    flag('More', 63, 'the packet continues in a later copy'),
    flag('Checksum', 62, 'generate the checksums'),
    { name: 'Len', shift: 40, width: 20, kind: 'bytes', doc: 'bytes to copy' },
  ],
  TX_DONE,
  TX_DONE,
  INTR,
  INTR,
  [],
];

export interface RegFieldValue extends RegFieldDoc {
  value: number;
}

export function decodeRegister(reg: number, lo: number, hi: number): RegFieldValue[] {
  return (REGISTER_LAYOUT[reg] ?? []).map((f) => ({
    ...f,
    value: regField(lo, hi, f.shift, f.width),
  }));
}

/** Register ids the view lists (the doorbell is the conventional NIC's). */
export const SINIC_REGISTERS = [0, 1, 2, 3, 4, 5, 6, 7] as const;
export const REG = Object.fromEntries(NIC_REGISTER_NAMES.map((n, i) => [n, i])) as Record<
  (typeof NIC_REGISTER_NAMES)[number],
  number
>;
/** Writes; the others are reads (IntrMask is written by the driver here). */
export const WRITTEN = new Set([REG.RxData, REG.TxData, REG.IntrMask, REG.doorbell]);

export const VNIC_STATE = {
  free: 0,
  posted: 1,
  copying: 2,
  deferred: 3,
  done: 4,
} as const;

export interface VnicSetup {
  /** Receive register sets: 1 for SINIC, system.sinic.vnics for V-SINIC, 0 for a CNIC. */
  vnics: number;
  model: string;
  /** Receive FIFO capacity in bytes (config: vnics × slot when a slot is set, §6), or null. */
  fifoBytes: number | null;
  zeroCopy: string;
  /** Conservative zero copy's marks (bytes), null without that policy. */
  marks: { high: number; low: number } | null;
}

export function vnicSetup(params: ParameterTree | undefined): VnicSetup {
  const model = String(paramAt(params, 'system.nic.model') ?? '');
  const n = Number(paramAt(params, 'system.sinic.vnics') ?? 0);
  const vnics = model === 'v-sinic' ? n : model === 'sinic' ? 1 : 0;
  const slot = Number(paramAt(params, 'system.sinic.fifo_bytes_per_vnic') ?? 0);
  const kb = Number(paramAt(params, 'system.sinic.rx_fifo_kbytes') ?? 0);
  // sinic_config.hpp: fifo_bytes_per_vnic 0 = rx_fifo_bytes, else the FIFO is vnics × slot.
  const fifoBytes = vnics === 0 ? null : slot > 0 ? vnics * slot : kb > 0 ? kb * 1024 : null;
  const zc = String(paramAt(params, 'system.sinic.zero_copy') ?? 'off');
  const zeroCopy = model === 'v-sinic' ? zc : 'off';
  const high = Number(paramAt(params, 'system.sinic.high_mark_kbytes') ?? 0);
  const low = Number(paramAt(params, 'system.sinic.low_mark_kbytes') ?? 0);
  return {
    vnics,
    model,
    fifoBytes,
    zeroCopy,
    marks: zeroCopy === 'conservative' && high > 0 ? { high: high * 1024, low: low * 1024 } : null,
  };
}

export interface VnicIndex {
  trace: Trace;
  vnics: number;
  /** VnicState record indices per VNIC, in time order. */
  perVnic: number[][];
  /** VnicState record indices of every VNIC, in time order. */
  changes: number[];
  /** NicRegister record indices per register id. */
  regs: number[][];
  /** Receive FIFO level over time: FifoLevel (after an arrival) and VnicState (after a copy). */
  fifoTimes: Float64Array;
  fifoBytes: Float64Array;
}

export function buildVnicIndex(trace: Trace, vnics: number): VnicIndex {
  const perVnic: number[][] = Array.from({ length: vnics }, () => []);
  const changes: number[] = [];
  const regs: number[][] = NIC_REGISTER_NAMES.map(() => []);
  const ft: number[] = [];
  const fb: number[] = [];
  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind[i]!;
    if (k === K.VnicState) {
      const v = VnicState.vnic(trace, i);
      if (v < vnics) perVnic[v]!.push(i);
      changes.push(i);
      ft.push(trace.time[i]!);
      fb.push(VnicState.fifoBytes(trace, i));
    } else if (k === K.NicRegister) {
      regs[NicRegister.reg(trace, i)]?.push(i);
    } else if (k === K.FifoLevel) {
      ft.push(trace.time[i]!);
      fb.push(FifoLevel.fifoBytes(trace, i));
    }
  }
  return {
    trace,
    vnics,
    perVnic,
    changes,
    regs,
    fifoTimes: Float64Array.from(ft),
    fifoBytes: Float64Array.from(fb),
  };
}

const cache = new WeakMap<Trace, VnicIndex>();
export function cachedVnicIndex(trace: Trace, vnics: number): VnicIndex {
  const c = cache.get(trace);
  if (c && c.vnics === vnics) return c;
  const ix = buildVnicIndex(trace, vnics);
  cache.set(trace, ix);
  return ix;
}

/** Position of the last record of `list` at or before t, or -1. */
function lastAtOrBefore(trace: Trace, list: readonly number[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trace.time[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export interface VnicCell {
  vnic: number;
  state: number;
  packet: number;
  bytes: number;
  /** Time of the state's record (-1: free since before the window). */
  since: number;
}

/** Every VNIC's state at t (free when no record says otherwise: the window opens with them). */
export function vnicsAt(ix: VnicIndex, t: number): VnicCell[] {
  const tr = ix.trace;
  return ix.perVnic.map((list, vnic) => {
    const j = lastAtOrBefore(tr, list, t);
    if (j < 0) return { vnic, state: VNIC_STATE.free, packet: 0, bytes: 0, since: -1 };
    const r = list[j]!;
    return {
      vnic,
      state: VnicState.state(tr, r),
      packet: VnicState.packet(tr, r),
      bytes: VnicState.bytes(tr, r),
      since: tr.time[r]!,
    };
  });
}

/** How many VNICs are in each state (VNIC_STATE_NAMES order). */
export function stateCounts(cells: readonly VnicCell[]): number[] {
  const out = VNIC_STATE_NAMES.map(() => 0);
  for (const c of cells) out[c.state] = (out[c.state] ?? 0) + 1;
  return out;
}

/** The time of the latest VNIC change at or before t (cells changed then are outlined). */
export function lastChangeAt(ix: VnicIndex, t: number): number | null {
  const j = lastAtOrBefore(ix.trace, ix.changes, t);
  return j < 0 ? null : ix.trace.time[ix.changes[j]!]!;
}

/** Times of the VNIC changes just before and after t (stepping). */
export function changeAround(
  ix: VnicIndex,
  t: number,
): { prev: number | null; next: number | null } {
  const tr = ix.trace;
  const j = lastAtOrBefore(tr, ix.changes, t);
  let p = j;
  while (p >= 0 && tr.time[ix.changes[p]!]! >= t) p--;
  const nxt = j + 1 < ix.changes.length ? tr.time[ix.changes[j + 1]!]! : null;
  return { prev: p >= 0 ? tr.time[ix.changes[p]!]! : null, next: nxt };
}

export interface RegisterNow {
  reg: number;
  name: string;
  rec: number;
  time: number;
  /** VNIC, or null for a device-wide access. */
  vnic: number | null;
  lo: number;
  hi: number;
  /** Time the access took, ns (RxWait/TxWait: until satisfied). */
  ns: number;
  fields: RegFieldValue[];
  write: boolean;
}

/** Each register's last access at or before t (null: none yet in the window). */
export function registersAt(ix: VnicIndex, t: number): Array<RegisterNow | null> {
  const tr = ix.trace;
  return ix.regs.map((list, reg) => {
    const j = lastAtOrBefore(tr, list, t);
    if (j < 0) return null;
    const r = list[j]!;
    const lo = regLo(tr, r);
    const hi = regHi(tr, r);
    return {
      reg,
      name: NIC_REGISTER_NAMES[reg] ?? String(reg),
      rec: r,
      time: tr.time[r]!,
      vnic: NicRegister.vnic(tr, r) === 0xffff ? null : NicRegister.vnic(tr, r),
      lo,
      hi,
      ns: NicRegister.accessNs(tr, r),
      fields: decodeRegister(reg, lo, hi),
      write: WRITTEN.has(reg),
    };
  });
}

/** The receive FIFO's bytes at t (null before the first record saying it). */
export function fifoAt(ix: VnicIndex, t: number): number | null {
  const n = countUpTo(ix.fifoTimes, t);
  return n === 0 ? null : ix.fifoBytes[n - 1]!;
}

export interface GridLayout {
  cols: number;
  rows: number;
  cell: number;
  gap: number;
  width: number;
  height: number;
}

/** Cells for n VNICs in at most `width` px: 16 or 32 to a row, 12-22 px each. */
export function vnicGrid(n: number, width: number): GridLayout {
  const gap = 3;
  const cols = n <= 16 ? Math.max(1, n) : n <= 64 ? 16 : 32;
  const cell = Math.max(10, Math.min(22, Math.floor((width - gap * (cols - 1)) / cols)));
  const rows = Math.ceil(n / cols);
  return {
    cols,
    rows,
    cell,
    gap,
    width: cols * cell + (cols - 1) * gap,
    height: rows * cell + Math.max(0, rows - 1) * gap,
  };
}
