import { useEffect, useState } from 'react';
import { SCENARIOS, SCENARIO_PROBLEMS } from '../scenarios';
import { Gallery } from '../views/Gallery';
import { ScenarioPage } from '../views/ScenarioPage';
import { ErrorBoundary } from './ErrorBoundary';
import { parseHash, type Route } from './route';

const IDS = SCENARIOS.map((s) => s.id);

function currentRoute(): Route {
  return parseHash(window.location.hash, IDS);
}

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    const entry = route.view === 'scenario' ? SCENARIOS.find((s) => s.id === route.id) : undefined;
    document.title = entry
      ? `${entry.scenario.title} — nicsim`
      : 'nicsim — how a network interface works';
    window.scrollTo(0, 0);
  }, [route]);

  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href="#/" aria-label="nicsim: scenario gallery">
          <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#233554" />
            <rect x="7" y="14" width="18" height="4" rx="2" fill="#e8871e" />
            <circle cx="10" cy="9" r="3" fill="#4c78a8" />
            <circle cx="22" cy="23" r="3" fill="#3f9b5a" />
          </svg>
          <span className="brand-name">nicsim</span>
          <span className="brand-tag">how a network interface works</span>
        </a>
        <nav className="topnav" aria-label="Main">
          <a href="#/" aria-current={route.view === 'gallery' ? 'page' : undefined}>
            Scenarios
          </a>
        </nav>
      </header>
      <main className="main">
        {route.view === 'scenario' ? (
          <ErrorBoundary name="scenario page" resetKey={route.id}>
            <ScenarioPage key={route.id} id={route.id} />
          </ErrorBoundary>
        ) : (
          <ErrorBoundary name="gallery">
            <Gallery
              problem={route.problem}
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
