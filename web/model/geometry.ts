// Small geometry helpers for the diagram (pure, testable).

export function lerp(a: number, b: number, f: number): number {
  return a + (b - a) * f;
}

/** Position of a token of width w moving along [x0, x1] at progress f (0..1), forwards or backwards. */
export function tokenX(x0: number, x1: number, w: number, f: number, forwards: boolean): number {
  const p = forwards ? f : 1 - f;
  return lerp(x0, x1 - w, Math.min(1, Math.max(0, p)));
}
