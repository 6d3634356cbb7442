// The A/B view's one shared cursor: two stores, one per variant, whose playback cursors move
// together. Whichever store the viewer moves (the shared playback bar drives A; a click in one of
// B's views moves B), the other follows to the same simulated time, clamped to its own window.
import type { State, Store } from './store';

/** Keeps b's cursor at a's and a's at b's; returns the function that unlinks them. */
export function linkCursors(a: Store, b: Store): () => void {
  // While one store follows the other, its own change must not echo back (it may have clamped).
  let following = false;
  const move = (to: Store, t: number) => {
    following = true;
    try {
      to.setCursor(t);
    } finally {
      following = false;
    }
  };
  const follow = (from: Store, to: Store) => {
    let last: State = from.getState();
    return () => {
      const prev = last;
      const now = (last = from.getState());
      if (following) return;
      if (now.shown !== prev.shown) {
        // A run landed on this side (its cursor jumped to its window): it joins the other side's
        // cursor rather than moving it.
        if (to.getState().shown) move(from, to.getState().playback.cursor);
        return;
      }
      const t = now.playback.cursor;
      if (t !== prev.playback.cursor && to.getState().playback.cursor !== t) move(to, t);
    };
  };
  const offA = a.subscribe(follow(a, b));
  const offB = b.subscribe(follow(b, a));
  return () => {
    offA();
    offB();
  };
}
