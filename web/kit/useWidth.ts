import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The element's width in px, kept current with a ResizeObserver (at least `min`); null until
 * the element has been measured, `initial` where it never will be (server rendering). A view that
 * draws much waits for it rather than drawing at a guessed width and again at the real one: the
 * measurement, in a layout effect, re-renders before the browser paints, so nothing is seen in
 * between. `dep` re-attaches the observer when the element may have been replaced; the same
 * element is not measured again (reading its width right after a large commit forces a layout
 * the observer gives for free before the paint).
 */
export function useMeasuredWidth(
  ref: RefObject<HTMLElement | null>,
  dep: unknown,
  initial: number,
  min = 320,
): number | null {
  const [w, setW] = useState<number | null>(() =>
    typeof ResizeObserver === 'undefined' ? initial : null,
  );
  const measured = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const set = (px: number) => setW(Math.max(min, Math.floor(px)));
    if (measured.current !== el) {
      measured.current = el;
      set(el.clientWidth);
    }
    const ro = new ResizeObserver(() => set(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, dep, min]);
  return w;
}

/** useMeasuredWidth with `initial` before the first measurement. */
export function useWidth(
  ref: RefObject<HTMLElement | null>,
  dep: unknown,
  initial = 900,
  min = 320,
): number {
  return useMeasuredWidth(ref, dep, initial, min) ?? initial;
}
