// Messages between the UI thread (client.ts, pool.ts) and an engine worker (worker.ts).
import type { ParameterSpec, ValidationError } from './types';

/** A run's access log: sent once per worker (`key` names it), then only its key. */
export interface RunLog {
  key: number;
  requests?: AccessLogRequests;
}

export type Request =
  /** With `log`: also the checks a run makes of it (a run that passes starts). */
  | { id: number; type: 'validate'; scenario: string; overrides: string; log?: RunLog }
  | { id: number; type: 'run'; scenario: string; overrides: string; log?: AccessLogRequests }
  /**
   * The main run of the core's run_main; `log` as for run (a key the worker already holds).
   * `withInfo: false`: the reply leaves out the engine's info (the pool has it already, or asks
   * another instance for it meanwhile).
   */
  | {
      id: number;
      type: 'run-main';
      scenario: string;
      overrides: string;
      log?: RunLog;
      withInfo?: boolean;
    }
  /** Sweep point `index` of run_main's pending.sweep_points. */
  | {
      id: number;
      type: 'run-point';
      scenario: string;
      overrides: string;
      index: number;
      log?: RunLog;
    }
  /** run_main's document (text) with its entries (texts, in order): the complete document. */
  | {
      id: number;
      type: 'finish';
      scenario: string;
      overrides: string;
      main: string;
      entries: string[];
    }
  | { id: number; type: 'info' }
  /** An access log for the core's parser: begin, the file's bytes in slices, finish. */
  | { id: number; type: 'log-begin' }
  | { id: number; type: 'log-feed'; bytes: ArrayBuffer }
  | { id: number; type: 'log-finish' };

/** The first message to a pool's worker: the core compiled once on the UI thread. */
export interface InitMessage {
  type: 'init';
  module: WebAssembly.Module;
}

/** An access log's requests for workload.trace "log": request i is (files[i], bytes[i]). */
export interface AccessLogRequests {
  files: Uint32Array;
  bytes: Uint32Array;
}

export interface EngineInfo {
  kindNames: string[];
  componentNames: string[];
  parameterInfo: ParameterSpec[];
}

export type Response =
  | { id: number; type: 'validate'; errors: ValidationError[] }
  /** output is the parsed results JSON; trace the raw records (transferred). */
  | {
      id: number;
      type: 'run';
      output: unknown;
      trace: ArrayBuffer;
      info: EngineInfo;
      elapsedMs: number;
    }
  /** run-main: the document as text (finish takes it back), the trace transferred. */
  | {
      id: number;
      type: 'main';
      text: string;
      trace: ArrayBuffer;
      /** Left out when the request said withInfo: false. */
      info?: EngineInfo;
      elapsedMs: number;
    }
  /** run-point's entry, or finish's complete document, as text. */
  | { id: number; type: 'text'; text: string }
  | { id: number; type: 'invalid'; errors: ValidationError[] }
  /** The request named log `key` without its requests, and this worker does not hold it. */
  | { id: number; type: 'need-log'; key: number }
  | { id: number; type: 'info'; info: EngineInfo }
  /** open: false once the parser takes no more bytes (a limit, or the file refused). */
  | { id: number; type: 'log-fed'; open: boolean }
  /** report: the core's report (web/webserver/accessLog.ts); the requests unless it was refused. */
  | { id: number; type: 'log-report'; report: unknown; files: Uint32Array; bytes: Uint32Array }
  | { id: number; type: 'failure'; code: 'engine-missing' | 'engine-error'; message: string };
