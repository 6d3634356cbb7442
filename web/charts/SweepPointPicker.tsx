// The sweep point a view's trace shows. The trace is the main run's, made with the scenario's own
// value of the swept parameter (or the knob's); picking another point re-runs with that value as
// an override, exactly as the knob would, so the knob panel shows the change too.
import { createContext, useContext } from 'react';
import { paramAt, type RunOutput } from '../engine/types';
import { withOverride, type OverrideValue, type Overrides } from '../run/overrides';
import { paramValueLabel } from '../kit/paramLabels';

/** What a view needs to run another sweep point (from the scenario page). */
export interface SweepPick {
  requested: Overrides;
  base: ReadonlyMap<string, unknown>;
  running: boolean;
  run: (overrides: Overrides) => void;
}

export const SweepPickContext = createContext<SweepPick | null>(null);

/** "no cache" for a NIC cache of 0 KB, else the parameter's usual label ("16 MB"). */
export function sweepPointLabel(
  param: string,
  v: unknown,
  parameters?: RunOutput['parameters'],
): string {
  if (param === 'system.nic_cache.kbytes' && v === 0) return 'no cache';
  return paramValueLabel(param, v, parameters);
}

/** The distinct values of the swept parameter, in the sweep's order. */
export function sweepValues(output: RunOutput): Array<number | string> {
  const seen = new Set<string>();
  const out: Array<number | string> = [];
  for (const e of output.sweep) {
    if (seen.has(String(e.value))) continue;
    seen.add(String(e.value));
    out.push(e.value);
  }
  return out;
}

/** The distinct values of the series parameter (a second swept parameter), in order. */
export function seriesValues(output: RunOutput): Array<number | string> {
  const seen = new Set<string>();
  const out: Array<number | string> = [];
  for (const e of output.sweep) {
    if (e.series === undefined || e.series === null || seen.has(String(e.series))) continue;
    seen.add(String(e.series));
    out.push(e.series as number | string);
  }
  return out;
}

function PickRow({
  output,
  param,
  values,
  label,
  testId,
}: {
  output: RunOutput;
  param: string;
  values: Array<number | string>;
  label: string;
  testId: string;
}) {
  const pick = useContext(SweepPickContext);
  const current = paramAt(output.parameters, param);
  const choose = (v: number | string) => {
    if (!pick) return;
    pick.run(withOverride(pick.requested, param, v as OverrideValue, pick.base));
  };
  return (
    <div className="sweep-pick" role="group" aria-label={label}>
      <span className="sweep-pick-label">{label}</span>
      <span className="seg">
        {values.map((v) => {
          const on = String(v) === String(current);
          return (
            <button
              key={String(v)}
              type="button"
              className={on ? 'on' : ''}
              aria-pressed={on}
              disabled={!pick || pick.running}
              onClick={() => !on && choose(v)}
              data-testid={testId}
              data-value={String(v)}
            >
              {sweepPointLabel(param, v, output.parameters)}
            </button>
          );
        })}
      </span>
    </div>
  );
}

/** Buttons that run another point of the sweep (and of its series, when it has one). */
export function SweepPointPicker({ output, label }: { output: RunOutput; label?: string }) {
  const param = output.sweep_spec?.parameter;
  const values = sweepValues(output);
  const seriesParam = output.sweep_spec?.series_parameter ?? undefined;
  const series = seriesValues(output);
  const main =
    param && values.length >= 2 ? (
      <PickRow
        output={output}
        param={param}
        values={values}
        label={label ?? 'Sweep point'}
        testId="sweep-pick"
      />
    ) : null;
  if (!seriesParam || series.length < 2) return main;
  return (
    <div className="sweep-pick-rows">
      {main}
      <PickRow
        output={output}
        param={seriesParam}
        values={series}
        label="Series"
        testId="sweep-pick-series"
      />
    </div>
  );
}
