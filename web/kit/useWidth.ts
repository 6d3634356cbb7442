import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The element's width in px, kept current with a ResizeObserver (at least `min`; `initial`
 * before the first measurement and in server rendering). `dep` re-attaches the observer when
 * the element may have been replaced.
 */
export function useWidth(
  ref: RefObject<HTMLElement | null>,
  dep: unknown,
  initial = 900,
  min = 320,
): number {
  const [w, setW] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setW(Math.max(min, Math.floor(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, dep, min]);
  return w;
}
