// "Export" menus: a chart as SVG, PNG or CSV (in the chart panel), and the run as a scenario file
// the CLI runs, its results as CSV or its trace for Perfetto (in the page header).
import { closeMenuOnEscape } from '../kit/keys';
import { useState, type ReactNode, type RefObject } from 'react';
import { download, standaloneSvg, svgToPng, type LegendEntry } from './download';
import './export.css';
import { useRun, useSweepProgress } from '../run/store';
import type { Overrides } from '../run/overrides';
import {
  exportFileName,
  perfettoTrace,
  resultsCsv,
  scenarioWithOverrides,
  sweepCsv,
} from './exports';

export interface ExportItem {
  /** What the button says ("Chart as SVG"). */
  label: string;
  /** Why it is disabled, when it is. */
  unavailable?: string;
  /** Writes the file; may be async (PNG). */
  run: () => void | Promise<void>;
  testId?: string;
}

export function ExportMenu({
  label = 'Export',
  items,
  testId,
}: {
  label?: ReactNode;
  items: ExportItem[];
  testId?: string;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <details className="export-menu" data-testid={testId} onKeyDown={closeMenuOnEscape}>
      <summary className="btn btn-small">
        {label} <span aria-hidden="true">▾</span>
      </summary>
      <div
        className="export-items"
        role="group"
        aria-label={typeof label === 'string' ? label : 'Export'}
      >
        {items.map((it) => (
          <button
            key={it.label}
            type="button"
            className="export-item"
            disabled={!!it.unavailable}
            title={it.unavailable}
            data-testid={it.testId}
            onClick={async (e) => {
              setProblem(null);
              const menu = e.currentTarget.closest('details');
              try {
                await it.run();
                if (menu) menu.open = false;
              } catch (err) {
                setProblem(`${it.label}: ${err instanceof Error ? err.message : String(err)}`);
              }
            }}
          >
            {it.label}
          </button>
        ))}
        {problem && (
          <p className="export-problem" role="alert">
            {problem}
          </p>
        )}
      </div>
    </details>
  );
}

/** The chart exports (SVG, PNG, CSV) for the chart inside `container`. */
export function ChartExportMenu({
  container,
  title,
  legend,
  fileBase,
  csv,
}: {
  container: RefObject<HTMLElement | null>;
  title: string;
  /** The legend to draw under the chart (read when exporting), if any. */
  legend: RefObject<LegendEntry[]> | null;
  fileBase: string;
  csv: (() => string) | null;
}) {
  const svg = () => {
    const el = container.current?.querySelector<SVGSVGElement>('svg.chart-svg');
    if (!el) throw new Error('there is no chart to export yet');
    return standaloneSvg(el, { title, legend: legend?.current ?? [] });
  };
  const items: ExportItem[] = [
    {
      label: 'Chart as SVG',
      testId: 'export-svg',
      run: () => download(`${fileBase}.svg`, svg().text, 'image/svg+xml'),
    },
    {
      label: 'Chart as PNG',
      testId: 'export-png',
      run: async () => download(`${fileBase}.png`, await svgToPng(svg())),
    },
    {
      label: 'Data as CSV',
      testId: 'export-csv',
      unavailable: csv ? undefined : 'this chart has no data yet',
      run: () => download(`${fileBase}.csv`, csv!(), 'text/csv'),
    },
  ];
  return <ExportMenu items={items} testId="chart-export" />;
}

/**
 * The shown run as files: the scenario with the run's overrides (the CLI runs it and gets the
 * same results), its results as CSV, and its trace as Trace Event Format JSON for Perfetto
 * (tracks of work, the causes as flows, the time series as counters).
 */
export function RunDownloads({
  scenarioText,
  scenarioId,
}: {
  scenarioText: string;
  scenarioId: string;
}) {
  const run = useRun();
  const progress = useSweepProgress();
  const none = run ? undefined : 'run the scenario first';
  const items: ExportItem[] = [
    {
      label: 'Scenario with these settings (JSON)',
      testId: 'download-scenario',
      unavailable: none,
      run: () =>
        download(
          exportFileName(scenarioId, Object.keys(run!.overrides).length ? 'changed' : '', 'json'),
          scenarioWithOverrides(scenarioText, run!.overrides as Overrides),
          'application/json',
        ),
    },
    {
      label: 'Results (CSV)',
      testId: 'download-results',
      unavailable:
        none ??
        (progress
          ? `the sweep is still running (${progress.done} of ${progress.total} points)`
          : undefined),
      run: () =>
        download(
          exportFileName(scenarioId, run!.output.sweep.length ? 'sweep' : 'results', 'csv'),
          run!.output.sweep.length ? sweepCsv(run!.output) : resultsCsv(run!.output.results),
          'text/csv',
        ),
    },
    {
      label: 'Trace for Perfetto (JSON)',
      testId: 'download-trace',
      unavailable: none ?? (run!.trace.length === 0 ? 'this run recorded no trace' : undefined),
      run: () =>
        download(
          exportFileName(scenarioId, 'trace', 'json'),
          perfettoTrace(run!.trace, run!.index, {
            scenario: run!.output.scenario,
            seed: run!.output.seed,
            series: run!.output.series,
          }),
          'application/json',
        ),
    },
  ];
  return <ExportMenu label="Download" items={items} testId="run-downloads" />;
}
