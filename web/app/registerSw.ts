// Registers the service worker (web/sw/sw.ts, built to sw.js) so the app works offline after the
// first visit. Production builds only: the dev server has no sw.js and must never be cached.

/** performance.mark of the scenario page's first complete view (ScenarioPage). */
const FIRST_VIEW = 'nicsim:first-view';
/** How long after the load event registration waits for that view at most (the gallery has none). */
const WAIT_MS = 3000;

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
  // Installing downloads every asset. After the first view it competes with neither the page's
  // code nor the engine for the network and the CPU, and finds the wasm core and the code the
  // page has just loaded in the HTTP cache instead of downloading them a second time.
  const afterLoad = () => whenDrawn(register);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

function whenDrawn(then: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    then();
  };
  const timer = setTimeout(once, WAIT_MS);
  let observer: PerformanceObserver | undefined;
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(FIRST_VIEW).length > 0) once();
    });
    observer.observe({ type: 'mark', buffered: true });
  } catch {
    // No observer for marks: the timeout registers.
  }
}
