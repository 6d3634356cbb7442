// What the TCP offload views draw (Freimuth et al., "Server Network Scalability and TCP
// Offload", USENIX ATC 2005), folded from the core's records up to the cursor: the ledger of bus
// crossings per direction and purpose (Table 4), each DMA with the cycles the core charged it
// (4 + ⌈bytes / 8⌉, §4.4), the connection's frames on a sequence diagram with the crossings they
// cause (§3.2 against §3.3's event shielding), and the descriptor rings and tables (§4.3). No
// model here: every number is a record's field, counted.
import {
  OffloadDescriptor,
  OffloadDma,
  OffloadFrame,
  OffloadFrameIn,
  OffloadHostEvent,
  TABLES,
  type TraceColumns,
} from '../trace/records.gen';

type Columns = TraceColumns & { readonly time: Float64Array; readonly length: number };

export const DIR_NAMES = ['send (host to adapter)', 'receive (adapter to host)'] as const;
export const PURPOSES = TABLES.offloadPurpose.names;
export const FRAME_NAMES = TABLES.offloadFrame.names;
export const TABLE_NAMES = TABLES.offloadTable.names;
export const DESCRIPTOR_NAMES = TABLES.offloadDescriptor.names;

export interface LedgerCell {
  dmas: number;
  bytes: number;
  cycles: number;
}
export interface LedgerDma {
  time: number;
  dir: number;
  purpose: number;
  bytes: number;
  cycles: number;
}
export interface Ledger {
  /** [direction][purpose]. */
  cells: LedgerCell[][];
  totals: LedgerCell[];
  /** The last DMAs done by the cursor, oldest first. */
  recent: LedgerDma[];
  /** Every DMA done by the end of the trace (the counters' final values). */
  final: LedgerCell[];
  any: boolean;
}

const cell = (): LedgerCell => ({ dmas: 0, bytes: 0, cycles: 0 });
const add = (c: LedgerCell, bytes: number, cycles: number) => {
  c.dmas += 1;
  c.bytes += bytes;
  c.cycles += cycles;
};

/** The ledger as of `cursor` (ps), with the last `keep` DMAs. */
export function ledgerAt(t: Columns, cursor: number, keep = 12): Ledger {
  const cells = [0, 1].map(() => PURPOSES.map(cell));
  const totals = [cell(), cell()];
  const final = [cell(), cell()];
  const recent: LedgerDma[] = [];
  let any = false;
  for (let i = 0; i < t.length; i++) {
    if (!OffloadDma.is(t, i)) continue;
    any = true;
    const dir = OffloadDma.direction(t, i) ? 1 : 0;
    const bytes = OffloadDma.bytes(t, i);
    const cycles = OffloadDma.cycles(t, i);
    add(final[dir]!, bytes, cycles);
    if (t.time[i]! > cursor) continue;
    const purpose = OffloadDma.purpose(t, i);
    add(cells[dir]![purpose]!, bytes, cycles);
    add(totals[dir]!, bytes, cycles);
    recent.push({ time: t.time[i]!, dir, purpose, bytes, cycles });
    if (recent.length > keep) recent.shift();
  }
  return { cells, totals, recent, final, any };
}

export interface SeqFrame {
  frame: number;
  /** 0: server to client; 1: client to server. */
  way: number;
  what: string;
  bytes: number;
  sent: number;
  /** When it reached the other end (null: not in the trace). */
  arrived: number | null;
  /** At the server: it (or its data) crosses the bus. */
  crosses: boolean;
}
export interface SeqMark {
  time: number;
  dir: number;
  purpose: number;
  bytes: number;
  cycles: number;
}
export interface SeqEvent {
  time: number;
  items: number;
}
export interface Sequence {
  frames: SeqFrame[];
  dmas: SeqMark[];
  events: SeqEvent[];
  start: number;
  end: number;
}

/** The connection's frames, the DMAs on the bus and the host's interrupts, over the trace. */
export function sequence(t: Columns): Sequence {
  const frames: SeqFrame[] = [];
  const byFrame = new Map<number, SeqFrame>();
  const dmas: SeqMark[] = [];
  const events: SeqEvent[] = [];
  for (let i = 0; i < t.length; i++) {
    const time = t.time[i]!;
    if (OffloadFrame.is(t, i)) {
      const f: SeqFrame = {
        frame: OffloadFrame.frame(t, i),
        way: OffloadFrame.way(t, i),
        what: FRAME_NAMES[OffloadFrame.what(t, i)] ?? 'frame',
        bytes: OffloadFrame.frameBytes(t, i),
        sent: time,
        arrived: null,
        crosses: false,
      };
      frames.push(f);
      byFrame.set(f.frame * 2 + f.way, f);
    } else if (OffloadFrameIn.is(t, i)) {
      const f = byFrame.get(OffloadFrameIn.frame(t, i) * 2 + OffloadFrameIn.way(t, i));
      if (f) {
        f.arrived = time;
        f.crosses = OffloadFrameIn.crosses(t, i) > 0;
      }
    } else if (OffloadDma.is(t, i)) {
      dmas.push({
        time,
        dir: OffloadDma.direction(t, i),
        purpose: OffloadDma.purpose(t, i),
        bytes: OffloadDma.bytes(t, i),
        cycles: OffloadDma.cycles(t, i),
      });
    } else if (OffloadHostEvent.is(t, i)) {
      events.push({ time, items: OffloadHostEvent.items(t, i) });
    }
  }
  const times = [
    ...frames.flatMap((f) => [f.sent, f.arrived ?? f.sent]),
    ...dmas.map((d) => d.time),
    ...events.map((e) => e.time),
  ];
  const start = times.length ? Math.min(...times) : 0;
  const end = times.length ? Math.max(...times) : 0;
  return { frames, dmas, events, start, end };
}

/** What the sequence shows by the cursor, in words (counts of what the trace holds). */
export function sequenceCounts(s: Sequence, cursor: number) {
  const fromClient = s.frames.filter((f) => f.way === 1 && f.sent <= cursor);
  return {
    fromClient: fromClient.length,
    crossed: fromClient.filter((f) => f.crosses && (f.arrived ?? Infinity) <= cursor).length,
    kept: fromClient.filter((f) => !f.crosses && (f.arrived ?? Infinity) <= cursor).length,
    toClient: s.frames.filter((f) => f.way === 0 && f.sent <= cursor).length,
    dmas: s.dmas.filter((d) => d.time <= cursor).length,
    interrupts: s.events.filter((e) => e.time <= cursor).length,
  };
}

export type SlotState = 'posted' | 'fetched' | 'written' | 'taken';
const STATES: readonly SlotState[] = ['posted', 'fetched', 'written', 'taken'];
export interface TableSlot {
  slot: number;
  what: string;
  state: SlotState;
  time: number;
}
export interface TableView {
  table: string;
  /** The last slots touched by the cursor, in slot order. */
  slots: TableSlot[];
  /** Descriptors in the ring or table at the cursor (the last record's occupancy). */
  occupancy: number;
  operations: number;
}

/** The E1000's rings and the offload tables at the cursor: which are used by this run. */
export function tablesAt(t: Columns, cursor: number, keep = 12): TableView[] {
  const last = TABLE_NAMES.map(() => new Map<number, TableSlot>());
  const occ = TABLE_NAMES.map(() => 0);
  const ops = TABLE_NAMES.map(() => 0);
  for (let i = 0; i < t.length && t.time[i]! <= cursor; i++) {
    if (!OffloadDescriptor.is(t, i)) continue;
    const k = OffloadDescriptor.table(t, i);
    const slot = OffloadDescriptor.slot(t, i);
    const m = last[k];
    if (!m) continue;
    m.delete(slot); // re-insert: the map keeps the order slots were last touched in
    m.set(slot, {
      slot,
      what: DESCRIPTOR_NAMES[OffloadDescriptor.what(t, i)] ?? 'descriptor',
      state: STATES[OffloadDescriptor.op(t, i)] ?? 'posted',
      time: t.time[i]!,
    });
    occ[k] = OffloadDescriptor.occupancy(t, i);
    ops[k]! += 1;
  }
  // Tables this run uses at all (by the end of the trace), so the layout does not jump.
  const used = TABLE_NAMES.map(() => false);
  for (let i = 0; i < t.length; i++)
    if (OffloadDescriptor.is(t, i)) used[OffloadDescriptor.table(t, i)] = true;
  return TABLE_NAMES.flatMap((name, k) =>
    used[k]
      ? [
          {
            table: name,
            slots: [...last[k]!.values()].slice(-keep).sort((x, y) => x.slot - y.slot),
            occupancy: occ[k]!,
            operations: ops[k]!,
          },
        ]
      : [],
  );
}

/** A short label that fits a slot box: "SEND", "RECV done" → "RECV✓", "transmit descriptor" → "tx". */
export function slotLabel(what: string): string {
  if (what === 'transmit descriptor') return 'tx';
  if (what === 'receive descriptor') return 'rx';
  if (what === 'connection established') return 'CONN';
  if (what === 'peer closed') return 'FIN';
  if (what.endsWith(' done')) return `${what.slice(0, -5)}✓`;
  return what;
}
