// The core's WebAssembly module, compiled once on the UI thread while it downloads
// (WebAssembly.compileStreaming) and handed to every worker of the pool: a WebAssembly.Module is
// structured-cloneable, so a worker started again after a cancel instantiates it at once.
import { EARLY_CORE_GLOBAL, EARLY_WORKERS_GLOBAL, ENGINE_WORKER_NAME } from './earlyCorePlugin';

const wasmUrls = import.meta.glob<string>('./wasm/nicsim_core.wasm', {
  query: '?url',
  import: 'default',
  eager: true,
});

let compiled: Promise<WebAssembly.Module | null> | null = null;
/** The compiled module once it is in (null before, and when it cannot be had). */
let ready: WebAssembly.Module | null = null;

async function compile(url: string): Promise<WebAssembly.Module> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not fetch the engine (${r.status} ${r.statusText})`);
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      // Needs the server to say application/wasm; otherwise from the bytes below.
      return await WebAssembly.compileStreaming(r.clone());
    } catch {
      // fall through
    }
  }
  return WebAssembly.compile(await r.arrayBuffer());
}

/**
 * The compiled core, or null when it cannot be had here (not built, no network): the workers
 * then load it themselves and report why they cannot.
 */
export function compiledCore(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    ready = await compileOnce();
    return ready;
  })();
  return compiled;
}

async function compileOnce(): Promise<WebAssembly.Module | null> {
  // Started by index.html's inline script (earlyCorePlugin.ts) while the app's code loaded.
  const early = (globalThis as Record<string, unknown>)[EARLY_CORE_GLOBAL] as
    Promise<WebAssembly.Module | null> | undefined;
  const m = early ? await early : null;
  if (m) return m;
  const url = wasmUrls['./wasm/nicsim_core.wasm'];
  if (!url || typeof WebAssembly === 'undefined') return null;
  try {
    return await compile(url);
  } catch {
    return null;
  }
}

/** The compiled core if it is already in, for a worker that can take it with its first message. */
export function compiledCoreNow(): WebAssembly.Module | null {
  return ready;
}

/** A new engine worker (web/engine/worker.ts), named as the early ones are. */
export function newEngineWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: ENGINE_WORKER_NAME,
  });
}

/**
 * An engine worker index.html's inline script started (earlyCorePlugin.ts), for the pool to
 * take; null when none is left (or none was started). One whose script failed to load is
 * stopped and skipped: the pool then starts its own, which reports why.
 */
export function takeEarlyWorker(): Worker | null {
  const early = (globalThis as Record<string, unknown>)[EARLY_WORKERS_GLOBAL] as
    (Worker & { nicsimFailed?: boolean })[] | undefined;
  for (let w = early?.shift(); w; w = early?.shift()) {
    if (!w.nicsimFailed) return w;
    w.terminate();
  }
  return null;
}
