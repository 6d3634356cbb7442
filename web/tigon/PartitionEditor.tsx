// "Draw the partition yourself": the Tigon's nine event handlers as chips in CPU A,
// CPU B, both CPUs or no CPU. Drag a chip (pointer events: mouse, pen and touch) or focus it and
// press A, B, 2 or 0; each move sends the partition to the core as overrides, the same way the
// knob panel does, and the core re-runs (or refuses) it. Beside the board: what the CPUs now
// share per the thesis's Tables 3.2 and 3.3 (presentation only) and, after the run, each CPU's
// share of the work from the core's results against the thesis's 47/53.
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { TIGON_EVENTS } from '../trace/traceKinds';
import type { Metrics, ValidationError } from '../engine/types';
import { useRun } from '../run/store';
import { ErrorBoundary } from '../app/ErrorBoundary';
import type { Overrides } from '../run/overrides';
import { THESIS_CPU_A_SHARE, sharePct } from './profile';
import {
  table34Places,
  crossPairs,
  moveEvent,
  partitionResults,
  partitionState,
  placeWords,
  requestedValue,
  semaphoreEvents,
  tigonShares,
  unplacedEvents,
  withPartition,
  type Shares,
  type CrossPair,
  type PartitionResults,
  type PartitionState,
  type Place,
} from './partition';
import { inkOn, tigonEventColor, TIGON_CPU_COLORS } from './tigonPalette';
import { SPIN_BAR } from '../kit/palette';
import { Meter, firmwareWords } from './FirmwareView';
import './tigon.css';

/** The keys a focused chip answers to. */
const KEY_PLACES: Record<string, Place> = {
  a: 'A',
  A: 'A',
  ArrowLeft: 'A',
  b: 'B',
  B: 'B',
  ArrowRight: 'B',
  '2': 'both',
  '0': 'none',
  Delete: 'none',
};

const ZONES: ReadonlyArray<{ place: Place; title: string; hint: string }> = [
  { place: 'A', title: 'CPU A', hint: 'scratch pad 16 KB' },
  { place: 'both', title: 'both CPUs', hint: 'each run under the semaphore' },
  { place: 'B', title: 'CPU B', hint: 'scratch pad 8 KB' },
  { place: 'none', title: 'no CPU', hint: 'nothing serves it: the core refuses' },
];

/** A CPU's share is written inside its part of the split bar from this share up. */
const MIN_INSIDE = 0.22;

/** Past this many pixels a press on a chip is a drag. */
const DRAG_PX = 4;

function short(e: number): string {
  return TIGON_EVENTS[e]?.short ?? String(e);
}

/** The quick move a chip offers by click: to the other CPU, or from both/none to A and B. */
function quickMoves(place: Place): Place[] {
  if (place === 'A') return ['B'];
  if (place === 'B') return ['A'];
  return ['A', 'B'];
}

function arrow(from: Place, to: Place): string {
  // A sits left of "both" and B right of it.
  const order: Record<Place, number> = { A: 0, both: 1, B: 2, none: 1 };
  return order[to] < order[from] ? `← ${to}` : `→ ${to}`;
}

function LockIcon() {
  return (
    <svg className="pt-lock" viewBox="0 0 12 14" width="12" height="14" aria-hidden="true">
      <rect x="1" y="6" width="10" height="7.5" rx="1.5" />
      <path d="M3.2 6V4.2a2.8 2.8 0 0 1 5.6 0V6" />
    </svg>
  );
}

// ---------------------------------------------------------------------------------------------
// The board

interface Drag {
  event: number;
  pointerId: number;
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  moved: boolean;
  over: Place | null;
}

export interface PartitionBoardProps {
  places: readonly Place[];
  /** Events whose handlers take the semaphore with these places. */
  locked: readonly number[];
  /** Each event's share of the handler time in the run on screen. */
  shares: readonly (number | null)[];
  /** Utilisation of each CPU in the run on screen. */
  utilization: readonly (number | null)[];
  onMove: (event: number, to: Place) => void;
}

export function PartitionBoard({
  places,
  locked,
  shares,
  utilization,
  onMove,
}: PartitionBoardProps) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const zones = useRef<Partial<Record<Place, HTMLElement | null>>>({});
  const board = useRef<HTMLDivElement>(null);
  // After a move the chip is drawn in another zone once the new partition comes back as props:
  // keep the keyboard focus on it then.
  const refocus = useRef<{ event: number; to: Place } | null>(null);
  useEffect(() => {
    const r = refocus.current;
    if (!r) return;
    const chip = board.current?.querySelector<HTMLElement>(
      `[data-chip="${r.event}"][data-place="${r.to}"]`,
    );
    if (!chip) return;
    refocus.current = null;
    chip.focus();
  });

  const move = (event: number, to: Place, keepFocus: boolean) => {
    if (places[event] === to) return;
    if (keepFocus) refocus.current = { event, to };
    onMove(event, to);
  };
  const zoneAt = (x: number, y: number): Place | null => {
    for (const z of ZONES) {
      const r = zones.current[z.place]?.getBoundingClientRect();
      if (r && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return z.place;
    }
    return null;
  };

  const onPointerDown = (event: number) => (e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 || (e.target as Element).closest('button')) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    setDrag({
      event,
      pointerId: e.pointerId,
      x0: e.clientX,
      y0: e.clientY,
      dx: 0,
      dy: 0,
      moved: false,
      over: null,
    });
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLElement>) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = e.clientX - drag.x0;
    const dy = e.clientY - drag.y0;
    const moved = drag.moved || Math.hypot(dx, dy) > DRAG_PX;
    if (moved) e.preventDefault();
    setDrag({ ...drag, dx, dy, moved, over: moved ? zoneAt(e.clientX, e.clientY) : null });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLElement>) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    setDrag(null);
    const to = drag.moved ? zoneAt(e.clientX, e.clientY) : null;
    if (to) move(drag.event, to, false);
  };
  const onKeyDown = (event: number) => (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = KEY_PLACES[e.key];
    if (!to) return;
    e.preventDefault();
    move(event, to, true);
  };

  return (
    <div className={`pt-board${drag?.moved ? ' dragging' : ''}`} ref={board} data-testid="pt-board">
      {ZONES.map((z) => {
        const cpu = z.place === 'A' ? 0 : z.place === 'B' ? 1 : null;
        const u = cpu === null ? null : utilization[cpu];
        const here = places.flatMap((p, e) => (p === z.place ? [e] : []));
        return (
          <section
            key={z.place}
            className={`pt-zone pt-zone-${z.place}${drag?.moved && drag.over === z.place ? ' over' : ''}`}
            style={cpu === null ? undefined : { borderTopColor: TIGON_CPU_COLORS[cpu] }}
            ref={(el) => {
              zones.current[z.place] = el;
            }}
            aria-label={`${z.title}: ${here.length ? here.map(short).join(', ') : 'no handler'}`}
            data-testid={`pt-zone-${z.place}`}
            data-events={here.map(short).join(' ')}
          >
            <header className="pt-zone-head">
              <span className="pt-zone-title">{z.title}</span>
              <span className="pt-zone-hint">
                {u !== null && u !== undefined ? `${(u * 100).toFixed(0)}% busy · ` : ''}
                {z.hint}
              </span>
            </header>
            <ul className="pt-chips">
              {here.map((e) => {
                const ev = TIGON_EVENTS[e]!;
                const color = tigonEventColor(e);
                const lock = locked.includes(e);
                const share = shares[e];
                const dragging = drag?.event === e && drag.moved;
                return (
                  <li
                    key={e}
                    className={`pt-chip${dragging ? ' dragged' : ''}${lock ? ' locked' : ''}`}
                    style={{
                      background: color,
                      color: inkOn(color),
                      transform: dragging ? `translate(${drag.dx}px, ${drag.dy}px)` : undefined,
                    }}
                    tabIndex={0}
                    aria-label={`${ev.label} (${ev.short}) on ${placeWords(z.place)}${lock ? ', takes the semaphore' : ''}. Press A or B for a CPU, 2 for both CPUs, 0 for none; or drag it.`}
                    aria-keyshortcuts="A B 2 0"
                    title={`${ev.label}: drag it to another CPU, or focus it and press A, B, 2 (both CPUs) or 0 (no CPU)`}
                    data-testid="pt-chip"
                    data-chip={e}
                    data-event={ev.short}
                    data-place={z.place}
                    onPointerDown={onPointerDown(e)}
                    onPointerMove={onPointerMove}
                    onPointerUp={onPointerUp}
                    onPointerCancel={() => setDrag(null)}
                    onKeyDown={onKeyDown(e)}
                  >
                    <span className="pt-short">{ev.short}</span>
                    <span className="pt-label">{ev.label}</span>
                    {lock && <LockIcon />}
                    {share !== null && share !== undefined && (
                      <span className="pt-share" title="Share of handler time in the run on screen">
                        {sharePct(share)}
                      </span>
                    )}
                    <span className="pt-moves">
                      {quickMoves(z.place).map((to) => (
                        <button
                          type="button"
                          key={to}
                          className="pt-move"
                          onClick={() => move(e, to, true)}
                          aria-label={`Move ${ev.label} to ${placeWords(to)}`}
                          data-testid={`pt-move-${to}`}
                        >
                          {arrow(z.place, to)}
                        </button>
                      ))}
                    </span>
                  </li>
                );
              })}
              {here.length === 0 && <li className="pt-empty">drop a handler here</li>}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// What the CPUs share, and the core's verdict

/** Rank of a place when a pair is read left to right: CPU A's handler first. */
const PLACE_RANK: Record<Place, number> = { A: 0, both: 1, B: 2, none: 3 };

function pairLine(p: CrossPair, places: readonly Place[]) {
  const who = (e: number) => `${short(e)} (${placeWords(places[e]!)})`;
  const [x, y] = PLACE_RANK[places[p.b]!] < PLACE_RANK[places[p.a]!] ? [p.b, p.a] : [p.a, p.b];
  const what = p.shares.map((s) => `${s.what} (${s.source})`).join('; ');
  return (
    <li key={`${p.a}-${p.b}`} className={p.lock ? 'lock' : 'free'} data-testid="pt-pair">
      <b>
        {who(x)} ↔ {who(y)}
      </b>
      : {what}
      {!p.lock && <span className="muted"> — one writer, a stale read is harmless: no lock</span>}
    </li>
  );
}

export function PartitionNotes({
  places,
  errors,
  shares,
}: {
  places: readonly Place[];
  errors: readonly ValidationError[];
  /** What handlers share (the core's Tables 3.2 and 3.3 for this system). */
  shares: Shares;
}) {
  const pairs = crossPairs(places, shares);
  const locked = semaphoreEvents(places, shares);
  const unplaced = unplacedEvents(places);
  return (
    <div className="pt-notes" data-testid="pt-notes">
      {unplaced.length > 0 && errors.length === 0 && (
        <div className="notice notice-warn" data-testid="pt-unplaced">
          <b>{unplaced.map((e) => TIGON_EVENTS[e]!.label).join(', ')}</b>{' '}
          {unplaced.length === 1 ? 'sits' : 'sit'} on no CPU: nothing would serve{' '}
          {unplaced.length === 1 ? 'it' : 'them'}, so the core refuses this partition.
        </div>
      )}
      {errors.length > 0 && (
        <div className="notice notice-error" role="alert" data-testid="pt-errors">
          <b>The core refused this partition</b>; the figures shown are the previous run&apos;s:
          <ul className="error-list">
            {errors.map((e, i) => (
              <li key={i}>
                <code>{e.path}</code> {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p
        className={`pt-sem${locked.length ? ' on' : ''}`}
        data-testid="pt-semaphore"
        data-events={locked.map(short).join(' ')}
      >
        <LockIcon />{' '}
        {locked.length ? (
          <>
            The semaphore will be taken for:{' '}
            <b>{locked.map((e) => TIGON_EVENTS[e]!.label).join(', ')}</b>.
          </>
        ) : (
          <>
            No handler needs the semaphore: the CPUs share no DMA channel and no data both update.
          </>
        )}
      </p>
      {pairs.length > 0 && (
        <>
          <h3 className="pt-h3">Shared across the CPUs (Tables 3.2 and 3.3)</h3>
          <ul className="pt-pairs">{pairs.map((p) => pairLine(p, places))}</ul>
        </>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The run's split against the thesis

export function PartitionSplit({ r, note }: { r: PartitionResults; note: string }) {
  if (r.aShare === null) return null;
  const a = Math.min(1, Math.max(0, r.aShare));
  const thesisA = Math.round(THESIS_CPU_A_SHARE * 100);
  return (
    <section className="fw-box pt-split" aria-labelledby="pt-h-split" data-testid="pt-split">
      <h3 id="pt-h-split">
        The run: each CPU&apos;s share of the handler work <span className="muted">{note}</span>
      </h3>
      <div
        className="pt-split-bar"
        role="img"
        aria-label={`CPU A ${sharePct(a)}, CPU B ${sharePct(1 - a)}; the thesis: A ${thesisA}%, B ${100 - thesisA}%`}
        data-testid="pt-split-bar"
        data-a={a.toFixed(4)}
      >
        <span className="pt-split-track">
          <span
            className="pt-split-a"
            style={{ width: `${a * 100}%`, background: TIGON_CPU_COLORS[0] }}
          >
            {a >= MIN_INSIDE && (
              <span style={{ color: inkOn(TIGON_CPU_COLORS[0]) }}>CPU A {sharePct(a)}</span>
            )}
          </span>
          <span
            className="pt-split-b"
            style={{ width: `${(1 - a) * 100}%`, background: TIGON_CPU_COLORS[1] }}
          >
            {1 - a >= MIN_INSIDE && (
              <span style={{ color: inkOn(TIGON_CPU_COLORS[1]) }}>CPU B {sharePct(1 - a)}</span>
            )}
          </span>
        </span>
        <span
          className="pt-split-thesis"
          style={{ left: `${THESIS_CPU_A_SHARE * 100}%` }}
          title={`The thesis (Table 3.4 on RELEASE's profile): CPU A ${thesisA}%, CPU B ${100 - thesisA}%`}
        />
      </div>
      <p className="pt-split-legend">
        {Math.min(a, 1 - a) < MIN_INSIDE && (
          <span className="pt-split-run">
            CPU A {sharePct(a)} · CPU B {sharePct(1 - a)}
          </span>
        )}
        <span className="pt-split-ref">
          <span className="thesis-mark" aria-hidden="true" /> thesis, Table 3.4: A {thesisA}% / B{' '}
          {100 - thesisA}% (§3.2.2)
        </span>
      </p>
      {r.utilization.map((u, cpu) =>
        u === null ? null : (
          <Meter
            key={cpu}
            label={`CPU ${cpu === 0 ? 'A' : 'B'} busy`}
            value={+(u * 100).toFixed(1)}
            max={100}
            text={`${(u * 100).toFixed(0)}%`}
            valueText={`${(u * 100).toFixed(0)} percent`}
            testId={`pt-util-${cpu === 0 ? 'A' : 'B'}`}
            color={TIGON_CPU_COLORS[cpu]}
          />
        ),
      )}
      {r.spin !== null && (
        <Meter
          label="semaphore spin"
          value={+(r.spin * 100).toFixed(2)}
          max={100}
          text={sharePct(r.spin)}
          valueText={`${(r.spin * 100).toFixed(1)} percent of the window`}
          testId="pt-spin"
          color={SPIN_BAR}
        />
      )}
      <p className="fw-meter-note">
        Busy: handlers, the dispatch loop and semaphore spins. Spin: the CPUs&apos; time waiting for
        the semaphore, as a share of the window (tigon_semaphore_spin).
      </p>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// The editor

function firmwareNote(state: PartitionState): string {
  if (state.family === 'custom') return 'Custom firmware: each handler runs where you put it.';
  return `${firmwareWords(state)}. Moving a handler switches to custom firmware, starting from this partition.`;
}

export interface PartitionEditorProps {
  /** The partition as last asked for (applied, running or refused). */
  state: PartitionState;
  /** Results of the run on screen, or null before the first run. */
  results: Metrics | null;
  /** Whether those results are of this partition, of the previous one, or being recomputed. */
  resultsAre: 'current' | 'previous' | 'running';
  /** The core's messages when it refused the latest change. */
  errors: readonly ValidationError[];
  /** Moves one handler. */
  onMove: (event: number, to: Place) => void;
  /** Asks for a whole partition (the Table 3.4 button). */
  onPlaces: (places: Place[]) => void;
  /** Table 3.4 as places (from the run's output). */
  table34: readonly Place[];
  /** What handlers share (the core's Tables 3.2 and 3.3 for this system). */
  shares: Shares;
}

export function PartitionEditor({
  state,
  results,
  resultsAre,
  errors,
  onMove,
  onPlaces,
  table34,
  shares,
}: PartitionEditorProps) {
  const r = useMemo(() => partitionResults(results ?? undefined), [results]);
  const locked = useMemo(() => semaphoreEvents(state.places, shares), [state.places, shares]);
  const isTable34 = state.places.every((p, e) => p === table34[e]);
  const note =
    resultsAre === 'running'
      ? '· the previous run, while this one runs…'
      : resultsAre === 'previous'
        ? '· the previous run'
        : '';
  return (
    <div className="partition" data-testid="partition-editor" data-results={resultsAre}>
      <p className="tg-sub">
        <b>{firmwareNote(state)}</b> Drag a handler between the CPUs, or focus it and press{' '}
        <kbd>A</kbd>, <kbd>B</kbd>, <kbd>2</kbd> (both CPUs) or <kbd>0</kbd> (no CPU). Each move
        runs the simulation again.
      </p>
      <div className="pt-tools">
        <button
          type="button"
          className="btn btn-small"
          disabled={isTable34 && state.family === 'custom'}
          onClick={() => onPlaces([...table34])}
          data-testid="pt-table-3-4"
        >
          Table 3.4
        </button>
        <span className="muted small">
          Percentages on the chips: each handler&apos;s share of the handler time in the run on
          screen.
        </span>
      </div>
      <PartitionBoard
        places={state.places}
        locked={locked}
        shares={r.eventShares}
        utilization={r.utilization}
        onMove={onMove}
      />
      <div className="pt-below">
        <PartitionNotes places={state.places} errors={errors} shares={shares} />
        <PartitionSplit r={r} note={note} />
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Connected to the scenario page

export interface PartitionPanelProps {
  /** The overrides of the latest run (applied, running or refused). */
  requested: Overrides;
  /** The scenario's own values, path → value. */
  base: ReadonlyMap<string, unknown>;
  /** Effective values of the run on screen. */
  effective: ReadonlyMap<string, unknown>;
  /** The core's messages for the latest run, when it refused it. */
  errors: readonly ValidationError[];
  running: boolean;
  onRun: (overrides: Overrides) => void;
}

function sameOverrides(a: Readonly<Record<string, unknown>>, b: Overrides): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && a[k] === b[k]);
}

/** The core's messages the editor repeats: those about the Tigon's firmware and partition. */
function partitionErrors(errors: readonly ValidationError[]): ValidationError[] {
  return errors.filter((e) => e.path.startsWith('system.tigon.'));
}

export function PartitionPanel({
  requested,
  base,
  effective,
  errors,
  running,
  onRun,
}: PartitionPanelProps) {
  const run = useRun();
  const get = useMemo(
    () => requestedValue(requested, base, effective),
    [requested, base, effective],
  );
  const system = run?.output.system;
  const state = useMemo(() => partitionState(get, system), [get, system]);
  const table34 = useMemo(() => table34Places(system), [system]);
  const shares = useMemo(() => tigonShares(system), [system]);
  const resultsAre = running
    ? 'running'
    : run && sameOverrides(run.overrides, requested)
      ? 'current'
      : 'previous';
  const send = (next: Overrides) => {
    if (!sameOverrides(next, requested)) onRun(next);
  };
  return (
    <PartitionEditor
      state={state}
      results={run?.output.results ?? null}
      resultsAre={resultsAre}
      errors={partitionErrors(errors)}
      onMove={(event, to) => send(moveEvent(requested, base, state, event, to, get))}
      onPlaces={(places) => send(withPartition(requested, base, state, places, get))}
      table34={table34}
      shares={shares}
    />
  );
}

/** The editor as a panel of the scenario page, opened or closed by its heading. */
export function PartitionSection({
  defaultOpen,
  ...props
}: PartitionPanelProps & { defaultOpen: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const shown = useRun();
  return (
    <section
      className="panel panel-partition"
      aria-labelledby="h-partition"
      data-testid="partition-panel"
    >
      <h2 id="h-partition">
        <button
          type="button"
          className="pt-toggle"
          aria-expanded={open}
          aria-controls="pt-body"
          onClick={() => setOpen((o) => !o)}
          data-testid="pt-toggle"
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> Draw the partition yourself
        </button>
      </h2>
      {open && (
        <div id="pt-body">
          <ErrorBoundary name="partition editor" resetKey={shown}>
            <PartitionPanel {...props} />
          </ErrorBoundary>
        </div>
      )}
    </section>
  );
}
