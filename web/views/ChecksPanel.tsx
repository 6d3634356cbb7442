import { useRun } from '../store/store';
import type { Scenario } from '../scenarios/types';
import { formatValue } from '../model/format';

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
