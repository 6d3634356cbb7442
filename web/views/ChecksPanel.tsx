import { useRun } from '../store/store';
import type { Scenario } from '../scenarios/types';
import type { Check, ParameterTree } from '../engine/types';
import { formatValue, humanize } from '../model/format';
import { atDifference } from '../model/paramLabels';
import { CATEGORY_LABELS, CATEGORY_RESULT_KEYS } from '../model/busPhases';

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
  return humanize(metric);
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

export function ChecksPanel({ scenario }: { scenario: Scenario }) {
  const run = useRun();
  const refs = scenario.reference ?? [];
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
  const passed = checks.filter((c) => c.pass).length;
  return (
    <div data-testid="checks">
      <p className="checks-summary">
        <span className={passed === checks.length ? 'pill pill-pass' : 'pill pill-fail'}>
          {passed} of {checks.length} pass
        </span>
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
            {checks.map((c) => (
              <tr key={c.id}>
                <td>
                  <div>{c.description}</div>
                  {relativeText(c, run.output.parameters) && (
                    <div className="rel-claim" data-testid="relative-claim">
                      <span className="rel-claim-label">claim</span> simulated{' '}
                      {relativeText(c, run.output.parameters)}
                      {typeof c.relative_to?.value === 'number' && (
                        <span className="muted">
                          {' '}
                          ({valueText(c.relative_to.value, c.unit)}), so{' '}
                          {COMPARATORS[c.comparison ?? 'within']} {valueText(c.expected, c.unit)}
                          {c.comparison === 'within' && c.tolerance
                            ? ` ±${+(c.tolerance * 100).toFixed(1)}%`
                            : ''}
                        </span>
                      )}
                    </div>
                  )}
                  <div className="muted small">
                    <span className={`kind-tag kind-${c.kind}`}>{c.kind}</span> {c.source}
                  </div>
                </td>
                <td className="num mono nowrap">{valueText(c.expected, c.unit)}</td>
                <td className="num mono nowrap">{valueText(c.simulated, c.unit)}</td>
                <td className="num mono nowrap">{toleranceText(c.tolerance, c.comparison)}</td>
                <td>
                  <span className={c.pass ? 'pill pill-pass' : 'pill pill-fail'}>
                    {c.pass ? 'pass' : 'fail'}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
