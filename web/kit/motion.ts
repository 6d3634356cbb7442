// prefers-reduced-motion on the JS side. CSS stops transitions and animations (styles/a11y.css);
// what JS drives is decided here: playback never starts by itself for a viewer who asked for
// less motion (a tour step or a link may start it otherwise), and scrolling jumps.
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : null;
}

/** True when the viewer's system asks for reduced motion (false outside a browser). */
export function prefersReducedMotion(): boolean {
  return media()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const m = media();
  if (!m) return () => {};
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
}

/** The preference as React state: re-renders when the viewer changes it. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}

/** How to scroll something into view: smoothly, unless reduced motion is asked for. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth';
}
