import { describe, expect, it } from 'vitest';
import { Store, doneState, initialLogState, type LoadedLog } from './store';
import { ONE_LINE_LOG } from '../webserver/accessLog.fixture';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';

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

describe('Store: the access log', () => {
  const f = fixtureRun();
  const log = (name: string): LoadedLog => ({
    name,
    size: 100,
    parsed: ONE_LINE_LOG,
  });

  it('starts with no log and nothing being read', () => {
    expect(new Store().getState().log).toEqual({ current: null, attempt: { status: 'none' } });
  });

  it('reads a log without touching the run on screen or the cursor', () => {
    const store = new Store();
    const first = doneState(f.output, decodeTrace(f.trace));
    store.setRun(first);
    store.stepForward();
    const cursor = store.getState().playback.cursor;
    store.setLogAttempt({ status: 'reading', name: 'a.log', size: 10, fraction: 0.5 });
    expect(store.getState().shown).toBe(first);
    expect(store.getState().run).toBe(first);
    expect(store.getState().playback.cursor).toBe(cursor);
    expect(store.getState().log.attempt).toMatchObject({ status: 'reading', fraction: 0.5 });
    expect(store.getState().log.current).toBeNull();
  });

  it('keeps an accepted log, and gives it to the next page of this tab', () => {
    const store = new Store();
    const a = log('a.log');
    store.setAccessLog(a);
    expect(store.getState().log).toEqual({
      current: a,
      attempt: { status: 'loaded', name: 'a.log' },
    });
    // A refused attempt leaves the log in use.
    store.setLogAttempt({ status: 'cancelled', name: 'b.log' });
    expect(store.getState().log.current).toBe(a);
    expect(initialLogState()).toEqual({ current: a, attempt: { status: 'none' } });
    expect(new Store({ log: initialLogState() }).getState().log.current).toBe(a);
    store.setAccessLog(null);
    expect(initialLogState().current).toBeNull();
  });

  it('keeps the log when a run finishes', () => {
    const store = new Store();
    const a = log('a.log');
    store.setAccessLog(a);
    store.setRun(doneState(f.output, decodeTrace(f.trace)));
    store.setRun({ status: 'running', startedAt: 0 });
    expect(store.getState().log.current).toBe(a);
  });
});
