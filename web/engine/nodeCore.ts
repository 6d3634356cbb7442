// Loads the wasm build of the core in Node (Vitest, `npm run bench`), where there is no fetch of
// a relative URL: the .wasm bytes are read from disk and handed to the module as `wasmBinary`.
// Build the module first: bash core-cpp/scripts/build-wasm.sh
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { CreateNicsimCore, NicsimCoreModule } from './core';

export interface LoadNodeCoreOptions {
  /** Folder holding nicsim_core.js and nicsim_core.wasm; defaults to web/engine/wasm/. */
  wasmDir?: string | URL;
}

function defaultWasmDir(): URL {
  return new URL('./wasm/', import.meta.url);
}

function asDirUrl(dir: string | URL): URL {
  const url = typeof dir === 'string' ? pathToFileURL(dir) : new URL(dir.href);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** Instantiates a fresh core module (each call gets its own memory and trace). */
export async function loadNodeCore(options: LoadNodeCoreOptions = {}): Promise<NicsimCoreModule> {
  const dir = options.wasmDir === undefined ? defaultWasmDir() : asDirUrl(options.wasmDir);
  const jsUrl = new URL('nicsim_core.js', dir);
  const wasmUrl = new URL('nicsim_core.wasm', dir);
  let wasmBinary: Uint8Array;
  try {
    wasmBinary = await readFile(wasmUrl);
  } catch (e) {
    throw new Error(
      `cannot read ${wasmUrl.pathname} (${(e as Error).message}); build it with: bash core-cpp/scripts/build-wasm.sh`,
    );
  }
  const mod = (await import(/* @vite-ignore */ jsUrl.href)) as { default: CreateNicsimCore };
  return mod.default({ wasmBinary });
}

export default loadNodeCore;
