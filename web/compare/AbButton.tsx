// The scenario page's way into the A/B view: the scenario's own comparison when it declares one
// and the knobs are as written; otherwise the scenario as written against the knobs' changes.
import { comparisonOf } from './ab';
import type { Overrides } from '../run/overrides';
import type { ScenarioEntry } from '../scenarios/types';
import { openAb } from './AbPage';

export function AbButton({ entry, requested }: { entry: ScenarioEntry; requested: Overrides }) {
  const c = comparisonOf(entry.scenario);
  const changed = Object.keys(requested).length > 0;
  const title = changed
    ? 'Run the scenario as written (A) beside your changes (B), with the same seed'
    : c
      ? `Run ${c.a.label} (A) beside ${c.b.label} (B), with the same seed`
      : 'Pick what B changes and run it beside the scenario as written, with the same seed';
  return (
    <button
      type="button"
      className="btn btn-small btn-ab"
      onClick={() => openAb(entry.id, requested)}
      title={title}
      data-testid="open-ab"
    >
      {c && !changed ? `A/B: ${c.a.label} vs ${c.b.label}` : 'Compare A/B…'}
    </button>
  );
}
