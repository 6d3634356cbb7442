import { describe, expect, it } from 'vitest';
import { Store, doneState } from './store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { K } from '../trace/traceKinds';

describe('Store: playing stops on a breakpoint and collapses idle stretches', () => {
  const f = fixtureRun();
  const run = doneState(f.output, decodeTrace(f.trace));
  const ringFull = run.index.byKind.get(K.RingFull)![0]!;
  const at = run.trace.time[ringFull]!;

  it('a tick that passes an armed condition stops exactly on its record and says why', () => {
    const store = new Store();
    store.setRun(run);
    store.setNav({ breakpoints: [{ type: 'condition', id: 'ring-full' }] });
    store.setPlaying(true);
    // One long tick: far beyond the record, and it still lands on it.
    store.setSpeed(1e9);
    store.tick(100);
    const s = store.getState();
    expect(s.playback.cursor).toBe(at);
    expect(s.playback.playing).toBe(false);
    expect(s.nav.note!.text).toMatch(/^stopped: \w+ ring full at [\d.]+ µs$/);
    // Playing again goes on past it (the next match is strictly after the cursor).
    store.setPlaying(true);
    store.tick(1);
    expect(store.getState().playback.cursor).toBeGreaterThan(at);
  });

  it('without breakpoints the same tick plays through; skipping idle time leaves a note', () => {
    const store = new Store();
    store.setRun(run);
    store.setSpeed(1e9);
    store.setPlaying(true);
    store.tick(100);
    expect(store.getState().playback.cursor).toBeGreaterThan(at);
    expect(store.getState().nav.note).toBeNull();

    const w = store.window()!;
    const skip = new Store();
    skip.setRun(run);
    skip.setNav({ skipIdle: true, idleThreshold: 1 });
    skip.setSpeed(1e3); // 1 ns/s: 100 ms of wall time is 100 ps of simulated time
    skip.setCursor(w.start);
    skip.setPlaying(true);
    skip.tick(100);
    const s = skip.getState();
    // The gap after the first record is collapsed to 1 ps: the cursor reaches the next record.
    expect(s.nav.note?.text).toMatch(/^skipped .+ idle$/);
    expect(s.playback.cursor).toBeGreaterThan(w.start + 100);
  });
});
