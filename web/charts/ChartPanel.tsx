import { useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { useRun, useSweepOutput, useSweepProgress, useViewCursor } from '../run/store';
import { DEFAULT_BOX, sweepChartModel, timeSeriesModel } from './chart';
import { seriesStart, sweepAxisLabel } from '../kit/sweep';
import { humanize, timeUnitFor } from '../kit/format';
import { metricLabel } from '../kit/metricNames';
import type { Scenario } from '../scenarios/types';
import type { ParameterSpec, RunOutput } from '../engine/types';
import { SweepChart, TimeSeriesChart } from './Chart';
import { ChartReferences, SeriesReferencesNote } from './ChartReferences';
import { paramValueLabel } from '../kit/paramLabels';
import { relativeText } from '../results';
import { ChartExportMenu } from '../export';
import type { LegendEntry } from '../export';
import { exportBaseName, seriesCsv, sweepCsv } from '../export';

/** The series value (number or string) of a series name as groupSweep keys it. */
export function seriesValue(output: Pick<RunOutput, 'sweep'>, name: string): unknown {
  return (
    output.sweep.find((e) => e.series !== undefined && String(e.series) === name)?.series ?? name
  );
}

function SweepSection({
  output,
  scenario,
  metric,
  specs,
  legendRef,
}: {
  output: RunOutput;
  scenario: Scenario;
  /** The y metric shown: the chart's y or one of its "also" metrics. */
  metric: string | undefined;
  specs: ParameterSpec[];
  /** Filled with the legend the exported chart draws. */
  legendRef: MutableRefObject<LegendEntry[]>;
}) {
  const spec = useMemo(
    () =>
      scenario.chart
        ? metric && metric !== scenario.chart.y
          ? { x: scenario.chart.x, y: metric } // the limit line belongs to the first metric
          : scenario.chart
        : {
            y: Object.keys(output.sweep[0]?.results ?? {})[0] ?? '',
            limit: 'ethernet_limit',
          },
    [scenario.chart, metric, output.sweep],
  );
  const xParam = spec.x ?? output.sweep_spec?.parameter;
  const ax = sweepAxisLabel(
    xParam,
    specs.find((p) => p.path === xParam),
  );
  const seriesParam = output.sweep_spec?.series_parameter ?? undefined;
  const model = useMemo(
    () =>
      sweepChartModel(output, spec, {
        x: `${ax.label}${ax.unit ? ` (${ax.unit})` : ''}`,
        y: metricLabel(spec.y),
        series: seriesParam
          ? (name) =>
              paramValueLabel(
                seriesParam,
                seriesValue(output, name),
                output.parameters,
                specs.find((p) => p.path === seriesParam),
              )
          : undefined,
        relation: (c) => relativeText(c, output.parameters),
      }),
    [output, spec, ax.label, ax.unit, seriesParam, specs],
  );
  useEffect(() => {
    legendRef.current = model.lines.map((l) => ({ label: l.label, color: l.color }));
  }, [model, legendRef]);
  return (
    <>
      <SweepChart
        model={model}
        xUnit={ax.unit}
        limitLabel={spec.limit ? metricLabel(spec.limit) : undefined}
      />
      {output.pending ? (
        // The published values are drawn with the checks, which the core computes at the end.
        <p className="chart-refs-none muted small" data-testid="chart-references-pending">
          Published values are drawn here when the sweep is done and the checks are in.
        </p>
      ) : (
        <ChartReferences
          model={model}
          xUnit={ax.unit}
          otherChecks={output.checks.length - model.marks.length}
        />
      )}
    </>
  );
}

function SeriesSection({
  output,
  which,
  setWhich,
}: {
  output: RunOutput;
  which: number;
  setWhich: (i: number) => void;
}) {
  const cursor = useViewCursor();
  const s = output.series[Math.min(which, output.series.length - 1)]!;
  const span = (s.values.length - 1) * s.interval_ps + seriesStart(s);
  const unit = timeUnitFor(Math.max(span, 1));
  const model = useMemo(
    () => timeSeriesModel(s, cursor, unit, { ...DEFAULT_BOX, height: 300 }),
    [s, cursor, unit],
  );
  return (
    <div>
      {output.series.length > 1 && (
        <label className="series-pick">
          <span className="muted small">series</span>
          <select value={which} onChange={(e) => setWhich(Number(e.currentTarget.value))}>
            {output.series.map((x, i) => (
              <option key={x.name} value={i}>
                {humanize(x.name)}
                {x.unit ? ` (${x.unit})` : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <TimeSeriesChart model={model} />
      <SeriesReferencesNote output={output} />
    </div>
  );
}

export function ChartPanel({ scenario, headingId }: { scenario: Scenario; headingId: string }) {
  const run = useRun();
  // The sweep's entries so far while it runs.
  const output = useSweepOutput() ?? undefined;
  // A sweep still running counts: its points fill the chart as they come in.
  const hasSweep = !!output && (output.sweep.length > 0 || !!output.pending);
  const progress = useSweepProgress();
  const hasSeries = !!output && output.series.length > 0;
  const [tab, setTab] = useState<'sweep' | 'series'>('sweep');
  const show =
    hasSweep && (tab === 'sweep' || !hasSeries) ? 'sweep' : hasSeries ? 'series' : 'none';
  const [which, setWhich] = useState(0);
  // A chart may offer more than one y metric (e.g. throughput and requests/s, Tables 4.4-4.7).
  const metrics = scenario.chart ? [scenario.chart.y, ...(scenario.chart.also ?? [])] : [];
  const [metric, setMetric] = useState(metrics[0]);
  const body = useRef<HTMLDivElement>(null);
  const legend = useRef<LegendEntry[]>([]);
  const series = output?.series[Math.min(which, output.series.length - 1)];
  const title =
    show === 'sweep'
      ? `${metricLabel(metric ?? 'throughput')} across the sweep`
      : show === 'series'
        ? 'Over time'
        : 'Chart';
  return (
    <>
      <div className="panel-head">
        <h2 id={headingId}>{title}</h2>
        {show !== 'none' && (
          <ChartExportMenu
            container={body}
            title={`${scenario.title}: ${show === 'series' && series ? humanize(series.name) : title}`}
            legend={show === 'sweep' ? legend : null}
            fileBase={exportBaseName(scenario.id, show === 'series' ? 'over-time' : 'sweep')}
            csv={
              output && show === 'sweep'
                ? () => {
                    if (progress) {
                      throw new Error(
                        `the sweep is still running (${progress.done} of ${progress.total} points); its data comes when every point is in`,
                      );
                    }
                    return sweepCsv(output);
                  }
                : show === 'series' && series
                  ? () => seriesCsv(series)
                  : null
            }
          />
        )}
        {hasSweep && hasSeries && (
          <div className="seg" role="tablist" aria-label="Chart">
            <button
              type="button"
              role="tab"
              aria-selected={show === 'sweep'}
              className={show === 'sweep' ? 'on' : ''}
              onClick={() => setTab('sweep')}
            >
              Sweep
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={show === 'series'}
              className={show === 'series' ? 'on' : ''}
              onClick={() => setTab('series')}
            >
              Over time
            </button>
          </div>
        )}
      </div>
      {show === 'sweep' && metrics.length > 1 && (
        <div className="seg seg-metric" role="group" aria-label="Metric" data-testid="chart-metric">
          {metrics.map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={metric === m}
              className={metric === m ? 'on' : ''}
              onClick={() => setMetric(m)}
            >
              {metricLabel(m).replace(/ \(.*\)$/, '')}
            </button>
          ))}
        </div>
      )}
      {!output && <div className="placeholder">The chart appears when the simulation has run.</div>}
      <div ref={body}>
        {output && show === 'sweep' && output.sweep.length === 0 && (
          <div className="placeholder" data-testid="sweep-waiting">
            The sweep&rsquo;s points are running; they appear here as they come in.
          </div>
        )}
        {output && show === 'sweep' && output.sweep.length > 0 && (
          <SweepSection
            output={output}
            scenario={scenario}
            metric={metric}
            specs={run?.parameterInfo ?? []}
            legendRef={legend}
          />
        )}
        {output && show === 'series' && (
          <SeriesSection output={output} which={which} setWhich={setWhich} />
        )}
        {output && show === 'none' && (
          <p className="muted">This run produced no sweep and no time series.</p>
        )}
      </div>
    </>
  );
}
