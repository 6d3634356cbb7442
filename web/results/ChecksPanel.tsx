import { useRun, useStore, useSweepProgress } from '../run/store';
import type { Scenario } from '../scenarios/types';
import type { Check, ParameterTree, RunOutput } from '../engine/types';
import { formatValue } from '../kit/format';
import { metricLabel } from '../kit/metricNames';
import { atDifference } from '../kit/paramLabels';
import { CATEGORY_LABELS, CATEGORY_RESULT_KEYS } from '../bus';
import {
  BASIS_WORDS,
  basisCounts,
  checkOutcome,
  OUTCOME_TEXT,
  outcomeOk,
  type CheckBasis,
} from '../kit/checkBasis';
import './checks.css';

/** "fitted" or "predicted", with what it means on hover. */
export function BasisTag({ basis }: { basis: CheckBasis | undefined }) {
  if (!basis) return null;
  return (
    <span className={`basis-tag basis-${basis}`} title={BASIS_WORDS[basis]} data-basis={basis}>
      {basis}
    </span>
  );
}

/** "±5%", "≥", "≤ +2%": how the simulated value is compared with the expected one. */
export function toleranceText(t: number | undefined, comparison: string | undefined): string {
  const pct = t ? `${+(t * 100).toFixed(2)}%` : '';
  switch (comparison ?? 'within') {
    case 'within':
      return t === undefined ? '—' : `±${pct || '0%'}`;
    case 'at_least':
      return pct ? `≥ −${pct}` : '≥';
    case 'at_most':
      return pct ? `≤ +${pct}` : '≤';
    default:
      return [comparison!.replace(/_/g, ' '), pct].filter(Boolean).join(' ');
  }
}

function valueText(v: unknown, unit: string | undefined): string {
  if (unit === 'fraction' && typeof v === 'number')
    return `${formatValue(Math.round(v * 1000) / 10)} %`;
  if (typeof v === 'number' && !Number.isInteger(v))
    return `${formatValue(Math.round(v * 10) / 10)}${unit ? ` ${unit}` : ''}`;
  return `${formatValue(v)}${unit ? ` ${unit}` : ''}`;
}

/** "bus_util_address" → "address cycles"; other metrics humanized. */
function metricWords(metric: string): string {
  const m = /^bus_util_(.+)$/.exec(metric);
  if (m) {
    const k = CATEGORY_RESULT_KEYS.indexOf(m[1]!);
    if (k >= 0) return `${CATEGORY_LABELS[k]} cycles`;
  }
  return metricLabel(metric);
}

const COMPARATORS: Record<string, string> = { at_least: '≥', at_most: '≤', within: '≈' };

/**
 * A relative claim in words: "≥ 1.5 × value at 33 MHz", "≤ 0.95 × Ethernet limit",
 * "≥ 3 × bus util address". Null for an absolute check.
 */
export function relativeText(c: Check, params?: ParameterTree): string | null {
  const rel = c.relative_to;
  if (!rel || c.factor === undefined) return null;
  const cmp = COMPARATORS[c.comparison ?? 'within'] ?? '';
  const sameMetric = !rel.metric || rel.metric === c.metric;
  const what = sameMetric ? 'value' : metricWords(rel.metric!);
  const where = atDifference(c.at, rel.at, params);
  // "at 33 MHz", "for receive", "for cost model".
  const numeric = Object.entries(rel.at ?? {}).every(
    ([k, v]) => typeof v === 'number' || (c.at ?? {})[k] === v,
  );
  const prep = numeric ? 'at' : 'for';
  return `${cmp} ${+c.factor.toFixed(3)} × ${what}${where.length ? ` ${prep} ${where.join(', ')}` : ''}`;
}

/** The unit of a metric in the run's results, or in the first sweep entry that has it. */
function metricUnit(output: Pick<RunOutput, 'results' | 'sweep'>, metric: string | undefined) {
  if (!metric) return undefined;
  return (
    output.results[metric]?.unit ??
    output.sweep.find((e) => e.results[metric])?.results[metric]!.unit
  );
}

/**
 * The units of a check's values: its expected and simulated values are in the metric's unit (for
 * a relative check the core has already multiplied the factor out; the check's own unit, "×" or
 * "× limit", is the factor's), the base value in the other metric's.
 */
export function checkUnits(
  c: Check,
  output: Pick<RunOutput, 'results' | 'sweep'>,
): { value: string | undefined; base: string | undefined } {
  if (!c.relative_to) return { value: c.unit, base: undefined };
  const value = metricUnit(output, c.metric) ?? c.unit;
  return { value, base: metricUnit(output, c.relative_to.metric ?? c.metric) ?? value };
}

/**
 * A relative check's claim with its numbers: "≥ 0.97 × Ethernet limit (947.9 Mb/s) = 919.4
 * Mb/s", "≥ 1.5 × value at 33 MHz (40.1 %) = 60.1 %"; null for an absolute check.
 */
export function relativeClaim(
  c: Check,
  output: Pick<RunOutput, 'results' | 'sweep' | 'parameters'>,
): { words: string; base: string | null; expected: string } | null {
  const words = relativeText(c, output.parameters);
  if (words === null) return null;
  const units = checkUnits(c, output);
  const base = c.relative_to?.value;
  return {
    words,
    base: typeof base === 'number' ? valueText(base, units.base) : null,
    expected:
      valueText(c.expected, units.value) +
      (c.comparison === 'within' && c.tolerance ? ` ±${+(c.tolerance * 100).toFixed(1)}%` : ''),
  };
}

export function ChecksPanel({ scenario }: { scenario: Scenario }) {
  const run = useRun();
  const stillRunning = useStore((s) => s.run === s.shown);
  const progress = useSweepProgress();
  const refs = scenario.reference ?? [];
  if (progress && refs.length > 0) {
    // The core computes the checks once every sweep point is in (any check may read one).
    const { done, total } = progress;
    return (
      <div data-testid="checks-pending">
        <p className="checks-summary muted">
          {stillRunning
            ? `All ${refs.length} checks wait for the sweep (${done} of ${total} points in).`
            : `The sweep stopped at ${done} of ${total} points, so the ${refs.length} checks were not computed: run again to see them.`}
        </p>
        <ul className="plain">
          {refs.map((r) => (
            <li key={r.id}>
              {r.description} <span className="muted">({r.source})</span>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (!run) {
    if (refs.length === 0) return <p className="muted">This scenario has no reference values.</p>;
    return (
      <ul className="plain">
        {refs.map((r) => (
          <li key={r.id}>
            {r.description} <span className="muted">({r.source})</span>
          </li>
        ))}
      </ul>
    );
  }
  const checks = run.output.checks;
  if (checks.length === 0) return <p className="muted">This scenario has no reference values.</p>;
  const outcomes = checks.map(checkOutcome);
  const passed = outcomes.filter((o) => o === 'pass').length;
  const explained = outcomes.filter((o) => o === 'known_miss').length;
  const counts = basisCounts(checks);
  return (
    <div data-testid="checks">
      <p className="checks-summary">
        <span className={outcomes.every(outcomeOk) ? 'pill pill-pass' : 'pill pill-fail'}>
          {passed} of {checks.length} pass
          {explained > 0 && `, ${explained} explained ${explained === 1 ? 'miss' : 'misses'}`}
        </span>{' '}
        {counts.predicted + counts.fitted > 0 && (
          <span className="muted small" data-testid="checks-basis-summary">
            {counts.hold} of {counts.predicted} prediction{counts.predicted === 1 ? '' : 's'} hold
            {counts.fitted > 0 &&
              ` · ${counts.fitted} fitted value${counts.fitted === 1 ? '' : 's'} (a parameter was tuned on ${counts.fitted === 1 ? 'it' : 'them'})`}
          </span>
        )}
      </p>
      <div className="table-scroll">
        <table className="data-table checks-table">
          <thead>
            <tr>
              <th scope="col">reference</th>
              <th scope="col" className="num">
                expected
              </th>
              <th scope="col" className="num">
                simulated
              </th>
              <th scope="col" className="num">
                tolerance
              </th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((c) => {
              const claim = relativeClaim(c, run.output);
              const unit = checkUnits(c, run.output).value;
              const outcome = checkOutcome(c);
              return (
                <tr key={c.id} data-basis={c.basis} data-outcome={outcome}>
                  <td>
                    <div>{c.description}</div>
                    {claim && (
                      <div className="rel-claim" data-testid="relative-claim">
                        <span className="rel-claim-label">claim</span> simulated {claim.words}
                        {claim.base !== null && (
                          <span className="muted"> ({claim.base})</span>
                        )} = <span className="nowrap">{claim.expected}</span>
                      </div>
                    )}
                    {c.known_miss && (
                      <div className="known-miss" data-testid="known-miss">
                        <span className="rel-claim-label">why it misses</span> {c.known_miss}
                      </div>
                    )}
                    <div className="muted small">
                      <BasisTag basis={c.basis} />{' '}
                      <span className={`kind-tag kind-${c.kind}`}>{c.kind}</span> {c.source}
                    </div>
                  </td>
                  <td className="num mono nowrap">{valueText(c.expected, unit)}</td>
                  <td className="num mono nowrap">{valueText(c.simulated, unit)}</td>
                  <td className="num mono nowrap">{toleranceText(c.tolerance, c.comparison)}</td>
                  <td>
                    <span
                      className={`pill ${outcome === 'pass' ? 'pill-pass' : outcome === 'known_miss' ? 'pill-explained' : 'pill-fail'}`}
                    >
                      {OUTCOME_TEXT[outcome]}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
