import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Store, StoreContext, doneState } from '../run/store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { RunStatus } from './RunStatus';

function render(store: Store): string {
  return renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <RunStatus onRerun={() => {}} onCancel={() => {}} />
    </StoreContext.Provider>,
  );
}

describe('RunStatus', () => {
  it('lists the engine’s validation errors with their paths', () => {
    const store = new Store();
    store.setRun({
      status: 'invalid',
      errors: [
        { path: 'system.bus.clock_mhz', message: 'must be one of 33, 66' },
        { path: '', message: 'is not an object' },
      ],
    });
    const html = render(store);
    expect(html).toContain('role="alert"');
    expect(html).toContain('system.bus.clock_mhz');
    expect(html).toContain('must be one of 33, 66');
    expect(html).toContain('(scenario)');
  });

  it('shows a spinner while running and a summary when done', () => {
    const store = new Store();
    store.setRun({ status: 'running', startedAt: 0 });
    expect(render(store)).toContain('Simulating');
    const f = fixtureRun();
    store.setRun(doneState(f.output, decodeTrace(f.trace)));
    const html = render(store);
    expect(html).toContain(`${f.output.trace.records} traced`);
    expect(html).toContain('data-status="done"');
  });
});

describe('Store playback', () => {
  const f = fixtureRun();
  const trace = decodeTrace(f.trace);

  it('starts at the window start with a speed that shows the window in about a minute', () => {
    const store = new Store();
    store.setRun(doneState(f.output, trace));
    const { cursor, speed } = store.getState().playback;
    expect(cursor).toBe(f.output.trace.start_ps);
    expect(speed).toBe(1e6); // 60 µs window → 1 µs/s
  });

  it('steps between events and back, and clamps the cursor to the window', () => {
    const store = new Store();
    store.setRun(doneState(f.output, trace));
    store.stepForward();
    const t1 = store.getState().playback.cursor;
    expect(t1).toBeGreaterThan(f.output.trace.start_ps);
    store.stepForward();
    store.stepBack();
    expect(store.getState().playback.cursor).toBe(t1);
    store.setCursor(-5);
    expect(store.getState().playback.cursor).toBe(f.output.trace.start_ps);
  });

  it('advances with wall time at the chosen speed and stops at the end', () => {
    const store = new Store();
    store.setRun(doneState(f.output, trace));
    store.setSpeed(2e6);
    store.setPlaying(true);
    store.tick(500);
    expect(store.getState().playback.cursor).toBe(f.output.trace.start_ps + 1e6);
    store.tick(1e9);
    expect(store.getState().playback.playing).toBe(false);
    expect(store.getState().playback.cursor).toBe(store.window()!.end);
  });
});
