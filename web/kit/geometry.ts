// Small geometry helpers for the diagram (pure, testable).

export function lerp(a: number, b: number, f: number): number {
  return a + (b - a) * f;
}

/** Position of a token of width w moving along [x0, x1] at progress f (0..1), forwards or backwards. */
export function tokenX(x0: number, x1: number, w: number, f: number, forwards: boolean): number {
  const p = forwards ? f : 1 - f;
  return lerp(x0, x1 - w, Math.min(1, Math.max(0, p)));
}

export type Point = readonly [number, number];

/** The point at fraction f (0..1) of a polyline's length. */
export function pointAlong(points: readonly Point[], f: number): Point {
  if (points.length === 0) return [0, 0];
  if (points.length === 1) return points[0]!;
  const seg: number[] = [];
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const d = Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]);
    seg.push(d);
    total += d;
  }
  let want = Math.min(1, Math.max(0, f)) * total;
  for (let i = 0; i < seg.length; i++) {
    if (want <= seg[i]! || i === seg.length - 1) {
      const g = seg[i]! > 0 ? Math.min(1, want / seg[i]!) : 1;
      const a = points[i]!;
      const b = points[i + 1]!;
      return [lerp(a[0], b[0], g), lerp(a[1], b[1], g)];
    }
    want -= seg[i]!;
  }
  return points[points.length - 1]!;
}

/** An SVG path through the points. */
export function polylinePath(points: readonly Point[]): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${p[0]} ${p[1]}`).join(' ');
}
