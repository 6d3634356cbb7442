// The system diagram's highlight (ui.highlight, set by a tour step or the packet inspector): a
// ring around each named part and a light veil over the rest. A still ring under
// prefers-reduced-motion (styles/tour.css), a slow glow otherwise.
import '../tour/tour.css';

/** Where a part sits in the diagram (viewBox units): a box, or a path for a line. */
export type PartShape = { x: number; y: number; w: number; h: number; r?: number } | { d: string };

export function HighlightLayer({
  parts,
  shapes,
  width,
  height,
}: {
  parts: readonly string[];
  /** Every part the diagram can show, with its shapes (a part may be drawn in two places). */
  shapes: Readonly<Record<string, readonly PartShape[]>>;
  width: number;
  height: number;
}) {
  const shown = parts.filter((p) => (shapes[p] ?? []).length > 0);
  if (shown.length === 0) return null;
  const PAD = 5;
  const boxes: { x: number; y: number; w: number; h: number; r: number }[] = [];
  for (const p of shown) {
    for (const s of shapes[p]!) {
      if ('x' in s) boxes.push({ ...s, r: s.r ?? 9 });
    }
  }
  // The veil: the whole diagram minus a hole around each highlighted box (even-odd fill).
  const hole = (b: { x: number; y: number; w: number; h: number; r: number }) => {
    const x = b.x - PAD;
    const y = b.y - PAD;
    const w = b.w + 2 * PAD;
    const h = b.h + 2 * PAD;
    const r = Math.min(b.r + PAD, w / 2, h / 2);
    return `M${x + r} ${y} H${x + w - r} A${r} ${r} 0 0 1 ${x + w} ${y + r} V${y + h - r} A${r} ${r} 0 0 1 ${x + w - r} ${y + h} H${x + r} A${r} ${r} 0 0 1 ${x} ${y + h - r} V${y + r} A${r} ${r} 0 0 1 ${x + r} ${y} Z`;
  };
  const veil = `M0 0 H${width} V${height} H0 Z ${boxes.map(hole).join(' ')}`;
  return (
    <g className="hl-layer" aria-hidden="true" data-testid="highlight-layer">
      <path d={veil} className="hl-veil" fillRule="evenodd" />
      {shown.map((p) =>
        shapes[p]!.map((s, i) =>
          'd' in s ? (
            <g key={`${p}-${i}`} data-testid="highlight-ring" data-part={p}>
              <path d={s.d} className="hl-line-halo" />
              <path d={s.d} className="hl-line" />
            </g>
          ) : (
            <g key={`${p}-${i}`} data-testid="highlight-ring" data-part={p}>
              <rect
                x={s.x - PAD}
                y={s.y - PAD}
                width={s.w + 2 * PAD}
                height={s.h + 2 * PAD}
                rx={(s.r ?? 9) + PAD}
                className="hl-halo"
              />
              <rect
                x={s.x - PAD}
                y={s.y - PAD}
                width={s.w + 2 * PAD}
                height={s.h + 2 * PAD}
                rx={(s.r ?? 9) + PAD}
                className="hl-ring"
              />
            </g>
          ),
        ),
      )}
    </g>
  );
}
