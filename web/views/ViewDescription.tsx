import { useEffect, useState } from 'react';
import { useStoreInstance } from '../run/store';
import { describeView } from './registry';

/**
 * How long a description stays before the next one replaces it, in wall milliseconds: a screen
 * reader hears the view after a step or a scrub settles, never on every animation frame, and
 * while playing only now and then.
 */
export const DESCRIBE_EVERY_MS = 1000;
export const DESCRIBE_EVERY_PLAYING_MS = 5000;

/**
 * A visually hidden, polite live region with what a view shows at the cursor (viewDescriptions.ts).
 * It reads the store on a timer after each change instead of re-rendering with every frame.
 */
export function ViewDescription({ view, label }: { view: string; label: string }) {
  const store = useStoreInstance();
  const [text, setText] = useState('');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = -Infinity;
    const update = () => {
      timer = null;
      last = performance.now();
      const s = store.getState();
      const words = s.shown ? describeView(view, s.shown, s.playback.cursor, s.playback.speed) : '';
      setText(words ? `${label}: ${words}` : '');
    };
    const schedule = () => {
      if (timer !== null) return;
      const every = store.getState().playback.playing
        ? DESCRIBE_EVERY_PLAYING_MS
        : DESCRIBE_EVERY_MS;
      timer = setTimeout(update, Math.max(0, last + every - performance.now()));
    };
    schedule();
    const unsubscribe = store.subscribe(schedule);
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [store, view, label]);
  return (
    <p
      className="sr-only"
      aria-live="polite"
      aria-atomic="true"
      data-testid={`view-description-${view}`}
    >
      {text}
    </p>
  );
}
