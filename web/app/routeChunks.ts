// The code of the pages other than the gallery, loaded on demand (App's React.lazy) and started
// early by main.tsx when the address already names such a page, with the preset's file the page
// opens. Each loader imports once: the lazy component and the early start share the same promise.
import { enginePool } from '../engine/pool';
import {
  PRESETS,
  loadPreset,
  presetCard,
  presetEntry,
  presetFailure,
  subscribePresets,
} from '../scenarios';
import { decodeLink, isLinkHash, linkCatalog } from '../share';
import { paramAt, type ParameterTree } from '../engine/types';
import type { Scenario, ScenarioEntry } from '../scenarios/types';

/** The link decoder's catalogue of the presets (their ids and tour lengths), made once. */
export const PRESET_LINKS = linkCatalog(PRESETS);

/**
 * A page's code, imported once: its module once in (or why it could not be had), for App to
 * render the page as soon as it is, and a way to be told when it is.
 */
export class PageChunk<M> {
  private promise: Promise<M> | null = null;
  private listeners = new Set<() => void>();
  /** The module, once loaded. */
  module: M | undefined = undefined;
  /** Why the import failed (undefined while it has not). */
  error: unknown = undefined;

  constructor(private readonly importer: () => Promise<M>) {}

  /** Starts the import (once) and gives its promise. */
  load(): Promise<M> {
    this.promise ??= this.importer().then(
      (m) => {
        this.module = m;
        this.notify();
        return m;
      },
      (err: unknown) => {
        this.error = err ?? new Error('the page could not be loaded');
        this.notify();
        throw err;
      },
    );
    return this.promise;
  }

  /** For useSyncExternalStore: 0 loading, 1 loaded, 2 failed. */
  readonly state = (): number => (this.module !== undefined ? 1 : this.error !== undefined ? 2 : 0);

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

export const scenarioPageChunk = new PageChunk(() => import('./ScenarioPage'));
export const abPageChunk = new PageChunk(() => import('./AbPage'));

export function loadScenarioPage() {
  return scenarioPageChunk.load();
}

export function loadAbPage() {
  return abPageChunk.load();
}

/**
 * Starts loading the page an address opens before React renders: the A/B page for #/ab/…, the
 * scenario page for any other address but the gallery's (a wrong guess only loads code early),
 * and, in parallel with the page's code, the file of the preset it names.
 */
export function preloadRoute(hash: string): void {
  if (/^#\/?ab\//.test(hash)) {
    void loadAbPage();
    const id = presetOf(/^#\/?ab\/([^/?#]+)\/?$/.exec(hash));
    if (id !== undefined) void loadPreset(id);
  } else if (isLinkHash(hash)) {
    void loadScenarioPage();
    const link = decodeLink(hash, PRESET_LINKS);
    if (link.ok) void loadPreset(link.state.scenario);
  } else if (!/^#?\/?$/.test(hash)) {
    void loadScenarioPage();
    prestartRun(hash);
  }
}

/** The known preset id an address's match names, if any. */
function presetOf(m: RegExpExecArray | null): string | undefined {
  if (!m) return undefined;
  try {
    const id = decodeURIComponent(m[1]!);
    return presetCard(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A preset's own address (#/s/<id>; a link with overrides starts "#v") starts its main run as
 * soon as its file has loaded, so the core runs while the page's code downloads; the page's first
 * run takes the reply. The engine's instances start meanwhile. A page that replays an access log
 * only starts the instances: it runs once the viewer gives a log.
 */
function prestartRun(hash: string): void {
  const id = presetOf(/^#\/?s\/([^/?#]+)\/?$/.exec(hash));
  if (id === undefined) return;
  const pool = enginePool();
  pool.warm();
  const start = (entry: ScenarioEntry) => {
    // Gone before the file came: nothing to run.
    if (window.location.hash !== hash || replaysLog(entry.scenario)) return;
    pool.prestart(entry.text);
    if (!pool.prestarted) return;
    // Leaving before the page's code has loaded and taken the run stops it (the page, once it
    // has taken it, cancels on leaving itself).
    const leave = () => {
      if (window.location.hash === hash) return;
      window.removeEventListener('hashchange', leave);
      pool.dropEarly();
    };
    window.addEventListener('hashchange', leave);
  };
  // Told the moment the file is in, before the page renders (it is told after: this listener
  // came first): a page whose code is in already then takes this run rather than start its own,
  // which checks the scenario first.
  const stop = subscribePresets(() => {
    const entry = presetEntry(id);
    if (!entry && presetFailure(id) === undefined) return; // another preset's file
    stop();
    if (entry) start(entry);
  });
  void loadPreset(id);
}

/**
 * The scenario or its sweep replays an access log (webserver's isLogPage without overrides;
 * not imported from there, so that the gallery's code stays without the access log panel).
 */
function replaysLog(s: Scenario): boolean {
  const trace = 'workload.trace';
  const swept = (p: string | undefined, values: readonly unknown[] | undefined) =>
    p === trace && (values ?? []).includes('log');
  return (
    paramAt(s as unknown as ParameterTree, trace) === 'log' ||
    swept(s.sweep?.parameter, s.sweep?.values) ||
    swept(s.sweep?.series?.parameter, s.sweep?.series?.values)
  );
}
