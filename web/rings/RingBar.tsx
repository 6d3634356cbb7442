import type { RingCopyState } from './rings';

interface Props {
  state: RingCopyState;
  x: number;
  y: number;
  w: number;
  h: number;
  color: string;
}

/** Contiguous occupied ranges [from, to) of slot positions, split at the wrap. */
export function occupiedRanges(
  consumer: number,
  occupied: number,
  size: number,
): Array<[number, number]> {
  if (size <= 0 || occupied <= 0) return [];
  const c = ((consumer % size) + size) % size;
  const end = c + Math.min(occupied, size);
  if (end <= size) return [[c, end]];
  return [
    [c, size],
    [0, end - size],
  ];
}

/** A compact linear slot array of one ring copy, with producer (P) and consumer (C) marks. */
export function RingBar({ state, x, y, w, h, color }: Props) {
  if (!state.known || state.size <= 0) {
    // Only for a trace without the window-start index records: an empty, dashed track.
    return (
      <g className="ringbar ringbar-unknown">
        <title>no index recorded</title>
        <rect x={x} y={y} width={w} height={h} rx={2} />
      </g>
    );
  }
  const { size, producer, consumer, occupied } = state;
  const sw = w / size;
  const discrete = size <= 64;
  const px = x + (((producer % size) + size) % size) * sw;
  const cx = x + (((consumer % size) + size) % size) * sw;
  return (
    <g className="ringbar">
      <rect x={x} y={y} width={w} height={h} rx={2} className="ringbar-track" />
      {discrete
        ? Array.from({ length: size }, (_, i) => {
            const occ = occupiedRanges(consumer, occupied, size).some(([a, b]) => i >= a && i < b);
            return (
              <rect
                key={i}
                x={x + i * sw + 0.5}
                y={y + 0.5}
                width={Math.max(0.5, sw - 1)}
                height={h - 1}
                rx={1}
                style={occ ? { fill: color } : undefined}
                className={occ ? 'slot slot-occ' : 'slot'}
              />
            );
          })
        : occupiedRanges(consumer, occupied, size).map(([a, b]) => (
            <rect
              key={a}
              x={x + a * sw}
              y={y + 0.5}
              width={(b - a) * sw}
              height={h - 1}
              style={{ fill: color }}
              className="slot-occ"
            />
          ))}
      {/* Consumer (grey) and producer (dark) marks below the bar, at the slot they point to. */}
      <path d={`M${cx + sw / 2} ${y + h + 1} l-3.5 5.5 h7 z`} className="mark mark-c" />
      <path d={`M${px + sw / 2} ${y + h + 1} l-3.5 5.5 h7 z`} className="mark mark-p" />
    </g>
  );
}
