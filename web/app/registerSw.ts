// Registers the service worker (web/sw/sw.ts, built to sw.js) so the app works offline after the
// first visit. Production builds only: the dev server has no sw.js and must never be cached.
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
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
