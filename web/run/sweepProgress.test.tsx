// The main run shown first, the sweep's entries beside it as they come, then the whole document.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Store, StoreContext, doneState, isComplete } from './store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { RunStatus } from '../results/RunStatus';
import { ChecksPanel } from '../results/ChecksPanel';
import type { RunOutput } from '../engine/types';
import type { Scenario } from '../scenarios/types';

const f = fixtureRun();
const full: RunOutput = f.output;
const entries = full.sweep.length
  ? full.sweep
  : [{ value: 1, results: { throughput: { value: 1, unit: 'Mb/s' } } }];
const main: RunOutput = {
  ...full,
  sweep: [],
  checks: [],
  pending: { sweep_points: entries.map((e) => ({ value: e.value })), checks: 2 },
};
const scenario = {
  id: 's',
  title: 't',
  summary: 's',
  reference: [
    { id: 'a', source: 'Fig 1', description: 'first claim' },
    { id: 'b', source: 'Fig 2', description: 'second claim' },
  ],
} as unknown as Scenario;

function render(store: Store): string {
  return renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <RunStatus onRerun={() => {}} onCancel={() => {}} />
      <ChecksPanel scenario={scenario} />
    </StoreContext.Provider>,
  );
}

describe('a run whose sweep comes after its main run', () => {
  it('shows k of N, keeps the count out of the live region, and says the checks wait', () => {
    const store = new Store();
    const trace = decodeTrace(f.trace);
    store.setRun(doneState(main, trace, { sweepProgress: { done: 0, total: entries.length } }));
    const shown = store.getState().shown!;
    expect(isComplete(shown)).toBe(false);
    store.setSweepProgress(entries.slice(0, 1), { done: 1, total: entries.length });
    // The shown run (and so every view of the main run) is not touched by a sweep entry.
    expect(store.getState().shown).toBe(shown);
    const html = render(store);
    expect(html).toContain('data-status="sweep"');
    expect(html).toContain(
      `<span class="mono" aria-hidden="true">1 of ${entries.length} points</span>`,
    );
    expect(html).toContain('All 2 checks wait for the sweep');
    store.completeRun(full, 12);
    const done = store.getState().shown!;
    expect(isComplete(done)).toBe(true);
    expect(done.output).toBe(full);
    expect(done.trace).toBe(trace); // the main run's trace and index stay
    expect(store.getState().sweep).toBeNull();
    expect(render(store)).toContain('data-status="done"');
  });

  it('says the checks were not computed when the sweep stopped', () => {
    const store = new Store();
    store.setRun(
      doneState(main, decodeTrace(f.trace), { sweepProgress: { done: 0, total: entries.length } }),
    );
    store.setRun({ status: 'failed', code: 'cancelled', message: 'The run was cancelled.' });
    expect(render(store)).toContain('so the 2 checks were not computed');
  });
});
