// The papers' values on a chart, in words under it: for each value drawn beside a simulated
// point, who published it, the line and swept value it belongs to, the value with its tolerance,
// the simulated value, its source (seed, section, figure or table) and whether the comparison is
// exact, approximate or only qualitative. The glyphs on the chart carry the same marks; this
// list makes them readable without hovering, by keyboard and by screen readers.
import type { Check, RunOutput } from '../engine/types';
import type { ReferenceMark, SweepChartModel } from './chart';
import { formatNumber } from '../kit/format';
import { ReferenceGlyph } from './Chart';
import { BASIS_WORDS, checkOutcome } from '../kit/checkBasis';

/** What each kind of comparison means, as the legend says it. */
export const KIND_WORDS: Record<string, string> = {
  exact: 'exact: the paper’s number, within the tolerance',
  approximate: 'approximate: read off the paper’s figure',
  qualitative: 'qualitative: the trend or ordering the paper states',
};

function kindOf(c: Check): string {
  return c.kind ?? 'approximate';
}

function xText(model: SweepChartModel, x: number, xUnit: string): string {
  if (model.xCategories) return model.xCategories[x - 1] ?? String(x);
  // A size tick says its unit ("16 MB"); a plain number gets the axis's.
  const tick = model.xTicks.find((t) => t.value === x)?.label;
  if (tick && !/^[\d,.]+$/.test(tick)) return tick;
  return `${formatNumber(x)}${xUnit ? ` ${xUnit}` : ''}`;
}

function simulatedText(m: ReferenceMark, unit: string): string {
  if (m.simulated === null) return 'not simulated';
  const v = formatNumber(+m.simulated.toPrecision(4));
  return unit === '%' ? `${v}%` : unit ? `${v} ${unit}` : v;
}

export function ChartReferences({
  model,
  xUnit = '',
  otherChecks,
}: {
  model: SweepChartModel;
  xUnit?: string;
  /** The run's checks that are not on this chart's axes (other metrics, other runs). */
  otherChecks: number;
}) {
  const marks = [...model.marks].sort((p, q) => p.x - q.x || q.y - p.y);
  const kinds = [...new Set(marks.map((m) => kindOf(m.check)))];
  if (marks.length === 0)
    return (
      <p className="chart-refs-none muted small" data-testid="chart-references-none">
        {otherChecks > 0
          ? `No published value lies on this chart’s axes; the ${otherChecks} reference value${otherChecks === 1 ? '' : 's'} of this scenario ${otherChecks === 1 ? 'is' : 'are'} compared in “Checks against the reference”.`
          : 'No published value to compare with: the papers give none for this chart.'}
      </p>
    );
  return (
    <details className="chart-refs" open data-testid="chart-references">
      <summary>
        Published values on this chart ({marks.length}):{' '}
        {kinds.map((k) => (
          <span key={k} className={`kind-tag kind-${k}`}>
            {k}
          </span>
        ))}
      </summary>
      <ul className="chart-refs-list">
        {marks.map((m) => {
          const line = model.lines.find((l) => l.name === m.line);
          return (
            <li
              key={m.check.id}
              data-testid="chart-reference"
              data-check={m.check.id}
              data-kind={kindOf(m.check)}
              data-basis={m.check.basis}
            >
              <svg width="14" height="16" aria-hidden="true" className="chart-refs-glyph">
                <ReferenceGlyph
                  shape={m.shape}
                  x={7}
                  y={m.shape === 'floor' ? 13 : m.shape === 'ceiling' ? 3 : 8}
                  color={m.color}
                  pass={m.pass}
                  filled={m.predicted}
                />
              </svg>
              <div>
                <div>
                  <b>
                    {`${line && line.label !== 'simulated' ? `${line.label} · ` : ''}${xText(model, m.x, xUnit)}`}
                  </b>{' '}
                  — {m.who}: <span className="nowrap">{m.claim}</span>; simulated{' '}
                  <span className="nowrap">
                    {simulatedText(m, model.yUnit)}{' '}
                    <span className={m.pass ? 'ref-ok' : 'ref-bad'}>
                      {m.pass ? '✓ within' : '✗ outside'}
                    </span>
                    {checkOutcome(m.check) === 'known_miss' && ' (misses — explained)'}
                  </span>
                  {m.check.known_miss && (
                    <div className="muted small">Why it misses: {m.check.known_miss}</div>
                  )}
                </div>
                <div className="chart-refs-source">
                  {m.check.basis && (
                    <span
                      className={`chart-refs-basis chart-refs-basis-${m.check.basis}`}
                      title={BASIS_WORDS[m.check.basis]}
                    >
                      {m.check.basis}
                    </span>
                  )}{' '}
                  {m.check.source}{' '}
                  <span className={`kind-tag kind-${kindOf(m.check)}`}>{kindOf(m.check)}</span>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="chart-refs-foot muted small">
        {kinds.map((k) => KIND_WORDS[k] ?? k).join(' · ')}
        {marks.some((m) => m.check.basis) &&
          ' · filled mark: predicted, no parameter was tuned on it · hollow mark: fitted, a parameter was tuned on it'}
        {otherChecks > 0 &&
          ` · ${otherChecks} more reference value${otherChecks === 1 ? '' : 's'} of other metrics in “Checks against the reference”`}
      </p>
    </details>
  );
}

/** Under a time series: the papers publish no series; where their values are instead. */
export function SeriesReferencesNote({ output }: { output: Pick<RunOutput, 'sweep' | 'checks'> }) {
  const n = output.checks.length;
  return (
    <p className="chart-refs-none muted small" data-testid="chart-references-none">
      {n === 0
        ? 'No published value to compare with: the papers give none for this run.'
        : `The papers publish no time series to draw here: their ${n} value${n === 1 ? ' is' : 's are'} ${
            output.sweep.length > 0 ? 'on the Sweep chart and ' : ''
          }in “Checks against the reference”.`}
    </p>
  );
}
