import { useEffect, useSyncExternalStore } from 'react';
import type { Store } from './store';

/**
 * Advances a store's cursor while it plays (requestAnimationFrame). Takes the store itself, not
 * the context's, so the A/B page can drive side A's (side B follows through linkCursors).
 */
export function usePlaybackClock(store: Store): void {
  const playing = useSyncExternalStore(
    store.subscribe,
    () => store.getState().playback.playing,
    () => store.getState().playback.playing,
  );
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function frame(now) {
      // Cap a frame's step so a background tab does not jump to the end. The first frame's time
      // is when that frame began, which can precede `last` (taken as Play was pressed): never a
      // negative step, which once moved the clock back to "-32 ns".
      store.tick(Math.min(100, Math.max(0, now - last)));
      last = now;
      raf = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(raf);
  }, [playing, store]);
}
