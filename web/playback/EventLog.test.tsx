import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Store, StoreContext, doneState } from '../run/store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { EventLog, rovingTarget } from './EventLog';

describe('the event log', () => {
  const f = fixtureRun();
  const store = new Store();
  store.setRun(doneState(f.output, decodeTrace(f.trace)));
  const html = renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <EventLog />
    </StoreContext.Provider>,
  );

  it('is one Tab stop: one row has tabindex 0, every other row -1', () => {
    const rows = html.match(/<tr [^>]*data-testid="log-row"[^>]*>/g) ?? [];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => r.includes('tabindex="0"'))).toHaveLength(1);
    expect(rows.filter((r) => r.includes('tabindex="-1"'))).toHaveLength(rows.length - 1);
  });

  it('moves between its rows with the arrows, Home and End, and stops at the ends', () => {
    expect(rovingTarget('ArrowDown', 4, 2, 10)).toBe(5);
    expect(rovingTarget('ArrowDown', 9, 2, 10)).toBe(9);
    expect(rovingTarget('ArrowUp', 2, 2, 10)).toBe(2);
    expect(rovingTarget('Home', 7, 2, 10)).toBe(2);
    expect(rovingTarget('End', 3, 2, 10)).toBe(9);
    expect(rovingTarget('Tab', 3, 2, 10)).toBeNull();
  });
});
