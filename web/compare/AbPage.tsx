// The A/B view: two variants of one scenario, run with the same seed, side by side.
// Each side has its own Store, so every existing view renders from its own run; one playback bar
// drives A's cursor and linkCursors keeps B's at the same simulated time. The differences table
// is arithmetic on the two runs' results (B − A and its share of A); the model is the core's.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { usePlaybackClock } from '../run/usePlaybackClock';
import { EngineError } from '../engine/client';
import { enginePool } from '../engine/pool';
import { decodeTrace } from '../trace/trace';
import type { ParameterSpec, TimeSeries, ValidationError } from '../engine/types';
import {
  SIDES,
  SIGNIFICANT,
  categoryLabel,
  changedParameters,
  comparisonOf,
  defaultComparison,
  describeSet,
  diffResults,
  isCategorical,
  overlayModel,
  publishedValues,
  scenarioValues,
  sharedSeries,
  relativeText,
  variantText,
  type Comparison,
  type DiffRow,
  type Side,
} from './ab';
import { parameterLabel, parameterMap, valueWithUnit, type Overrides } from '../run/overrides';
import { DEFAULT_BOX } from '../charts';
import { formatNumber, formatTime, formatValue, timeUnitFor } from '../kit/format';
import { metricLabel, unitLabel } from '../kit/metricNames';
import type { Scenario, ScenarioEntry } from '../scenarios/types';
import {
  Store,
  StoreContext,
  doneState,
  initialLogState,
  useStore,
  type DoneRun,
} from '../run/store';
import { linkCursors } from '../run/linkCursors';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { abHref, scenarioHref } from '../app/route';
import { engineLog, isLogPage } from '../webserver';
import { Axes } from '../charts';
import { EventLog } from '../playback';
import { KnobPanel } from '../knobs';
import { PlaybackBar } from '../playback';
import { BasisTag, metricText } from '../results';
import { RunStatus } from '../results';
import { panelOf, viewEntry } from '../views';
import { useWidth } from '../kit/useWidth';
import './ab.css';

const NO_ERRORS: ValidationError[] = [];
const NO_SPECS: ParameterSpec[] = [];
/** Significant differences listed beside the comparison's own metrics before "Show …". */
const MORE_ROWS = 10;

// A comparison handed over by the scenario page's "Compare…" (its knobs become B), kept for the
// next A/B page of that scenario only, in this tab only.
let handoff: { id: string; b: Overrides } | null = null;

/** Opens the A/B view of a scenario; non-empty `b` makes it "as written" against those changes. */
export function openAb(id: string, b: Overrides): void {
  handoff = Object.keys(b).length ? { id, b } : null;
  window.location.hash = abHref(id);
}

function initialComparison(entry: ScenarioEntry): Comparison {
  const taken = handoff && handoff.id === entry.id ? handoff.b : null;
  handoff = null;
  if (taken) return defaultComparison(taken);
  return comparisonOf(entry.scenario) ?? defaultComparison();
}

/** B has something to compare: the scenario's block, or a change the viewer made. */
function bRuns(c: Comparison): boolean {
  return JSON.stringify(c.a.set) !== JSON.stringify(c.b.set);
}

/**
 * Runs the variants that changed, A before B, each in the engine's worker pool (its sweep points
 * spread over the workers; the pool runs one job at a time). A re-run of one
 * side leaves the other's run on screen; leaving the page cancels what runs.
 */
function useVariantRuns(
  entry: ScenarioEntry,
  stores: Record<Side, Store>,
  cmp: Comparison,
): { rerun: (side: Side) => void } {
  const text = useMemo(() => variantText(entry.text), [entry.text]);
  // Each side's settings as text: a side runs when its text differs from the one it last ran.
  const aKey = JSON.stringify(cmp.a.set);
  const bKey = bRuns(cmp) ? JSON.stringify(cmp.b.set) : '';
  const ran = useRef<Record<Side, string | null>>({ a: null, b: null });
  const [again, setAgain] = useState(0);

  useEffect(() => {
    let live = true;
    const client = enginePool();
    const log = initialLogState().current;
    void (async () => {
      const keys: Record<Side, string> = { a: aKey, b: bKey };
      for (const side of SIDES) {
        const key = keys[side];
        if (ran.current[side] === key) continue;
        const store = stores[side];
        if (!key && side === 'b') {
          // Nothing to compare yet: B waits for a change.
          ran.current.b = key;
          store.setRun({ status: 'idle' });
          continue;
        }
        const overrides = JSON.parse(key) as Overrides;
        store.setRun({ status: 'running', startedAt: performance.now() });
        try {
          const r = await client.run(
            text,
            overrides,
            isLogPage(entry.scenario, overrides) ? engineLog(log) : undefined,
          );
          if (!live) return;
          ran.current[side] = key;
          if (!r.ok) {
            store.setRun({ status: 'invalid', errors: r.errors });
            continue;
          }
          store.setRun(
            doneState(r.output, decodeTrace(r.trace), {
              elapsedMs: r.elapsedMs,
              kindNames: r.info.kindNames,
              componentNames: r.info.componentNames,
              parameterInfo: r.info.parameterInfo,
              overrides,
            }),
          );
        } catch (err) {
          if (!live) return;
          ran.current[side] = key;
          const cancelled = err instanceof EngineError && err.code === 'cancelled';
          store.setRun({
            status: 'failed',
            code: err instanceof EngineError ? err.code : 'error',
            message: cancelled
              ? 'The run was cancelled.'
              : err instanceof Error
                ? err.message
                : String(err),
          });
        }
      }
    })();
    return () => {
      live = false;
      if (client.busy) client.cancel();
    };
  }, [text, aKey, bKey, again, stores, entry.scenario]);

  const rerun = useCallback((side: Side) => {
    ran.current[side] = null;
    setAgain((n) => n + 1);
  }, []);
  return { rerun };
}

function SideTag({ side }: { side: Side }) {
  return (
    <span className={`ab-tag ab-tag-${side}`} aria-hidden="true">
      {side.toUpperCase()}
    </span>
  );
}

/** This side's own time at the shared cursor (shows that both moved). */
function SideCursor({ side }: { side: Side }) {
  const cursor = useStore((s) => s.playback.cursor);
  const shown = useStore((s) => s.shown !== null);
  return (
    <output className="ab-cursor mono" data-testid={`ab-cursor-${side}`} data-ps={cursor}>
      {shown ? formatTime(cursor, 3) : '—'}
    </output>
  );
}

/** One side's heading, run status, settings and knobs (the knob panel's own override handling). */
function VariantColumn({
  side,
  entry,
  cmp,
  block,
  onSet,
  onRerun,
  otherSpecs,
}: {
  side: Side;
  entry: ScenarioEntry;
  cmp: Comparison;
  block: Comparison | null;
  onSet: (side: Side, set: Overrides) => void;
  onRerun: (side: Side) => void;
  /** The other side's parameter specs (the same registry), for knobs before this side has run. */
  otherSpecs: readonly ParameterSpec[];
}) {
  const status = useStore((s) => s.run);
  const shown = useStore((s) => s.shown);
  const v = cmp[side];
  const specs = shown?.parameterInfo.length ? shown.parameterInfo : otherSpecs;
  const base = useMemo(() => scenarioValues(entry.scenario, specs), [entry.scenario, specs]);
  // Before this side has run, its knobs show the scenario's values.
  const effective = useMemo(
    () => (shown ? parameterMap(shown.output.parameters) : base),
    [shown, base],
  );
  const edited = block !== null && JSON.stringify(block[side].set) !== JSON.stringify(v.set);
  const waiting = side === 'b' && !bRuns(cmp);
  return (
    <section
      className={`ab-variant ab-variant-${side}`}
      aria-label={`Variant ${side.toUpperCase()}: ${v.label}`}
      data-testid={`ab-side-${side}`}
      data-status={status.status}
    >
      <header className="ab-variant-head">
        <h2>
          <SideTag side={side} /> {v.label}
          {edited && <span className="muted small"> (changed)</span>}
        </h2>
        <SideCursor side={side} />
      </header>
      {waiting ? (
        <p className="notice ab-waiting" data-testid="ab-waiting">
          B is the scenario as written until you change one of its knobs below; then it runs with
          the same seed as A.
        </p>
      ) : (
        <RunStatus
          onRerun={() => onRerun(side)}
          onCancel={() => enginePool().cancel()}
          kept={shown !== null}
        />
      )}
      <KnobPanel
        specs={specs}
        effective={effective}
        base={base}
        overrides={v.set}
        errors={status.status === 'invalid' ? status.errors : NO_ERRORS}
        running={status.status === 'running'}
        onRun={(next) => onSet(side, next)}
      />
    </section>
  );
}

function deltaText(r: DiffRow): string {
  if (r.delta === null) return r.changed ? 'changed' : '—';
  if (r.unit === 'fraction') {
    const pp = r.delta * 100;
    if (Math.abs(pp) < 0.05) return '0 pp';
    return `${pp > 0 ? '+' : '−'}${formatNumber(Math.round(Math.abs(pp) * 10) / 10)} pp`;
  }
  if (r.delta === 0) return '0';
  const mag = Math.abs(r.delta);
  const shown = Number.isInteger(mag) ? mag : Math.round(mag * 10) / 10 || mag;
  return `${r.delta > 0 ? '+' : '−'}${formatNumber(shown)}`;
}

function valueCell(v: number | null, unit: string): string {
  if (v === null) return '—';
  if (isCategorical(unit)) return categoryLabel(unit, v);
  return unit === 'fraction' ? metricText({ value: v, unit }).value : formatNumber(v);
}

function unitText(unit: string): string {
  if (isCategorical(unit)) return '';
  return unit === 'fraction' ? '%' : unitLabel(unit);
}

function DiffTable({
  a,
  b,
  cmp,
  scenario,
}: {
  a: DoneRun;
  b: DoneRun;
  cmp: Comparison;
  scenario: Scenario;
}) {
  const [all, setAll] = useState(false);
  const rows = useMemo(
    () => diffResults(a.output.results, b.output.results, cmp.metrics),
    [a, b, cmp.metrics],
  );
  const params = useMemo(() => changedParameters(a.output.parameters, b.output.parameters), [a, b]);
  const specs = a.parameterInfo;
  // The papers' values at exactly one side's run, fitted or predicted.
  const published = (r: DiffRow) =>
    SIDES.flatMap((side) =>
      publishedValues(
        scenario,
        specs,
        (side === 'a' ? a : b).output.parameters,
        Object.keys(cmp[side].set).length === 0,
        r.name,
      ).map((p) => ({ side, ...p })),
    );
  // The comparison's own metrics and the largest significant differences; the rest on request.
  const shown = all
    ? rows
    : [
        ...rows.filter((r) => r.headline),
        ...rows.filter((r) => !r.headline && r.significant).slice(0, MORE_ROWS),
      ];
  const more = rows.length - shown.length;
  const significant = rows.filter((r) => r.significant).length;
  return (
    <div className="ab-diff" data-testid="ab-diff">
      <div className="ab-params" data-testid="ab-params">
        <h3>Changed parameters</h3>
        {params.length === 0 ? (
          <p className="muted small">None: both sides ran the same parameters.</p>
        ) : (
          <table className="data-table ab-params-table">
            <thead>
              <tr>
                <th scope="col">parameter</th>
                <th scope="col" className="num">
                  <SideTag side="a" /> {cmp.a.label}
                </th>
                <th scope="col" className="num">
                  <SideTag side="b" /> {cmp.b.label}
                </th>
              </tr>
            </thead>
            <tbody>
              {params.map((p) => {
                const unit = specs.find((s) => s.path === p.path)?.unit;
                return (
                  <tr key={p.path} data-testid="ab-param" data-path={p.path}>
                    <td>
                      {parameterLabel(p.path)} <span className="mono muted small">{p.path}</span>
                    </td>
                    <td className="num mono">{valueWithUnit(p.a, unit) || formatValue(p.a)}</td>
                    <td className="num mono">{valueWithUnit(p.b, unit) || formatValue(p.b)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <p className="muted small">
          Same seed ({a.output.seed === b.output.seed ? a.output.seed : 'differs!'}): the two runs
          draw the same random numbers, so every difference comes from the parameters above.
        </p>
      </div>
      <div className="ab-results">
        <h3>Results</h3>
        <p className="muted small ab-legend">
          Δ = B − A (for shares in percentage points, pp); % = Δ of A (amounts only).{' '}
          <strong className="ab-sig-sample">Bold ▲▼</strong>: a difference of {SIGNIFICANT * 100}%
          or more of A (or from zero), the tolerance most of the presets' references hold the model
          to; smaller ones are shown plain. {significant} of {rows.length} metrics differ that much.
        </p>
        <table className="data-table ab-results-table" data-testid="ab-results">
          <thead>
            <tr>
              <th scope="col">metric</th>
              <th scope="col" className="num">
                <SideTag side="a" /> {cmp.a.label}
              </th>
              <th scope="col" className="num">
                <SideTag side="b" /> {cmp.b.label}
              </th>
              <th scope="col">unit</th>
              <th scope="col" className="num">
                Δ
              </th>
              <th scope="col" className="num">
                %
              </th>
              <th scope="col">published</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => {
              const sign = r.delta === null ? 0 : Math.sign(r.delta);
              return (
                <tr
                  key={r.name}
                  className={`${r.significant ? 'sig' : ''} ${r.headline ? 'headline' : ''} ${
                    r.changed ? '' : 'same'
                  }`}
                  data-testid="ab-row"
                  data-metric={r.name}
                  data-a={r.a ?? ''}
                  data-b={r.b ?? ''}
                  data-significant={r.significant ? 'yes' : 'no'}
                  data-sign={sign > 0 ? '+' : sign < 0 ? '-' : '0'}
                >
                  <td title={r.name}>{metricLabel(r.name)}</td>
                  <td className="num mono">{valueCell(r.a, r.unit)}</td>
                  <td className="num mono">{valueCell(r.b, r.unit)}</td>
                  <td className="muted small">{unitText(r.unit)}</td>
                  <td className="num mono">{deltaText(r)}</td>
                  <td className="num mono ab-pct">
                    {r.significant && sign !== 0 && (
                      <span className={`ab-arrow ${sign > 0 ? 'up' : 'down'}`} aria-hidden="true">
                        {sign > 0 ? '▲' : '▼'}
                      </span>
                    )}
                    {relativeText(r)}
                    {r.significant && <span className="ab-sr-only"> (significant)</span>}
                  </td>
                  <td className="small ab-published">
                    {published(r).map((p) => (
                      <div
                        key={`${p.side}-${p.id}`}
                        data-testid="ab-published"
                        data-basis={p.basis}
                      >
                        <SideTag side={p.side} />{' '}
                        <span className="mono" title={p.source}>
                          {valueCell(p.expected, r.unit)}
                        </span>{' '}
                        <BasisTag basis={p.basis} />
                      </div>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {(more > 0 || all) && (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => setAll((x) => !x)}
            aria-expanded={all}
            data-testid="ab-show-all"
          >
            {all
              ? 'Only the significant differences'
              : `Show all ${rows.length} metrics (${more} more)`}
          </button>
        )}
      </div>
    </div>
  );
}

/** The same series of both runs on one time axis and one value axis, with the shared cursor. */
function OverlayChart({ a, b, cmp }: { a: DoneRun; b: DoneRun; cmp: Comparison }) {
  const names = useMemo(
    () => sharedSeries(a.output.series, b.output.series, cmp.metrics),
    [a, b, cmp.metrics],
  );
  const [pick, setPick] = useState<string | null>(null);
  const name = pick && names.includes(pick) ? pick : names[0];
  const cursor = useStore((s) => s.playback.cursor);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, name, 900, 360);
  const series = useMemo(() => {
    if (!name) return null;
    const find = (r: DoneRun) => r.output.series.find((s) => s.name === name) as TimeSeries;
    return { a: find(a), b: find(b) };
  }, [a, b, name]);
  const model = useMemo(() => {
    if (!series) return null;
    const span = Math.max(...SIDES.map((s) => series[s].values.length * series[s].interval_ps), 1);
    const w = {
      start: a.output.trace.start_ps,
      end: Math.max(a.output.trace.end_ps, b.output.trace.end_ps),
    };
    return overlayModel(
      series,
      cursor,
      timeUnitFor(span),
      { ...DEFAULT_BOX, width, height: 280 },
      w,
    );
  }, [series, cursor, width, a, b]);
  if (!names.length || !model) {
    return <p className="muted">The two runs recorded no time series in common.</p>;
  }
  const { height, margin } = model.box;
  return (
    <div ref={box} className="ab-overlay" data-testid="ab-overlay">
      <div className="ab-overlay-tools">
        <label className="series-pick">
          <span className="muted small">series</span>
          <select value={name} onChange={(e) => setPick(e.currentTarget.value)}>
            {names.map((n) => (
              <option key={n} value={n}>
                {metricLabel(n)}
              </option>
            ))}
          </select>
        </label>
        <ul className="ab-overlay-legend" aria-label="Legend">
          {SIDES.map((s) => (
            <li key={s}>
              <svg width="28" height="10" aria-hidden="true">
                <line x1="0" x2="28" y1="5" y2="5" className={`ab-line ab-line-${s}`} />
              </svg>
              <SideTag side={s} /> {cmp[s].label}
            </li>
          ))}
        </ul>
      </div>
      <div className="chart">
        <svg
          viewBox={`0 0 ${model.box.width} ${height}`}
          className="chart-svg"
          role="img"
          aria-label={`${model.yLabel} over ${model.xLabel}: A ${cmp.a.label} and B ${cmp.b.label} on one axis`}
        >
          {model.band && (
            <g className="ab-band">
              <rect
                x={model.band.x0}
                width={Math.max(1, model.band.x1 - model.band.x0)}
                y={margin.top}
                height={height - margin.bottom - margin.top}
              />
              <text x={model.band.x1 + 4} y={height - margin.bottom - 6}>
                traced
              </text>
            </g>
          )}
          <Axes m={model} />
          {model.lines.map((l) => (
            <path
              key={l.side}
              d={l.path}
              className={`ab-line ab-line-${l.side}`}
              data-testid={`ab-line-${l.side}`}
            />
          ))}
          {model.nowX !== null && (
            <g className="now-marker">
              <line x1={model.nowX} x2={model.nowX} y1={margin.top} y2={height - margin.bottom} />
              <text x={model.nowX + 4} y={margin.top + 10}>
                now
              </text>
            </g>
          )}
        </svg>
      </div>
    </div>
  );
}

/** One view of the scenario, once per side, from that side's store. */
function ViewRow({
  view,
  stores,
  cmp,
  stacked,
}: {
  view: string;
  stores: Record<Side, Store>;
  cmp: Comparison;
  stacked: boolean;
}) {
  const panel = viewEntry(view);
  // The views drawn as plain panels, and the event log; the chart is not compared here.
  const View = panel?.View ?? (view === 'events' ? EventLog : undefined);
  if (!panel || !View) return null;
  const title = panel.title;
  return (
    <div className={`ab-row ${stacked ? 'stacked' : ''}`} data-testid={`ab-row-${view}`}>
      {SIDES.map((side) => (
        <StoreContext.Provider key={side} value={stores[side]}>
          <SidePanel
            side={side}
            label={cmp[side].label}
            title={title}
            view={view}
            waiting={side === 'b' && !bRuns(cmp)}
          >
            <ErrorBoundary name={`${panel.boundary} (${side.toUpperCase()})`}>
              <View />
            </ErrorBoundary>
          </SidePanel>
        </StoreContext.Provider>
      ))}
    </div>
  );
}

function SidePanel({
  side,
  label,
  title,
  view,
  waiting,
  children,
}: {
  side: Side;
  label: string;
  title: string;
  view: string;
  /** B has nothing to compare yet (its last run, if any, is not the current comparison). */
  waiting: boolean;
  children: ReactNode;
}) {
  const shown = useStore((s) => s.shown !== null) && !waiting;
  const id = `ab-h-${view}-${side}`;
  return (
    <section
      className={`panel ab-panel ab-panel-${side} panel-${panelOf(view)}`}
      aria-labelledby={id}
      data-side={side}
    >
      <h2 id={id}>
        <SideTag side={side} /> <span className="ab-panel-label">{label}</span>
        <span className="ab-panel-title"> · {title}</span>
      </h2>
      {shown ? children : <div className="placeholder">Appears when {label} has run.</div>}
    </section>
  );
}

export function AbPage({ entry }: { entry: ScenarioEntry }) {
  const stores = useMemo<Record<Side, Store>>(
    () => ({ a: new Store({ log: initialLogState() }), b: new Store({ log: initialLogState() }) }),
    [],
  );
  useEffect(() => linkCursors(stores.a, stores.b), [stores]);
  usePlaybackClock(stores.a);
  const block = useMemo(() => comparisonOf(entry.scenario), [entry.scenario]);
  const [raw, setCmp] = useState<Comparison>(() => initialComparison(entry));
  const { rerun } = useVariantRuns(entry, stores, raw);
  const onSet = useCallback(
    (side: Side, set: Overrides) => setCmp((c) => ({ ...c, [side]: { ...c[side], set } })),
    [],
  );
  const [runA, setRunA] = useState<DoneRun | null>(null);
  const [runB, setRunB] = useState<DoneRun | null>(null);
  useEffect(() => {
    const sync = () => {
      setRunA(stores.a.getState().shown);
      setRunB(stores.b.getState().shown);
    };
    sync();
    const offA = stores.a.subscribe(sync);
    const offB = stores.b.subscribe(sync);
    return () => {
      offA();
      offB();
    };
  }, [stores]);
  // A comparison the viewer built is labelled by what each side sets.
  const specs = runA?.parameterInfo ?? runB?.parameterInfo ?? NO_SPECS;
  const cmp = useMemo(() => {
    if (!raw.auto) return raw;
    const text = (path: string, v: unknown) =>
      `${parameterLabel(path)} ${valueWithUnit(v, specs.find((p) => p.path === path)?.unit)}`;
    return {
      ...raw,
      a: { ...raw.a, label: describeSet(raw.a.set, text) },
      b: {
        ...raw.b,
        label: bRuns(raw) ? describeSet(raw.b.set, text) : 'no change yet',
      },
    };
  }, [raw, specs]);
  const bShown = bRuns(cmp) ? runB : null;
  // The differences' error boundary resets when either side's run changes.
  const diffKey = useMemo(() => ({ runA, bShown }), [runA, bShown]);
  const s = entry.scenario;
  const views = (s.views && s.views.length ? s.views : ['diagram', 'rings', 'chart', 'events'])
    .filter((v) => v !== 'chart' && v !== 'results')
    // Events last, as on the scenario page.
    .sort((p, q) => Number(p === 'events') - Number(q === 'events'));
  // Wide views (firmware lanes, request paths) read better one above the other.
  const [stacked, setStacked] = useState(false);
  const isBlock = block !== null && JSON.stringify(block) === JSON.stringify(raw);

  return (
    <div className="scenario ab-page" data-testid="ab-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href="#/">Scenarios</a>
        <span aria-hidden="true">/</span>
        <a href={scenarioHref(entry.id)}>{s.title}</a>
        <span aria-hidden="true">/</span>
        <span>A/B</span>
      </nav>
      <header className="ab-head">
        <h1>
          A/B: <SideTag side="a" /> {cmp.a.label} <span className="muted">against</span>{' '}
          <SideTag side="b" /> {cmp.b.label}
        </h1>
        <p className="summary">
          {s.title}: the same scenario twice with the same seed, side by side. One cursor drives
          both.
        </p>
        {cmp.note && isBlock && <p className="ab-note">{cmp.note}</p>}
        <div className="ab-head-tools">
          <a className="btn btn-small" href={scenarioHref(entry.id)}>
            ← The scenario page
          </a>
          {block && !isBlock && (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setCmp(block)}
              data-testid="ab-reset"
            >
              Back to the scenario's comparison ({block.a.label} against {block.b.label})
            </button>
          )}
          <span className="muted small">
            Each side runs the scenario's main run (no sweep) with its own settings: the same
            results as <code>nicsim {entry.file ?? `${entry.id}.json`} --set …</code>.
          </span>
        </div>
      </header>
      <div className="ab-variants">
        {SIDES.map((side) => (
          <StoreContext.Provider key={side} value={stores[side]}>
            <VariantColumn
              side={side}
              entry={entry}
              cmp={cmp}
              block={block}
              onSet={onSet}
              onRerun={rerun}
              otherSpecs={(side === 'a' ? runB : runA)?.parameterInfo ?? NO_SPECS}
            />
          </StoreContext.Provider>
        ))}
      </div>
      <StoreContext.Provider value={stores.a}>
        <div className="ab-playback">
          <span className="ab-playback-label small">
            One cursor for <SideTag side="a" /> and <SideTag side="b" />
          </span>
          <PlaybackBar />
        </div>
      </StoreContext.Provider>
      <section className="panel ab-differences" aria-labelledby="ab-h-diff">
        <h2 id="ab-h-diff">Differences</h2>
        {runA && bShown ? (
          <ErrorBoundary name="differences" resetKey={diffKey}>
            <DiffTable a={runA} b={bShown} cmp={cmp} scenario={entry.scenario} />
          </ErrorBoundary>
        ) : (
          <div className="placeholder">The differences appear when both sides have run.</div>
        )}
      </section>
      {runA && bShown && (
        <section className="panel ab-chart" aria-labelledby="ab-h-chart">
          <h2 id="ab-h-chart">Over time, A and B on one axis</h2>
          <StoreContext.Provider value={stores.a}>
            <ErrorBoundary name="A/B chart">
              <OverlayChart a={runA} b={bShown} cmp={cmp} />
            </ErrorBoundary>
          </StoreContext.Provider>
        </section>
      )}
      {views.length > 0 && (
        <div className="ab-layout" role="group" aria-label="How the views are laid out">
          <span className="muted small">Views</span>
          <span className="seg">
            {(
              [
                [false, 'side by side'],
                [true, 'A above B (full width)'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={label}
                type="button"
                className={stacked === value ? 'on' : ''}
                aria-pressed={stacked === value}
                onClick={() => setStacked(value)}
              >
                {label}
              </button>
            ))}
          </span>
        </div>
      )}
      {views.map((v) => (
        <ViewRow key={v} view={v} stores={stores} cmp={cmp} stacked={stacked} />
      ))}
    </div>
  );
}
