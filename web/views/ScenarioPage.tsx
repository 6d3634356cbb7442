import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EngineError, engine } from '../engine/client';
import { decodeTrace } from '../engine/trace';
import { scenarioById } from '../scenarios';
import type { ScenarioEntry } from '../scenarios/types';
import { Store, StoreContext, doneState, useStore } from '../store/store';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { PlaybackBar } from './PlaybackBar';
import { SystemDiagram } from './SystemDiagram';
import { RingsView } from './RingsView';
import { ChartPanel } from './ChartPanel';
import { ChecksPanel } from './ChecksPanel';
import { ResultsPanel } from './ResultsPanel';
import { EventLog } from './EventLog';
import { RunStatus } from './RunStatus';

/** Runs the scenario in the engine worker and fills the store. */
function useScenarioRun(
  entry: ScenarioEntry,
  store: Store,
): { rerun: () => void; cancel: () => void } {
  const generation = useRef(0);

  const start = useCallback(() => {
    const gen = ++generation.current;
    store.setRun({ status: 'running', startedAt: performance.now() });
    const client = engine();
    client
      .run(entry.text)
      .then((r) => {
        if (gen !== generation.current) return;
        if (!r.ok) {
          store.setRun({ status: 'invalid', errors: r.errors });
          return;
        }
        const trace = decodeTrace(r.trace);
        store.setRun(
          doneState(r.output, trace, {
            elapsedMs: r.elapsedMs,
            kindNames: r.info.kindNames,
            componentNames: r.info.componentNames,
            parameterInfo: r.info.parameterInfo,
          }),
        );
      })
      .catch(async (err: unknown) => {
        if (gen !== generation.current) return;
        if (err instanceof EngineError && err.code === 'cancelled') {
          store.setRun({ status: 'failed', code: 'cancelled', message: 'The run was cancelled.' });
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
  }, [entry, store]);

  const cancel = useCallback(() => {
    engine().cancel();
  }, []);

  useEffect(() => {
    start();
    return () => {
      generation.current++;
      if (engine().busy) engine().cancel();
    };
  }, [start]);

  return { rerun: start, cancel };
}

/** Advances the cursor while playing (requestAnimationFrame). */
function usePlaybackClock(store: Store): void {
  const playing = useStore((s) => s.playback.playing);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function frame(now) {
      // Cap a frame's step so a background tab does not jump to the end.
      store.tick(Math.min(100, now - last));
      last = now;
      raf = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing, store]);
}

export function ScenarioPage({ id }: { id: string }) {
  const entry = scenarioById(id);
  const store = useMemo(() => new Store(), []);
  if (!entry) {
    return (
      <div className="notice notice-error" role="alert">
        No scenario “{id}”. <a href="#/">Back to the gallery</a>
      </div>
    );
  }
  return (
    <StoreContext.Provider value={store}>
      <ScenarioContent entry={entry} store={store} />
    </StoreContext.Provider>
  );
}

function ScenarioContent({ entry, store }: { entry: ScenarioEntry; store: Store }) {
  const { rerun, cancel } = useScenarioRun(entry, store);
  usePlaybackClock(store);
  const runKey = useStore((s) => s.run);
  const s = entry.scenario;
  const views = s.views && s.views.length ? s.views : ['diagram', 'rings', 'chart', 'events'];
  const [noticeOpen, setNoticeOpen] = useState(true);

  return (
    <div className="scenario" data-testid="scenario-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href="#/">Scenarios</a>
        <span aria-hidden="true">/</span>
        <span>{s.title}</span>
      </nav>
      <header className="scenario-head">
        <div className="scenario-title">
          <h1>{s.title}</h1>
          <p className="summary">{s.summary}</p>
          {(s.tags ?? []).length > 0 && (
            <div className="tags">
              {s.tags!.map((t) => (
                <span className="tag" key={t}>
                  {t}
                </span>
              ))}
            </div>
          )}
        </div>
        <RunStatus onRerun={rerun} onCancel={cancel} />
      </header>
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
      <PlaybackBar />
      <div className="grid" data-run={runKey.status}>
        {views.includes('diagram') && (
          <section className="panel panel-diagram" aria-labelledby="h-diagram">
            <h2 id="h-diagram">System</h2>
            <ErrorBoundary name="system diagram" resetKey={runKey}>
              <SystemDiagram />
            </ErrorBoundary>
          </section>
        )}
        {views.includes('rings') && (
          <section className="panel panel-rings" aria-labelledby="h-rings">
            <h2 id="h-rings">Descriptor rings</h2>
            <ErrorBoundary name="rings view" resetKey={runKey}>
              <RingsView />
            </ErrorBoundary>
          </section>
        )}
        {views.includes('chart') && (
          <section className="panel panel-chart" aria-labelledby="h-chart">
            <ErrorBoundary name="chart" resetKey={runKey}>
              <ChartPanel scenario={s} headingId="h-chart" />
            </ErrorBoundary>
          </section>
        )}
        <div className={`side-stack ${views.includes('chart') ? '' : 'wide'}`}>
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
        {views.includes('events') && (
          <section className="panel panel-events" aria-labelledby="h-events">
            <h2 id="h-events">Event log</h2>
            <ErrorBoundary name="event log" resetKey={runKey}>
              <EventLog />
            </ErrorBoundary>
          </section>
        )}
      </div>
    </div>
  );
}
