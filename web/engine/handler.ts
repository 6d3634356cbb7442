// What an engine worker does with a request, apart from the worker itself: worker.ts calls it
// with its module instance, and the pool's tests call it with a core loaded in Node.
import type { NicsimCoreModule } from './core';
import type { EngineInfo, Request, Response, RunLog } from './protocol';
import { isErrorOutput, type ValidationError } from './types';

/** What one module instance remembers between requests. */
export interface HandlerState {
  /** The key of the access log the core holds (RunLog.key), or null for none. */
  logKey: number | null;
}

export function newHandlerState(): HandlerState {
  return { logKey: null };
}

export interface Reply {
  msg: Response;
  transfer: Transferable[];
}

/**
 * What the core says about itself is fixed by its build, so each instance is asked once: the
 * parameter table alone is about 180 KB of JSON, made anew by every call (tens of ms in wasm),
 * and every main run's reply carries it.
 */
const infos = new WeakMap<NicsimCoreModule, EngineInfo>();

function info(m: NicsimCoreModule): EngineInfo {
  let known = infos.get(m);
  if (!known) {
    known = askInfo(m);
    infos.set(m, known);
  }
  return known;
}

function askInfo(m: NicsimCoreModule): EngineInfo {
  let parameterInfo: EngineInfo['parameterInfo'] = [];
  try {
    parameterInfo = JSON.parse(m.parameterInfo()) as EngineInfo['parameterInfo'];
  } catch {
    parameterInfo = [];
  }
  return {
    kindNames: JSON.parse(m.traceKindNames()) as string[],
    componentNames: JSON.parse(m.componentNames()) as string[],
    parameterInfo,
  };
}

/** The core's errors document ({"errors": [...]}, its only key), or null for any other text. */
function errorsOf(text: string): ValidationError[] | null {
  // The core writes keys in order, so an output or an entry never starts this way.
  if (!text.startsWith('{"errors":')) return null;
  const doc = JSON.parse(text) as unknown;
  return isErrorOutput(doc) ? doc.errors : null;
}

/** The trace records as a buffer of their own (the view may sit inside a larger one). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
}

/**
 * Gives the core the run's access log when it comes (a worker holds it for later requests).
 * False when the request names a log by key only and the core does not hold that one: the
 * worker says so rather than running without it, and the pool sends the requests.
 */
function holdLog(m: NicsimCoreModule, state: HandlerState, log: RunLog | undefined): boolean {
  if (log?.requests) {
    m.setAccessLog(log.requests.files, log.requests.bytes);
    state.logKey = log.key;
    return true;
  }
  if (log) return state.logKey === log.key;
  if (state.logKey !== null) {
    m.setAccessLog(new Uint32Array(), new Uint32Array());
    state.logKey = null;
  }
  return true;
}

export function respond(m: NicsimCoreModule, req: Request, state: HandlerState): Reply {
  const id = req.id;
  const reply = (msg: Response, transfer: Transferable[] = []): Reply => ({ msg, transfer });
  switch (req.type) {
    case 'info':
      return reply({ id, type: 'info', info: info(m) });
    case 'log-begin':
      m.accessLogBegin();
      return reply({ id, type: 'log-fed', open: true });
    case 'log-feed':
      return reply({ id, type: 'log-fed', open: m.accessLogFeed(new Uint8Array(req.bytes)) });
    case 'log-finish': {
      const report = JSON.parse(m.accessLogFinish()) as { refused: string | null };
      const { files, bytes } =
        report.refused === null
          ? m.accessLogRequests()
          : { files: new Uint32Array(), bytes: new Uint32Array() };
      return reply({ id, type: 'log-report', report, files, bytes }, [files.buffer, bytes.buffer]);
    }
    case 'validate': {
      // A run's check comes with the log it replays: the core checks the replay too.
      let text: string;
      if (req.log) {
        if (!holdLog(m, state, req.log)) return reply({ id, type: 'need-log', key: req.log.key });
        text = m.validateRun(req.scenario, req.overrides);
      } else {
        text = m.validate(req.scenario, req.overrides);
      }
      const errors = JSON.parse(text) as unknown;
      return reply({ id, type: 'validate', errors: Array.isArray(errors) ? errors : [] });
    }
    case 'run': {
      const t0 = performance.now();
      // The core keeps the log for this run (and forgets it when none comes with the next).
      m.setAccessLog(req.log?.files ?? new Uint32Array(), req.log?.bytes ?? new Uint32Array());
      state.logKey = req.log ? -1 : null; // held, but under no pool key
      const output = JSON.parse(m.run(req.scenario, req.overrides)) as unknown;
      if (isErrorOutput(output)) return reply({ id, type: 'invalid', errors: output.errors });
      const trace = ownBuffer(m.traceBytes());
      const elapsedMs = performance.now() - t0;
      return reply({ id, type: 'run', output, trace, info: info(m), elapsedMs }, [trace]);
    }
    case 'run-main': {
      const t0 = performance.now();
      if (!holdLog(m, state, req.log)) return reply({ id, type: 'need-log', key: req.log!.key });
      const text = m.runMain(req.scenario, req.overrides);
      const errors = errorsOf(text);
      if (errors) return reply({ id, type: 'invalid', errors });
      const trace = ownBuffer(m.traceBytes());
      const elapsedMs = performance.now() - t0;
      // A fresh instance's first parameterInfo() costs tens of ms in wasm: when the pool has
      // the info (or another instance is asked for it), the answer does not wait for it.
      const known = req.withInfo === false ? undefined : info(m);
      return reply({ id, type: 'main', text, trace, info: known, elapsedMs }, [trace]);
    }
    case 'run-point': {
      if (!holdLog(m, state, req.log)) return reply({ id, type: 'need-log', key: req.log!.key });
      const text = m.runPoint(req.scenario, req.overrides, req.index);
      const errors = errorsOf(text);
      return reply(errors ? { id, type: 'invalid', errors } : { id, type: 'text', text });
    }
    case 'finish': {
      const text = m.finish(req.scenario, req.overrides, req.main, `[${req.entries.join(',')}]`);
      const errors = errorsOf(text);
      return reply(errors ? { id, type: 'invalid', errors } : { id, type: 'text', text });
    }
  }
}
