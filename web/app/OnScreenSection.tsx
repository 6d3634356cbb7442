import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ViewVisibleContext } from '../run/store';

/**
 * A view's panel that tells the views inside whether it is on screen (an IntersectionObserver),
 * so a view scrolled out of sight stops redrawing while playback runs (useViewStore) and
 * catches up when it comes back or playback stops. A view only partly on screen still draws.
 */
export function OnScreenSection({
  className,
  labelledBy,
  children,
}: {
  className: string;
  labelledBy: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const [visible, setVisible] = useState(true);
  // Known before the first paint (the observer reports later): a panel below the fold draws a
  // new run after those in sight (useRun).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const r = el.getBoundingClientRect();
    setVisible(r.bottom > 0 && r.top < window.innerHeight);
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        const e = entries[entries.length - 1];
        if (e) setVisible(e.isIntersecting);
      },
      { rootMargin: '0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);
  return (
    <section ref={ref} className={className} aria-labelledby={labelledBy}>
      <ViewVisibleContext.Provider value={visible}>{children}</ViewVisibleContext.Provider>
    </section>
  );
}
