// The playback bar's second row, shown by its "Navigate" button: step to the next or previous
// event of a chosen kind, breakpoints that stop playing (conditions and times), "run to the next
// breakpoint", the idle collapsing option; and, always shown, what the last stop or skip was.
// The logic is web/run/breakpoints.ts.
import { isTyping } from '../kit/keys';
import { useEffect, useMemo, useState } from 'react';
import { useStore, useStoreInstance, type DoneRun, type Store } from '../run/store';
import {
  CONDITIONS,
  IDLE_THRESHOLDS,
  cachedBreakContext,
  conditionsPresent,
  kindEventTime,
  kindsPresent,
  makeNote,
  navNote,
  playInput,
  runUntil,
  sameBreakpoint,
  type Breakpoint,
  type ConditionId,
} from '../run/breakpoints';
import { formatTime } from '../kit/format';
import { packetAtCursor } from '../inspector';
import './nav.css';

/** Moves to the next (1) or previous (-1) event of the chosen kind. */
export function stepToKind(store: Store, dir: 1 | -1): void {
  const s = store.getState();
  const run = s.shown;
  const kind = s.nav.kind;
  if (!run || kind === null) return;
  const t = kindEventTime(run.trace, run.index.byKind, kind, s.playback.cursor, dir);
  if (t === null) return;
  if (dir === 1) store.forwardTo(t);
  else {
    store.setPlaying(false);
    store.setCursor(t);
  }
}

/** Jumps to the first breakpoint that fires after the cursor, and says so. */
export function runToBreakpoint(store: Store): void {
  const s = store.getState();
  const run = s.shown;
  const w = store.window();
  if (!run || !w) return;
  const hit = runUntil(playInput(run, s.nav, w), s.playback.cursor);
  if (!hit) {
    const why = s.nav.breakpoints.length
      ? 'no breakpoint fires after the cursor'
      : 'no breakpoint set';
    store.setNav({ note: makeNote(why, s.playback.cursor, 'stop') });
    return;
  }
  store.forwardTo(hit.time);
  store.setNav({
    note: navNote({ cursor: hit.time, stop: hit, skipped: 0, ended: false }, s.nav.note),
  });
}

/** Parses a time in µs typed by the viewer; an error names the allowed range. */
export function parseBreakTime(
  text: string,
  window: { start: number; end: number },
): { at: number } | { error: string } {
  const range = `${formatTime(window.start)} to ${formatTime(window.end)}`;
  const v = Number(text.trim().replace(/\s*µ?s$/, ''));
  if (text.trim() === '' || !Number.isFinite(v))
    return { error: `time: a number of µs, from ${range}` };
  const at = Math.round(v * 1e6);
  if (at < window.start || at > window.end)
    return { error: `time: ${text.trim()} µs is outside the recorded window (${range})` };
  return { at };
}

export function NavControls({ open }: { open: boolean }) {
  const store = useStoreInstance();
  const [timeDraft, setTimeDraft] = useState('');

  // Shift+arrows step by the chosen kind, the row open or not. Capture phase: before the
  // playback bar's own arrow keys (plain steps), which then see the event handled.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      if (store.getState().nav.kind === null) return;
      e.preventDefault();
      stepToKind(store, e.key === 'ArrowRight' ? 1 : -1);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [store]);

  // The row's contents are worked out only while it is open: closed, a new run and every frame
  // of playback skip scanning the trace for the kinds, conditions and packet at the cursor.
  return (
    <div
      className="pb-nav"
      id="pb-nav"
      role="group"
      aria-label="Navigation and breakpoints"
      hidden={!open}
    >
      {open && <NavRow timeDraft={timeDraft} setTimeDraft={setTimeDraft} />}
    </div>
  );
}

/** The navigation row's controls, for the run shown and the cursor. */
function NavRow({ timeDraft, setTimeDraft }: TimeDraft) {
  const store = useStoreInstance();
  const run = useStore((s) => s.shown);
  const nav = useStore((s) => s.nav);
  const cursor = useStore((s) => s.playback.cursor);
  const kinds = useMemo(() => (run ? kindsPresent(run.index.byKind) : []), [run]);
  const present = useMemo(
    () =>
      run ? conditionsPresent(run.trace, run.index.byKind, cachedBreakContext(run)) : new Set(),
    [run],
  );

  const done = run !== null;
  const kind = nav.kind !== null && kinds.some((k) => k.kind === nav.kind) ? nav.kind : null;
  const prevKind =
    done && kind !== null ? kindEventTime(run.trace, run.index.byKind, kind, cursor, -1) : null;
  const nextKind =
    done && kind !== null ? kindEventTime(run.trace, run.index.byKind, kind, cursor, 1) : null;

  const toggle = (bp: Breakpoint) => {
    const on = nav.breakpoints.some((b) => sameBreakpoint(b, bp));
    store.setNav({
      breakpoints: on
        ? nav.breakpoints.filter((b) => !sameBreakpoint(b, bp))
        : [...nav.breakpoints, bp],
    });
  };
  const armed = (id: ConditionId) =>
    nav.breakpoints.some((b) => b.type === 'condition' && b.id === id);
  const times = nav.breakpoints.filter(
    (b): b is Breakpoint & { type: 'time' } => b.type === 'time',
  );
  return (
    <>
      <div className="nav-group" role="group" aria-label="Step to an event of a kind">
        <label className="nav-label" htmlFor="nav-kind">
          step to
        </label>
        <select
          id="nav-kind"
          className="nav-kind"
          value={kind ?? ''}
          disabled={!done}
          onChange={(e) =>
            store.setNav({
              kind: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
            })
          }
          data-testid="kind-select"
        >
          <option value="">an event of kind…</option>
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind} title={k.name}>
              {k.words} · {k.count}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-small"
          disabled={prevKind === null}
          onClick={() => stepToKind(store, -1)}
          title="Previous event of this kind (Shift+←)"
          aria-label="Previous event of this kind"
          data-testid="kind-prev"
        >
          ◀
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={nextKind === null}
          onClick={() => stepToKind(store, 1)}
          title="Next event of this kind (Shift+→)"
          aria-label="Next event of this kind"
          data-testid="kind-next"
        >
          ▶
        </button>
      </div>
      <div className="nav-group" role="group" aria-label="Breakpoints: playing stops at">
        <span className="nav-label">stop at</span>
        {CONDITIONS.map((c) => {
          const has = present.has(c.id);
          return (
            <button
              key={c.id}
              type="button"
              className={`bp-chip ${armed(c.id) ? 'on' : ''} ${has ? '' : 'none'}`}
              aria-pressed={armed(c.id)}
              disabled={!done}
              onClick={() => toggle({ type: 'condition', id: c.id })}
              title={`${c.doc}${has ? '' : ' — none in this run'}`}
              data-testid={`bp-${c.id}`}
              data-present={has}
            >
              {c.label}
            </button>
          );
        })}
        {times.map((b) => (
          <button
            key={b.at}
            type="button"
            className="bp-chip on"
            aria-pressed="true"
            onClick={() => toggle(b)}
            title="Remove this time breakpoint"
            data-testid="bp-time"
          >
            {formatTime(b.at)} ×
          </button>
        ))}
        <TimeBreakpoint
          text={timeDraft}
          setText={setTimeDraft}
          disabled={!done}
          onAdd={(at) =>
            !times.some((b) => b.at === at) &&
            store.setNav({ breakpoints: [...nav.breakpoints, { type: 'time', at }] })
          }
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={!done || nav.breakpoints.length === 0}
          onClick={() => runToBreakpoint(store)}
          title="Jump to the first breakpoint after the cursor"
          data-testid="run-to-break"
        >
          run to breakpoint
          <svg viewBox="0 0 20 20" aria-hidden="true" className="nav-icon">
            <path d="M3 4.5v11L10 10zM10 4.5v11L17 10z" />
          </svg>
        </button>
      </div>
      <div className="nav-group" role="group" aria-label="Idle stretches">
        <label className="nav-check">
          <input
            type="checkbox"
            checked={nav.skipIdle}
            disabled={!done}
            onChange={(e) => store.setNav({ skipIdle: e.currentTarget.checked })}
            data-testid="skip-idle"
          />
          skip idle stretches over
        </label>
        <select
          aria-label="Idle stretch threshold"
          value={nav.idleThreshold}
          disabled={!done}
          onChange={(e) => store.setNav({ idleThreshold: Number(e.currentTarget.value) })}
          data-testid="idle-threshold"
        >
          {IDLE_THRESHOLDS.map((t) => (
            <option key={t} value={t}>
              {formatTime(t)}
            </option>
          ))}
        </select>
      </div>
      <InspectAtCursor run={run} cursor={cursor} />
    </>
  );
}

/** What the last breakpoint stop or idle skip was: shown with the navigation row closed too. */
export function NavNote() {
  const note = useStore((s) => s.nav.note);
  const cursor = useStore((s) => s.playback.cursor);
  // A stop note stays while the cursor is where it stopped; a skip note while playing.
  const showNote = note && (note.type === 'skip' ? true : note.at === cursor);
  return (
    <output
      className={`nav-note ${note?.type ?? ''}`}
      aria-live="polite"
      data-testid="nav-note"
      key={showNote ? note.id : 'none'}
    >
      {showNote ? note.text : ''}
    </output>
  );
}

/** A half-typed breakpoint time, kept by the always-mounted NavControls while the row is closed. */
interface TimeDraft {
  timeDraft: string;
  setTimeDraft: (text: string) => void;
}

function TimeBreakpoint({
  disabled,
  onAdd,
  text,
  setText,
}: {
  disabled: boolean;
  onAdd: (at: number) => void;
  text: string;
  setText: (text: string) => void;
}) {
  const store = useStoreInstance();
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const w = store.window();
    if (!w) return;
    const r = parseBreakTime(text, w);
    if ('error' in r) {
      setError(r.error);
      return;
    }
    setError(null);
    setText('');
    onAdd(r.at);
  };
  return (
    <span className="bp-time-add">
      <input
        type="text"
        inputMode="decimal"
        placeholder="time µs"
        aria-label="Breakpoint at a time, in µs"
        aria-invalid={error !== null}
        aria-describedby={error ? 'bp-time-error' : undefined}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        data-testid="bp-time-input"
      />
      <button
        type="button"
        className="btn btn-small"
        disabled={disabled}
        onClick={add}
        data-testid="bp-time-add"
      >
        + time
      </button>
      {error && (
        <span id="bp-time-error" className="bp-error" role="alert" data-testid="bp-time-error">
          {error}
        </span>
      )}
    </span>
  );
}

function InspectAtCursor({ run, cursor }: { run: DoneRun | null; cursor: number }) {
  const store = useStoreInstance();
  const packet = run ? packetAtCursor(run.trace, cursor) : null;
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={packet === null}
      onClick={() => packet !== null && store.setUi({ packet })}
      title="Open the packet inspector on the packet of the latest event at the cursor"
      data-testid="inspect-at-cursor"
    >
      inspect packet{packet !== null ? ` ${packet}` : ''}
    </button>
  );
}
