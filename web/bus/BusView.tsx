// Bus utilisation by cycle category, in the form of the thesis's Figures 4.6/4.7: a live bar for
// the trace window up to the cursor (BusPhase cycles summed, clipped at the cursor), a bar for the
// whole measured window (results bus_util_*), and one bar per sweep point, grouped by series.
import { memo, useMemo } from 'react';
import { useRun, useViewCursor } from '../run/store';
import { cyclesUpTo } from './busPhases';
import {
  barFromCycles,
  barFromResults,
  stackSegments,
  sweepBarLabel,
  sweepBars,
  type SweepBarGroup,
  type UtilBar,
} from './busUtil';
import { CATEGORY_LABELS } from './busPhases';
import { paramAt } from '../engine/types';
import { HatchPattern } from '../kit/HatchPattern';
import { formatNumber, formatTime } from '../kit/format';
import { paramValueLabel } from '../kit/paramLabels';
import type { ParameterSpec, RunOutput } from '../engine/types';
import { BUS_CATEGORY_COLORS, inkOn as inkOnFill } from '../kit/palette';
import { CategoryLegend, useBusPhaseIndex } from './Waveform';
import { sweepAxisLabel } from '../kit/sweep';

const pct = (v: number, digits = 1) => `${formatNumber(+(v * 100).toFixed(digits))}%`;

/** The label ink on a category's fill: the one with the higher contrast. */
function inkOn(k: number): string {
  return inkOnFill(BUS_CATEGORY_COLORS[k] ?? BUS_CATEGORY_COLORS[BUS_CATEGORY_COLORS.length - 1]!);
}

function barTitle(bar: UtilBar): string {
  const rows = stackSegments(bar)
    .slice()
    .reverse()
    .map((s) => `${CATEGORY_LABELS[s.category]}: ${pct(s.y1 - s.y0)}`);
  return [
    ...rows,
    `idle: ${pct(1 - bar.utilization)}`,
    `overhead ${pct(bar.overhead)} of traffic, content ${pct(bar.content)}`,
  ].join('\n');
}

/** One stacked bar; idle is the unfilled top. Segment labels when tall enough. */
export function StackBar({
  bar,
  x,
  y,
  w,
  h,
  labels = true,
  highlight = false,
}: {
  bar: UtilBar;
  x: number;
  y: number;
  w: number;
  h: number;
  labels?: boolean;
  highlight?: boolean;
}) {
  const segs = stackSegments(bar);
  const busyTop = y + h - Math.min(1, bar.utilization) * h;
  return (
    <g className="stackbar" data-utilization={bar.utilization.toFixed(4)}>
      <title>{barTitle(bar)}</title>
      <rect x={x} y={y} width={w} height={h} className="stackbar-idle" />
      {segs.map((s) => {
        const y0 = y + h - s.y1 * h;
        const hh = (s.y1 - s.y0) * h;
        return (
          <g key={s.category} data-category={s.category}>
            <rect
              x={x}
              y={y0}
              width={w}
              height={Math.max(0, hh)}
              fill={BUS_CATEGORY_COLORS[s.category]}
            />
            {labels && hh >= 13 && w >= 30 && (
              <text
                x={x + w / 2}
                y={y0 + hh / 2 + 4}
                textAnchor="middle"
                className="stackbar-text"
                fill={inkOn(s.category)}
              >
                {pct(s.y1 - s.y0, 0)}
              </text>
            )}
          </g>
        );
      })}
      {bar.utilization > 0 && bar.utilization < 1 && (
        <line x1={x - 3} x2={x + w + 3} y1={busyTop} y2={busyTop} className="stackbar-busy" />
      )}
      {highlight && (
        <rect x={x - 2} y={y - 2} width={w + 4} height={h + 4} className="stackbar-main" />
      )}
    </g>
  );
}

/** The turnaround hatch (as in the waveform's AD row and the legend). */
function HatchDefs() {
  return (
    <defs>
      <HatchPattern id="bus-hatch" strokeWidth={2.5} />
    </defs>
  );
}

function YAxis({ x, y, h }: { x: number; y: number; h: number }) {
  return (
    <g className="bus-axis">
      {[0, 0.25, 0.5, 0.75, 1].map((v) => (
        <g key={v}>
          <line x1={x} x2={x + 4} y1={y + h - v * h} y2={y + h - v * h} />
          <text x={x - 3} y={y + h - v * h + 4} textAnchor="end">
            {v * 100}%
          </text>
        </g>
      ))}
      <line x1={x + 4} x2={x + 4} y1={y} y2={y + h} />
    </g>
  );
}

const BarColumn = memo(function BarColumn({
  title,
  sub,
  bar,
  testId,
  empty,
}: {
  title: string;
  sub: string;
  bar: UtilBar | null;
  testId: string;
  empty?: string;
}) {
  const H = 230;
  return (
    <figure className="bus-col" data-testid={testId}>
      <svg width={104} height={H + 8} viewBox={`0 0 104 ${H + 8}`} aria-hidden="true">
        <HatchDefs />
        <YAxis x={38} y={4} h={H} /> {/* room for "100%" */}
        {bar ? (
          <StackBar bar={bar} x={48} y={4} w={52} h={H} />
        ) : (
          <rect x={48} y={4} width={52} height={H} className="stackbar-idle" />
        )}
      </svg>
      <figcaption>
        <div className="bus-col-title">{title}</div>
        <div className="muted small">{sub}</div>
        {bar && bar.cycles > 0 ? (
          <dl className="bus-stats">
            <div>
              <dt>bus busy</dt>
              <dd className="mono">{pct(bar.utilization)}</dd>
            </div>
            <div className="stat-overhead">
              <dt>overhead</dt>
              <dd className="mono" data-testid={`${testId}-overhead`}>
                {pct(bar.overhead)}
              </dd>
            </div>
            <div className="stat-content">
              <dt>content</dt>
              <dd className="mono">{pct(bar.content)}</dd>
            </div>
          </dl>
        ) : null}
        {bar && bar.cycles > 0 ? (
          <div className="muted small">of traffic (busy cycles)</div>
        ) : (
          <p className="muted small">{empty ?? 'no bus cycles'}</p>
        )}
      </figcaption>
    </figure>
  );
});

/** x positions of the sweep bars, group after group. */
function layoutGroups(
  groups: SweepBarGroup[],
  left: number,
  bw: number,
  gap: number,
  groupGap: number,
) {
  let x = left;
  const placed = groups.map((g) => {
    const x0 = x;
    const bars = g.bars.map((b) => {
      const bx = x;
      x += bw + gap;
      return { ...b, x: bx };
    });
    const x1 = x - gap;
    x += groupGap - gap;
    return { ...g, x0, x1, bars };
  });
  return { placed, width: x - groupGap + gap + 16 };
}

const SweepMultiples = memo(function SweepMultiples({
  groups,
  output,
  specs,
}: {
  groups: SweepBarGroup[];
  output: RunOutput;
  specs: ParameterSpec[];
}) {
  const xParam = output.sweep_spec?.parameter;
  const sParam = output.sweep_spec?.series_parameter ?? undefined;
  const ax = sweepAxisLabel(
    xParam,
    specs.find((p) => p.path === xParam),
  );
  const BW = 26;
  const GAP = 7;
  const GROUP_GAP = 26;
  const H = 190;
  const TOP = 22;
  const LEFT = 40;
  const laid = layoutGroups(groups, LEFT + 12, BW, GAP, GROUP_GAP);
  const { placed } = laid;
  // Wide enough for the axis caption under a sweep of few points.
  const caption = `${ax.label}${ax.unit ? ` (${ax.unit})` : ''}`;
  const width = Math.max(laid.width, 2 * LEFT + caption.length * 6.6);
  const height = TOP + H + 56;
  const main = (v: unknown, s: string) =>
    xParam !== undefined &&
    String(paramAt(output.parameters, xParam)) === String(v) &&
    (!sParam || String(paramAt(output.parameters, sParam)) === s);
  return (
    <figure className="bus-sweep" data-testid="bus-sweep">
      <figcaption>
        <span className="bus-col-title">Across the sweep</span>{' '}
        <span className="muted small">
          measured window of each run · the number above a bar is its overhead share of traffic
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        className="bus-sweep-svg"
        role="img"
        aria-label={`Bus cycles by category for each sweep point of ${ax.label}`}
      >
        <HatchDefs />
        <YAxis x={LEFT - 6} y={TOP} h={H} />
        {placed.map((g) => (
          <g key={g.series} data-testid="sweep-group" data-series={g.series}>
            {g.bars.map((b) => {
              const isMain = main(b.value, g.series);
              return (
                <g key={String(b.value)} data-testid="sweep-bar" data-value={String(b.value)}>
                  <StackBar
                    bar={b.bar}
                    x={b.x}
                    y={TOP}
                    w={BW}
                    h={H}
                    labels={false}
                    highlight={isMain}
                  />
                  <text
                    x={b.x + BW / 2}
                    y={TOP + H - b.bar.utilization * H - 5}
                    textAnchor="middle"
                    className="bus-top-label"
                  >
                    {Math.round(b.bar.overhead * 100)}%
                  </text>
                  <text
                    x={b.x + BW / 2}
                    y={TOP + H + 14}
                    textAnchor="middle"
                    className="bus-x-label"
                  >
                    {sweepBarLabel(xParam, b.value)}
                  </text>
                </g>
              );
            })}
            {g.series && (
              <g className="bus-group-label">
                <line x1={g.x0} x2={g.x1} y1={TOP + H + 22} y2={TOP + H + 22} />
                <text x={(g.x0 + g.x1) / 2} y={TOP + H + 36} textAnchor="middle">
                  {sParam
                    ? paramValueLabel(sParam, g.bars[0]!.entry.series, output.parameters)
                    : g.series}
                </text>
              </g>
            )}
          </g>
        ))}
        <text
          x={(LEFT + width) / 2}
          y={height - 4}
          textAnchor="middle"
          className="bus-axis-caption"
        >
          {caption}
        </text>
      </svg>
    </figure>
  );
});

export function BusView() {
  const run = useRun();
  const cursor = useViewCursor();
  const ix = useBusPhaseIndex(run);
  const live = useMemo(() => {
    if (!ix) return null;
    const c = cyclesUpTo(ix, cursor);
    return { bar: c.elapsed > 0 ? barFromCycles(c.cycles) : null, totals: c };
  }, [ix, cursor]);
  const whole = useMemo(() => (run ? barFromResults(run.output.results) : null), [run]);
  const groups = useMemo(() => (run ? sweepBars(run.output.sweep) : []), [run]);
  if (!run || !ix || !live)
    return (
      <div className="placeholder">The bus utilisation appears when the simulation has run.</div>
    );
  const w = run.output.trace;
  const rw = run.output.results.window?.value;
  const warm = Number(paramAt(run.output.parameters, 'run.warmup_us') ?? 0);
  return (
    <div className="busview" data-testid="bus-util">
      <div className="busview-row">
        <BarColumn
          title="Trace window, to the cursor"
          sub={`${formatTime(live.totals.from)} → ${formatTime(Math.max(live.totals.from, live.totals.to))} · ${Math.round(live.totals.elapsed).toLocaleString('en-US')} cycles`}
          bar={live.bar}
          testId="bus-live"
          empty={ix.n === 0 ? 'no bus phases recorded' : 'no cycles yet: play or step forward'}
        />
        <BarColumn
          title="Measured window"
          sub={
            rw !== undefined
              ? `${formatNumber(rw)} µs${warm > 0 ? ' after warm-up' : ', the whole run'} · ${Math.round(whole?.cycles ?? 0).toLocaleString('en-US')} cycles`
              : `${formatTime(w.start_ps)} → ${formatTime(w.end_ps)}`
          }
          bar={whole}
          testId="bus-window"
          empty="the run reports no bus cycle shares"
        />
        {groups.length === 0 && (
          <div className="bus-guide small" data-testid="bus-guide">
            <p>
              Each bar is every bus cycle of its window. At the bottom, what the bus carried: packet
              content, network and application headers, descriptors and ring indices, other devices.
              Above it, the overheads: arbitration, address, wait/stall (mostly the wait for main
              memory on reads), retry, turnaround. Idle cycles are the unfilled top.
            </p>
            <p>
              <b>Overhead</b> and <b>content</b> are shares of the traffic, the busy cycles. The
              thesis measured a web server&apos;s 64-bit PCI bus at about 30% overhead at 33 MHz and
              62% at 66 MHz (Figs 4.6 and 4.7).
            </p>
          </div>
        )}
        {groups.length > 0 && (
          <SweepMultiples groups={groups} output={run.output} specs={run.parameterInfo} />
        )}
      </div>
      <CategoryLegend />
    </div>
  );
}
