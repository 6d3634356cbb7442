import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import { visibleTags } from './galleryPath';
import { EngineError } from '../engine/client';
import { enginePool } from '../engine/pool';
import { decodeTrace } from '../trace/trace';
import type { Scenario, ScenarioEntry } from '../scenarios/types';
import {
  paramAt,
  type ParameterSpec,
  type ParameterTree,
  type SweepEntry,
  type ValidationError,
} from '../engine/types';
import { parameterMap, type Overrides } from '../run/overrides';
import {
  Store,
  StoreContext,
  doneState,
  initialLogState,
  isComplete,
  useStore,
  type SweepProgress,
} from '../run/store';
import { ErrorBoundary } from './ErrorBoundary';
import { PlaybackBar } from '../playback';
import { PacketInspector } from '../inspector';
import { ChartPanel } from '../charts';
import { ChecksPanel } from '../results';
import { ResultsPanel } from '../results';
import { EventLog } from '../playback';
import { RunStatus } from '../results';
import { KnobPanel } from '../knobs';
import { PartitionSection } from '../tigon';
import { RunDownloads } from '../export';
import { FileProblemPanel, useScenarioFileOpener } from './OpenScenarioFile';
import { AccessLogPanel, engineLog, isLogPage, needsAccessLog } from '../webserver';
import { usePlaybackClock } from '../run/usePlaybackClock';
import { SweepPickContext, type SweepPick } from '../charts';
import { scenarioViews } from '../share';
import { linkUi, useLinkRestore, type OpenedLink } from '../share';
import { LinkBanner } from '../share';
import { ShareMenu } from '../share';
import { ViewsMenu } from '../views';
import { OpenInNicsim } from './Embed';
import { AbButton } from '../compare';
import { TourPanel } from '../tour';
import { PresenterToggle } from '../tour';
import { ViewDescription } from '../views';
import { REGISTRY, panelOf, viewEntry } from '../views';
import { OnScreenSection } from './OnScreenSection';
import { Stage } from './Stage';

const NO_ERRORS: ValidationError[] = [];
const FILE_NOT_LINKABLE =
  'A scenario opened from a file lives in this tab only, so a link cannot reopen it: use Download › Scenario with these settings to share it.';
const NO_SPECS: ParameterSpec[] = [];
const DRAW_SWEEP_MS = 200;

/**
 * Runs the scenario in the engine's worker pool and fills the store: the main run as soon as it
 * is in, the sweep's entries as they arrive (a few times a second), then the complete document
 * with the checks. `run(overrides)` starts a run with an overrides object ({path: value}); a new
 * run, Cancel or leaving the page stops everything in flight. The store keeps the previous run
 * on screen meanwhile.
 */
function useScenarioRun(
  entry: ScenarioEntry,
  store: Store,
  initial: Overrides = {},
): {
  run: (overrides: Overrides) => void;
  cancel: () => void;
  requested: Overrides;
  base: ReadonlyMap<string, unknown>;
  /** For a page opened from a link, whose first run has overrides (see useLinkRestore). */
  setBase: Dispatch<SetStateAction<ReadonlyMap<string, unknown>>>;
} {
  // Counts runs; a reply from an older run is ignored.
  const generation = useRef(0);
  const [requested, setRequested] = useState<Overrides>(initial);
  const requestedRef = useRef<Overrides>(initial);
  const [base, setBase] = useState<ReadonlyMap<string, unknown>>(() => new Map());

  const start = useCallback(
    (overrides: Overrides) => {
      const gen = ++generation.current;
      const pool = enginePool();
      if (pool.busy) pool.cancel();
      // A run that replays an access log waits for one (the page prompts for it).
      const log = store.getState().log.current;
      if (!log && needsAccessLog(entry.scenario, overrides)) {
        store.setRun({ status: 'idle' });
        // Meanwhile the core goes once through the check and the run the log will have: an
        // instance's first of each is its slowest (its code compiles on first use, for every
        // instance), and the run with the log then starts at once.
        pool.warmUp(entry.text, overrides);
        return;
      }
      // "Running" waits until the core has taken the values (and the access log a replay reads):
      // a refused one shows at its field without a run in between; a result on screen stays.
      const startedAt = performance.now();
      if (!store.getState().shown) store.setRun({ status: 'idle' });
      // Sweep entries in so far, by index; drawn at most every DRAW_SWEEP_MS, so that drawing
      // the chart again does not take the cores the sweep's workers run on.
      const entries: SweepEntry[] = [];
      let progress: SweepProgress = { done: 0, total: 0 };
      let frame: ReturnType<typeof setTimeout> | 0 = 0;
      const draw = () => {
        frame = 0;
        if (gen !== generation.current) return;
        store.setSweepProgress(entries.filter(Boolean), progress);
      };
      pool
        .run(
          entry.text,
          overrides,
          isLogPage(entry.scenario, overrides) ? engineLog(log) : undefined,
          {
            onAccepted: () => {
              if (gen === generation.current) store.setRun({ status: 'running', startedAt });
            },
            onMain: (main, total) => {
              if (gen !== generation.current) return;
              store.setRun(
                doneState(main.output, decodeTrace(main.trace), {
                  elapsedMs: main.elapsedMs,
                  kindNames: main.info.kindNames,
                  componentNames: main.info.componentNames,
                  parameterInfo: main.info.parameterInfo,
                  overrides,
                  ...(total > 0 ? { sweepProgress: { done: 0, total } } : {}),
                }),
              );
              // The scenario's own values: what chips and "scenario: …" hints compare against.
              if (Object.keys(overrides).length === 0)
                setBase(parameterMap(main.output.parameters));
            },
            onPoint: (index, sweepEntry, done, total) => {
              entries[index] = sweepEntry;
              progress = { done, total };
              frame ||= setTimeout(draw, DRAW_SWEEP_MS);
            },
          },
        )
        .then((r) => {
          if (frame) clearTimeout(frame);
          if (gen !== generation.current) return;
          if (!r.ok) {
            store.setRun({ status: 'invalid', errors: r.errors });
            return;
          }
          store.completeRun(r.output, r.elapsedMs);
        })
        .catch(async (err: unknown) => {
          if (frame) clearTimeout(frame);
          if (gen !== generation.current) return;
          if (err instanceof EngineError && err.code === 'cancelled') {
            store.setRun({
              status: 'failed',
              code: 'cancelled',
              message: 'The run was cancelled.',
            });
            return;
          }
          if (err instanceof EngineError && err.code === 'engine-missing' && import.meta.env.DEV) {
            // Development without the wasm build: show the built-in fixture, clearly marked.
            const { fixtureRun } = await import('../engine/fixture');
            if (gen !== generation.current) return;
            const f = fixtureRun(entry.id);
            store.setRun(doneState(f.output, decodeTrace(f.trace), { demo: true }));
            return;
          }
          store.setRun({
            status: 'failed',
            code: err instanceof EngineError ? err.code : 'error',
            message: err instanceof Error ? err.message : String(err),
          });
        });
    },
    [entry, store],
  );

  const run = useCallback(
    (overrides: Overrides) => {
      requestedRef.current = overrides;
      setRequested(overrides);
      start(overrides);
    },
    [start],
  );

  const cancel = useCallback(() => {
    enginePool().cancel();
  }, []);

  // Leaving the page (or a new scenario) drops the run in progress.
  const abandon = useCallback(() => {
    generation.current++;
    if (enginePool().busy) enginePool().cancel();
    enginePool().stopAhead();
  }, []);

  useEffect(() => {
    start(requestedRef.current);
    return abandon;
  }, [start, abandon]);

  return { run, cancel, requested, base, setBase };
}

/**
 * Marks, for `npm run bench:ui`, the first frame after the first run's main run is committed
 * (`nicsim:first-view`), and the first frame after its document is complete, sweep and checks
 * included (`nicsim:run-done`); the two fall on the same frame for a scenario without a sweep.
 */
function useDrawnMarks(): void {
  const shown = useStore((st) => st.shown !== null);
  const complete = useStore((st) => st.run.status === 'done' && isComplete(st.run));
  const marked = useRef({ first: false, done: false });
  useEffect(() => {
    const m = marked.current;
    if (shown && !m.first) {
      m.first = true;
      requestAnimationFrame(() => performance.mark('nicsim:first-view'));
    }
    if (complete && !m.done) {
      m.done = true;
      requestAnimationFrame(() => performance.mark('nicsim:run-done'));
    }
  }, [shown, complete]);
}

/** The panel of one view named in the scenario's "views" (unknown names are skipped). */
function viewPanel(view: string, s: Scenario, runKey: unknown, pick: SweepPick, extra = '') {
  const panel = viewEntry(view);
  if (panel?.View) {
    const { panel: id, title, boundary, View, picksSweepPoint } = panel;
    return (
      <OnScreenSection
        key={view}
        className={`panel panel-${id} ${extra}`.trim()}
        labelledBy={`h-${id}`}
      >
        <h2 id={`h-${id}`}>{title}</h2>
        <ErrorBoundary name={boundary} resetKey={runKey}>
          {picksSweepPoint ? (
            <SweepPickContext.Provider value={pick}>
              <View />
            </SweepPickContext.Provider>
          ) : (
            <View />
          )}
        </ErrorBoundary>
        <ViewDescription view={view} label={title} />
      </OnScreenSection>
    );
  }
  switch (view) {
    case 'chart':
      return (
        <OnScreenSection key={view} className="panel panel-chart" labelledBy="h-chart">
          <ErrorBoundary name="chart" resetKey={runKey}>
            <ChartPanel scenario={s} headingId="h-chart" />
          </ErrorBoundary>
          <ViewDescription view="chart" label="Chart" />
        </OnScreenSection>
      );
    default:
      return null;
  }
}

/** The view names the page draws, with their headings (the views menu lists them). */
const VIEW_TITLES: Record<string, string> = Object.fromEntries(
  REGISTRY.filter((v) => v.id !== 'results').map((v) => [v.id, v.title]),
);

/**
 * Views that move with the playback clock, in the order the stage prefers them when a scenario
 * lists several: the stage shows the first of the scenario's views found here, right under the
 * playback bar, so that pressing Play always shows something moving.
 */
const STAGE_VIEWS = new Set([
  'diagram',
  'firmware',
  'rxpath',
  'request',
  'waveform',
  'bus',
  'rings',
  'vnics',
  'cache',
  'cpu',
  'timeline',
]);

export function ScenarioPage({
  entry,
  link,
  embed = false,
}: {
  entry: ScenarioEntry;
  /** The link the page was opened from (its views, tour step, overrides and cursor). */
  link?: OpenedLink;
  /** Embed mode: no breadcrumb or "open file"; a way out to the full app instead. */
  embed?: boolean;
}) {
  const store = useMemo(() => new Store({ log: initialLogState(), ui: linkUi(link) }), [link]);
  return (
    <StoreContext.Provider value={store}>
      <ScenarioContent entry={entry} store={store} link={link} embed={embed} />
    </StoreContext.Provider>
  );
}

function ScenarioContent({
  entry,
  store,
  link,
  embed,
}: {
  entry: ScenarioEntry;
  store: Store;
  link?: OpenedLink;
  embed: boolean;
}) {
  const { run, cancel, requested, base, setBase } = useScenarioRun(
    entry,
    store,
    link?.state.overrides,
  );
  const linkProblems = useLinkRestore(store, link, run, entry, setBase);
  usePlaybackClock(store);
  useDrawnMarks();
  const status = useStore((st) => st.run);
  // Views reset their error boundary when the shown run changes, not on every status change.
  const runKey = useStore((st) => st.shown);
  const s = entry.scenario;
  // The viewer's own choice of views (a link can carry it), else the scenario's.
  const chosenViews = useStore((st) => st.ui.views);
  const views = chosenViews ?? scenarioViews(s);
  const [noticeOpen, setNoticeOpen] = useState(true);
  // Presenter mode starts with "What to notice" collapsed (one click opens it again).
  const presenter = useStore((st) => st.ui.presenter);
  const [collapsedFor, setCollapsedFor] = useState(false);
  if (presenter !== collapsedFor) {
    setCollapsedFor(presenter);
    if (presenter) setNoticeOpen(false);
  }
  const opener = useScenarioFileOpener();
  const custom = entry.origin === 'file';
  const effective = useMemo(() => parameterMap(runKey?.output.parameters), [runKey]);
  const errors = status.status === 'invalid' ? status.errors : NO_ERRORS;
  // What the knob panel and the partition editor both need to send overrides to the core.
  const overrideProps = {
    effective,
    base,
    errors,
    running: status.status === 'running',
    onRun: run,
  };
  // Knob positions the panel asks for ahead of time (a replayed log's runs are not: they need it).
  const prefetch = useCallback(
    (candidates: Overrides[]) => {
      if (!isLogPage(entry.scenario, requested)) enginePool().prefetch(entry.text, candidates);
    },
    [entry, requested],
  );
  // Views that show one sweep point's trace can run another, as its knob would.
  const sweepPick: SweepPick = useMemo(
    () => ({ requested, base, running: status.status === 'running', run }),
    [requested, base, status.status, run],
  );
  // The partition editor goes with the Tigon's firmware and profile views: before the first of
  // them when the scenario itself is about a custom partition (and open), after it otherwise.
  const shownViews = views.filter((v) => v !== 'events');
  const stageView = shownViews.find((v) => STAGE_VIEWS.has(v) && viewEntry(v)?.View);
  const panels = shownViews.filter((v) => v !== stageView);
  // With the firmware on the stage, the partition editor leads the grid.
  const tigonAt =
    stageView === 'firmware'
      ? Math.max(
          0,
          panels.findIndex((v) => v === 'profile'),
        )
      : panels.findIndex((v) => v === 'profile' || v === 'firmware');
  const customScenario =
    paramAt(s as unknown as ParameterTree, 'system.tigon.firmware') === 'custom';
  const partition =
    (tigonAt >= 0 || stageView === 'firmware') && effective.get('system.nic.model') === 'tigon' ? (
      <PartitionSection
        key="partition"
        defaultOpen={customScenario}
        requested={requested}
        {...overrideProps}
      />
    ) : null;
  const sideStack = (wide: boolean) => (
    <div key="side" className={`side-stack ${wide ? 'wide' : ''}`}>
      <section className="panel panel-checks" aria-labelledby="h-checks">
        <h2 id="h-checks">Checks against the reference</h2>
        <ErrorBoundary name="checks panel" resetKey={runKey}>
          <ChecksPanel scenario={s} />
        </ErrorBoundary>
      </section>
      <section className="panel panel-results" aria-labelledby="h-results">
        <h2 id="h-results">Results and parameters</h2>
        <ErrorBoundary name="results panel" resetKey={runKey}>
          <ResultsPanel scenario={s} />
        </ErrorBoundary>
      </section>
    </div>
  );

  return (
    <div className="scenario" data-testid="scenario-page">
      <LinkBanner
        key={linkProblems.length}
        problems={linkProblems}
        outcome="The page shows the rest of it."
      />
      <nav className="crumbs" aria-label="Breadcrumb" hidden={embed}>
        <a href="#/">Scenarios</a>
        <span aria-hidden="true">/</span>
        {custom && (
          <>
            <span>opened file</span>
            <span aria-hidden="true">/</span>
          </>
        )}
        <span>{s.title}</span>
      </nav>
      <header className="scenario-head">
        <div className="scenario-title">
          <h1>
            {s.title}
            {custom && (
              <span className="badge-custom" data-testid="custom-badge">
                custom file
              </span>
            )}
          </h1>
          {custom && (
            <p className="custom-id small" data-testid="custom-id">
              id <code>{entry.id}</code> · from <span className="mono">{entry.file}</span> · not one
              of the presets; kept in this tab only
            </p>
          )}
          <p className="summary">{s.summary}</p>
          {visibleTags(s).length > 0 && (
            <div className="tags">
              {visibleTags(s).map((t) => (
                <span className="tag" key={t}>
                  {t}
                </span>
              ))}
            </div>
          )}
        </div>
        <div className="scenario-side">
          <RunStatus onRerun={() => run(requested)} onCancel={cancel} kept={runKey !== null} />
          <div className="scenario-tools">
            {embed && <OpenInNicsim />}
            <button
              type="button"
              className="btn btn-small"
              hidden={embed}
              onClick={opener.choose}
              disabled={opener.checking !== null}
              data-testid="open-file"
            >
              {opener.checking ? 'Checking…' : 'Open a scenario file…'}
            </button>
            {opener.input}
            <ViewsMenu scenario={s} titles={VIEW_TITLES} />
            <ShareMenu
              scenario={s}
              requested={requested}
              unavailable={custom ? FILE_NOT_LINKABLE : undefined}
            />
            <RunDownloads scenarioText={entry.text} scenarioId={s.id} />
            {!custom && <AbButton entry={entry} requested={requested} />}
            <PresenterToggle />
          </div>
        </div>
      </header>
      {opener.problem && <FileProblemPanel problem={opener.problem} onDismiss={opener.dismiss} />}
      {isLogPage(s, requested) && (
        <section className="panel panel-access-log" aria-labelledby="h-access-log">
          <h2 id="h-access-log">Bring your own access log</h2>
          <ErrorBoundary name="access log panel">
            <AccessLogPanel scenario={s} requested={requested} onRun={run} />
          </ErrorBoundary>
        </section>
      )}
      <Stage view={stageView}>
        <PlaybackBar />
        {stageView && viewPanel(stageView, s, runKey, sweepPick, 'stage-view')}
      </Stage>
      <ErrorBoundary name="packet inspector" resetKey={runKey}>
        <PacketInspector />
      </ErrorBoundary>
      {s.notice && s.notice.length > 0 && (
        <section className="notice-box" aria-labelledby="notice-h">
          <button
            type="button"
            className="notice-toggle"
            aria-expanded={noticeOpen}
            onClick={() => setNoticeOpen((o) => !o)}
            id="notice-h"
          >
            What to notice <span aria-hidden="true">{noticeOpen ? '▾' : '▸'}</span>
          </button>
          {noticeOpen && (
            <ol className="notice-list">
              {s.notice.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ol>
          )}
        </section>
      )}
      <TourPanel scenario={s} requested={requested} onRun={run} panelOf={panelOf} />
      <KnobPanel
        specs={runKey?.parameterInfo ?? NO_SPECS}
        overrides={requested}
        onPrefetch={prefetch}
        {...overrideProps}
      />
      <div className="grid" data-run={status.status} data-shown={runKey ? 'yes' : 'no'}>
        {panels.flatMap((v, i) => {
          const panel = viewPanel(v, s, runKey, sweepPick);
          if (!panel) return [];
          const out = v === 'chart' ? [panel, sideStack(false)] : [panel];
          if (i === tigonAt && partition)
            return customScenario ? [partition, ...out] : [...out, partition];
          return out;
        })}
        {panels.length === 0 && partition}
        {!views.includes('chart') && sideStack(true)}
        {views.includes('events') && (
          <OnScreenSection className="panel panel-events" labelledBy="h-events">
            <h2 id="h-events">Event log</h2>
            <ErrorBoundary name="event log" resetKey={runKey}>
              <EventLog />
            </ErrorBoundary>
          </OnScreenSection>
        )}
      </div>
    </div>
  );
}
