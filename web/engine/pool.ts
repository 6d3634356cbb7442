// A pool of engine workers, one per core (navigator.hardwareConcurrency, at least one), each
// with its own instance of the WebAssembly core. A run is the core's run() in its three steps
// (core-cpp/api/api.hpp): the main run first, reported at once; its sweep points spread over the
// workers as they free (while the main run computes, all but one of the others start on the first
// points: a core stays with the page), the points that share what the core builds first (a web
// trace) kept with the worker that has it (choosePoint); then
// finish() puts the document together with the checks, byte-identical to run().
// A new run, cancel() or dispose() stops everything in flight: busy workers are terminated (a
// run inside WebAssembly cannot be interrupted) and started again from the compiled module.
import { EngineError, type RunResult, type RunSuccess } from './client';
import { compiledCore, newEngineWorker, takeEarlyWorker } from './compile';
import { defaultPoolSize } from './poolSize';
import type { AccessLogRequests, EngineInfo, Request, Response, RunLog } from './protocol';
import type { RunOutput, SweepEntry, ValidationError } from './types';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** One engine instance: a worker in the browser, a core loaded in Node in the tests. */
export interface EngineSlot {
  request(req: WithoutId<Request>, transfer?: Transferable[]): Promise<Response>;
  terminate(): void;
}

export type SlotFactory = () => EngineSlot;

/** A worker that gets the module compiled on this thread as its first message. */
class WorkerSlot implements EngineSlot {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private nextId = 1;
  private pending = new Map<
    number,
    { resolve: (r: Response) => void; reject: (e: Error) => void }
  >();

  /** `early`: a worker index.html's inline script started (earlyCorePlugin.ts), else a new one. */
  constructor(module: Promise<WebAssembly.Module | null>, early: Worker | null = null) {
    this.worker = early ?? newEngineWorker();
    this.worker.onmessage = (ev: MessageEvent<Response>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      this.pending.delete(ev.data.id);
      p.resolve(ev.data);
    };
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.fail(new EngineError(ev.message || 'the engine worker crashed', 'worker-crashed'));
    };
    this.ready = module.then((m) => {
      if (m) this.worker.postMessage({ type: 'init', module: m });
    });
  }

  private fail(reason: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(reason);
  }

  async request(req: WithoutId<Request>, transfer: Transferable[] = []): Promise<Response> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id } as Request, transfer);
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.fail(new EngineError('cancelled', 'cancelled'));
  }
}

export const workerSlots: SlotFactory = () => new WorkerSlot(compiledCore(), takeEarlyWorker());

/** What a run reports before it ends. */
export interface RunProgress {
  /** The core took the scenario and overrides (a refused value ends the run instead). */
  onAccepted?(): void;
  /** The main run: its document has an empty sweep and `pending` lists the `total` points. */
  onMain?(main: RunSuccess, total: number): void;
  /** Sweep entry `index` is in; `done` of `total` are. */
  onPoint?(index: number, entry: SweepEntry, done: number, total: number): void;
}

/** A finished run; `text` is the document as the core wrote it. */
export type PoolRunResult = (RunSuccess & { text: string }) | Extract<RunResult, { ok: false }>;

interface Slot {
  engine: EngineSlot;
  busy: boolean;
  dead: boolean;
  /** The key of the access log this instance holds (null: none). */
  logKey: number | null;
  /** What the core built in this instance and keeps (its setup keys), most recent last. */
  setups: string[];
}

// chosen: the core's trace cache keeps up to 4 M requests, ten of the presets' generated traces;
// past this many the oldest key is most likely gone from the instance too.
const SETUPS_KEPT = 8;

/** `s` has built `setup` (a core's setup key; "" is none) and keeps it. */
function holds(s: Slot, setup: string | undefined): void {
  if (!setup) return;
  const i = s.setups.indexOf(setup);
  if (i >= 0) s.setups.splice(i, 1);
  s.setups.push(setup);
  if (s.setups.length > SETUPS_KEPT) s.setups.shift();
}

/**
 * The sweep point an idle instance takes of those still open (indices, in order), given what
 * each point's run builds first (`setups`, the core's keys by index), what the instance keeps
 * (`mine`), what the other instances keep or are building (`others`) and, of those, what the
 * idle ones keep (`idleOthers`): a point whose setup it keeps; else one that needs none; else one
 * whose setup no instance has; else, rather than leave a core idle, the last point of the setup
 * with the most points open among those only busy instances keep (their holders go on from the
 * front; an idle holder takes its own). So a web sweep over traces generates each trace about
 * once, not once per instance, and a core waits only for points an idle instance is about to
 * take. Undefined: none for this instance now.
 */
export function choosePoint(
  open: readonly number[],
  setups: readonly string[] | undefined,
  mine: readonly string[],
  others: readonly string[],
  idleOthers: readonly string[] = [],
): number | undefined {
  if (!setups) return open[0];
  const key = (i: number) => setups[i] ?? '';
  const kept = open.find((i) => key(i) !== '' && mine.includes(key(i)));
  if (kept !== undefined) return kept;
  const none = open.find((i) => key(i) === '');
  if (none !== undefined) return none;
  const fresh = open.find((i) => !others.includes(key(i)));
  if (fresh !== undefined) return fresh;
  const count = new Map<string, number>();
  for (const i of open) {
    if (!idleOthers.includes(key(i))) count.set(key(i), (count.get(key(i)) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [k, n] of count) if (best === null || n > count.get(best)!) best = k;
  return best === null ? undefined : open.filter((i) => key(i) === best).at(-1);
}

interface Job {
  settled: boolean;
  reject: (e: Error) => void;
}

/** A main run started before anything asked for it (prestart), with the reply to come. */
interface Early {
  scenario: string;
  overrides: string;
  slot: Slot;
  reply: Promise<Response>;
}

/** A main run asked for ahead of time (prefetch), with its check and reply to come. */
interface Ahead {
  slot: Slot;
  checked: Promise<Response>;
  reply: Promise<Response>;
}

/** Where a run's main answer came from (the `nicsim:answer` mark's detail, for the benches). */
export type AnswerSource = 'computed' | 'prestarted' | 'prefetched' | 'remembered';

/**
 * Chosen: main runs remembered per pool. The core is deterministic, so a reply is the answer to
 * its scenario and overrides for good; 16 of them at most 64 MB of trace covers going back and
 * forth over a knob's neighbourhood.
 */
const REMEMBERED = 16;
const REMEMBERED_TRACE_BYTES = 64 << 20;

export class EnginePool {
  private slots: Slot[] = [];
  private job: Job | null = null;
  private early: Early | null = null;
  private logKeys = new WeakMap<AccessLogRequests, number>();
  private nextLogKey = 1;
  /**
   * The instance of the last main run: the next main run goes there, where the core keeps the
   * warm-up of the same trace and caches (the web server's warm state) and need not redo it.
   */
  private home: Slot | null = null;
  /** Main runs' replies by runKey(), most recent last; `ahead`: one asked for ahead of time. */
  private remembered = new Map<string, { reply: MainReply; ahead: boolean }>();
  /** Main runs asked for ahead of time, in flight, by runKey(). */
  private ahead = new Map<string, Ahead>();
  /** Main runs to ask for ahead of time once instances are free. */
  private wanted: { scenario: string; overrides: string }[] = [];
  /**
   * What the core says about itself (fixed by its build, so any instance's answer), asked once.
   * A fresh instance's first parameterInfo() costs tens of ms in wasm: asked of another
   * instance while the first main run computes, the main run's answer does not wait for it.
   */
  private engineInfo: Promise<EngineInfo> | null = null;

  constructor(
    readonly size: number = defaultPoolSize(),
    private readonly factory: SlotFactory = workerSlots,
  ) {}

  /**
   * Whether the info is (or will be) at hand without the main run on `runs` bringing it: asks
   * an idle instance other than `runs` for it the first time.
   */
  private infoAside(runs: Slot): boolean {
    if (this.engineInfo) return true;
    const other = this.idle().find((s) => s !== runs);
    if (!other) return false;
    const asked = askInfo(other);
    this.engineInfo = asked;
    // An instance stopped before it answered: ask again when next needed.
    asked.catch(() => {
      if (this.engineInfo === asked) this.engineInfo = null;
    });
    return true;
  }

  /** The engine's info for a main run's reply (its own, when it brought it). */
  private async infoOf(r: MainReply): Promise<EngineInfo> {
    if (r.info) {
      this.engineInfo ??= Promise.resolve(r.info);
      return r.info;
    }
    try {
      if (this.engineInfo) return await this.engineInfo;
    } catch {
      // asked of an instance stopped since: ask one that runs
    }
    const info = await askInfo(this.idle()[0] ?? this.slots[0]!);
    this.engineInfo = Promise.resolve(info);
    return info;
  }

  /** Idle instances, starting new ones up to the pool's size. */
  private idle(): Slot[] {
    this.slots = this.slots.filter((s) => !s.dead);
    while (this.slots.length < this.size) {
      this.slots.push({
        engine: this.factory(),
        busy: false,
        dead: false,
        logKey: null,
        setups: [],
      });
    }
    return this.slots.filter((s) => !s.busy);
  }

  /** Terminates the busy instances but `keep` (the idle ones stay, with their log). */
  private stopBusy(keep?: Slot): void {
    for (const s of this.slots) {
      if (!s.busy || s === keep) continue;
      s.dead = true;
      s.engine.terminate();
    }
    this.slots = this.slots.filter((s) => !s.dead);
  }

  private logKey(log: AccessLogRequests): number {
    let key = this.logKeys.get(log);
    if (key === undefined) {
      key = this.nextLogKey++;
      this.logKeys.set(log, key);
    }
    return key;
  }

  /**
   * Starts the main run of a scenario without overrides or log before the page that shows it
   * is loaded: a run() of the same scenario then takes its reply instead of starting again.
   * Does nothing while a run is in flight.
   */
  prestart(scenario: string): void {
    if (this.job || this.early) return;
    const s = this.idle()[0];
    if (!s) return;
    s.busy = true;
    s.logKey = null;
    const reply = s.engine
      .request({ type: 'run-main', scenario, overrides: '{}', withInfo: !this.infoAside(s) })
      .finally(() => {
        s.busy = false;
      });
    reply.catch(() => {}); // a cancelled prestart that no run took
    this.early = { scenario, overrides: '{}', slot: s, reply };
  }

  /**
   * Starts the pool's instances without a run, for a page whose first run waits for the viewer
   * (an access log to replay): they load the core meanwhile, and the run starts on them at once.
   */
  warm(): void {
    this.idle();
  }

  /**
   * Readies the pool for a run that waits for the viewer (an access log to replay), while the
   * viewer picks one: on the instance the run will take, the core checks the scenario and runs
   * its main run once on a made-up log of a few requests, whose answer is dropped; another
   * instance is asked for the engine's info. A fresh module's first run is its slowest: the
   * core's functions compile on their first call (once for every instance of the module), and
   * the web server's path is most of them. Measured in headless Chromium here, the main run of
   * web-access-log's 2,000-line bench log took 110-140 ms cold, and in Node 85-95 ms cold
   * against 4 ms after such a run. Queued on the instance, not marked busy: a run asked for
   * meanwhile waits for it rather than stopping its instance (and compiling all again).
   */
  warmUp(scenario: string, overrides: Record<string, unknown> = {}): void {
    if (this.job || this.early) return;
    const s = this.homeSlot();
    const ov = JSON.stringify(overrides);
    // The instance now holds the made-up log: a run sends it its own.
    const key = this.nextLogKey++;
    s.logKey = key;
    const quiet = () => {};
    s.engine.request({ type: 'validate', scenario, overrides: ov }).catch(quiet);
    s.engine
      .request({
        type: 'run-main',
        scenario,
        overrides: ov,
        log: { key, requests: warmUpLog() },
        withInfo: false,
      })
      .catch(quiet);
    this.infoAside(s);
  }

  /** Remembers a main run's reply (the oldest go first past the count or the bytes). */
  private remember(key: string, reply: MainReply, ahead: boolean): void {
    this.remembered.delete(key);
    this.remembered.set(key, { reply, ahead });
    let bytes = 0;
    for (const m of this.remembered.values()) bytes += m.reply.trace.byteLength;
    for (const [k, m] of this.remembered) {
      if (this.remembered.size <= REMEMBERED && bytes <= REMEMBERED_TRACE_BYTES) break;
      if (k === key) continue;
      bytes -= m.reply.trace.byteLength;
      this.remembered.delete(k);
    }
  }

  /**
   * Asks for these main runs ahead of time (a knob's neighbouring values), in order, on the
   * instances that are free, other than the one of the last main run (kept for the next one);
   * each is remembered, and a run that asks for one in flight takes its reply. Idle cores
   * compute what the viewer is likely to ask next, so that it answers at once. Replaces what
   * was asked before; does nothing while a run is in flight, and starts when it ends.
   */
  prefetch(scenario: string, candidates: readonly Record<string, unknown>[]): void {
    if (this.size < 2) return; // the only instance stays free for the viewer's own runs
    this.wanted = candidates.map((o) => ({ scenario, overrides: JSON.stringify(o) }));
    this.pumpAhead();
  }

  private pumpAhead(): void {
    if (this.job || this.early) return;
    for (const s of this.idle()) {
      if (s === this.home) continue;
      let next: { scenario: string; overrides: string } | undefined;
      let key = '';
      while ((next = this.wanted.shift())) {
        key = runKey(next.scenario, next.overrides, null);
        if (!this.remembered.has(key) && !this.ahead.has(key)) break;
      }
      if (!next) return;
      const { scenario, overrides } = next;
      s.busy = true;
      s.logKey = null;
      const checked = s.engine.request({ type: 'validate', scenario, overrides });
      const reply = s.engine
        .request({ type: 'run-main', scenario, overrides, withInfo: !this.infoAside(s) })
        .finally(() => {
          s.busy = false;
        });
      const a: Ahead = { slot: s, checked, reply };
      this.ahead.set(key, a);
      checked.catch(() => {});
      const k = key;
      reply.then(
        (r) => {
          if (this.ahead.get(k) !== a) return; // taken by a run
          this.ahead.delete(k);
          if (r.type === 'main') this.remember(k, r, true);
          this.pumpAhead();
        },
        () => {
          if (this.ahead.get(k) === a) this.ahead.delete(k);
        },
      );
    }
  }

  /** Stops the main runs asked for ahead of time (the page that asked for them is gone). */
  stopAhead(): void {
    this.wanted = [];
    for (const a of this.ahead.values()) {
      a.slot.dead = true;
      a.slot.engine.terminate();
    }
    this.ahead.clear();
    this.slots = this.slots.filter((s) => !s.dead);
  }

  /** The main run asked for ahead of time under `key`, if its instance still runs it. */
  private takeAhead(key: string): Ahead | null {
    const a = this.ahead.get(key);
    this.ahead.delete(key);
    return a && !a.slot.dead ? a : null;
  }

  /** The instance for a main run: the last main run's when it is free. */
  private homeSlot(): Slot {
    const h = this.home;
    const s = h && !h.dead && !h.busy ? h : this.idle()[0]!;
    this.home = s;
    return s;
  }

  /**
   * Stops a prestarted main run that no run took (the viewer left before the page's code
   * loaded): its instance is terminated and replaced, so no core keeps computing for nothing.
   */
  dropEarly(): void {
    this.takeEarly(null, '', null);
  }

  /** A prestarted main run waits for its page. */
  get prestarted(): boolean {
    return this.early !== null;
  }

  /** The prestarted main run if it is this one; any other is stopped. */
  private takeEarly(scenario: string | null, overrides: string, logKey: number | null) {
    const e = this.early;
    this.early = null;
    if (!e) return null;
    if (e.scenario === scenario && e.overrides === overrides && logKey === null && !e.slot.dead)
      return e;
    if (e.slot.busy) {
      e.slot.dead = true;
      e.slot.engine.terminate();
    }
    return null;
  }

  /**
   * Runs a scenario with overrides ({path: value}); `log`: the access log's requests when it
   * replays one. Resolves with the complete document; rejects with EngineError "cancelled"
   * when a new run or cancel() stops it.
   */
  run(
    scenario: string,
    overrides: Record<string, unknown> = {},
    log?: AccessLogRequests,
    progress: RunProgress = {},
  ): Promise<PoolRunResult> {
    const ov = JSON.stringify(overrides);
    const logKey = log ? this.logKey(log) : null;
    const key = runKey(scenario, ov, logKey);
    const early = this.takeEarly(scenario, ov, logKey);
    const known = early ? undefined : this.remembered.get(key);
    const ahead = early || known ? null : this.takeAhead(key);
    this.wanted = [];
    // Everything else in flight stops, main runs asked for ahead of time included.
    this.stopJob(early?.slot ?? ahead?.slot);
    this.ahead.clear();
    if (early) this.home = early.slot;
    if (ahead) this.home = ahead.slot;
    const source: AnswerSource = early
      ? 'prestarted'
      : known
        ? known.ahead
          ? 'prefetched'
          : 'remembered'
        : ahead
          ? 'prefetched'
          : 'computed';
    const t0 = performance.now();
    return new Promise<PoolRunResult>((resolve, reject) => {
      const job: Job = { settled: false, reject };
      this.job = job;
      const live = () => this.job === job && !job.settled;
      const end = (r: PoolRunResult) => {
        if (!live()) return;
        job.settled = true;
        this.job = null;
        this.stopBusy(); // points computed ahead for a sweep that has fewer
        resolve(r);
        this.pumpAhead();
      };
      const fail = (e: unknown) => {
        if (!live()) return;
        job.settled = true;
        this.job = null;
        this.stopBusy();
        reject(e instanceof Error ? e : new EngineError(String(e), 'engine-error'));
      };

      // The log goes to an instance once; later requests name it by key. A worker that has
      // dropped it since (a request without a log clears it) answers need-log, and gets it.
      const logFor = (s: Slot): RunLog | undefined => {
        if (logKey === null || !log) {
          s.logKey = null;
          return undefined;
        }
        if (s.logKey === logKey) return { key: logKey };
        s.logKey = logKey;
        return { key: logKey, requests: log };
      };
      const withLog = (s: Slot, req: WithoutId<Request>): Promise<Response> =>
        s.engine.request(req).then((r) => {
          if (r.type !== 'need-log' || logKey === null || !log) return r;
          s.logKey = logKey;
          return s.engine.request({
            ...req,
            log: { key: logKey, requests: log },
          } as WithoutId<Request>);
        });
      const call = (s: Slot, req: WithoutId<Request>): Promise<Response> => {
        s.busy = true;
        return withLog(s, req).finally(() => {
          s.busy = false;
        });
      };

      let main: (RunSuccess & { text: string }) | null = null;
      let total: number | null = null; // known once the main run is in
      let setups: string[] | undefined; // the core's setup key of each point (choosePoint)
      const handed = new Set<number>(); // points given to an instance after the guesses
      let mainSlot: Slot | null = null; // the instance that runs the main run
      const entries: string[] = [];
      let done = 0;
      let next = 0;
      const retry: number[] = [];
      // Before the main run says how many points there are, idle instances start on the first
      // ones; a scenario with fewer (or none) refuses the index, and that stops the guessing.
      // Only this many at a time: while the main run computes, one core stays with the page to
      // draw it when it comes (the main run comes first). On 2 cores none guesses: measured in
      // headless Chromium here, heavy presets' first view came 8-10 % sooner, the whole run
      // 0-11 % later.
      const guessSlots = Math.max(0, this.size - 2);
      let guessing = 0;
      let guess = true;
      let finishing = false;

      // The point the main run answered (output.pending.main_point): its entry goes to finish
      // as null, and the core puts the main run's own in its place.
      let mainPoint: { index: number; entry: SweepEntry } | null = null;
      const report = (i: number) => {
        if (total === null || i >= total || entries[i] === undefined) return;
        done++;
        const entry =
          i === mainPoint?.index ? mainPoint.entry : (JSON.parse(entries[i]) as SweepEntry);
        progress.onPoint?.(i, entry, done, total);
      };

      const runPoint = (s: Slot, i: number) => {
        const guessed = total === null;
        if (guessed) guessing++;
        call(s, {
          type: 'run-point',
          scenario,
          overrides: ov,
          index: i,
          log: logFor(s),
        }).then((r) => {
          if (guessed) guessing--;
          if (!live()) return;
          if (r.type === 'text') {
            // A guess at the main run's own point may finish after the main run answered it.
            if (entries[i] === undefined) {
              entries[i] = r.text;
              report(i);
            }
          } else if (r.type === 'invalid') {
            if (total === null) {
              guess = false;
              retry.push(i);
            } else if (i < total) {
              end({ ok: false, errors: r.errors }); // a model fault at this point
              return;
            }
          } else {
            fail(r.type === 'failure' ? new EngineError(r.message, r.code) : unexpected(r));
            return;
          }
          pump();
        }, fail);
      };

      const finish = (s: Slot) => {
        finishing = true;
        call(s, {
          type: 'finish',
          scenario,
          overrides: ov,
          main: main!.text,
          entries: entries.slice(0, total!),
        }).then((r) => {
          if (!live()) return;
          if (r.type === 'text') {
            end({
              ...main!,
              output: JSON.parse(r.text) as RunOutput,
              text: r.text,
              elapsedMs: performance.now() - t0,
            });
          } else if (r.type === 'invalid') {
            end({ ok: false, errors: r.errors });
          } else {
            fail(r.type === 'failure' ? new EngineError(r.message, r.code) : unexpected(r));
          }
        }, fail);
      };

      // The next point for instance `s` to run, or null for none now.
      const nextIndex = (s: Slot): number | null => {
        if (total === null) return guess ? next++ : null;
        while (retry.length) {
          const i = retry.shift()!;
          if (i < total && entries[i] === undefined) {
            holds(s, setups?.[i]);
            return i;
          }
        }
        const open: number[] = [];
        // Past the guesses, each point not yet in and not the main run's own.
        for (let i = next; i < total; i++)
          if (entries[i] === undefined && !handed.has(i)) open.push(i);
        const live = this.slots.filter((o) => o !== s && !o.dead);
        const others = live.flatMap((o) => o.setups);
        const idleOthers = live.filter((o) => !o.busy).flatMap((o) => o.setups);
        const i = choosePoint(open, setups, s.setups, others, idleOthers);
        if (i === undefined) return null;
        handed.add(i);
        holds(s, setups?.[i]);
        return i;
      };

      const pump = () => {
        if (!live()) return;
        if (total !== null && done === total) {
          const s = this.idle()[0];
          if (s && !finishing) finish(s);
          return;
        }
        for (const s of this.idle()) {
          if (total === null && guessing >= guessSlots) return;
          const i = nextIndex(s);
          if (i === null) continue;
          runPoint(s, i);
        }
      };

      let mainReply: Promise<Response>;
      if (early) {
        mainReply = early.reply; // a preset's own values: nothing to check
        mainSlot = early.slot;
        progress.onAccepted?.();
      } else if (known) {
        mainReply = Promise.resolve(known.reply); // the core's answer to the same question
        progress.onAccepted?.();
      } else if (ahead) {
        mainReply = ahead.reply;
        mainSlot = ahead.slot;
        ahead.checked.then((r) => {
          if (!live()) return;
          if (r.type === 'validate' && r.errors.length > 0) end({ ok: false, errors: r.errors });
          else progress.onAccepted?.();
        }, fail);
      } else {
        // The check first, on the same instance (it answers in order): a refused value ends
        // the run before anything says it runs.
        const first = this.homeSlot();
        first.busy = true;
        mainSlot = first;
        // With the log, so that a replay the core refuses never shows as running either.
        const checked = withLog(first, {
          type: 'validate',
          scenario,
          overrides: ov,
          log: logFor(first),
        });
        mainReply = call(first, {
          type: 'run-main',
          scenario,
          overrides: ov,
          log: logFor(first),
          withInfo: !this.infoAside(first),
        });
        checked.then((r) => {
          if (!live()) return;
          if (r.type === 'validate' && r.errors.length > 0) end({ ok: false, errors: r.errors });
          else progress.onAccepted?.();
        }, fail);
      }
      mainReply
        .then(async (r) => {
          if (!live()) return;
          if (r.type === 'invalid') {
            end({ ok: false, errors: r.errors });
            return;
          }
          if (r.type !== 'main') {
            fail(r.type === 'failure' ? new EngineError(r.message, r.code) : unexpected(r));
            return;
          }
          this.remember(key, r, known?.ahead ?? false);
          const info = await this.infoOf(r);
          if (!live()) return;
          performance.mark('nicsim:answer', { detail: source });
          const output = JSON.parse(r.text) as RunOutput;
          main = {
            ok: true,
            output,
            text: r.text,
            trace: r.trace,
            info,
            elapsedMs: r.elapsedMs,
          };
          total = output.pending?.sweep_points.length ?? 0;
          setups = output.pending?.setups;
          if (mainSlot && !mainSlot.dead) holds(mainSlot, output.pending?.main_setup);
          const own = output.pending?.main_point;
          if (own && own.index < total) {
            mainPoint = own;
            entries[own.index] = 'null'; // computed ahead by a guess or not: the same entry
          }
          progress.onMain?.(main, total);
          if (total === 0) {
            end({ ...main, elapsedMs: performance.now() - t0 });
            return;
          }
          // Points computed ahead: reported now, in order.
          for (let i = 0; i < total; i++) report(i);
          pump();
        }, fail)
        .catch(fail); // the info could not be had
      pump();
    });
  }

  /**
   * The core's check of a scenario with overrides (its errors; none: valid), on an idle instance
   * if there is one; it neither waits for nor stops a run.
   */
  async validate(
    scenario: string,
    overrides: Record<string, unknown> = {},
  ): Promise<ValidationError[]> {
    const s = this.idle()[0] ?? this.slots[0]!;
    const r = await s.engine.request({
      type: 'validate',
      scenario,
      overrides: JSON.stringify(overrides),
    });
    if (r.type === 'validate') return r.errors;
    throw r.type === 'failure' ? new EngineError(r.message, r.code) : unexpected(r);
  }

  /** Stops what runs now, and what was asked ahead; its promise rejects with code "cancelled". */
  cancel(): void {
    this.takeEarly(null, '', null);
    this.wanted = [];
    this.stopJob();
    this.ahead.clear();
  }

  /** Stops the run in flight but for `keep`'s instance. */
  private stopJob(keep?: Slot): void {
    const job = this.job;
    this.job = null;
    this.stopBusy(keep);
    if (job && !job.settled) {
      job.settled = true;
      job.reject(new EngineError('cancelled', 'cancelled'));
    }
  }

  get busy(): boolean {
    return this.job !== null;
  }

  /** Cancels and terminates every instance. */
  dispose(): void {
    this.cancel();
    for (const s of this.slots) s.engine.terminate();
    this.slots = [];
  }
}

/**
 * The log warmUp() runs: 12 requests to 4 files of 1 to 64 KB (no one's data: only enough for
 * the core to go through a replay's steps).
 */
function warmUpLog(): AccessLogRequests {
  const files = Uint32Array.from({ length: 12 }, (_, i) => i % 4);
  return { files, bytes: files.map((f) => 1024 << (2 * f)) };
}

/** A main run's identity: the same scenario, overrides and access log give the same reply. */
function runKey(scenario: string, overrides: string, logKey: number | null): string {
  return `${logKey ?? '-'}\n${overrides}\n${scenario}`;
}

type MainReply = Extract<Response, { type: 'main' }>;

/** The engine's info, from one instance. */
async function askInfo(s: Slot): Promise<EngineInfo> {
  const r = await s.engine.request({ type: 'info' });
  if (r.type !== 'info') throw unexpected(r);
  return r.info;
}

function unexpected(r: Response): EngineError {
  return new EngineError(`unexpected reply from the engine: ${r.type}`, 'engine-error');
}

let shared: EnginePool | null = null;

/** The app's one pool; the core starts compiling when it is first asked for. */
export function enginePool(): EnginePool {
  shared ??= new EnginePool();
  void compiledCore();
  return shared;
}
