// The offload views in words at the cursor, for screen readers (the views' describers).
import type { Trace } from '../trace/trace';
import { formatTime } from '../kit/format';
import { DIR_NAMES, ledgerAt, sequence, sequenceCounts, tablesAt } from './offloadView';

/** A view's describer (views/viewDescriptions' Describer, which takes the whole run). */
type Describer = (run: { trace: Trace }, cursor: number) => string;

export const describeLedger: Describer = (run, cursor) => {
  const l = ledgerAt(run.trace, cursor);
  if (!l.any) return 'This run records no ledger DMAs.';
  const dirs = [0, 1].map((d) => {
    const t = l.totals[d]!;
    return `${DIR_NAMES[d]}: ${t.dmas} DMAs, ${t.bytes} bytes, ${t.cycles} bus cycles`;
  });
  return `The ledger at ${formatTime(cursor)}. ${dirs.join('; ')}.`;
};

export const describeSequence: Describer = (run, cursor) => {
  const s = sequence(run.trace);
  if (!s.frames.length) return 'This run records no frames.';
  const c = sequenceCounts(s, cursor);
  return (
    `The connection at ${formatTime(cursor)}: ${c.fromClient} frames from the client, ` +
    `${c.crossed} crossed the bus to the host and ${c.kept} stayed on the adapter; ` +
    `${c.toClient} frames to the client; ${c.dmas} DMAs; ${c.interrupts} interrupts.`
  );
};

export const describeTables: Describer = (run, cursor) => {
  const tables = tablesAt(run.trace, cursor);
  if (!tables.length) return 'This run records no descriptor tables.';
  return `At ${formatTime(cursor)}: ${tables
    .map((t) => `${t.table} holds ${t.occupancy} after ${t.operations} operations`)
    .join('; ')}.`;
};
