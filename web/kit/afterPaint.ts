/**
 * Calls `fn` once the next frame is painted (a timer queued from its animation frame runs after
 * it), for work that must not hold up what that frame shows. Returns what cancels it.
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
