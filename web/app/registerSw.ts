// Registers the service worker (web/sw/sw.ts, built to sw.js) so the app works offline after the
// first visit. Production builds only: the dev server has no sw.js and must never be cached.

/** performance.marks of the scenario page's first complete view and of its whole run (ScenarioPage). */
const FIRST_VIEW = 'nicsim:first-view';
const RUN_DONE = 'nicsim:run-done';
/** How long after the load event registration waits for a first view at most (the gallery has none). */
const WAIT_MS = 3000;
/** How long after a first view it waits for the run to be done at most (left or cancelled before). */
const RUN_WAIT_MS = 20000;

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined') return;
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    // Relative to the page, so the site works from any sub-folder (vite base './').
    navigator.serviceWorker.register('./sw.js').catch((err: unknown) => {
      // Offline use is a bonus: the app works without it.
      console.warn('nicsim: the service worker could not be registered', err);
    });
  };
  // Installing downloads every asset. Once the page's run is done it competes with neither the
  // page's code nor the engine's workers (a sweep's points) for the network and the CPU, and finds
  // the wasm core and the code the page has just loaded in the HTTP cache instead of downloading
  // them a second time. Measured in headless Chromium here: installing during a sweep put its
  // end 150-400 ms later.
  const afterLoad = () => whenIdle(register);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

function whenIdle(then: () => void): void {
  let done = false;
  let observer: PerformanceObserver | undefined;
  let timer = setTimeout(() => once(), WAIT_MS);
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    then();
  };
  let viewed = false;
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(RUN_DONE).length > 0) {
        once();
      } else if (!viewed && list.getEntriesByName(FIRST_VIEW).length > 0) {
        viewed = true;
        clearTimeout(timer);
        timer = setTimeout(() => once(), RUN_WAIT_MS);
      }
    });
    observer.observe({ type: 'mark', buffered: true });
  } catch {
    // No observer for marks: the timeout registers.
  }
}
