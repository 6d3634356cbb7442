import { describe, expect, it } from 'vitest';
import { EARLY_CORE_GLOBAL, earlyCoreScript } from './earlyCorePlugin';

/** Runs the inline script at address `hash`; returns what it fetched and left on window. */
function runAt(hash: string) {
  const fetched: string[] = [];
  const window: Record<string, unknown> = {};
  const WebAssembly = {
    compileStreaming: (r: Promise<string>) => r.then((u) => `module of ${u}`),
  };
  const fetch = (u: string) => {
    fetched.push(u);
    return Promise.resolve(u);
  };
  new Function('window', 'location', 'WebAssembly', 'fetch', earlyCoreScript('./a/core.wasm'))(
    window,
    { hash },
    WebAssembly,
    fetch,
  );
  return { fetched, early: window[EARLY_CORE_GLOBAL] as Promise<unknown> | undefined };
}

describe('earlyCoreScript', () => {
  it('compiles the core at once on a page that runs it', async () => {
    for (const hash of ['#/s/tigon-ip-router', '#/ab/web-bus-cycles', '#v1.abc']) {
      const r = runAt(hash);
      expect(r.fetched).toEqual(['./a/core.wasm']);
      await expect(r.early).resolves.toBe('module of ./a/core.wasm');
    }
  });

  it('leaves the gallery alone: it never runs the core', () => {
    for (const hash of ['', '#', '#/']) {
      const r = runAt(hash);
      expect(r.fetched).toEqual([]);
      expect(r.early).toBeUndefined();
    }
  });
});
