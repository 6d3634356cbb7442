// How many engine workers a page runs: one per core (navigator.hardwareConcurrency), at least
// one. Shared by the pool and by index.html's inline script (earlyCorePlugin.ts), which starts
// that many workers before the app's code has loaded.

/**
 * Chosen cap: no preset has more than 35 sweep points, and every worker holds its own wasm
 * instance (tens of MB), so past 8 the memory grows faster than the sweep shortens.
 */
export const MAX_POOL_SIZE = 8;

/** The pool's size for a core count as the browser reports it (anything else counts as one). */
export function poolSizeFor(cores: unknown): number {
  const n = typeof cores === 'number' && Number.isFinite(cores) ? Math.floor(cores) : 1;
  return Math.min(MAX_POOL_SIZE, Math.max(1, n));
}

export function defaultPoolSize(): number {
  return poolSizeFor(typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency);
}
