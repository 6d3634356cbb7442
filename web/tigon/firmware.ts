// The Tigon's firmware as the trace records it, indexed once per run: each CPU's handler runs and
// semaphore spins, its event register over time, the SRAM load at each handler start, and the
// depths of the DMA and MAC queues. The firmware view is a pure function of this index, the
// effective parameters and the cursor time (D3 computes, React renders).
import { scaleLinear } from 'd3';
import { countUpTo, type Trace } from '../trace/trace';
import {
  DmaQueued,
  MacRxDone,
  MacRxTaken,
  MacTxQueued,
  MacTxStart,
  SramLoad,
  TigonHandler,
  TigonHandlerEnd,
  TigonRegister,
  TigonSemaphore,
  TigonSnapshot,
} from '../trace/records.gen';
import {
  C,
  K,
  TIGON_EVENTS,
  TIGON_PATHS,
  componentInstance,
  componentKind,
} from '../trace/traceKinds';
import type { EventCpu, SystemInfo } from '../engine/types';
import { formatTime, timeUnitFor } from '../kit/format';

export const TIGON_EVENT_COUNT = TIGON_EVENTS.length;
export const CPU_NAMES = ['A', 'B'] as const;

// ---------------------------------------------------------------------------------------------
// The firmware and where each event runs (the core's "system" block of the run's output)

/**
 * What the firmware in force does with the CPUs: one CPU only (RELEASE and its BSD port),
 * PARALLEL's fixed split, a custom partition, or dynamic dispatch.
 */
export type FirmwareFamily = 'single' | 'parallel' | 'custom' | 'dynamic' | 'unknown';

/** The family of a firmware the core describes (its name, whether CPU B runs, its dispatch). */
export function firmwareFamily(
  firmware: string | null,
  cpuB: boolean,
  dynamic: boolean,
): FirmwareFamily {
  if (firmware === null) return 'unknown';
  if (dynamic) return 'dynamic';
  if (!cpuB) return 'single';
  if (firmware === 'custom') return 'custom';
  if (firmware === 'parallel') return 'parallel';
  return 'unknown';
}

export type { EventCpu };

export interface TigonSetup {
  /** The NIC model is the Tigon. */
  tigon: boolean;
  /** The firmware's name as the core reports it ("parallel"), or null. */
  firmware: string | null;
  family: FirmwareFamily;
  /** CPU B runs firmware. */
  cpuB: boolean;
  /** Where each event's handler runs, index = event id. */
  eventCpu: EventCpu[];
  /** Each CPU's event mask before its first register record (the core's dispatch masks). */
  masks: [number, number];
}

/** The Tigon setup of a run, as the core built it. */
export function tigonSetup(system: SystemInfo | undefined): TigonSetup {
  const t = system?.tigon ?? null;
  const cpuB = t?.cpus[1]?.runs ?? false;
  const firmware = t?.firmware ?? null;
  return {
    tigon: system?.nic_model === 'tigon',
    firmware,
    family: firmwareFamily(firmware, cpuB, t?.dispatch === 'dynamic'),
    cpuB,
    eventCpu: t ? t.events.map((e) => e.cpu) : TIGON_EVENTS.map(() => 'none'),
    masks: [t?.cpus[0]?.mask ?? 0, t?.cpus[1]?.mask ?? 0],
  };
}

// ---------------------------------------------------------------------------------------------
// The index

export interface HandlerRun {
  cpu: number;
  event: number;
  path: number;
  packet: number;
  start: number;
  end: number;
  /** Record index of the TigonHandler record (or of the end record when the start is before the window). */
  rec: number;
  /** It began before the trace window: start is the window's start, not the handler's. */
  beforeWindow?: boolean;
}

export interface SpinSpan {
  cpu: number;
  event: number;
  start: number;
  end: number;
}

/** A value that changes at recorded times: value i holds from times[i] on. */
export interface Steps {
  times: Float64Array;
  values: number[];
}

export interface RegisterSteps {
  times: Float64Array;
  bits: number[];
  masks: number[];
}

export interface SramSample {
  time: number;
  /** 0..1 */
  utilization: number;
  waitPs: number;
  cpu: number;
}

export type QueueName = 'dmaRead' | 'dmaWrite' | 'macTx' | 'macRx';
export const QUEUE_NAMES: readonly QueueName[] = ['dmaRead', 'dmaWrite', 'macTx', 'macRx'];
export const QUEUE_LABELS: Record<QueueName, string> = {
  dmaRead: 'DMA read queue',
  dmaWrite: 'DMA write queue',
  macTx: 'MAC transmit queue',
  macRx: 'MAC receive queue',
};

export interface FirmwareIndex {
  windowStart: number;
  windowEnd: number;
  /** NIC instance the index is of. */
  nic: number;
  /** Handler runs per CPU, in start order. */
  runs: [HandlerRun[], HandlerRun[]];
  /** Start times per CPU (parallel to runs). */
  runStarts: [Float64Array, Float64Array];
  /** Semaphore spins per CPU, in start order. */
  spins: [SpinSpan[], SpinSpan[]];
  registers: [RegisterSteps, RegisterSteps];
  sram: SramSample[];
  sramTimes: Float64Array;
  queues: Record<QueueName, Steps>;
  /** Largest depth each queue reached in the window. */
  queueMax: Record<QueueName, number>;
  /** Any Tigon record (register, handler, semaphore) of each CPU. */
  cpuSeen: [boolean, boolean];
  /** Records of the Tigon (handlers, registers, semaphore, SRAM) in the window. */
  tigonRecords: number;
  /**
   * The window opened after the run's start: before a register's or queue's first record in the
   * window its state is unknown (at the run's start, registers and queues are empty).
   */
  midRun: boolean;
}

function steps(times: number[], values: number[]): Steps {
  return { times: Float64Array.from(times), values };
}

/**
 * Builds the index for one NIC (instance 0 unless told). A handler lasts until its
 * TigonHandlerEnd, or for its recorded duration when the window closes first; an end whose start
 * lies before the window opens a run at the window's start. A spin lasts from "spinning" until
 * the same CPU acquires the semaphore (or the window's end).
 */
export function firmwareIndex(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  nic = 0,
): FirmwareIndex {
  const runs: [HandlerRun[], HandlerRun[]] = [[], []];
  const spins: [SpinSpan[], SpinSpan[]] = [[], []];
  const open: [HandlerRun | null, HandlerRun | null] = [null, null];
  const openSpin: [SpinSpan | null, SpinSpan | null] = [null, null];
  const reg = [
    { t: [] as number[], bits: [] as number[], masks: [] as number[] },
    { t: [] as number[], bits: [] as number[], masks: [] as number[] },
  ];
  const sram: SramSample[] = [];
  const qt: Record<QueueName, number[]> = { dmaRead: [], dmaWrite: [], macTx: [], macRx: [] };
  const qv: Record<QueueName, number[]> = { dmaRead: [], dmaWrite: [], macTx: [], macRx: [] };
  const depth: Record<QueueName, number> = { dmaRead: 0, dmaWrite: 0, macTx: 0, macRx: 0 };
  // A queue's depth is known from the run's start, or from its first absolute record.
  const midRun = windowStart > 0;
  const known: Record<QueueName, boolean> = {
    dmaRead: !midRun,
    dmaWrite: !midRun,
    macTx: !midRun,
    macRx: !midRun,
  };
  const queueMax: Record<QueueName, number> = { dmaRead: 0, dmaWrite: 0, macTx: 0, macRx: 0 };
  const cpuSeen: [boolean, boolean] = [false, false];
  let tigonRecords = 0;

  const setQueue = (q: QueueName, t: number, v: number) => {
    known[q] = true;
    depth[q] = v;
    queueMax[q] = Math.max(queueMax[q], v);
    const times = qt[q];
    if (times.length && times[times.length - 1] === t) qv[q][qv[q].length - 1] = v;
    else {
      times.push(t);
      qv[q].push(v);
    }
  };
  const cpuOf = (v: number) => (v === 1 ? 1 : 0);

  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind[i]!;
    const comp = trace.component[i]!;
    if (componentInstance(comp) !== nic) continue;
    const t = trace.time[i]!;
    switch (kind) {
      case K.TigonRegister: {
        const cpu = cpuOf(TigonRegister.cpu(trace, i));
        const b = TigonRegister.eventBits(trace, i);
        const c = TigonRegister.maskBits(trace, i);
        cpuSeen[cpu] = true;
        tigonRecords++;
        const r = reg[cpu]!;
        if (r.t.length && r.t[r.t.length - 1] === t) {
          r.bits[r.bits.length - 1] = b;
          r.masks[r.masks.length - 1] = c;
        } else {
          r.t.push(t);
          r.bits.push(b);
          r.masks.push(c);
        }
        break;
      }
      case K.TigonHandler: {
        const cpu = cpuOf(TigonHandler.cpu(trace, i));
        cpuSeen[cpu] = true;
        tigonRecords++;
        const prev = open[cpu];
        if (prev) prev.end = Math.min(prev.end, t); // a lost end: the next start closes it
        const run: HandlerRun = {
          cpu,
          event: TigonHandler.event(trace, i),
          path: TigonHandler.path(trace, i),
          packet: TigonHandler.packet(trace, i),
          start: t,
          end: t + TigonHandler.durationPs(trace, i),
          rec: i,
        };
        runs[cpu].push(run);
        open[cpu] = run;
        break;
      }
      case K.TigonHandlerEnd: {
        const cpu = cpuOf(TigonHandlerEnd.cpu(trace, i));
        const event = TigonHandlerEnd.event(trace, i);
        cpuSeen[cpu] = true;
        tigonRecords++;
        const run = open[cpu];
        if (run && run.event === event) {
          run.end = t;
          open[cpu] = null;
        } else if (!run) {
          // Its start lies before the trace window.
          runs[cpu].push({
            cpu,
            event,
            path: TigonHandlerEnd.path(trace, i),
            packet: 0,
            start: Math.min(windowStart, t),
            end: t,
            rec: i,
            beforeWindow: true,
          });
        }
        break;
      }
      case K.TigonSemaphore: {
        const cpu = cpuOf(TigonSemaphore.cpu(trace, i));
        const op = TigonSemaphore.operation(trace, i);
        cpuSeen[cpu] = true;
        tigonRecords++;
        if (op === 0) {
          if (!openSpin[cpu]) {
            const event = TigonSemaphore.event(trace, i);
            const s: SpinSpan = { cpu, event, start: t, end: Infinity };
            spins[cpu].push(s);
            openSpin[cpu] = s;
          }
        } else if (op === 1) {
          const s = openSpin[cpu];
          if (s) {
            s.end = t;
            openSpin[cpu] = null;
          }
        }
        break;
      }
      case K.SramLoad:
        tigonRecords++;
        sram.push({
          time: t,
          utilization: SramLoad.utilisation(trace, i) / 1000,
          waitPs: SramLoad.waitPerAccessPs(trace, i),
          cpu: cpuOf(SramLoad.cpu(trace, i)),
        });
        break;
      case K.DmaQueued: {
        const ck = componentKind(comp);
        if (ck === C.DmaRead) setQueue('dmaRead', t, DmaQueued.queueDepth(trace, i));
        else if (ck === C.DmaWrite) setQueue('dmaWrite', t, DmaQueued.queueDepth(trace, i));
        break;
      }
      case K.DmaDone: {
        const ck = componentKind(comp);
        const q = ck === C.DmaRead ? 'dmaRead' : ck === C.DmaWrite ? 'dmaWrite' : null;
        // Only once the depth is known (a done request of a window opened mid-run is not).
        if (q && known[q]) setQueue(q, t, Math.max(0, depth[q] - 1));
        break;
      }
      case K.MacTxQueued:
        setQueue('macTx', t, MacTxQueued.macQueue(trace, i));
        break;
      case K.MacTxStart:
        setQueue('macTx', t, MacTxStart.macQueueLeft(trace, i));
        break;
      case K.MacRxDone:
        setQueue('macRx', t, MacRxDone.macQueue(trace, i));
        break;
      case K.MacRxTaken:
        setQueue('macRx', t, MacRxTaken.macQueue(trace, i));
        break;
      case K.TigonSnapshot:
        // The core records every queue as a window opens mid-run.
        setQueue('dmaRead', t, TigonSnapshot.dmaReadQueue(trace, i));
        setQueue('dmaWrite', t, TigonSnapshot.dmaWriteQueue(trace, i));
        setQueue('macTx', t, TigonSnapshot.macTransmitQueue(trace, i));
        setQueue('macRx', t, TigonSnapshot.macReceiveQueue(trace, i));
        break;
      default:
        break;
    }
  }
  for (const s of [...spins[0], ...spins[1]]) if (s.end === Infinity) s.end = windowEnd;
  for (const list of runs) list.sort((x, y) => x.start - y.start || x.rec - y.rec);

  const regSteps = reg.map((r) => ({
    times: Float64Array.from(r.t),
    bits: r.bits,
    masks: r.masks,
  })) as [RegisterSteps, RegisterSteps];
  return {
    windowStart,
    windowEnd,
    nic,
    runs,
    runStarts: [
      Float64Array.from(runs[0].map((r) => r.start)),
      Float64Array.from(runs[1].map((r) => r.start)),
    ],
    spins,
    registers: regSteps,
    sram,
    sramTimes: Float64Array.from(sram.map((s) => s.time)),
    queues: {
      dmaRead: steps(qt.dmaRead, qv.dmaRead),
      dmaWrite: steps(qt.dmaWrite, qv.dmaWrite),
      macTx: steps(qt.macTx, qv.macTx),
      macRx: steps(qt.macRx, qv.macRx),
    },
    queueMax,
    cpuSeen,
    tigonRecords,
    midRun,
  };
}

const cache = new WeakMap<Trace, FirmwareIndex>();

/** firmwareIndex of the first NIC, built once per trace and window. */
export function cachedFirmwareIndex(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
): FirmwareIndex {
  const hit = cache.get(trace);
  if (hit && hit.windowStart === windowStart && hit.windowEnd === windowEnd) return hit;
  const ix = firmwareIndex(trace, windowStart, windowEnd);
  cache.set(trace, ix);
  return ix;
}

// ---------------------------------------------------------------------------------------------
// State at the cursor

/** PRI: the most significant set bit (the event the dispatch loop takes next), or null. */
export function priPick(bits: number): number | null {
  for (let e = TIGON_EVENT_COUNT - 1; e >= 0; e--) if (bits & (1 << e)) return e;
  return null;
}

export interface RegisterCell {
  event: number;
  short: string;
  label: string;
  /** The event is pending and this CPU may handle it (its bit is set). */
  pending: boolean;
  /** Not in this CPU's mask: the CPU never handles the event. */
  masked: boolean;
  /** The bit PRI picks. */
  pick: boolean;
}

export interface RegisterState {
  cpu: number;
  /** A register record of this CPU lies at or before t. */
  known: boolean;
  /** Not known and the window opened mid-run: the register's bits are not known. */
  unknown: boolean;
  bits: number;
  mask: number;
  /** The event PRI picks, or null when nothing is pending. */
  pick: number | null;
  /** Cells from the highest bit (left, PRI's first look) to the lowest. */
  cells: RegisterCell[];
  /** Time of the last change at or before t (null when none). */
  since: number | null;
}

/**
 * A CPU's event register at time t: the last record at or before t. Before the first record
 * the register is empty; its mask (fixed for a run) comes from the CPU's first record, else from
 * the partition (`fallbackMask`).
 */
export function registerAt(
  ix: FirmwareIndex,
  cpu: number,
  t: number,
  fallbackMask = 0,
): RegisterState {
  const r = ix.registers[cpu === 1 ? 1 : 0];
  const i = countUpTo(r.times, t) - 1;
  const known = i >= 0;
  const bits = known ? r.bits[i]! : 0;
  const mask = known ? r.masks[i]! : r.masks.length ? r.masks[0]! : fallbackMask;
  const pick = priPick(bits);
  const cells: RegisterCell[] = [];
  for (let e = TIGON_EVENT_COUNT - 1; e >= 0; e--) {
    const ev = TIGON_EVENTS[e]!;
    cells.push({
      event: e,
      short: ev.short,
      label: ev.label,
      pending: (bits & (1 << e)) !== 0,
      masked: (mask & (1 << e)) === 0,
      pick: pick === e,
    });
  }
  return {
    cpu,
    known,
    unknown: !known && ix.midRun,
    bits,
    mask,
    pick,
    cells,
    since: known ? r.times[i]! : null,
  };
}

/** The handler running on a CPU at t (start <= t < end), or null. */
export function runningAt(ix: FirmwareIndex, cpu: number, t: number): HandlerRun | null {
  const c = cpu === 1 ? 1 : 0;
  const i = countUpTo(ix.runStarts[c], t) - 1;
  if (i < 0) return null;
  const r = ix.runs[c][i]!;
  return t < r.end ? r : null;
}

/** The semaphore spin of a CPU at t, or null. */
export function spinningAt(ix: FirmwareIndex, cpu: number, t: number): SpinSpan | null {
  for (const s of ix.spins[cpu === 1 ? 1 : 0]) {
    if (s.start > t) break;
    if (t < s.end) return s;
  }
  return null;
}

export interface CpuNow {
  cpu: number;
  state: 'running' | 'spinning' | 'idle';
  run: HandlerRun | null;
  spin: SpinSpan | null;
  /** One line for people: "Receive Complete (path Receive, packet 1): 2.1 of 6.8 µs". */
  text: string;
}

export function pathName(path: number): string {
  return TIGON_PATHS[path] ?? `path ${path}`;
}

export function cpuNow(ix: FirmwareIndex, cpu: number, t: number): CpuNow {
  const run = runningAt(ix, cpu, t);
  if (run) {
    const ev = TIGON_EVENTS[run.event];
    const name = ev?.label ?? `event ${run.event}`;
    const pkt = run.packet ? `, packet ${run.packet}` : '';
    return {
      cpu,
      state: 'running',
      run,
      spin: null,
      // A run begun before the window has no known start: say what is left, not "0 ps of …".
      text: run.beforeWindow
        ? `${name} (path ${pathName(run.path)}${pkt}): began before the trace window, ${formatTime(run.end - t, 2)} left`
        : `${name} (path ${pathName(run.path)}${pkt}): ${formatTime(t - run.start, 2)} of ${formatTime(run.end - run.start, 2)}`,
    };
  }
  const spin = spinningAt(ix, cpu, t);
  if (spin) {
    const ev = TIGON_EVENTS[spin.event];
    return {
      cpu,
      state: 'spinning',
      run: null,
      spin,
      text: `spinning on the semaphore for ${ev?.label ?? `event ${spin.event}`} (${formatTime(t - spin.start, 2)} so far)`,
    };
  }
  return { cpu, state: 'idle', run: null, spin: null, text: 'idle: in the dispatch loop' };
}

export interface QueueState {
  name: QueueName;
  label: string;
  /** Requests or frames waiting; null when not known (the window opened mid-run). */
  depth: number | null;
  /** Largest depth in the window (the meter's scale uses it when no capacity is known). */
  max: number;
}

function stepAt(s: Steps, t: number, before: number | null): number | null {
  const i = countUpTo(s.times, t) - 1;
  return i >= 0 ? s.values[i]! : before;
}

/**
 * Depth of each queue at t. Before its first record a queue is empty when the window opened at
 * the run's start, and unknown (null) when it opened mid-run.
 */
export function queuesAt(ix: FirmwareIndex, t: number): QueueState[] {
  return QUEUE_NAMES.map((q) => ({
    name: q,
    label: QUEUE_LABELS[q],
    depth: stepAt(ix.queues[q], t, ix.midRun ? null : 0),
    max: ix.queueMax[q],
  }));
}

/** The SRAM's load as of the last handler start at or before t, or null. */
export function sramAt(ix: FirmwareIndex, t: number): SramSample | null {
  const i = countUpTo(ix.sramTimes, t) - 1;
  return i >= 0 ? ix.sram[i]! : null;
}

/**
 * The SRAM meter's note. A sample is taken as a handler starts, so with none yet a CPU that is
 * running must have started before the trace window opened: say so rather than "none started".
 */
export function sramNote(sample: SramSample | null, running: readonly CpuNow[]): string {
  if (sample)
    return `As CPU ${CPU_NAMES[sample.cpu] ?? sample.cpu} started a handler at ${formatTime(sample.time)}.`;
  const busy = running.filter((c) => c.state === 'running');
  if (busy.length === 0) return 'No handler has started in the trace window yet.';
  const who = busy.map((c) => `CPU ${CPU_NAMES[c.cpu] ?? c.cpu}`).join(' and ');
  return `No sample yet: one is taken as a handler starts, and ${who} started ${busy.length > 1 ? 'their handlers' : 'its handler'} before the trace window opened.`;
}

/** Start of the next handler run (either CPU) strictly after t, or null. */
export function nextHandlerStart(ix: FirmwareIndex, t: number): number | null {
  let best: number | null = null;
  for (const starts of ix.runStarts) {
    const i = countUpTo(starts, t);
    if (i < starts.length && (best === null || starts[i]! < best)) best = starts[i]!;
  }
  return best;
}

/** Start of the last handler run (either CPU) strictly before t, or null. */
export function prevHandlerStart(ix: FirmwareIndex, t: number): number | null {
  let best: number | null = null;
  for (const starts of ix.runStarts) {
    let i = countUpTo(starts, t) - 1;
    while (i >= 0 && starts[i]! >= t) i--;
    if (i >= 0 && (best === null || starts[i]! > best)) best = starts[i]!;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// The lanes: handler runs and spins placed on a time axis

export interface LaneBar {
  x0: number;
  x1: number;
  event: number;
  /** Runs merged into this bar (runs of one event closer than a pixel are drawn as one). */
  count: number;
  /** The first run of the bar. */
  run: HandlerRun;
  /** Time covered by handlers in the bar (for its title). */
  busy: number;
  /** Wide enough to carry the event's short name. */
  labelled: boolean;
}

export interface LaneModel {
  cpu: number;
  bars: LaneBar[];
  spins: Array<{ x0: number; x1: number; span: SpinSpan }>;
}

export type TickAnchor = 'start' | 'middle' | 'end';

export interface LanesModel {
  t0: number;
  t1: number;
  width: number;
  /** Picoseconds → x. */
  x: (t: number) => number;
  /** Time at x (for clicks). */
  invert: (x: number) => number;
  ticks: Array<{ x: number; label: string; anchor: TickAnchor }>;
  unit: string;
  lanes: LaneModel[];
}

/** Minimum drawn width of a run, px, so that a short handler is still seen. */
export const MIN_BAR_PX = 1.5;
/** Width from which a bar carries its event's short name, px. */
export const LABEL_MIN_PX = 34;

/** Places the runs of the given CPUs between t0 and t1 on `width` pixels. */
export function lanesModel(
  ix: FirmwareIndex,
  cpus: readonly number[],
  t0: number,
  t1: number,
  width: number,
): LanesModel {
  const span = Math.max(1, t1 - t0);
  const scale = scaleLinear()
    .domain([t0, t0 + span])
    .range([0, width]);
  const { scale: us, unit } = timeUnitFor(span);
  // Labels at the ends are anchored inwards so that they stay inside the plot.
  const ticks = scale.ticks(Math.max(2, Math.floor(width / 90))).map((v) => {
    const x = scale(v);
    const anchor: TickAnchor = x < 24 ? 'start' : x > width - 24 ? 'end' : 'middle';
    return { x, label: `${+(v / us).toFixed(3)}`, anchor };
  });
  const lanes = cpus.map((cpu): LaneModel => {
    const bars: LaneBar[] = [];
    const c = cpu === 1 ? 1 : 0;
    const list = ix.runs[c];
    // A CPU runs one handler at a time: only the run before t0 can reach into the view.
    for (let i = Math.max(0, countUpTo(ix.runStarts[c], t0) - 1); i < list.length; i++) {
      const run = list[i]!;
      if (run.start > t1) break;
      if (run.end < t0) continue;
      const x0 = scale(Math.max(t0, run.start));
      const x1 = Math.max(x0 + MIN_BAR_PX, scale(Math.min(t1, run.end)));
      const last = bars[bars.length - 1];
      if (last && last.event === run.event && x0 - last.x1 < 1) {
        last.x1 = Math.max(last.x1, x1);
        last.count++;
        last.busy += run.end - run.start;
        last.labelled = last.x1 - last.x0 >= LABEL_MIN_PX;
        continue;
      }
      bars.push({
        x0,
        x1,
        event: run.event,
        count: 1,
        run,
        busy: run.end - run.start,
        labelled: x1 - x0 >= LABEL_MIN_PX,
      });
    }
    const spins = ix.spins[c]
      .filter((s) => s.end >= t0 && s.start <= t1)
      .map((s) => {
        const x0 = scale(Math.max(t0, s.start));
        return { x0, x1: Math.max(x0 + MIN_BAR_PX, scale(Math.min(t1, s.end))), span: s };
      });
    return { cpu, bars, spins };
  });
  return {
    t0,
    t1: t0 + span,
    width,
    x: (t) => scale(t),
    invert: (x) => scale.invert(x),
    ticks,
    unit,
    lanes,
  };
}
