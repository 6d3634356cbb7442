// The code of the pages other than the gallery, loaded on demand (App's React.lazy) and started
// early by main.tsx when the address already names such a page. Each loader imports once: the
// lazy component and the early start share the same promise.
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
  else if (!/^#?\/?$/.test(hash)) void loadScenarioPage();
}
