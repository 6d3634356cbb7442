/** The turnaround hatch: nobody drives AD (the waveform's AD row, the bus bars, their legends). */
export function HatchPattern({ id, strokeWidth = 2 }: { id: string; strokeWidth?: number }) {
  return (
    <pattern
      id={id}
      width="5"
      height="5"
      patternUnits="userSpaceOnUse"
      patternTransform="rotate(45)"
    >
      <rect width="5" height="5" fill="#ece6d8" />
      <line x1="0" y1="0" x2="0" y2="5" stroke="#b9a27a" strokeWidth={strokeWidth} />
    </pattern>
  );
}
