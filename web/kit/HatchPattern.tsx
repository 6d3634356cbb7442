import { BUS_CATEGORY_COLORS, HATCH_PAPER } from './palette';

/**
 * A diagonal hatch. By default the turnaround hatch: nobody drives AD (the waveform's AD row,
 * the bus bars, their legends); other views pass their own colours (a request's waits).
 */
export function HatchPattern({
  id,
  strokeWidth = 2,
  size = 5,
  fill = HATCH_PAPER,
  stroke = BUS_CATEGORY_COLORS[BUS_CATEGORY_COLORS.length - 2]!,
}: {
  id: string;
  strokeWidth?: number;
  size?: number;
  fill?: string;
  stroke?: string;
}) {
  return (
    <pattern
      id={id}
      width={size}
      height={size}
      patternUnits="userSpaceOnUse"
      patternTransform="rotate(45)"
    >
      <rect width={size} height={size} fill={fill} />
      <line x1="0" y1="0" x2="0" y2={size} stroke={stroke} strokeWidth={strokeWidth} />
    </pattern>
  );
}
