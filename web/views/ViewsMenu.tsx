// The "Views" menu: which views the page shows. Its own list comes first, then any other view the
// run has data for. The choice is the store's ui.views (null = the scenario's list), which a link
// carries.
import { closeMenuOnEscape } from '../kit/keys';
import { useMemo } from 'react';
import { scenarioViews } from '../share';
import { kindsIn, viewHasData } from './viewData';
import type { Scenario } from '../scenarios/types';
import { useStore, useStoreInstance } from '../run/store';
import '../export/export.css';
import '../share/links.css';

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export function ViewsMenu({
  scenario,
  titles,
}: {
  scenario: Scenario;
  /** The views the page can draw, name → heading. */
  titles: Readonly<Record<string, string>>;
}) {
  const store = useStoreInstance();
  const chosen = useStore((s) => s.ui.views);
  const run = useStore((s) => s.shown);
  const own = scenarioViews(scenario);
  const open = chosen ?? own;

  // Its own views, then the others with data, in the page's order; views open now stay listed.
  const order = useMemo(() => {
    const kinds = run ? kindsIn(run) : new Set<string>();
    const extra = Object.keys(titles).filter(
      (v) => !own.includes(v) && (open.includes(v) || (run !== null && viewHasData(v, run, kinds))),
    );
    return [...own, ...extra];
  }, [run, own, open, titles]);

  const toggle = (view: string, on: boolean) => {
    // Names the page does not draw as a panel ("results") keep their place in the list.
    const next = order.filter((v) => (v === view ? on : open.includes(v)));
    store.setUi({ views: same(next, own) ? null : next });
  };

  const shown = order.filter((v) => v in titles);
  return (
    <details
      className="export-menu views-menu"
      data-testid="views-menu"
      onKeyDown={closeMenuOnEscape}
    >
      <summary className="btn btn-small">
        Views <span aria-hidden="true">▾</span>
      </summary>
      <div className="export-items views-items">
        <fieldset>
          <legend>Show on this page</legend>
          {shown.map((v) => (
            <label key={v} className="views-item">
              <input
                type="checkbox"
                checked={open.includes(v)}
                onChange={(e) => toggle(v, e.currentTarget.checked)}
                data-testid={`view-toggle-${v}`}
              />
              <span>{titles[v]}</span>
              {!own.includes(v) && <span className="views-extra">extra</span>}
            </label>
          ))}
        </fieldset>
        {chosen !== null && (
          <button
            type="button"
            className="export-item"
            onClick={() => store.setUi({ views: null })}
            data-testid="views-reset"
          >
            Back to this scenario&apos;s views
          </button>
        )}
      </div>
    </details>
  );
}
