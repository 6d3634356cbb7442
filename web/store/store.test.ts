import { describe, expect, it } from 'vitest';
import { Store, doneState } from './store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../engine/trace';

describe('Store: the previous run stays on screen', () => {
  const f = fixtureRun();
  const trace = decodeTrace(f.trace);

  it('keeps the shown run and the cursor while a new run computes and after a rejection', () => {
    const store = new Store();
    const first = doneState(f.output, trace);
    store.setRun(first);
    for (let i = 0; i < 5; i++) store.stepForward();
    const cursor = store.getState().playback.cursor;
    expect(cursor).toBeGreaterThan(f.output.trace.start_ps);

    store.setRun({ status: 'running', startedAt: 0 });
    expect(store.getState().shown).toBe(first);
    expect(store.getState().playback.cursor).toBe(cursor);
    // Playback still works on the shown run.
    store.stepForward();
    expect(store.getState().playback.cursor).toBeGreaterThan(cursor);
    store.stepBack();

    const errors = [{ path: 'workload.datagram_bytes', message: 'allowed 18 to 1472 bytes' }];
    store.setRun({ status: 'invalid', errors });
    expect(store.getState().run).toEqual({ status: 'invalid', errors });
    expect(store.getState().shown).toBe(first);
    expect(store.getState().playback.cursor).toBe(cursor);

    store.setRun({ status: 'failed', code: 'cancelled', message: 'cancelled' });
    expect(store.getState().shown).toBe(first);
  });

  it('keeps the cursor (inside the new window) when a re-run succeeds', () => {
    const store = new Store();
    store.setRun(doneState(f.output, trace));
    for (let i = 0; i < 5; i++) store.stepForward();
    const cursor = store.getState().playback.cursor;
    const again = doneState(f.output, decodeTrace(f.trace), {
      overrides: { 'system.bus.clock_mhz': 33 },
    });
    store.setRun(again);
    expect(store.getState().shown).toBe(again);
    expect(store.getState().shown!.overrides).toEqual({ 'system.bus.clock_mhz': 33 });
    expect(store.getState().playback.cursor).toBe(cursor);
  });

  it('starts a first run at the window start', () => {
    const store = new Store();
    store.setRun({ status: 'running', startedAt: 0 });
    expect(store.getState().shown).toBeNull();
    store.setRun(doneState(f.output, trace));
    expect(store.getState().playback.cursor).toBe(f.output.trace.start_ps);
  });
});
