// The papers' values on a chart, in words under it: for each value drawn beside a simulated
// point, who published it, the line and swept value it belongs to, the value with its tolerance,
// the simulated value, its source (seed, section, figure or table) and whether the comparison is
// exact, approximate or only qualitative. The glyphs on the chart carry the same marks; this
// list makes them readable without hovering, by keyboard and by screen readers.
import type { Check, RunOutput } from '../engine/types';
import type { ReferenceMark, SweepChartModel } from '../model/chart';
import { formatNumber } from '../model/format';
import { ReferenceGlyph } from './Chart';

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
  const tick = model.xTicks.find((t) => t.value === x)?.label;
  return tick ?? `${formatNumber(x)}${xUnit ? ` ${xUnit}` : ''}`;
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
      <table className="data-table chart-refs-table">
        <caption className="sr-only">
          The papers’ values beside the simulated ones, with their sources
        </caption>
        <thead>
          <tr>
            <th scope="col">line · at</th>
            <th scope="col" className="num">
              published
            </th>
            <th scope="col" className="num">
              simulated
            </th>
            <th scope="col">source</th>
            <th scope="col">comparison</th>
          </tr>
        </thead>
        <tbody>
          {marks.map((m) => {
            const line = model.lines.find((l) => l.name === m.line);
            return (
              <tr
                key={m.check.id}
                data-testid="chart-reference"
                data-check={m.check.id}
                data-kind={kindOf(m.check)}
              >
                <td>
                  <svg width="14" height="16" aria-hidden="true" className="chart-refs-glyph">
                    <ReferenceGlyph
                      shape={m.shape}
                      x={7}
                      y={m.shape === 'floor' ? 13 : m.shape === 'ceiling' ? 3 : 8}
                      color={m.color}
                      pass={m.pass}
                    />
                  </svg>
                  {line && line.label !== 'simulated' ? `${line.label} · ` : ''}
                  {xText(model, m.x, xUnit)}
                </td>
                <td className="num nowrap">
                  {m.who}: {m.claim}
                </td>
                <td className="num nowrap">
                  {simulatedText(m, model.yUnit)}{' '}
                  <span className={m.pass ? 'ref-ok' : 'ref-bad'}>
                    {m.pass ? '✓ within' : '✗ outside'}
                  </span>
                </td>
                <td className="chart-refs-source">{m.check.source}</td>
                <td>
                  <span className={`kind-tag kind-${kindOf(m.check)}`}>{kindOf(m.check)}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="chart-refs-foot muted small">
        {kinds.map((k) => KIND_WORDS[k] ?? k).join(' · ')}
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
