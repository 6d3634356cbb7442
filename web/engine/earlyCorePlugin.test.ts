import { describe, expect, it } from 'vitest';
import { takeEarlyWorker } from './compile';
import {
  EARLY_CORE_GLOBAL,
  EARLY_WORKERS_GLOBAL,
  ENGINE_WORKER_NAME,
  earlyCoreScript,
  earlyWorkersScript,
} from './earlyCorePlugin';
import { poolSizeFor } from './poolSize';

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

/** Runs the workers' inline script at address `hash` with `cores`; returns the workers made. */
function workersAt(hash: string, cores: unknown) {
  const window: Record<string, unknown> = {};
  const made: FakeWorker[] = [];
  class FakeWorker {
    listeners: ((this: FakeWorker, e: { preventDefault(): void }) => void)[] = [];
    nicsimFailed?: boolean;
    constructor(
      readonly url: string,
      readonly options: { type: string; name: string },
    ) {
      made.push(this);
    }
    addEventListener(type: string, l: (this: FakeWorker, e: { preventDefault(): void }) => void) {
      if (type === 'error') this.listeners.push(l);
    }
  }
  new Function('window', 'location', 'navigator', 'Worker', earlyWorkersScript('./a/worker.js'))(
    window,
    { hash },
    { hardwareConcurrency: cores },
    FakeWorker,
  );
  return { made, early: window[EARLY_WORKERS_GLOBAL] as FakeWorker[] | undefined };
}

describe('earlyWorkersScript', () => {
  it("starts the pool's workers on a page that runs the core, as many as the pool has", () => {
    for (const cores of [1, 2, 3.5, 8, 64, 0, -1, NaN, Infinity, undefined, '4']) {
      const r = workersAt('#/s/udp-throughput', cores);
      expect(r.made.length, String(cores)).toBe(poolSizeFor(cores));
      expect(r.early).toEqual(r.made);
      for (const w of r.made) {
        expect(w.url).toBe('./a/worker.js');
        expect(w.options).toEqual({ type: 'module', name: ENGINE_WORKER_NAME });
      }
    }
  });

  it('starts none on the gallery', () => {
    for (const hash of ['', '#', '#/']) {
      const r = workersAt(hash, 4);
      expect(r.made).toEqual([]);
      expect(r.early).toBeUndefined();
    }
  });

  it('marks a worker whose script failed, and the pool skips it', () => {
    const r = workersAt('#/ab/web-bus-cycles', 2);
    let prevented = false;
    const [first, second] = r.made;
    first!.listeners[0]!.call(first!, { preventDefault: () => (prevented = true) });
    expect(first!.nicsimFailed).toBe(true);
    expect(prevented).toBe(true);
    const g = globalThis as Record<string, unknown>;
    const terminated: unknown[] = [];
    for (const w of r.made) Object.assign(w, { terminate: () => terminated.push(w) });
    g[EARLY_WORKERS_GLOBAL] = r.early;
    try {
      expect(takeEarlyWorker()).toBe(second);
      expect(terminated).toEqual([first]);
      expect(takeEarlyWorker()).toBeNull();
    } finally {
      delete g[EARLY_WORKERS_GLOBAL];
    }
  });
});
