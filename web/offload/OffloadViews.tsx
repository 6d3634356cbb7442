// The TCP offload paper's views (Freimuth et al., USENIX ATC 2005): the ledger of bus crossings
// as the cursor moves (Table 4's counters, each DMA with its 4 + ⌈bytes/8⌉ cycles), the
// connection's frames on a sequence diagram with the crossings they cause, and the descriptor
// rings and tables. All from offloadView.ts; nothing here is a model.
import { useMemo, useRef } from 'react';
import { useCursor, useRun } from '../run/store';
import { useWidth } from '../kit/useWidth';
import { formatTime } from '../kit/format';
import { ALERT, GROUP_COLORS, NEUTRAL, NEUTRAL_LIGHT, SLOT_EMPTY } from '../kit/palette';
import {
  DIR_NAMES,
  PURPOSES,
  ledgerAt,
  sequence,
  sequenceCounts,
  slotLabel,
  tablesAt,
  type SlotState,
} from './offloadView';
import './offload.css';

/** A colour per ledger purpose (descriptor, header, payload, ACK and handshake, response, index). */
export const PURPOSE_COLORS: readonly string[] = [
  GROUP_COLORS.descriptor,
  GROUP_COLORS.mailbox,
  GROUP_COLORS.dataFetch,
  ALERT,
  GROUP_COLORS.returnBd,
  GROUP_COLORS.index,
];
const STATE_COLORS: Record<SlotState, string> = {
  posted: GROUP_COLORS.descriptor,
  fetched: NEUTRAL_LIGHT,
  written: GROUP_COLORS.returnBd,
  taken: SLOT_EMPTY,
};
const fmt = (v: number) => v.toLocaleString('en-US');

function Empty({ what }: { what: string }) {
  return <p className="offload-empty">This run records no {what} (a tcp-offload run does).</p>;
}

export function LedgerView() {
  const run = useRun();
  const cursor = useCursor();
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, run);
  const l = useMemo(() => (run ? ledgerAt(run.trace, cursor) : null), [run, cursor]);
  if (!run || !l) return null;
  if (!l.any) return <Empty what="ledger DMAs" />;
  // Narrow (a phone): each DMA's label sits above its bar instead of beside it.
  const narrow = width < 520;
  const rowH = narrow ? 34 : 20;
  const barLeft = narrow ? 4 : 270;
  const barTop = narrow ? 17 : 3;
  const labelW = 120; // room right of the longest bar for its "bytes → cycles" label
  const barW = Math.max(60, Math.min(width, 900) - barLeft - labelW);
  const maxCycles = Math.max(1, ...l.recent.map((d) => d.cycles));
  return (
    <div
      className="offload-view"
      ref={ref}
      data-testid="offload-ledger"
      tabIndex={0}
      aria-label="The bus-crossing ledger"
    >
      <p className="offload-summary">
        {fmt(l.final[0]!.dmas + l.final[1]!.dmas)} DMAs cross the bus in the run; the counts below
        are those by the cursor.
      </p>
      {/* One table per direction: side by side when there is room, one above the other on a
          phone (seven columns in one table would not fit). */}
      <div className="offload-ledger-tables">
        {DIR_NAMES.map((dir, d) => (
          <table
            key={dir}
            className="offload-ledger"
            aria-label={`The ledger at the cursor, ${dir}: DMAs, bytes and bus cycles per purpose`}
          >
            <caption>{dir}</caption>
            <thead>
              <tr>
                <th scope="col">purpose</th>
                {['DMAs', 'bytes', 'cycles'].map((h) => (
                  <th key={h} scope="col" className="num">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {PURPOSES.map((p, k) => {
                const c = l.cells[d]![k]!;
                return (
                  <tr key={p}>
                    <th scope="row">
                      <span className="offload-key" style={{ background: PURPOSE_COLORS[k] }} />
                      {p}
                    </th>
                    {[c.dmas, c.bytes, c.cycles].map((v, j) => (
                      <td key={j} className="num">
                        {v ? fmt(v) : '·'}
                      </td>
                    ))}
                  </tr>
                );
              })}
              <tr className="total">
                <th scope="row">total</th>
                {(['dmas', 'bytes', 'cycles'] as const).map((f) => (
                  <td key={f} className="num" data-testid={`ledger-${d}-${f}`}>
                    {fmt(l.totals[d]![f])}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        ))}
      </div>
      <h3>The last DMAs by the cursor: cycles = 4 + ⌈bytes / 8⌉ (§4.4)</h3>
      <svg
        className="offload-dmas"
        width={barLeft + barW + labelW}
        height={l.recent.length * rowH + 4}
        role="img"
        aria-label={`The last ${l.recent.length} DMAs, each with its bus cycles`}
      >
        {l.recent.map((d, i) => (
          <g key={i} transform={`translate(0,${i * rowH})`} data-testid="ledger-dma">
            <text x={4} y={14} className="offload-label">
              {`${formatTime(d.time)} ${d.dir ? 'recv' : 'send'} ${PURPOSES[d.purpose] ?? ''}`.slice(
                0,
                40,
              )}
            </text>
            <rect
              x={barLeft}
              y={barTop}
              width={Math.max(2, (d.cycles / maxCycles) * barW)}
              height={14}
              fill={PURPOSE_COLORS[d.purpose]}
            />
            <text
              x={barLeft + 4 + Math.max(2, (d.cycles / maxCycles) * barW)}
              y={barTop + 11}
              className="offload-label"
            >
              {`${fmt(d.bytes)} B → ${d.cycles}`}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}

const COLUMNS = ['client', 'wire', 'NIC', 'bus', 'host'] as const;

export function SequenceView() {
  const run = useRun();
  const cursor = useCursor();
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, run);
  const s = useMemo(() => (run ? sequence(run.trace) : null), [run]);
  if (!run || !s) return null;
  if (!s.frames.length) return <Empty what="frames" />;
  const w = Math.max(320, Math.min(width, 900));
  const h = 460;
  const top = 28;
  const colX = COLUMNS.map((_, i) => 40 + (i * (w - 80)) / (COLUMNS.length - 1));
  const span = Math.max(1, s.end - s.start);
  const y = (t: number) => top + ((t - s.start) / span) * (h - top - 10);
  const [client, , nic, bus, host] = colX as [number, number, number, number, number];
  const c = sequenceCounts(s, cursor);
  const past = (t: number) => (t <= cursor ? 'past' : 'future');
  const n = (v: number, word: string) => `${v} ${word}${v === 1 ? '' : 's'}`;
  // Labels of frames that arrive together step right so they do not overlap.
  const labelX: number[] = [];
  for (let k = 0, lastY = -Infinity, shift = 0; k < s.frames.length; k++) {
    const f = s.frames[k]!;
    if (f.way !== 1) continue;
    const yy = y(f.arrived ?? f.sent);
    shift = yy - lastY < 11 && nic + 60 + shift + 52 < w ? shift + 52 : 0;
    lastY = yy;
    labelX[k] = nic + 4 + shift;
  }

  return (
    <div
      className="offload-view"
      ref={ref}
      data-testid="offload-sequence"
      tabIndex={0}
      aria-label="The connection sequence diagram"
    >
      <p className="offload-summary">
        By {formatTime(cursor)}: {n(c.fromClient, 'frame')} from the client, {c.crossed} crossed the
        bus to the host, {c.kept} kept by the adapter; {n(c.dmas, 'DMA')};{' '}
        {n(c.interrupts, 'interrupt')}.
      </p>
      <svg
        width={w}
        height={h}
        role="img"
        aria-label="The connection's frames between client and NIC, the DMAs across the bus and the host's interrupts, time downwards"
      >
        {COLUMNS.map((name, i) => (
          <g key={name}>
            <line x1={colX[i]} x2={colX[i]} y1={top - 6} y2={h - 4} className="offload-col" />
            <text x={colX[i]} y={14} textAnchor="middle" className="offload-head">
              {name}
            </text>
          </g>
        ))}
        {s.frames.map((f, i) => {
          const y0 = y(f.sent);
          const y1 = y(f.arrived ?? f.sent);
          const [x0, x1] = f.way === 1 ? [client, nic] : [nic, client];
          return (
            <g key={i} className={`offload-frame ${past(f.sent)}`} data-testid="seq-frame">
              <line x1={x0} x2={x1} y1={y0} y2={y1} stroke={f.crosses ? ALERT : NEUTRAL} />
              <title>{`${f.what}, ${f.bytes} B, ${f.way ? 'client to server' : 'server to client'}${f.way ? (f.crosses ? ': crosses the bus' : ': kept by the adapter') : ''}`}</title>
              {f.way === 1 && (
                <text x={labelX[i]} y={y1 + 3} className="offload-label small">
                  {f.what.slice(0, 8)}
                </text>
              )}
            </g>
          );
        })}
        {s.dmas.map((d, i) => (
          <g key={`d${i}`} className={`offload-dma ${past(d.time)}`} data-testid="seq-dma">
            <line
              x1={nic}
              x2={host}
              y1={y(d.time)}
              y2={y(d.time)}
              stroke={PURPOSE_COLORS[d.purpose]}
            />
            <circle cx={bus} cy={y(d.time)} r={2.5} fill={PURPOSE_COLORS[d.purpose]} />
            <title>{`${d.dir ? 'receive' : 'send'} DMA: ${PURPOSES[d.purpose]}, ${d.bytes} B, ${d.cycles} cycles`}</title>
          </g>
        ))}
        {s.events.map((e, i) => (
          <g key={`e${i}`} className={`offload-irq ${past(e.time)}`} data-testid="seq-interrupt">
            <rect x={host - 5} y={y(e.time) - 5} width={10} height={10} fill={ALERT} />
            <title>{`interrupt: ${e.items} ${e.items === 1 ? 'item' : 'items'}`}</title>
          </g>
        ))}
        <line
          x1={20}
          x2={w - 10}
          y1={y(Math.min(Math.max(cursor, s.start), s.end))}
          y2={y(Math.min(Math.max(cursor, s.start), s.end))}
          className="offload-cursor"
        />
      </svg>
      <p className="offload-legend">
        <span className="offload-key" style={{ background: ALERT }} /> a frame that crosses the bus;
        <span className="offload-key" style={{ background: NEUTRAL }} /> one the adapter keeps or
        sends; dots on the bus are DMAs (colour: purpose, as the ledger); squares are interrupts.
      </p>
    </div>
  );
}

export function TablesView() {
  const run = useRun();
  const cursor = useCursor();
  const tables = useMemo(() => (run ? tablesAt(run.trace, cursor) : null), [run, cursor]);
  if (!run || !tables) return null;
  if (!tables.length) return <Empty what="descriptor tables" />;
  const box = 52;
  return (
    <div
      className="offload-view offload-tables"
      data-testid="offload-tables"
      tabIndex={0}
      aria-label="Descriptor rings and tables"
    >
      {tables.map((t) => (
        <section
          key={t.table}
          aria-label={`${t.table}: ${t.occupancy} in it, ${t.operations} operations by the cursor`}
        >
          <h3>
            {t.table}: {t.occupancy} in it
          </h3>
          {t.slots.length === 0 && <p className="offload-empty">No descriptor yet.</p>}
          <svg
            display={t.slots.length ? undefined : 'none'}
            width={12 * (box + 4) + 4}
            height={box + 8}
            role="img"
            aria-label={`${t.table}'s last slots`}
          >
            {t.slots.map((s, i) => (
              <g
                key={s.slot}
                transform={`translate(${4 + i * (box + 4)},4)`}
                data-testid="table-slot"
              >
                <rect
                  width={box}
                  height={box}
                  fill={STATE_COLORS[s.state]}
                  className="offload-slot"
                />
                <text x={box / 2} y={18} textAnchor="middle" className="offload-slot-text">
                  {slotLabel(s.what)}
                </text>
                <text x={box / 2} y={34} textAnchor="middle" className="offload-slot-text small">
                  #{s.slot}
                </text>
                <text x={box / 2} y={47} textAnchor="middle" className="offload-slot-text small">
                  {s.state}
                </text>
                <title>{`slot ${s.slot}: ${s.what}, ${s.state} at ${formatTime(s.time)}`}</title>
              </g>
            ))}
          </svg>
        </section>
      ))}
    </div>
  );
}
