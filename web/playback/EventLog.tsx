import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useRun, useStoreInstance, useViewCursor } from '../run/store';
import { countUpTo } from '../trace/trace';
import { BusTxnEnd, BusTxnStart, DmaDone, DmaQueued } from '../trace/records.gen';
import { TRACE_KINDS, componentLabel, describeRecord, kindName, K } from '../trace/traceKinds';
import { formatLogTime } from '../kit/format';
import { recordStep } from '../trace/steps';
import { purposeColor, ALERT, WARN } from '../kit/palette';
import { packetOf } from '../inspector';
import { PacketChip } from '../inspector';

const BEFORE = 9;
const AFTER = 12;

const ALERT_KINDS = new Set([K.RxDrop]);
const WARN_KINDS = new Set([
  K.RingFull,
  K.DriverStall,
  K.BusRefused,
  K.TxBufferFull,
  K.DmaQueueFull,
]);

/** Rows of the log around the cursor: [first, end) record indices and the current record. */
export function logWindow(
  total: number,
  current: number,
  before = BEFORE,
  after = AFTER,
): { first: number; end: number } {
  const rows = before + after + 1;
  let first = Math.max(0, current - before);
  const end = Math.min(total, first + rows);
  first = Math.max(0, end - rows);
  return { first, end };
}

/**
 * The row that takes focus for a key, or null for another key: the log is one Tab stop (a roving
 * tabindex), and the arrows, Home and End move between its rows.
 */
export function rovingTarget(key: string, at: number, first: number, end: number): number | null {
  if (end <= first) return null;
  if (key === 'ArrowDown') return Math.min(end - 1, at + 1);
  if (key === 'ArrowUp') return Math.max(first, at - 1);
  if (key === 'Home') return first;
  if (key === 'End') return end - 1;
  return null;
}

export function EventLog() {
  const run = useRun();
  const store = useStoreInstance();
  const cursor = useViewCursor();
  const trace = run?.trace;
  const current = useMemo(() => (trace ? countUpTo(trace.time, cursor) - 1 : -1), [trace, cursor]);
  const [focused, setFocused] = useState<number | null>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  if (!run || !trace)
    return <div className="placeholder">Events appear when the simulation has run.</div>;
  if (trace.length === 0)
    return <p className="muted">The run recorded no events in its trace window.</p>;
  const curTime = current >= 0 ? trace.time[current]! : NaN;
  const { first, end } = logWindow(trace.length, Math.max(current, 0));
  const rows: number[] = [];
  for (let i = first; i < end; i++) rows.push(i);
  // The one row in the Tab order: the focused one while it is shown, else the current one.
  const stop =
    focused !== null && focused >= first && focused < end ? focused : Math.max(current, first);
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, i: number) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      store.setPlaying(false);
      store.setCursor(trace.time[i]!);
      return;
    }
    const to = rovingTarget(e.key, i, first, end);
    if (to === null) return;
    e.preventDefault();
    setFocused(to);
    body.current?.querySelector<HTMLElement>(`tr[data-index="${to}"]`)?.focus();
  };
  return (
    <div className="eventlog" data-testid="event-log">
      <div className="eventlog-meta muted">
        event {Math.max(current + 1, 0).toLocaleString('en-US')} of{' '}
        {trace.length.toLocaleString('en-US')} · click a row (or ↑ ↓ and Enter) to jump there
      </div>
      <table className="log-table">
        <thead>
          <tr>
            <th scope="col">time</th>
            <th scope="col">event</th>
            <th scope="col">where</th>
            <th scope="col">details</th>
          </tr>
        </thead>
        <tbody ref={body}>
          {rows.map((i) => {
            const k = trace.kind[i]!;
            const doc = TRACE_KINDS[k];
            const fields = describeRecord(trace, i);
            const packet = packetOf(trace, i);
            const step = recordStep(trace, i);
            const isCur = trace.time[i] === curTime;
            const future = i > current;
            const purposeIdx =
              k === K.BusTxnStart
                ? BusTxnStart.purpose(trace, i)
                : k === K.BusTxnEnd
                  ? BusTxnEnd.purpose(trace, i)
                  : k === K.DmaQueued
                    ? DmaQueued.purpose(trace, i)
                    : k === K.DmaDone
                      ? DmaDone.purpose(trace, i)
                      : -1;
            const accent = ALERT_KINDS.has(k)
              ? ALERT
              : WARN_KINDS.has(k)
                ? WARN
                : purposeIdx >= 0
                  ? purposeColor(purposeIdx)
                  : undefined;
            return (
              <tr
                key={i}
                className={`${isCur ? 'current' : ''} ${future ? 'future' : ''}`}
                aria-current={isCur ? 'true' : undefined}
                tabIndex={i === stop ? 0 : -1}
                onFocus={() => setFocused(i)}
                onClick={() => {
                  store.setPlaying(false);
                  store.setCursor(trace.time[i]!);
                }}
                onKeyDown={(e) => onKeyDown(e, i)}
                data-testid="log-row"
                data-index={i}
              >
                <td className="mono nowrap">{formatLogTime(trace.time[i]!)}</td>
                <td className="nowrap">
                  <span className="kind-dot" style={accent ? { background: accent } : undefined} />
                  <span className="kind" title={doc?.doc}>
                    {kindName(k)}
                  </span>
                  {step && <span className="step">{step}</span>}
                </td>
                <td className="nowrap">{componentLabel(trace.component[i]!)}</td>
                <td className="fields" title={fields.map(([n, v]) => `${n} ${v}`).join(' · ')}>
                  {packet > 0 && <PacketChip packet={packet} />}
                  {fields.map(([n, v]) =>
                    packet > 0 && n === 'packet' ? null : (
                      <span key={n} className="field">
                        <span className="fname">{n}</span> {v}{' '}
                      </span>
                    ),
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
