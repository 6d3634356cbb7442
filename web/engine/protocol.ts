// Messages between the UI thread (client.ts) and the engine worker (worker.ts).
import type { ParameterSpec, ValidationError } from './types';

export type Request =
  | { id: number; type: 'validate'; scenario: string; overrides: string }
  | { id: number; type: 'run'; scenario: string; overrides: string; log?: AccessLogRequests }
  | { id: number; type: 'info' }
  /** An access log for the core's parser: begin, the file's bytes in slices, finish. */
  | { id: number; type: 'log-begin' }
  | { id: number; type: 'log-feed'; bytes: ArrayBuffer }
  | { id: number; type: 'log-finish' };

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
  | { id: number; type: 'invalid'; errors: ValidationError[] }
  | { id: number; type: 'info'; info: EngineInfo }
  /** open: false once the parser takes no more bytes (a limit, or the file refused). */
  | { id: number; type: 'log-fed'; open: boolean }
  /** report: the core's report (web/webserver/accessLog.ts); the requests unless it was refused. */
  | { id: number; type: 'log-report'; report: unknown; files: Uint32Array; bytes: Uint32Array }
  | { id: number; type: 'failure'; code: 'engine-missing' | 'engine-error'; message: string };
