import { useMemo, useRef, useState } from 'react';
import { nearestX, type SweepChartModel, type TimeSeriesModel } from '../model/chart';
import { formatNumber } from '../model/format';

function Axes({
  m,
}: {
  m: Pick<SweepChartModel, 'box' | 'xTicks' | 'yTicks' | 'xLabel' | 'yLabel'>;
}) {
  const { width, height, margin } = m.box;
  const bottom = height - margin.bottom;
  return (
    <g className="axes">
      {m.yTicks.map((t) => (
        <g key={`y${t.value}`} className="tick">
          <line
            x1={margin.left}
            x2={width - margin.right}
            y1={t.pos}
            y2={t.pos}
            className="grid-line"
          />
          <text x={margin.left - 8} y={t.pos + 4} textAnchor="end">
            {t.label}
          </text>
        </g>
      ))}
      {m.xTicks.map((t) => (
        <g key={`x${t.value}`} className="tick">
          <line x1={t.pos} x2={t.pos} y1={bottom} y2={bottom + 5} className="axis-line" />
          <text x={t.pos} y={bottom + 18} textAnchor="middle">
            {t.label}
          </text>
        </g>
      ))}
      <line
        x1={margin.left}
        x2={width - margin.right}
        y1={bottom}
        y2={bottom}
        className="axis-line"
      />
      <line x1={margin.left} x2={margin.left} y1={margin.top} y2={bottom} className="axis-line" />
      <text
        x={(margin.left + width - margin.right) / 2}
        y={height - 8}
        textAnchor="middle"
        className="axis-label"
      >
        {m.xLabel}
      </text>
      <text
        transform={`translate(16, ${(margin.top + bottom) / 2}) rotate(-90)`}
        textAnchor="middle"
        className="axis-label"
      >
        {m.yLabel}
      </text>
    </g>
  );
}

/** Series markers differ in shape as well as colour, so overlapping series stay readable. */
export function PointMark({
  x,
  y,
  shape,
  color,
  big = false,
}: {
  x: number;
  y: number;
  shape: number;
  color: string;
  big?: boolean;
}) {
  const r = big ? 6 : 4.5;
  if (shape === 0)
    return <circle cx={x} cy={y} r={r} className="series-point hollow" style={{ stroke: color }} />;
  if (shape === 1)
    return <circle cx={x} cy={y} r={r - 1} className="series-point" style={{ fill: color }} />;
  return (
    <rect
      x={x - r + 1}
      y={y - r + 1}
      width={2 * r - 2}
      height={2 * r - 2}
      className="series-point"
      style={{ fill: color }}
      transform={`rotate(45 ${x} ${y})`}
    />
  );
}

/** A metric against the swept parameter: one line per series, dashed limit curves, hover tooltip. */
export function SweepChart({
  model,
  limitLabel = 'Ethernet limit',
  xUnit = '',
}: {
  model: SweepChartModel;
  limitLabel?: string;
  xUnit?: string;
}) {
  const [hoverX, setHoverX] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const { width, height, margin } = model.box;

  const onMove = (e: React.PointerEvent<SVGSVGElement>) => {
    const svg = svgRef.current;
    if (!svg) return;
    const r = svg.getBoundingClientRect();
    const px = ((e.clientX - r.left) / r.width) * width;
    if (px < margin.left - 10 || px > width - margin.right + 10) {
      setHoverX(null);
      return;
    }
    setHoverX(nearestX(model, px));
  };

  const tip = useMemo(() => {
    if (hoverX === null) return null;
    const rows = model.lines.map((l) => ({
      name: l.label,
      color: l.color,
      y: l.points.find((p) => p.x === hoverX)?.y,
      limit: l.limitPoints.find((p) => p.x === hoverX)?.y,
    }));
    return { x: hoverX, px: model.x(hoverX), rows };
  }, [hoverX, model]);

  const hasLimit = model.lines.some((l) => l.limitPath);

  return (
    <div className="chart" data-testid="sweep-chart">
      <svg
        ref={svgRef}
        viewBox={`0 0 ${width} ${height}`}
        className="chart-svg"
        role="img"
        aria-label={`${model.yLabel} against ${model.xLabel}`}
        onPointerMove={onMove}
        onPointerLeave={() => setHoverX(null)}
      >
        <Axes m={model} />
        {model.lines.map((l) =>
          l.limitPath ? (
            <path
              key={`lim-${l.name}`}
              d={l.limitPath}
              className="limit-line"
              style={{ stroke: l.color }}
              data-testid="limit-curve"
            />
          ) : null,
        )}
        {model.lines.map((l, si) => (
          <g key={l.name} className="series" data-series={l.name}>
            <path d={l.path} className="series-line" style={{ stroke: l.color }} />
            {l.points.map((p) => (
              <PointMark
                key={p.x}
                x={p.px}
                y={p.py}
                shape={si % 3}
                color={l.color}
                big={hoverX === p.x}
              />
            ))}
          </g>
        ))}
        {tip && (
          <line
            x1={tip.px}
            x2={tip.px}
            y1={margin.top}
            y2={height - margin.bottom}
            className="hover-line"
          />
        )}
      </svg>
      <ul className="chart-legend">
        {model.lines.map((l, si) => (
          <li key={l.name}>
            <svg width="26" height="12" aria-hidden="true">
              <line x1="0" x2="26" y1="6" y2="6" stroke={l.color} strokeWidth="2.2" />
              <PointMark x={13} y={6} shape={si % 3} color={l.color} />
            </svg>
            {l.label}
          </li>
        ))}
        {hasLimit && (
          <li>
            <span className="swatch swatch-dashed" />
            {limitLabel}
          </li>
        )}
      </ul>
      {tip && (
        <div
          className="tooltip"
          role="status"
          style={{
            left: `${(tip.px / width) * 100}%`,
            transform: tip.px > width * 0.6 ? 'translateX(calc(-100% - 12px))' : 'translateX(12px)',
          }}
          data-testid="chart-tooltip"
        >
          <div className="tooltip-title">
            {formatNumber(tip.x)}
            {xUnit ? ` ${xUnit}` : ''}
          </div>
          <table>
            <tbody>
              {tip.rows.map((r) => (
                <tr key={r.name}>
                  <td>
                    <span className="swatch" style={{ background: r.color }} />
                    {r.name}
                  </td>
                  <td className="num">
                    {r.y === undefined ? '—' : `${formatNumber(r.y)} ${model.yUnit}`}
                  </td>
                  <td className="num muted">
                    {r.limit === undefined ? '' : `limit ${formatNumber(r.limit)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** A time series of the main run with a "now" marker at the cursor. */
export function TimeSeriesChart({ model }: { model: TimeSeriesModel }) {
  const { width, height, margin } = model.box;
  return (
    <div className="chart" data-testid="series-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="chart-svg"
        role="img"
        aria-label={`${model.yLabel} over ${model.xLabel}`}
      >
        <Axes m={model} />
        <path d={model.path} className="series-line" style={{ stroke: '#3b4d7a' }} />
        {model.nowX !== null && (
          <g className="now-marker" data-testid="now-marker">
            <line x1={model.nowX} x2={model.nowX} y1={margin.top} y2={height - margin.bottom} />
            <text x={model.nowX + 4} y={margin.top + 10}>
              now
            </text>
          </g>
        )}
      </svg>
    </div>
  );
}
