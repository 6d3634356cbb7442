// prefers-reduced-motion on the JS side: the app never starts playback by itself for a viewer
// who asked for less motion; the viewer's own Play still works.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { prefersReducedMotion, scrollBehavior } from './motion';
import { Store, doneState } from '../run/store';
import type { RunOutput } from '../engine/types';
import { decodeTrace, encodeTrace } from '../trace/trace';

function withPreference(reduce: boolean): void {
  vi.stubGlobal('window', {
    matchMedia: (query: string) => ({
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }),
  });
}

function storeWithRun(): Store {
  const out = {
    format: 'nicsim-results/1',
    system: fixtureSystem(),
    scenario: 't',
    seed: 1,
    parameters: {},
    results: {},
    series: [],
    histograms: [],
    sweep: [],
    sweep_spec: null,
    checks: [],
    trace: { records: 0, dropped: 0, start_ps: 0, end_ps: 1_000_000 },
  } as RunOutput;
  const store = new Store();
  store.setRun(doneState(out, decodeTrace(encodeTrace([]))));
  return store;
}

describe('reduced motion', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is off outside a browser', () => {
    expect(prefersReducedMotion()).toBe(false);
  });

  it('keeps autoplay from starting and scrolls without animation', () => {
    withPreference(true);
    expect(prefersReducedMotion()).toBe(true);
    expect(scrollBehavior()).toBe('auto');
    const store = storeWithRun();
    expect(store.autoPlay()).toBe(false);
    expect(store.getState().playback.playing).toBe(false);
    // The viewer's own Play is theirs to choose.
    store.setPlaying(true);
    expect(store.getState().playback.playing).toBe(true);
  });

  it('lets autoplay start without the preference', () => {
    withPreference(false);
    expect(scrollBehavior()).toBe('smooth');
    const store = storeWithRun();
    expect(store.autoPlay()).toBe(true);
    expect(store.getState().playback.playing).toBe(true);
  });
});
