import { useMemo, useRef, useState } from 'react';
import {
  nearestX,
  type ReferenceMark,
  type ReferenceShape,
  type SweepChartModel,
  type TimeSeriesModel,
} from './chart';
import { formatNumber } from '../kit/format';
import { INK_2, WEB_SERVER } from '../kit/palette';
import './chart-references.css';

export function Axes({
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

/**
 * A published value's glyph: a hollow diamond (the value), a triangle pointing up from a bar (a
 * floor: at least) or down from one (a ceiling: at most); dashed when the simulated value misses.
 */
export function ReferenceGlyph({
  shape,
  x,
  y,
  color,
  pass = true,
  filled = false,
}: {
  shape: ReferenceShape;
  x: number;
  y: number;
  color: string;
  pass?: boolean;
  /** A prediction is filled; a value a parameter was fitted to stays hollow. */
  filled?: boolean;
}) {
  const cls = `ref-glyph${pass ? '' : ' ref-glyph-fail'}${filled ? ' ref-glyph-filled' : ''}`;
  const style = filled ? { stroke: color, fill: color } : { stroke: color };
  if (shape === 'diamond')
    return (
      <path
        d={`M${x} ${y - 6}L${x + 5} ${y}L${x} ${y + 6}L${x - 5} ${y}Z`}
        className={cls}
        style={style}
      />
    );
  const s = shape === 'floor' ? -1 : 1; // the triangle points away from the bar
  return (
    <g className={cls} style={style}>
      <line x1={x - 6} x2={x + 6} y1={y} y2={y} />
      <path
        d={`M${x - 5} ${y + 2 * s}L${x + 5} ${y + 2 * s}L${x} ${y + 11 * s}Z`}
        style={filled ? { fill: color } : undefined}
      />
    </g>
  );
}

/** A published value beside the simulated point, its error bar and a ✗ when the check fails. */
function ReferenceMarkView({ m }: { m: ReferenceMark }) {
  const bar = Math.abs(m.pyLo - m.pyHi) > 0.5;
  return (
    <g
      className="ref-mark"
      data-testid="reference-mark"
      data-check={m.check.id}
      data-series={m.line}
      data-pass={m.pass}
      data-basis={m.check.basis}
    >
      <title>{m.title}</title>
      {bar && (
        <path
          d={`M${m.px} ${m.pyHi}V${m.pyLo}M${m.px - 3} ${m.pyHi}h6M${m.px - 3} ${m.pyLo}h6`}
          className="ref-bar"
          style={{ stroke: m.color }}
        />
      )}
      <ReferenceGlyph
        shape={m.shape}
        x={m.px}
        y={m.py}
        color={m.color}
        pass={m.pass}
        filled={m.predicted}
      />
      {!m.pass && (
        <text x={m.px + 7} y={m.py - 5} className="ref-fail-text">
          ✗
        </text>
      )}
    </g>
  );
}

const LEGEND_TEXT: Record<ReferenceShape, string> = {
  diamond: 'published value ± tolerance',
  floor: 'published floor (≥)',
  ceiling: 'published ceiling (≤)',
};

/** Legend entries of the reference marks: one per glyph drawn, and what a dashed one means. */
function ReferenceLegend({ marks }: { marks: readonly ReferenceMark[] }) {
  const shapes = (['diamond', 'floor', 'ceiling'] as const).filter((s) =>
    marks.some((m) => m.shape === s),
  );
  return (
    <>
      {shapes.map((s) => (
        <li key={s} data-testid="reference-legend">
          <svg width="14" height="16" aria-hidden="true">
            <ReferenceGlyph
              shape={s}
              x={7}
              y={s === 'floor' ? 13 : s === 'ceiling' ? 3 : 8}
              color={INK_2}
            />
          </svg>
          {LEGEND_TEXT[s]}
        </li>
      ))}
      {marks.some((m) => !m.pass) && (
        <li>
          <svg width="14" height="16" aria-hidden="true">
            <ReferenceGlyph shape="diamond" x={7} y={8} color={INK_2} pass={false} />
          </svg>
          ✗ simulated value outside it
        </li>
      )}
      {marks.some((m) => m.predicted) && (
        <li data-testid="reference-legend-predicted">
          <svg width="14" height="16" aria-hidden="true">
            <ReferenceGlyph shape="diamond" x={7} y={8} color={INK_2} filled />
          </svg>
          filled: predicted
        </li>
      )}
      {marks.some((m) => m.check.basis === 'fitted') && (
        <li data-testid="reference-legend-fitted">
          <svg width="14" height="16" aria-hidden="true">
            <ReferenceGlyph shape="diamond" x={7} y={8} color={INK_2} />
          </svg>
          hollow: fitted (a parameter was tuned on it)
        </li>
      )}
    </>
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
    const refs = model.marks
      .filter((m) => m.x === hoverX)
      .sort((p, q) => q.y - p.y)
      .map((m) => ({ ...m, label: model.lines.find((l) => l.name === m.line)?.label ?? m.line }));
    return { x: hoverX, px: model.x(hoverX), rows, refs };
  }, [hoverX, model]);

  const hasLimit = model.lines.some((l) => l.limitPath);

  // The keyboard reads the chart as the pointer does: focus shows the first swept value, the
  // arrows (Home, End) move along them, Escape hides the tooltip. The arrows then belong to the
  // chart, not to the playback's step keys.
  const onKey = (e: React.KeyboardEvent<SVGSVGElement>) => {
    const xs = model.xValues;
    if (xs.length === 0) return;
    const i = hoverX === null ? -1 : xs.indexOf(hoverX);
    let next: number | null | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowUp') next = xs[Math.min(xs.length - 1, i + 1)];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') next = xs[Math.max(0, i - 1)];
    else if (e.key === 'Home') next = xs[0];
    else if (e.key === 'End') next = xs[xs.length - 1];
    else if (e.key === 'Escape') next = null;
    else return;
    e.preventDefault();
    setHoverX(next ?? null);
  };

  return (
    <div className="chart" data-testid="sweep-chart">
      <svg
        ref={svgRef}
        viewBox={`0 0 ${width} ${height}`}
        className="chart-svg"
        role="img"
        aria-label={`${model.yLabel} against ${model.xLabel}${model.marks.length ? `, with ${model.marks.length} published value${model.marks.length === 1 ? '' : 's'}` : ''}; arrow keys read the values`}
        tabIndex={0}
        onPointerMove={onMove}
        onPointerLeave={() => setHoverX(null)}
        onFocus={() => setHoverX((h) => h ?? model.xValues[0] ?? null)}
        onBlur={() => setHoverX(null)}
        onKeyDown={onKey}
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
        {model.marks.map((m) => (
          <ReferenceMarkView key={m.check.id} m={m} />
        ))}
        {tip && (
          <line
            x1={tip.px}
            x2={tip.px}
            y1={margin.top}
            y2={height - margin.bottom}
            className="hover-line"
            data-export="omit"
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
        <ReferenceLegend marks={model.marks} />
      </ul>
      {tip && (
        <div
          className="tooltip"
          role="status"
          style={{
            left: `${(tip.px / width) * 100}%`,
            transform: tip.px > width * 0.5 ? 'translateX(calc(-100% - 12px))' : 'translateX(12px)',
          }}
          data-testid="chart-tooltip"
        >
          <div className="tooltip-title">
            {model.xCategories
              ? model.xCategories[tip.x - 1]
              : `${formatNumber(tip.x)}${xUnit ? ` ${xUnit}` : ''}`}
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
              {tip.refs.map((m) => (
                <tr key={m.check.id} className="tooltip-ref" data-testid="tooltip-reference">
                  <td>
                    <svg width="16" height="14" aria-hidden="true" className="tooltip-glyph">
                      <ReferenceGlyph
                        shape={m.shape}
                        x={8}
                        y={m.shape === 'floor' ? 12 : m.shape === 'ceiling' ? 2 : 7}
                        color={m.color}
                        pass={m.pass}
                        filled={m.predicted}
                      />
                    </svg>
                    {m.who}, {m.label}
                  </td>
                  <td className="num">{m.short}</td>
                  <td className={m.pass ? 'ref-pass' : 'ref-fail'}>{m.pass ? '✓' : '✗'}</td>
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
        <path d={model.path} className="series-line" style={{ stroke: WEB_SERVER }} />
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
