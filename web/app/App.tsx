import { useEffect, useState, useSyncExternalStore } from 'react';
import { SCENARIOS, SCENARIO_PROBLEMS } from '../scenarios';
import { customById, customVersion, subscribeCustom } from '../scenarios/custom';
import type { ScenarioEntry } from '../scenarios/types';
import { Gallery } from '../views/Gallery';
import { ScenarioPage } from '../views/ScenarioPage';
import { ErrorBoundary } from './ErrorBoundary';
import { parseHash, type Route } from './route';

const IDS = SCENARIOS.map((s) => s.id);

function currentRoute(): Route {
  return parseHash(window.location.hash, IDS);
}

/** The entry a route opens: a preset, or a file opened in this tab. */
function routeEntry(route: Route): ScenarioEntry | undefined {
  if (route.view === 'scenario') return SCENARIOS.find((s) => s.id === route.id);
  if (route.view === 'file') return customById(route.id);
  return undefined;
}

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute);
  // Opening a file (even one with the same id again) re-renders with the new entry.
  useSyncExternalStore(subscribeCustom, customVersion, customVersion);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // A file dropped outside a drop zone must not make the browser leave the app to show it.
  useEffect(() => {
    const stop = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);

  const entry = routeEntry(route);
  useEffect(() => {
    document.title = entry
      ? `${entry.scenario.title} — nicsim`
      : 'nicsim — how a network interface works';
    window.scrollTo(0, 0);
  }, [entry, route]);

  const missingFile =
    route.view === 'file' && !entry
      ? `The scenario file “${route.id}” is not open in this tab any more (opened files are kept only in the tab that opened them). Open the file again below.`
      : undefined;

  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/">
          <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#233554" />
            <rect x="7" y="14" width="18" height="4" rx="2" fill="#e8871e" />
            <circle cx="10" cy="9" r="3" fill="#4c78a8" />
            <circle cx="22" cy="23" r="3" fill="#3f9b5a" />
          </svg>
          <span className="brand-name">nicsim</span>
          <span className="brand-tag">how a network interface works</span>
          <span className="sr-only"> — scenario gallery</span>
        </a>
        <nav className="topnav" aria-label="Main">
          <a href="#/" aria-current={route.view === 'gallery' ? 'page' : undefined}>
            Scenarios
          </a>
        </nav>
      </header>
      <main className="main">
        {route.view !== 'gallery' && entry ? (
          <ErrorBoundary name="scenario page" resetKey={entry}>
            <ScenarioPage key={`${route.view}:${entry.id}:${entry.loadId ?? 0}`} entry={entry} />
          </ErrorBoundary>
        ) : (
          <ErrorBoundary name="gallery">
            <Gallery
              problem={route.view === 'gallery' ? route.problem : missingFile}
              loadProblems={SCENARIO_PROBLEMS}
              scenarios={SCENARIOS}
            />
          </ErrorBoundary>
        )}
      </main>
      <footer className="footer">
        nicsim simulates descriptor rings, DMA over the I/O bus and the Ethernet wire. Mechanisms
        follow H.-Y. Kim, “Improving Networking Server Performance with Programmable Network
        Interfaces” (Rice, 2003).
      </footer>
    </div>
  );
}
