import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveRunner } from './liveRun';
import type { Overrides } from '../run/overrides';

describe('LiveRunner', () => {
  let runs: Overrides[];
  let busy: boolean;
  let runner: LiveRunner;
  beforeEach(() => {
    vi.useFakeTimers();
    runs = [];
    busy = false;
    runner = new LiveRunner(
      (o) => runs.push(o),
      () => busy,
      { debounceMs: 200, throttleMs: 300, now: () => Date.now() },
    );
  });
  afterEach(() => {
    runner.cancel();
    vi.useRealTimers();
  });

  it('runs the last of quick changes once, after a pause', () => {
    runner.change({ a: 1 });
    vi.advanceTimersByTime(100);
    runner.change({ a: 2 });
    vi.advanceTimersByTime(199);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual([{ a: 2 }]);
    vi.advanceTimersByTime(1000);
    expect(runs).toHaveLength(1);
  });

  it('runs at once on a commit, and not again after', () => {
    runner.change({ a: 1 });
    runner.flush();
    expect(runs).toEqual([{ a: 1 }]);
    vi.advanceTimersByTime(1000);
    expect(runs).toHaveLength(1);
    runner.flush();
    expect(runs).toHaveLength(1);
  });

  it('runs a slider’s first step at once, the next ones after 300 ms', () => {
    runner.change({ a: 1 }, true);
    vi.advanceTimersByTime(0);
    expect(runs).toEqual([{ a: 1 }]);
    vi.advanceTimersByTime(100);
    runner.change({ a: 2 }, true);
    vi.advanceTimersByTime(150);
    expect(runs).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(runs).toEqual([{ a: 1 }, { a: 2 }]);
    vi.advanceTimersByTime(1000);
    expect(runs).toHaveLength(2);
  });

  it('runs a drag at most every 300 ms, and its last position always', () => {
    for (let t = 0; t < 1000; t += 20) {
      runner.change({ a: t }, true);
      vi.advanceTimersByTime(20);
    }
    // Started at 0, 300, 600 and 900 ms, each with the position of the moment.
    expect(runs.map((o) => o.a)).toEqual([0, 280, 580, 880]);
    runner.change({ a: 1000 }, true);
    runner.release();
    expect(runs[runs.length - 1]).toEqual({ a: 1000 });
    vi.advanceTimersByTime(1000);
    expect(runs).toHaveLength(5);
  });

  it('holds a drag back while a run is in flight, and goes on when it ends', () => {
    runner.change({ a: 0 }, true);
    vi.advanceTimersByTime(0);
    expect(runs).toHaveLength(1);
    busy = true;
    for (let t = 20; t < 700; t += 20) {
      runner.change({ a: t }, true);
      vi.advanceTimersByTime(20);
    }
    expect(runs).toHaveLength(1);
    busy = false;
    runner.idle();
    vi.advanceTimersByTime(0);
    expect(runs).toEqual([{ a: 0 }, { a: 680 }]);
  });

  it('drops what waits when something else runs the page', () => {
    runner.change({ a: 1 });
    runner.cancel();
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual([]);
    expect(runner.waiting).toBeNull();
  });
});
