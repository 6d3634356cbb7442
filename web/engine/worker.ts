/// <reference lib="webworker" />
// Module worker that owns the WebAssembly core. One request at a time; the client cancels a
// run by terminating this worker and starting a fresh one.
import type { CreateNicsimCore, NicsimCoreModule } from './core';
import type { EngineInfo, Request, Response } from './protocol';
import { isErrorOutput } from './types';

declare const self: DedicatedWorkerGlobalScope;

// Globs rather than plain imports so that a checkout without the wasm build still bundles and
// reports "engine not built" instead of failing the whole site.
const factories = import.meta.glob<CreateNicsimCore>('./wasm/nicsim_core.js', {
  import: 'default',
});
const wasmUrls = import.meta.glob<string>('./wasm/nicsim_core.wasm', {
  query: '?url',
  import: 'default',
  eager: true,
});

class EngineMissing extends Error {}

let modulePromise: Promise<NicsimCoreModule> | null = null;

async function loadCore(): Promise<NicsimCoreModule> {
  const loadFactory = factories['./wasm/nicsim_core.js'];
  const wasmUrl = wasmUrls['./wasm/nicsim_core.wasm'];
  if (!loadFactory || !wasmUrl) {
    throw new EngineMissing(
      'The simulation engine is not built: run `bash core-cpp/scripts/build-wasm.sh` and reload.',
    );
  }
  const [createNicsimCore, wasmBinary] = await Promise.all([
    loadFactory(),
    fetch(wasmUrl).then((r) => {
      if (!r.ok) throw new Error(`could not fetch the engine (${r.status} ${r.statusText})`);
      return r.arrayBuffer();
    }),
  ]);
  return createNicsimCore({ wasmBinary });
}

function core(): Promise<NicsimCoreModule> {
  modulePromise ??= loadCore();
  return modulePromise;
}

function info(m: NicsimCoreModule): EngineInfo {
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

function post(msg: Response, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

async function handle(req: Request): Promise<void> {
  try {
    const m = await core();
    if (req.type === 'info') {
      post({ id: req.id, type: 'info', info: info(m) });
    } else if (req.type === 'log-begin') {
      m.accessLogBegin();
      post({ id: req.id, type: 'log-fed', open: true });
    } else if (req.type === 'log-feed') {
      post({ id: req.id, type: 'log-fed', open: m.accessLogFeed(new Uint8Array(req.bytes)) });
    } else if (req.type === 'log-finish') {
      const report = JSON.parse(m.accessLogFinish()) as { refused: string | null };
      const { files, bytes } =
        report.refused === null
          ? m.accessLogRequests()
          : { files: new Uint32Array(), bytes: new Uint32Array() };
      post({ id: req.id, type: 'log-report', report, files, bytes }, [files.buffer, bytes.buffer]);
    } else if (req.type === 'validate') {
      const errors = JSON.parse(m.validate(req.scenario, req.overrides)) as unknown;
      post({ id: req.id, type: 'validate', errors: Array.isArray(errors) ? errors : [] });
    } else {
      const t0 = performance.now();
      // The core keeps the log for this run (and forgets it when none comes with the next).
      m.setAccessLog(req.log?.files ?? new Uint32Array(), req.log?.bytes ?? new Uint32Array());
      const output = JSON.parse(m.run(req.scenario, req.overrides)) as unknown;
      if (isErrorOutput(output)) {
        post({ id: req.id, type: 'invalid', errors: output.errors });
        return;
      }
      const bytes = m.traceBytes();
      // Own the exact bytes (the view may sit inside a larger buffer) so the buffer can be transferred.
      const trace =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? (bytes.buffer as ArrayBuffer)
          : (bytes.slice().buffer as ArrayBuffer);
      const elapsedMs = performance.now() - t0;
      post({ id: req.id, type: 'run', output, trace, info: info(m), elapsedMs }, [trace]);
    }
  } catch (err) {
    post({
      id: req.id,
      type: 'failure',
      code: err instanceof EngineMissing ? 'engine-missing' : 'engine-error',
      message: err instanceof Error ? err.message : String(err),
    });
  }
}

self.onmessage = (ev: MessageEvent<Request>) => {
  void handle(ev.data);
};
