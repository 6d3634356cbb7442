// The scenario page's one store: run output, decoded trace and playback cursor. Views read it
// through selectors; only the playback controls and the event log write the cursor.
//
// `run` is the state of the latest request (running, rejected, failed, done); `shown` is the
// last finished run, which the views keep showing while a new run computes or after the core
// rejects a change, so the page never blanks and the cursor is never lost.
import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { ParameterSpec, RunOutput, SweepEntry, ValidationError } from '../engine/types';
import type { Trace } from '../trace/trace';
import { nextEventTime, prevEventTime } from '../trace/trace';
import { traceIndex, type TraceIndex } from '../trace/traceIndex';
import type { ParsedLog } from '../webserver';
import { INITIAL_NAV_STATE, navNote, playInput, playStep, type NavState } from './breakpoints';
import { afterNextPaint } from '../kit/afterPaint';
import { prefersReducedMotion } from '../kit/motion';

export type RunState =
  | { status: 'idle' }
  | { status: 'running'; startedAt: number }
  | { status: 'invalid'; errors: ValidationError[] }
  | { status: 'failed'; message: string; code: string }
  | DoneRun;

export interface DoneRun {
  status: 'done';
  output: RunOutput;
  trace: Trace;
  index: TraceIndex;
  elapsedMs: number;
  /** Kind/component lists reported by the engine (to check the TS mirror). */
  kindNames: string[];
  componentNames: string[];
  /** Parameter specs (unit, description, origin) from the engine. */
  parameterInfo: ParameterSpec[];
  /** True when the data is the built-in fixture because the engine is not built (dev only). */
  demo: boolean;
  /** The overrides object this run was made with ({} for the scenario as written). */
  overrides: Record<string, unknown>;
  /**
   * While the sweep's points still run (the main run is shown first): how many are in. The
   * output then holds the entries so far, in sweep order, and no checks (output.pending says
   * how many wait); absent once the document is complete.
   */
  sweepProgress?: SweepProgress;
}

export interface SweepProgress {
  done: number;
  total: number;
}

/** Whether a run's document is complete (sweep and checks in). */
export function isComplete(r: DoneRun): boolean {
  return r.sweepProgress === undefined;
}

export interface PlaybackState {
  /** Simulated time of the cursor, ps. */
  cursor: number;
  playing: boolean;
  /** Simulated picoseconds per wall-clock second. */
  speed: number;
}

/** An access log the user opened ("bring your own log"), parsed and accepted. */
export interface LoadedLog {
  name: string;
  size: number;
  parsed: ParsedLog;
}

/** The latest attempt to open an access log. */
export type LogAttempt =
  | { status: 'none' }
  | { status: 'reading'; name: string; size: number; fraction: number }
  | { status: 'loaded'; name: string }
  /** Refused (empty, binary, no usable line): the report says why; the previous log stays. */
  | { status: 'refused'; name: string; size: number; parsed: ParsedLog }
  | { status: 'cancelled'; name: string }
  | { status: 'failed'; name: string; message: string };

export interface LogState {
  /** The log the runs replay (workload.trace "log"). Kept in this tab, never in a link. */
  current: LoadedLog | null;
  attempt: LogAttempt;
}

/**
 * What the viewer has arranged on the page, as a link restores it: the open views, the
 * tour step, presenter mode, and what is highlighted. None of it changes a run.
 */
export interface ViewState {
  /** The views open on the page, in order; null = the scenario's own list. */
  views: string[] | null;
  /** The guided tour's current step (0-based), or null when no tour is running. */
  tourStep: number | null;
  /** Presenter mode: large type, high contrast, clutter hidden. */
  presenter: boolean;
  /** Parts of the machine to highlight (component names as the core spells them). */
  highlight: string[];
  /** The packet the inspector shows, or null. */
  packet: number | null;
}

export const INITIAL_VIEW_STATE: ViewState = {
  views: null,
  tourStep: null,
  presenter: false,
  highlight: [],
  packet: null,
};

export interface State {
  run: RunState;
  /** The last finished run: what the views show (kept while a new run computes or fails). */
  shown: DoneRun | null;
  playback: PlaybackState;
  log: LogState;
  ui: ViewState;
  /** Step-to-kind, breakpoints and idle collapsing (web/run/breakpoints.ts). */
  nav: NavState;
  /** The sweep entries in so far while the shown run's sweep runs (see sweepOf). */
  sweep: SweepLive | null;
}

export interface SweepLive extends SweepProgress {
  entries: SweepEntry[];
}

export const SPEED_MIN = 1e3; // 1 ns/s
export const SPEED_MAX = 1e9; // 1 ms/s
export const DEFAULT_SPEED = 1e6; // 1 µs/s

export type Listener = () => void;

/** A 1-2-5 playback speed that shows a trace window in about a minute. */
export function defaultSpeedFor(windowPs: number): number {
  const target = Math.min(SPEED_MAX, Math.max(SPEED_MIN, windowPs / 60));
  const decade = 10 ** Math.floor(Math.log10(target));
  const steps = [1, 2, 5, 10].map((m) => m * decade);
  return steps.reduce((best, v) =>
    Math.abs(Math.log(v / target)) < Math.abs(Math.log(best / target)) ? v : best,
  );
}

export class Store {
  private state: State;
  private listeners = new Set<Listener>();
  private speedTouched = false;

  constructor(initial?: Partial<State>) {
    this.state = {
      run: { status: 'idle' },
      shown: null,
      playback: { cursor: 0, playing: false, speed: DEFAULT_SPEED },
      log: { current: null, attempt: { status: 'none' } },
      ui: INITIAL_VIEW_STATE,
      nav: INITIAL_NAV_STATE,
      sweep: null,
      ...initial,
    };
  }

  getState = (): State => this.state;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(next: State): void {
    if (next === this.state) return;
    this.state = next;
    for (const l of [...this.listeners]) l();
  }

  setRun(run: RunState): void {
    const pb = this.state.playback;
    if (run.status !== 'done') {
      // Running, rejected or failed: the previous run stays on screen with its cursor.
      this.set({ ...this.state, run });
      return;
    }
    const start = run.output.trace.start_ps;
    const end = Math.max(start, windowEnd(run));
    // A re-run keeps the cursor where it was (inside the new window); a first run starts at the
    // window's start.
    const cursor = this.state.shown ? Math.min(end, Math.max(start, pb.cursor)) : start;
    const speed = !this.speedTouched ? defaultSpeedFor(run.output.trace.end_ps - start) : pb.speed;
    this.back = [];
    this.set({
      ...this.state,
      run,
      shown: run,
      sweep: null,
      playback: { ...pb, cursor, speed, playing: false },
    });
  }

  /**
   * The shown run's sweep entries so far (in sweep order), while its sweep runs. They go to
   * `sweep`, not into the shown run, so that only the views of the sweep draw again.
   */
  setSweepProgress(entries: SweepEntry[], progress: SweepProgress): void {
    if (!this.state.shown?.sweepProgress) return;
    this.set({ ...this.state, sweep: { entries, ...progress } });
  }

  /** The shown run's complete document (every sweep point, the checks). */
  completeRun(output: RunOutput, elapsedMs: number): void {
    const { run, shown: r } = this.state;
    if (!r?.sweepProgress) return;
    const next: DoneRun = { ...r, output, elapsedMs, sweepProgress: undefined };
    this.set({ ...this.state, shown: next, run: run === r ? next : run, sweep: null });
  }

  /** Trace window [start, end] of the current run, or null. */
  window(): { start: number; end: number } | null {
    const r = this.state.shown;
    if (!r) return null;
    const start = r.output.trace.start_ps;
    return { start, end: Math.max(windowEnd(r), start) };
  }

  setCursor(t: number): void {
    const w = this.window();
    const c = w ? Math.min(w.end, Math.max(w.start, t)) : t;
    const pb = this.state.playback;
    if (c === pb.cursor) return;
    this.set({ ...this.state, playback: { ...pb, cursor: c } });
  }

  setPlaying(playing: boolean): void {
    const pb = this.state.playback;
    const w = this.window();
    if (!w) return;
    let cursor = Math.min(w.end, Math.max(w.start, pb.cursor));
    // Play from the end starts again from the beginning.
    if (playing && cursor >= w.end) cursor = w.start;
    this.set({ ...this.state, playback: { ...pb, playing, cursor } });
  }

  /**
   * Starts playback on the app's own initiative (a tour step, a link), never the viewer's: not
   * when they asked for reduced motion. Returns whether it started.
   */
  autoPlay(): boolean {
    if (prefersReducedMotion()) return false;
    this.setPlaying(true);
    return this.state.playback.playing;
  }

  setSpeed(speed: number): void {
    this.speedTouched = true;
    const s = Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed));
    this.set({ ...this.state, playback: { ...this.state.playback, speed: s } });
  }

  /**
   * Advances the cursor by wall-clock milliseconds at the current speed (playback tick); stops
   * on an armed breakpoint and collapses idle stretches when asked (model/breakpoints.ts).
   */
  tick(wallMs: number): void {
    const pb = this.state.playback;
    const w = this.window();
    const r = this.state.shown;
    if (!pb.playing || !w || !r) return;
    const nav = this.state.nav;
    const step = playStep(playInput(r, nav, w), pb.cursor, (wallMs / 1000) * pb.speed);
    const note = navNote(step, nav.note);
    this.set({
      ...this.state,
      playback: { ...pb, cursor: step.cursor, playing: !step.stop && !step.ended },
      nav: note === nav.note ? nav : { ...nav, note },
    });
  }

  /** Changes the navigation settings (kind to step to, breakpoints, idle collapsing, note). */
  setNav(patch: Partial<NavState>): void {
    this.set({ ...this.state, nav: { ...this.state.nav, ...patch } });
  }

  // Where each forward step started, so Back returns exactly there (even from between events).
  private back: Array<{ from: number; to: number }> = [];

  /** Pauses and moves the cursor forward to t; stepBack() then returns to where it was. */
  forwardTo(t: number): void {
    const from = this.state.playback.cursor;
    if (this.state.playback.playing)
      this.set({ ...this.state, playback: { ...this.state.playback, playing: false } });
    this.setCursor(t);
    const to = this.state.playback.cursor;
    if (to > from) {
      this.back.push({ from, to });
      if (this.back.length > 1000) this.back.shift();
    }
  }

  /** Progress or outcome of opening a log; the log on use and the runs are not touched. */
  setLogAttempt(attempt: LogAttempt): void {
    this.set({ ...this.state, log: { ...this.state.log, attempt } });
  }

  /** A log accepted for the runs (also remembered for other pages of this tab). */
  setAccessLog(log: LoadedLog | null): void {
    tabLog = log;
    const attempt: LogAttempt = log ? { status: 'loaded', name: log.name } : { status: 'none' };
    this.set({ ...this.state, log: { current: log, attempt } });
  }

  /** Changes what the viewer has arranged (open views, tour step, presenter mode, highlight). */
  setUi(patch: Partial<ViewState>): void {
    this.set({ ...this.state, ui: { ...this.state.ui, ...patch } });
  }

  stepForward(): void {
    const r = this.state.shown;
    if (!r) return;
    const t = nextEventTime(r.trace, this.state.playback.cursor);
    if (t !== null) this.forwardTo(t);
    else this.set({ ...this.state, playback: { ...this.state.playback, playing: false } });
  }

  /** Undoes the last forward step exactly; otherwise goes to the previous event. */
  stepBack(): void {
    const r = this.state.shown;
    if (!r) return;
    const cursor = this.state.playback.cursor;
    const last = this.back.pop();
    if (last && last.to !== cursor) this.back = [];
    const t = last && last.to === cursor ? last.from : prevEventTime(r.trace, cursor);
    this.set({ ...this.state, playback: { ...this.state.playback, playing: false } });
    if (t !== null) this.setCursor(t);
  }
}

// The last log accepted in this tab: a page opened later starts with it. Never stored
// elsewhere (sessionStorage or the link): a log may be large and private.
let tabLog: LoadedLog | null = null;

/** The log state a new scenario page starts with: the tab's last log, nothing being read. */
export function initialLogState(): LogState {
  return { current: tabLog, attempt: { status: 'none' } };
}

/** End of the recorded window: the declared end, or the last record when that lies later. */
function windowEnd(r: DoneRun): number {
  let end = r.output.trace.end_ps;
  if (r.trace.length && r.trace.time[r.trace.length - 1]! > end)
    end = r.trace.time[r.trace.length - 1]!;
  return end;
}

export function doneState(
  output: RunOutput,
  trace: Trace,
  extra: {
    elapsedMs?: number;
    kindNames?: string[];
    componentNames?: string[];
    parameterInfo?: ParameterSpec[];
    demo?: boolean;
    overrides?: Record<string, unknown>;
    sweepProgress?: SweepProgress;
  } = {},
): DoneRun {
  return {
    ...(extra.sweepProgress ? { sweepProgress: extra.sweepProgress } : {}),
    status: 'done',
    output,
    trace,
    index: traceIndex(trace, output.trace.start_ps, output.trace.end_ps),
    elapsedMs: extra.elapsedMs ?? 0,
    kindNames: extra.kindNames ?? [],
    componentNames: extra.componentNames ?? [],
    parameterInfo: extra.parameterInfo ?? [],
    demo: extra.demo ?? false,
    overrides: extra.overrides ?? {},
  };
}

export const StoreContext = createContext<Store | null>(null);

export function useStoreInstance(): Store {
  const s = useContext(StoreContext);
  if (!s) throw new Error('no scenario store in context');
  return s;
}

export function useStore<T>(selector: (s: State) => T): T {
  const store = useStoreInstance();
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.getState()),
    () => selector(store.getState()),
  );
}

/**
 * The shown run's sweep progress (points in, of how many) while its sweep runs, else null.
 */
export function useSweepProgress(): SweepProgress | null {
  return useStore(progressOf);
}

const progressOf = (s: State): SweepProgress | null => {
  const p = s.shown?.sweepProgress;
  if (!p) return null;
  return s.sweep ?? p;
};

/**
 * The shown run's output with the sweep entries in so far while its sweep runs (the views of
 * the sweep read this; the shown run itself keeps the main run's empty sweep until the end).
 */
export function useSweepOutput(): RunOutput | null {
  const run = useStore((s) => s.shown);
  const live = useStore((s) => (s.shown?.sweepProgress ? s.sweep : null));
  return useMemo(() => {
    if (!run) return null;
    return live ? { ...run.output, sweep: live.entries } : run.output;
  }, [run, live]);
}

/**
 * The run the views show: the last finished one (kept while re-running or after a rejection).
 * A view out of sight takes a new run once the frame with the views in sight has been drawn:
 * a new answer reaches the screen without waiting for panels nobody sees yet.
 */
export function useRun(): DoneRun | null {
  const run = useStore((s) => s.shown);
  const visible = useContext(ViewVisibleContext);
  const [late, setLate] = useState(run);
  // In sight, it follows at once (and is current when the view scrolls away).
  if (visible && late !== run) setLate(run);
  useEffect(() => {
    if (late === run || visible) return;
    return afterNextPaint(() => setLate(run));
  }, [run, late, visible]);
  return visible ? run : late;
}

export function useCursor(): number {
  return useStore((s) => s.playback.cursor);
}

/**
 * Whether the view around a component is on screen (an IntersectionObserver on its panel sets
 * it; true where no panel says otherwise, as on the A/B page and in tests).
 */
export const ViewVisibleContext = createContext(true);

/**
 * useStore for a view's own drawing: while playback runs and the view is scrolled out of sight
 * it keeps the value it last drew, so it does not re-render with every frame; back on screen, or
 * once playback stops (a step, a scrub), it catches up with the store.
 */
export function useViewStore<T>(selector: (s: State) => T): T {
  const store = useStoreInstance();
  const visible = useContext(ViewVisibleContext);
  const last = useRef<{ v: T } | null>(null);
  const get = (): T => {
    const s = store.getState();
    if (visible || !s.playback.playing || last.current === null) last.current = { v: selector(s) };
    return last.current.v;
  };
  return useSyncExternalStore(store.subscribe, get, get);
}

/** The playback cursor as a view draws it (frozen while the view is out of sight). */
export function useViewCursor(): number {
  return useViewStore(cursorOf);
}

const cursorOf = (s: State): number => s.playback.cursor;

/**
 * How long an instantaneous event (interrupt, drop, ring full) stays visible, in simulated ps:
 * about 0.6 s of wall time at the current speed, so it is seen at any speed.
 */
export function holdFor(speed: number): number {
  return 0.6 * speed;
}
