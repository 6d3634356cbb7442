import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useStore } from '../run/store';

/** The gap between the playback bar and the view's panel, and a margin below it. */
const GAP = 16;
/** A diagram's drawing never shrinks below this height (a phone scrolls instead). */
const MIN_ROOM = 180;
/** Nor is a view zoomed out further than this: its text must stay readable. */
const MIN_ZOOM = 0.6;
/** After a change of zoom, how long before the zoom may grow again (see fit below). */
const SETTLE_MS = 1000;

function reducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The stage: the playback bar and the scenario's main moving view, one above the other and
 * sized to fit the window together, so that pressing Play shows the system move without
 * scrolling: a system diagram's drawing gets the height left (--stage-room, app.css), any other
 * view is zoomed out to fit (down to MIN_ZOOM). --stage-bar-h is the bar's height. When
 * playback starts with the stage out of view (the page scrolled to a lower panel), it scrolls
 * back to it, unless a tour step is showing another view.
 */
export function Stage({ view, children }: { view: string | undefined; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const playing = useStore((s) => s.playback.playing);
  const tourOpen = useStore((s) => s.ui.tourStep !== null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Zooming out widens a view that lays itself out to its width (the NIC cache's grid), which
    // makes it shorter, which would let the zoom grow back, which makes it taller again: a loop,
    // repainted every frame. So the zoom may shrink at any time but grows back only once the
    // view has settled from the last change, and not at all ('pinned') once a grow was undone at
    // once, until the window is resized.
    let last: { at: number; grew: boolean } | 'pinned' = { at: -Infinity, grew: false };
    let later: ReturnType<typeof setTimeout> | null = null;
    const fit = () => {
      const bar = el.querySelector('.playback');
      const barH = bar ? bar.getBoundingClientRect().height : 0;
      el.style.setProperty('--stage-bar-h', `${Math.ceil(barH)}px`);
      const panel = el.querySelector<HTMLElement>('.stage-view');
      if (!panel) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      const full = window.innerHeight - barH - GAP;
      // Fit below the page's head when that leaves most of the room; else fit the whole window
      // (Play then scrolls the stage to the top).
      const room = full - top >= full * 0.6 ? full - top : full;
      // A system diagram shrinks its drawing alone (its legend and narration keep their size);
      // any other view, or a diagram still too tall, is zoomed out as a whole.
      // Presenter mode magnifies the views instead (tour/presenterZoom.ts).
      panel.style.removeProperty('max-height');
      panel.style.removeProperty('overflow-y');
      if (document.documentElement.classList.contains('presenter-mode')) {
        panel.style.zoom = '';
        el.style.removeProperty('--stage-room');
        return;
      }
      const zoom = Number(panel.style.zoom || 1);
      const natural = () => panel.getBoundingClientRect().height / zoom;
      const svg = panel.querySelector('svg.diagram');
      if (svg) {
        const chrome = natural() - svg.getBoundingClientRect().height / zoom;
        el.style.setProperty('--stage-room', `${Math.max(MIN_ROOM, Math.floor(room - chrome))}px`);
      }
      const nat = natural();
      const z = Math.max(MIN_ZOOM, Math.min(1, room / nat));
      const now = performance.now();
      if (Math.abs(z - zoom) > 0.01) {
        const since = last === 'pinned' ? 0 : now - last.at;
        if (z < zoom || (last !== 'pinned' && since > SETTLE_MS)) {
          const undone = last !== 'pinned' && last.grew && z < zoom && since < SETTLE_MS;
          last = last === 'pinned' || undone ? 'pinned' : { at: now, grew: z > zoom };
          panel.style.zoom = z < 1 ? z.toFixed(3) : '';
        } else if (last !== 'pinned' && later === null) {
          // A grow held back until the view settles: try again then.
          later = setTimeout(
            () => {
              later = null;
              fit();
            },
            SETTLE_MS - since + 1,
          );
        }
      }
      // A view still too tall at MIN_ZOOM on a desk screen (the request path in a short window,
      // or under the opened navigation row) keeps its top, the moving part, in the room; the rest scrolls inside it.
      // On a phone the page scrolls instead.
      const tall = window.innerWidth >= 1000 && room < nat * MIN_ZOOM - 1;
      if (tall) {
        panel.style.maxHeight = `${Math.floor(room / MIN_ZOOM)}px`;
        panel.style.overflowY = 'auto';
      }
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(fit);
    ro.observe(el);
    const head = document.querySelector('.scenario-head');
    if (head) ro.observe(head);
    // A new window size is a new start: the zoom may grow at once.
    const resized = () => {
      last = { at: -Infinity, grew: false };
      fit();
    };
    window.addEventListener('resize', resized);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', resized);
      if (later !== null) clearTimeout(later);
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!playing || tourOpen || !el) return;
    const r = el.getBoundingClientRect();
    const fits = r.height <= window.innerHeight;
    if (fits ? r.top < 0 || r.bottom > window.innerHeight + 1 : r.top < 0 || r.top > 40)
      el.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }, [playing, tourOpen]);

  return (
    <div ref={ref} className={`stage ${view ? '' : 'stage-bar-only'}`} data-testid="stage">
      {children}
    </div>
  );
}
