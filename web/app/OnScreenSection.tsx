import { useEffect, useRef, useState, type ReactNode } from 'react';
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
