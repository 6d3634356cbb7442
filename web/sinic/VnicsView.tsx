// SINIC's principal registers (the SINIC paper Fig 3) with their last values, and V-SINIC's receive
// VNICs (§3.2) as a grid of cells coloured by state, at the playback cursor; the receive FIFO's
// fill beside them. A VNIC is posted when the driver writes its RxData, copying while the engine
// moves its bytes, "payload deferred" when only the header went to the sk_buff and the payload
// waits in the FIFO bound to it (zero copy, §3.3), done when its last copy completed.
import { useMemo, useRef } from 'react';
import { useRun, useStoreInstance, type DoneRun, useViewCursor } from '../run/store';
import { useWidth } from '../kit/useWidth';
import {
  SINIC_REGISTERS,
  VNIC_STATE,
  cachedVnicIndex,
  changeAround,
  fifoAt,
  hex64,
  lastChangeAt,
  registersAt,
  stateCounts,
  vnicGrid,
  vnicSetup,
  vnicsAt,
  type RegisterNow,
  type VnicCell,
  type VnicSetup,
} from './vnics';
import { NIC_REGISTER_NAMES, VNIC_STATE_NAMES } from '../trace/traceKinds';
import { formatNumber, formatTime } from '../kit/format';
import { formatUs } from '../kit/format';
import { formatKbytes } from '../kit/paramLabels';
import { FRAME_COLORS, SLOT_UNKNOWN, VNIC_STATE_COLORS, WARN } from '../kit/palette';
import './sinic.css';

const REG_DOC: Record<string, string> = {
  RxData: 'write: start a copy FIFO → memory (address, length)',
  RxDone: 'read: packets in the FIFO, copy status, bytes copied, checksums',
  RxWait: 'read: as RxDone, satisfied only when the copy is done',
  TxData: 'write: start a copy memory → FIFO (length, MORE, CSUM)',
  TxDone: 'read: transmit status, FIFO full',
  TxWait: 'read: as TxDone, satisfied only when the engine is free',
  IntrStatus: 'read: pending interrupt causes',
  IntrMask: 'write: enabled causes (masked while the driver polls)',
};

function cellTitle(c: VnicCell): string {
  const state = VNIC_STATE_NAMES[c.state] ?? String(c.state);
  const what =
    c.state === VNIC_STATE.deferred
      ? `, packet ${c.packet}: ${formatNumber(c.bytes)} B left in the FIFO`
      : c.state === VNIC_STATE.copying
        ? `, packet ${c.packet}: copying ${formatNumber(c.bytes)} B`
        : c.state === VNIC_STATE.posted
          ? `: RxData for ${formatNumber(c.bytes)} B${c.packet ? `, packet ${c.packet}` : ''}`
          : c.state === VNIC_STATE.done && c.packet
            ? `, packet ${c.packet} (last copy ${formatNumber(c.bytes)} B)`
            : '';
  return `VNIC ${c.vnic}: ${state}${what}`;
}

export function VnicGrid({
  cells,
  width,
  changedAt,
}: {
  cells: VnicCell[];
  width: number;
  changedAt: number | null;
}) {
  const g = vnicGrid(cells.length, width);
  return (
    <svg
      className="vnic-grid"
      width={g.width + 4}
      height={g.height + 4}
      viewBox={`-2 -2 ${g.width + 4} ${g.height + 4}`}
      role="img"
      aria-label={`${cells.length} VNICs by state`}
      data-testid="vnic-grid"
    >
      {cells.map((c) => {
        const x = (c.vnic % g.cols) * (g.cell + g.gap);
        const y = Math.floor(c.vnic / g.cols) * (g.cell + g.gap);
        const changed = changedAt !== null && c.since === changedAt;
        return (
          <rect
            key={c.vnic}
            x={x}
            y={y}
            width={g.cell}
            height={g.cell}
            rx={2}
            fill={VNIC_STATE_COLORS[c.state] ?? SLOT_UNKNOWN}
            className={changed ? 'vnic-cell changed' : 'vnic-cell'}
            data-testid="vnic-cell"
            data-state={c.state}
          >
            <title>{cellTitle(c)}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function VnicLegend({ counts }: { counts: number[] }) {
  return (
    <ul className="legend vnic-legend" aria-label="VNIC states">
      {VNIC_STATE_NAMES.map((n, i) => (
        <li key={n} data-testid={`vnic-count-${i}`}>
          <span
            className={`chip ${i === 0 ? 'chip-empty' : ''}`}
            style={{ background: VNIC_STATE_COLORS[i] }}
          />
          {n} <b>{formatNumber(counts[i] ?? 0)}</b>
        </li>
      ))}
      <li>
        <span className="chip chip-changed" /> changed last
      </li>
    </ul>
  );
}

export function FifoMeter({
  bytes,
  setup,
}: {
  bytes: number | null;
  setup: Pick<VnicSetup, 'fifoBytes' | 'marks'>;
}) {
  const cap = setup.fifoBytes;
  const f = bytes !== null && cap ? Math.min(1, bytes / cap) : 0;
  return (
    <div className="vnic-fifo" data-testid="vnic-fifo">
      <div className="vnic-fifo-head">
        <b>Receive FIFO</b>{' '}
        <span className="mono">
          {bytes === null ? '—' : formatKbytes(+(bytes / 1024).toFixed(1))}
          {cap ? ` of ${formatKbytes(cap / 1024)}` : ''}
        </span>
      </div>
      <div
        className="vnic-fifo-bar"
        role="meter"
        aria-label="Receive FIFO fill"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(f * 100)}
      >
        <div
          className="vnic-fifo-fill"
          style={{ width: `${f * 100}%`, background: FRAME_COLORS.rx }}
        />
        {setup.marks && cap && (
          <>
            <div
              className="vnic-fifo-mark"
              style={{
                left: `${Math.min(100, (setup.marks.high / cap) * 100)}%`,
                borderColor: WARN,
              }}
              title="high mark: zero copy stops above it (conservative)"
            />
            <div
              className="vnic-fifo-mark low"
              style={{ left: `${Math.min(100, (setup.marks.low / cap) * 100)}%` }}
              title="low mark: zero copy resumes below it"
            />
          </>
        )}
      </div>
      {setup.marks && (
        <p className="muted small">
          Conservative zero copy: no deferring above {formatKbytes(setup.marks.high / 1024)} until
          the FIFO drains below {formatKbytes(setup.marks.low / 1024)}.
        </p>
      )}
    </div>
  );
}

export function RegisterTable({
  regs,
  t,
  vnics,
}: {
  regs: Array<RegisterNow | null>;
  t: number;
  vnics: number;
}) {
  const latest = Math.max(...regs.map((r) => r?.time ?? -1));
  return (
    <table className="vnic-regs" data-testid="vnic-regs">
      <thead>
        <tr>
          <th>register</th>
          <th>last access</th>
          <th>{vnics > 1 ? 'VNIC' : ''}</th>
          <th>value</th>
        </tr>
      </thead>
      <tbody>
        {SINIC_REGISTERS.map((id) => {
          const r = regs[id] ?? null;
          const name = NIC_REGISTER_NAMES[id]!;
          const on = r !== null && r.time === latest;
          return (
            <tr
              key={id}
              className={on ? 'on' : ''}
              data-testid={`vnic-reg-${name}`}
              data-time={r?.time ?? ''}
            >
              <th scope="row" title={REG_DOC[name]}>
                {name}
                <span className="vnic-reg-doc">{REG_DOC[name]}</span>
              </th>
              <td className="mono">
                {r ? (
                  <>
                    {r.write ? 'write' : 'read'} {formatTime(t - r.time, 2)} ago
                    {r.ns > 0 && (
                      <span className="muted">
                        {' '}
                        · {r.name.endsWith('Wait') ? 'waited' : 'took'} {formatTime(r.ns * 1000, 2)}
                      </span>
                    )}
                  </>
                ) : (
                  <span className="muted">not yet in the window</span>
                )}
              </td>
              <td className="mono">{r && vnics > 1 ? (r.vnic ?? 'all') : ''}</td>
              <td>
                {r && (
                  <>
                    <span className="mono vnic-hex">{hex64(r.lo, r.hi)}</span>
                    <span className="vnic-fields">
                      {r.fields.map((f) =>
                        f.kind === 'flag' ? (
                          <span
                            key={f.name}
                            className={`vnic-bit ${f.value ? 'set' : ''}`}
                            title={f.doc}
                          >
                            {f.name}
                          </span>
                        ) : (
                          <span key={f.name} className="vnic-num" title={f.doc}>
                            {f.name} {formatNumber(f.value)}
                            {f.kind === 'bytes' ? ' B' : ''}
                          </span>
                        ),
                      )}
                    </span>
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function VnicsView() {
  const run = useRun();
  if (!run)
    return <div className="placeholder">The registers appear when the simulation has run.</div>;
  return <VnicsRun run={run} />;
}

function VnicsRun({ run }: { run: DoneRun }) {
  const store = useStoreInstance();
  const t = useViewCursor();
  const setup = useMemo(() => vnicSetup(run.output.parameters), [run]);
  const ix = useMemo(() => cachedVnicIndex(run.trace, setup.vnics), [run, setup.vnics]);
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, run, 520, 200);
  if (setup.vnics === 0)
    return (
      <p className="tg-message" data-testid="vnic-message">
        The conventional NIC has no SINIC registers or VNICs: it is driven through descriptor rings
        in memory. Set <code>system.nic.model</code> to <code>sinic</code> or <code>v-sinic</code>.
      </p>
    );
  const cells = vnicsAt(ix, t);
  const counts = stateCounts(cells);
  const regs = registersAt(ix, t);
  const fifo = fifoAt(ix, t);
  const changedAt = lastChangeAt(ix, t);
  const { prev, next } = changeAround(ix, t);
  const seek = (time: number | null) => {
    if (time === null) return;
    store.setPlaying(false);
    store.setCursor(time);
  };
  const v = setup.vnics;
  return (
    <div className="vnic-view" data-testid="vnics-view" data-vnics={v}>
      <p className="tg-sub">
        {v > 1 ? (
          <>
            <b>V-SINIC, {formatNumber(v)} VNICs</b>, each its own RxData/RxDone/RxWait
            {setup.zeroCopy !== 'off' ? `; zero copy ${setup.zeroCopy}` : ''}. One copy engine
            serves them in turn.
          </>
        ) : (
          <>
            <b>SINIC</b>: one set of registers, one copy engine per direction.
          </>
        )}
      </p>
      <div className="fw-toolbar">
        <div className="seg" role="group" aria-label="Step by VNIC change">
          <button
            type="button"
            onClick={() => seek(prev)}
            disabled={prev === null}
            data-testid="vnic-prev"
          >
            ◀ previous change
          </button>
          <button
            type="button"
            onClick={() => seek(next)}
            disabled={next === null}
            data-testid="vnic-next"
          >
            next change ▶
          </button>
        </div>
        <span className="fw-time" data-testid="vnic-time">
          {formatUs(t)}
        </span>
      </div>
      <div className="vnic-layout">
        <div className="vnic-left" ref={wrap}>
          <FifoMeter bytes={fifo} setup={setup} />
          <VnicGrid cells={cells} width={Math.min(width, 560)} changedAt={changedAt} />
          <VnicLegend counts={counts} />
          <p className="muted small vnic-states-doc">
            <b>posted</b>: the driver wrote RxData, the VNIC waits for a packet or the engine (one
            outstanding copy per VNIC). <b>copying</b>: the engine moves its bytes.{' '}
            <b>payload deferred</b>: only the header went to the sk_buff; the payload waits in the
            FIFO, bound to this VNIC, until read() names the user buffer. <b>done</b>: its last copy
            completed (RxDone Complete); free for the next packet. Point at a cell for its packet.
          </p>
        </div>
        <div className="vnic-right">
          <RegisterTable regs={regs} t={t} vnics={v} />
        </div>
      </div>
    </div>
  );
}
