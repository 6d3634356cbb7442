// Typed promise API over the engine worker. Cancelling terminates the worker (a run inside
// WebAssembly cannot be interrupted) and the next request starts a fresh one.
import { compiledCoreNow, newEngineWorker } from './compile';
import type { AccessLogRequests, EngineInfo, InitMessage, Request, Response } from './protocol';
import type { RunOutput, ValidationError } from './types';

export interface RunSuccess {
  ok: true;
  output: RunOutput;
  trace: ArrayBuffer;
  info: EngineInfo;
  elapsedMs: number;
}

export interface RunInvalid {
  ok: false;
  errors: ValidationError[];
}

export type RunResult = RunSuccess | RunInvalid;

export class EngineError extends Error {
  constructor(
    message: string,
    readonly code: 'engine-missing' | 'engine-error' | 'cancelled' | 'worker-crashed',
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void };
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export type WorkerFactory = () => Worker;

/** A worker that gets the core compiled on this thread when it is in (else it loads its own). */
const defaultFactory: WorkerFactory = () => {
  const w = newEngineWorker();
  const module = compiledCoreNow();
  if (module) w.postMessage({ type: 'init', module } satisfies InitMessage);
  return w;
};

export class EngineClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor(private readonly factory: WorkerFactory = defaultFactory) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = this.factory();
    w.onmessage = (ev: MessageEvent<Response>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return;
      this.pending.delete(ev.data.id);
      p.resolve(ev.data);
    };
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.dropWorker(new EngineError(ev.message || 'the engine worker crashed', 'worker-crashed'));
    };
    this.worker = w;
    return w;
  }

  private dropWorker(reason: Error): void {
    this.worker?.terminate();
    this.worker = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(reason);
  }

  private request(req: WithoutId<Request>, transfer: Transferable[] = []): Promise<Response> {
    const id = this.nextId++;
    const w = this.ensureWorker();
    return new Promise<Response>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ ...req, id } as Request, transfer);
    });
  }

  private static failure(r: Response): never {
    if (r.type === 'failure') throw new EngineError(r.message, r.code);
    throw new EngineError(`unexpected reply from the engine: ${r.type}`, 'engine-error');
  }

  /** `log`: the access log's requests when the scenario replays one (workload.trace "log"). */
  async run(
    scenario: string,
    overrides: Record<string, unknown> = {},
    log?: AccessLogRequests,
  ): Promise<RunResult> {
    const r = await this.request({
      type: 'run',
      scenario,
      overrides: JSON.stringify(overrides),
      ...(log ? { log } : {}),
    });
    if (r.type === 'run') {
      return {
        ok: true,
        output: r.output as RunOutput,
        trace: r.trace,
        info: r.info,
        elapsedMs: r.elapsedMs,
      };
    }
    if (r.type === 'invalid') return { ok: false, errors: r.errors };
    return EngineClient.failure(r);
  }

  async validate(
    scenario: string,
    overrides: Record<string, unknown> = {},
  ): Promise<ValidationError[]> {
    const r = await this.request({
      type: 'validate',
      scenario,
      overrides: JSON.stringify(overrides),
    });
    if (r.type === 'validate') return r.errors;
    return EngineClient.failure(r);
  }

  async info(): Promise<EngineInfo> {
    const r = await this.request({ type: 'info' });
    if (r.type === 'info') return r.info;
    return EngineClient.failure(r);
  }

  /** Starts parsing an access log in the core (a log being parsed is dropped). */
  async accessLogBegin(): Promise<void> {
    const r = await this.request({ type: 'log-begin' });
    if (r.type !== 'log-fed') EngineClient.failure(r);
  }

  /**
   * Hands the parser the next bytes of the file (cut anywhere); their buffer is transferred.
   * False once it takes no more: stop reading.
   */
  async accessLogFeed(bytes: Uint8Array): Promise<boolean> {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const buffer = (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
    const r = await this.request({ type: 'log-feed', bytes: buffer }, [buffer]);
    if (r.type === 'log-fed') return r.open;
    return EngineClient.failure(r);
  }

  /** The core's report, and the requests of an accepted log. */
  async accessLogFinish(): Promise<{ report: unknown; files: Uint32Array; bytes: Uint32Array }> {
    const r = await this.request({ type: 'log-finish' });
    if (r.type === 'log-report') return { report: r.report, files: r.files, bytes: r.bytes };
    return EngineClient.failure(r);
  }

  /** Stops whatever runs now; pending promises reject with code "cancelled". */
  cancel(): void {
    if (this.pending.size === 0 && !this.worker) return;
    this.dropWorker(new EngineError('cancelled', 'cancelled'));
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  dispose(): void {
    this.cancel();
  }
}

let shared: EngineClient | null = null;

/** The app's one engine client. */
export function engine(): EngineClient {
  shared ??= new EngineClient();
  return shared;
}
