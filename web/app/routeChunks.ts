// The code of the pages other than the gallery, loaded on demand (App's React.lazy) and started
// early by main.tsx when the address already names such a page. Each loader imports once: the
// lazy component and the early start share the same promise.
import { enginePool } from '../engine/pool';
import { scenarioById } from '../scenarios';
import { paramAt, type ParameterTree } from '../engine/types';
import type { Scenario } from '../scenarios/types';

let scenarioPage: Promise<typeof import('./ScenarioPage')> | null = null;
let abPage: Promise<typeof import('./AbPage')> | null = null;

export function loadScenarioPage() {
  scenarioPage ??= import('./ScenarioPage');
  return scenarioPage;
}

export function loadAbPage() {
  abPage ??= import('./AbPage');
  return abPage;
}

/**
 * Starts loading the page an address opens before React renders: the A/B page for #/ab/…, the
 * scenario page for any other address but the gallery's (a wrong guess only loads code early).
 */
export function preloadRoute(hash: string): void {
  if (/^#\/?ab\//.test(hash)) void loadAbPage();
  else if (!/^#?\/?$/.test(hash)) {
    void loadScenarioPage();
    prestartRun(hash);
  }
}

/**
 * A preset's own address (#/s/<id>; a link with overrides starts "#v") starts its main run at
 * once, so the core runs while the page's code downloads; the page's first run takes the reply.
 * A page that replays an access log starts the engine's instances instead.
 */
function prestartRun(hash: string): void {
  const m = /^#\/?s\/([^/?#]+)\/?$/.exec(hash);
  if (!m) return;
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return;
  }
  const entry = scenarioById(id);
  if (!entry) return;
  const pool = enginePool();
  // A page that replays an access log runs once the viewer gives one: its instances get ready.
  if (replaysLog(entry.scenario)) {
    pool.warm();
    return;
  }
  pool.prestart(entry.text);
  // Leaving before the page's code has loaded and taken the run stops it (the page, once it has
  // taken it, cancels on leaving itself).
  const leave = () => {
    if (window.location.hash === hash) return;
    window.removeEventListener('hashchange', leave);
    pool.dropEarly();
  };
  window.addEventListener('hashchange', leave);
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
