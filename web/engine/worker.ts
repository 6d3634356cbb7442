/// <reference lib="webworker" />
// Module worker that owns one WebAssembly instance of the core. One request at a time; a run is
// cancelled by terminating the worker and starting a fresh one. A pool's worker (pool.ts) gets
// the module compiled once on the UI thread as its first message, so a fresh one starts at once;
// so does client.ts's when the module is already in; a worker that gets none fetches and
// compiles the module itself.
import type { CreateNicsimCore, NicsimCoreModule } from './core';
import { newHandlerState, respond } from './handler';
import type { InitMessage, Request, Response } from './protocol';

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

// The core's JavaScript glue starts loading with the worker, not after the module arrives.
const factory = factories['./wasm/nicsim_core.js']?.();
factory?.catch(() => {}); // reported by loadCore when a request needs it

let modulePromise: Promise<NicsimCoreModule> | null = null;
let compiled: WebAssembly.Module | null = null;
const state = newHandlerState();

async function loadCore(): Promise<NicsimCoreModule> {
  const wasmUrl = wasmUrls['./wasm/nicsim_core.wasm'];
  if (!factory || !wasmUrl) {
    throw new EngineMissing(
      'The simulation engine is not built: run `bash core-cpp/scripts/build-wasm.sh` and reload.',
    );
  }
  const createNicsimCore = await factory;
  if (compiled) {
    const module = compiled;
    return new Promise<NicsimCoreModule>((resolve, reject) => {
      createNicsimCore({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(module, imports).then(
            (instance) => receive(instance, module),
            reject,
          );
          return {};
        },
      }).then(resolve, reject);
    });
  }
  const r = await fetch(wasmUrl);
  if (!r.ok) throw new Error(`could not fetch the engine (${r.status} ${r.statusText})`);
  return createNicsimCore({ wasmBinary: await r.arrayBuffer() });
}

function core(): Promise<NicsimCoreModule> {
  modulePromise ??= loadCore();
  return modulePromise;
}

async function handle(req: Request): Promise<void> {
  try {
    const m = await core();
    const { msg, transfer } = respond(m, req, state);
    self.postMessage(msg, transfer);
  } catch (err) {
    const msg: Response = {
      id: req.id,
      type: 'failure',
      code: err instanceof EngineMissing ? 'engine-missing' : 'engine-error',
      message: err instanceof Error ? err.message : String(err),
    };
    self.postMessage(msg);
  }
}

self.onmessage = (ev: MessageEvent<Request | InitMessage>) => {
  const data = ev.data;
  if (data.type === 'init') {
    compiled = data.module;
    void core(); // instantiate now, before the first request
    return;
  }
  void handle(data);
};
