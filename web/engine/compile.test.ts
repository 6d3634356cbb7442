// The core compiled while it downloads, or from its bytes when the server's MIME type stops
// streaming compilation (WebAssembly.compileStreaming needs application/wasm).
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const wasmPath = fileURLToPath(new URL('./wasm/nicsim_core.wasm', import.meta.url));
const built = existsSync(wasmPath);

describe.skipIf(!built)('compiledCore', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  for (const type of ['application/wasm', 'application/octet-stream']) {
    it(`gives a module when the server says ${type}`, async () => {
      const bytes = readFileSync(wasmPath);
      vi.stubGlobal('fetch', () =>
        Promise.resolve(new Response(bytes, { headers: { 'Content-Type': type } })),
      );
      const streaming = vi.spyOn(WebAssembly, 'compileStreaming');
      const fromBytes = vi.spyOn(WebAssembly, 'compile');
      const { compiledCore } = await import('./compile');
      const module = await compiledCore();
      expect(module).toBeInstanceOf(WebAssembly.Module);
      // Streaming compiles a module served as wasm and refuses any other type: then the bytes
      // are compiled.
      expect(streaming.mock.settledResults.map((r) => r.type)).toEqual([
        type === 'application/wasm' ? 'fulfilled' : 'rejected',
      ]);
      if (type !== 'application/wasm') expect(fromBytes).toHaveBeenCalledTimes(1);
      expect(WebAssembly.Module.exports(module!).length).toBeGreaterThan(0);
    });
  }
});
