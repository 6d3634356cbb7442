// Click or drag on a time axis to move the playback cursor (the bus waveform and the Tigon's
// CPU lanes). A press that moves more than 3 px is a drag; otherwise it is a click.
import { useRef } from 'react';
import type React from 'react';

export interface CursorDragOptions {
  /** The cursor when the press began. */
  cursor: number;
  /** Moves the cursor (and stops playback). */
  seek: (t: number) => void;
  /** Cursor for a drag: `dx` px from where the press began, pointer at `x` px in the target. */
  dragTo: (start: number, dx: number, x: number) => number;
  /** Cursor for a click at `x` px in the target. */
  clickTo: (x: number) => number;
}

export function useCursorDrag({ cursor, seek, dragTo, clickTo }: CursorDragOptions) {
  const drag = useRef<{ x: number; cursor: number; moved: boolean } | null>(null);
  // Pointer offsets in the view's own px: the stage zooms a view out to fit the window (CSS
  // zoom, app/Stage.tsx), and clientX and the box are on screen, in zoomed px.
  const zoomOf = (e: React.PointerEvent<Element>) =>
    (e.currentTarget as Element & { currentCSSZoom?: number }).currentCSSZoom || 1;
  const xIn = (e: React.PointerEvent<Element>) =>
    (e.clientX - (e.currentTarget as Element).getBoundingClientRect().left) / zoomOf(e);
  return {
    onPointerDown: (e: React.PointerEvent<Element>) => {
      (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
      drag.current = { x: e.clientX, cursor, moved: false };
    },
    onPointerMove: (e: React.PointerEvent<Element>) => {
      const d = drag.current;
      if (!d) return;
      const dx = (e.clientX - d.x) / zoomOf(e);
      if (Math.abs(dx) > 3) d.moved = true;
      if (d.moved) seek(dragTo(d.cursor, dx, xIn(e)));
    },
    onPointerUp: (e: React.PointerEvent<Element>) => {
      const d = drag.current;
      drag.current = null;
      if (d && !d.moved) seek(clickTo(xIn(e)));
    },
    onPointerCancel: () => {
      drag.current = null;
    },
  };
}
