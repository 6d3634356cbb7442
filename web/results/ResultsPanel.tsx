import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { afterNextPaint } from '../kit/afterPaint';
import { useRun } from '../run/store';
import type { Metric, ParameterSpec } from '../engine/types';
import { flattenParameters } from '../run/overrides';
import { normalizeNote, type Scenario } from '../scenarios/types';
import { formatNumber, formatValue } from '../kit/format';
import { categoryLabel, isCategorical, metricLabel, unitLabel } from '../kit/metricNames';

/** A metric for display: fractions as percentages, units kept. */
export function metricText(m: Metric): { value: string; unit: string } {
  if (isCategorical(m.unit)) return { value: categoryLabel(m.unit, m.value), unit: '' };
  if (m.unit === 'fraction')
    return { value: formatNumber(Math.round(m.value * 1000) / 10), unit: '%' };
  return {
    value: formatValue(
      typeof m.value === 'number' && !Number.isInteger(m.value)
        ? Math.round(m.value * 10) / 10
        : m.value,
    ),
    unit: unitLabel(m.unit),
  };
}

/** Splits an origin into its "chosen" mark and text: "chosen: why" → {chosen, "why"}. */
export function parseOrigin(origin: string | undefined): { chosen: boolean; text: string } {
  if (!origin) return { chosen: false, text: '' };
  const m = /^\s*chosen\b\s*:?\s*/i.exec(origin);
  return m ? { chosen: true, text: origin.slice(m[0].length) } : { chosen: false, text: origin };
}

const KEY_METRICS = [
  'udp_tx_throughput',
  'udp_rx_throughput',
  'bus_utilization',
  'host_cpu_utilization',
];

export function ResultsPanel({ scenario }: { scenario: Scenario }) {
  const run = useRun();
  const params = useMemo(() => (run ? flattenParameters(run.output.parameters) : []), [run]);
  const specs = useMemo(
    () => new Map<string, ParameterSpec>((run?.parameterInfo ?? []).map((p) => [p.path, p])),
    [run],
  );
  if (!run) return <div className="placeholder">Results appear when the simulation has run.</div>;
  const results = run.output.results;
  // TCP-segment workloads move content, not UDP datagrams: their UDP rates are zero.
  const content =
    (results.content_throughput?.value ?? 0) > 0 &&
    (results.udp_total_throughput?.value ?? 0) === 0;
  // The chart's metrics and the ones the paper's references name come first; the defaults
  // fill up to six cards and are left out when zero (a CPU benchmark moves no UDP).
  const referenced = (scenario.reference ?? []).map((r) => r.metric);
  const keyNames = [
    scenario.chart?.y,
    scenario.chart?.limit,
    ...referenced,
    ...(content ? ['content_throughput'] : []),
    ...KEY_METRICS.filter((n) => (results[n]?.value ?? 0) !== 0),
  ]
    .filter((n, i, a): n is string => !!n && !!results[n] && a.indexOf(n) === i)
    .slice(0, 6);
  const rest = Object.keys(results).filter((n) => !keyNames.includes(n));
  const notes = scenario.parameter_notes ?? {};
  return (
    <div className="results" data-testid="results">
      <div className="metrics">
        {keyNames.map((name) => {
          const t = metricText(results[name]!);
          return (
            <div className="metric" key={name}>
              <div className="metric-name">{metricLabel(name)}</div>
              <div className="metric-value mono">
                {t.value}
                {t.unit && <span className="metric-unit"> {t.unit}</span>}
              </div>
            </div>
          );
        })}
      </div>
      {rest.length > 0 && (
        <LaterDetails
          run={run}
          summary={
            <>
              All metrics <span className="muted">({Object.keys(results).length}, main run)</span>
            </>
          }
        >
          {() => (
            <table className="data-table metrics-table">
              <tbody>
                {rest.map((name) => {
                  const t = metricText(results[name]!);
                  return (
                    <tr key={name}>
                      <td title={name}>{metricLabel(name)}</td>
                      <td className="num mono">{t.value}</td>
                      <td className="muted">{t.unit}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </LaterDetails>
      )}
      <LaterDetails
        run={run}
        summary={
          <>
            Effective parameters{' '}
            <span className="muted">
              ({params.length}, seed {run.output.seed})
            </span>
          </>
        }
      >
        {() => (
          <table className="data-table params-table">
            <thead>
              <tr>
                <th scope="col">parameter</th>
                <th scope="col" className="num">
                  value
                </th>
                <th scope="col">source</th>
              </tr>
            </thead>
            <tbody>
              {params.map(([path, v]) => {
                const spec = specs.get(path);
                const note = normalizeNote(notes[path]);
                const origin = parseOrigin(spec?.origin);
                const chosen = note ? note.chosen : origin.chosen;
                return (
                  <tr key={path} className={note ? 'has-note' : ''}>
                    <td>
                      <div className="mono" title={spec?.description}>
                        {path}
                      </div>
                      {spec?.description && <div className="muted small">{spec.description}</div>}
                    </td>
                    <td className="num mono nowrap">
                      {formatValue(v)}
                      {spec?.unit ? <span className="muted"> {spec.unit}</span> : null}
                    </td>
                    <td className="small">
                      {chosen && <span className="kind-tag kind-chosen">chosen</span>}{' '}
                      {note ? (
                        <>
                          <span className="kind-tag">scenario</span> {note.text}
                        </>
                      ) : (
                        origin.text
                      )}
                      {spec?.fitted_to && spec.fitted_to.length > 0 && (
                        <div className="muted" data-testid="fitted-to">
                          <span className="basis-tag basis-fitted">fitted</span> to{' '}
                          {spec.fitted_to.join(', ')}
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </LaterDetails>
    </div>
  );
}

/**
 * A closed <details> whose contents are built once the frame that shows the run is painted, or
 * at once when it is open: a run's first view does not wait for hundreds of table rows that
 * nobody sees yet, and a frame later they are there (find in page opens it on a match).
 */
function LaterDetails({
  run,
  summary,
  children,
}: {
  run: unknown;
  summary: ReactNode;
  children: () => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [built, setBuilt] = useState<unknown>(null);
  useEffect(() => {
    if (built === run) return;
    return afterNextPaint(() => setBuilt(run));
  }, [run, built]);
  return (
    <details className="params" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {(open || built === run) && children()}
    </details>
  );
}
