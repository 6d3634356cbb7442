import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ShortcutButton, ShortcutSheet } from './ShortcutSheet';
import { LOGO } from '../kit/palette';
import {
  PRESETS,
  PRESET_PROBLEMS,
  loadPreset,
  presetCard,
  presetEntry,
  presetFailure,
  presetsVersion,
  subscribePresets,
} from '../scenarios';
import { customById, customVersion, subscribeCustom } from '../scenarios/custom';
import type { ScenarioEntry } from '../scenarios/types';
import { Gallery } from './Gallery';
import { papersUsed } from './galleryPath';
import { ErrorBoundary } from './ErrorBoundary';
import { PRESET_LINKS, abPageChunk, scenarioPageChunk, type PageChunk } from './routeChunks';
import type { Route } from './route';
import { isEmbed, navigate, type Nav } from '../share';
import { LinkBanner } from '../share';
import { EmbedGalleryNote } from './Embed';

/**
 * The scenario and A/B pages (and the views, charts and D3 they draw with) load only when a route
 * opens them, so the gallery's first paint waits for the gallery's code alone. "Loading…" until
 * the page's code is in, then the page, in the same render that is told it is in. Not
 * React.lazy under Suspense: React holds back a boundary's content until 300 ms after its
 * fallback appeared (its FALLBACK_THROTTLE_MS), so a page whose code came 50 ms after "Loading…"
 * still showed 300 ms after it; measured in headless Chromium here, web-access-log's page came
 * about 200 ms late for it.
 */
function PageCode<M>({ chunk, page }: { chunk: PageChunk<M>; page: (m: M) => ReactNode }) {
  useSyncExternalStore(chunk.subscribe, chunk.state, chunk.state);
  chunk.load().catch(() => {}); // started once; a failure is thrown below, to the error boundary
  if (chunk.error !== undefined) throw chunk.error;
  return chunk.module === undefined ? <PageLoading /> : page(chunk.module);
}

const IDS = PRESETS.map((s) => s.id);
const EMBED = isEmbed(window.location.search);
// The footer's papers: the presets never change in a visit, so they are worked out once, when
// the footer first draws (not at load, so a scenario page's first view does not wait for it).
let footerPapers: ReturnType<typeof papersUsed> | undefined;
const papersOfPresets = () => (footerPapers ??= papersUsed(PRESETS));

function currentNav(previous?: Nav): Nav {
  return navigate(window.location.hash, IDS, PRESET_LINKS, previous);
}

/** The preset a route opens (its file may not have loaded yet). */
function routePreset(route: Route): string | undefined {
  return route.view === 'scenario' || route.view === 'ab' ? route.id : undefined;
}

/** The entry a route opens: a preset whose file has loaded, or a file opened in this tab. */
function routeEntry(route: Route): ScenarioEntry | undefined {
  const preset = routePreset(route);
  if (preset !== undefined) return presetEntry(preset);
  if (route.view === 'file') return customById(route.id);
  return undefined;
}

/**
 * While a page's code or its preset's file loads (once per visit; the service worker keeps them
 * for the next).
 */
function PageLoading() {
  return (
    <p className="page-loading" role="status" data-testid="page-loading">
      Loading…
    </p>
  );
}

/** A preset's file that did not load (the network failed): the page cannot open without it. */
function PresetUnavailable({ id, reason }: { id: string; reason: string }) {
  const title = presetCard(id)?.scenario.title ?? id;
  return (
    <div className="notice notice-error" role="alert" data-testid="preset-unavailable">
      <strong>The scenario “{title}” could not be loaded.</strong> {reason}. Reload the page to try
      again.
    </div>
  );
}

export function App() {
  const [nav, setNav] = useState<Nav>(() => currentNav());
  const navRef = useRef(nav);
  useEffect(() => {
    navRef.current = nav;
  }, [nav]);
  const route = nav.route;
  // Opening a file (even one with the same id again) re-renders with the new entry.
  useSyncExternalStore(subscribeCustom, customVersion, customVersion);
  // So does a preset's file once it has loaded.
  useSyncExternalStore(subscribePresets, presetsVersion, presetsVersion);

  useEffect(() => {
    const onHash = () => {
      const prev = navRef.current;
      const next = currentNav(prev);
      // A bad link left the open page as it was: so does the address (a reload keeps the page).
      if (next.failed?.keptPage) history.replaceState(null, '', prev.hash || location.pathname);
      setNav(next);
    };
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
  const preset = routePreset(route);
  // An address opened in the app (main.tsx started the load of the one it opened with).
  useEffect(() => {
    if (preset !== undefined) void loadPreset(preset);
  }, [preset]);
  // A preset whose file is still loading: its page shows "Loading…" (or why it cannot open).
  const waiting = preset !== undefined && !entry ? preset : undefined;
  const failure = waiting !== undefined ? presetFailure(waiting) : undefined;
  const title =
    entry?.scenario.title ??
    (waiting !== undefined ? presetCard(waiting)?.scenario.title : undefined);
  useEffect(() => {
    document.title = title ? `${title} — nicsim` : 'nicsim — how a network interface works';
    window.scrollTo(0, 0);
  }, [entry, title, route]);

  const missingFile =
    route.view === 'file' && !entry
      ? `The scenario file “${route.id}” is not open in this tab any more (opened files are kept only in the tab that opened them). Open the file again below.`
      : undefined;

  return (
    <div className={EMBED ? 'app app-embed' : 'app'}>
      <header className="topbar" hidden={EMBED}>
        <a className="brand" href="#/">
          <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill={LOGO.tile} />
            <rect x="7" y="14" width="18" height="4" rx="2" fill={LOGO.line} />
            <circle cx="10" cy="9" r="3" fill={LOGO.a} />
            <circle cx="22" cy="23" r="3" fill={LOGO.b} />
          </svg>
          <span className="brand-name">nicsim</span>
          <span className="brand-tag">how a network interface works</span>
          <span className="sr-only"> — scenario gallery</span>
        </a>
        <nav className="topnav" aria-label="Main">
          <a href="#/" aria-current={route.view === 'gallery' ? 'page' : undefined}>
            Scenarios
          </a>
          <ShortcutButton />
        </nav>
      </header>
      <main className="main">
        {nav.failed && (
          <LinkBanner
            key={nav.failed.serial}
            failure={nav.failed.reason}
            problems={nav.failed.problems}
            outcome={
              nav.failed.keptPage
                ? 'The page you had open stays as it was.'
                : EMBED
                  ? 'This frame opens no scenario instead.'
                  : 'Here is the list of scenarios instead.'
            }
          />
        )}
        {waiting !== undefined ? (
          failure !== undefined ? (
            <PresetUnavailable id={waiting} reason={failure} />
          ) : (
            <PageLoading />
          )
        ) : route.view === 'ab' && entry ? (
          <ErrorBoundary name="A/B view" resetKey={entry}>
            <PageCode
              chunk={abPageChunk}
              page={({ AbPage }) => <AbPage key={`ab:${entry.id}`} entry={entry} />}
            />
          </ErrorBoundary>
        ) : route.view !== 'gallery' && entry ? (
          <ErrorBoundary name="scenario page" resetKey={entry}>
            <PageCode
              chunk={scenarioPageChunk}
              page={({ ScenarioPage }) => (
                <ScenarioPage
                  key={`${route.view}:${entry.id}:${entry.loadId ?? 0}:${nav.link?.serial ?? 0}`}
                  entry={entry}
                  link={nav.link}
                  embed={EMBED}
                />
              )}
            />
          </ErrorBoundary>
        ) : EMBED ? (
          <EmbedGalleryNote problem={route.view === 'gallery' ? route.problem : missingFile} />
        ) : (
          <ErrorBoundary name="gallery">
            <Gallery
              problem={route.view === 'gallery' ? route.problem : missingFile}
              loadProblems={PRESET_PROBLEMS}
              scenarios={PRESETS}
            />
          </ErrorBoundary>
        )}
      </main>
      <ShortcutSheet />
      <footer className="footer" hidden={EMBED}>
        <p>
          nicsim simulates descriptor rings, DMA over the I/O bus and the Ethernet wire. Its presets
          follow these papers:
        </p>
        <ul className="footer-papers" data-testid="footer-papers">
          {papersOfPresets().map((p) => (
            <li key={p.seed}>{p.full}.</li>
          ))}
        </ul>
      </footer>
    </div>
  );
}
