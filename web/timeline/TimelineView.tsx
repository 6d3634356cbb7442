// The timeline of lanes, after Perfetto's timeline and OMNeT++'s sequence chart: one
// lane per part of the machine that has records in the run, its slices as bars (a queued DMA or
// frame waits on a thin line before its bar), its instants as ticks, and the cause-and-effect
// arrows between them (model/lanes.ts says which records justify each). The cursor is the red
// line: click the lanes or drag the time axis to move it. Zoom from nanoseconds to the whole
// window with the wheel or a pinch, the +/− buttons or the keyboard; drag the lanes to pan.
// Click a slice of a packet to follow it: its arrows are drawn on top, the rest dims, and the
// packet inspector (ui.packet) opens on it.
//
// D3 computes (scales, ticks in model/lanes.ts), React renders the SVG.
import {
  memo,
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import type React from 'react';
import { useMeasuredWidth } from '../kit/useWidth';
import { useRun, useStore, useStoreInstance, type DoneRun, useViewCursor } from '../run/store';
import {
  cachedTimeline,
  itemWhen,
  layoutTimeline,
  packetJourney,
  timelineSetup,
  type Journey,
  type LaidBar,
  type LaidTick,
  type TimelineLayout,
  type TimelineModel,
  type Tone,
} from './lanes';
import { formatTime } from '../kit/format';
import {
  ALERT,
  CPU_PART_COLORS,
  CPU_TASK_COLORS,
  DISK_COLOR,
  ETA_BIN_PALETTE,
  FRAME_COLORS,
  GROUP_COLORS,
  NEUTRAL,
  NEUTRAL_LIGHT,
  SPIN,
  WARN,
  WEB_SERVER,
  inkOn,
  purposeColor,
} from '../kit/palette';
import { tigonEventColor } from '../tigon';
import { useCursorDrag } from '../kit/useCursorDrag';
import { windowOf } from '../bus';
import './timeline.css';

export const TL_LABEL_W = 186;
export const TL_AXIS_H = 30;
export const TL_LANE_H = 22;
const TL_GAP = 5;
const PITCH = TL_LANE_H + TL_GAP;
/** The narrowest view: a few nanoseconds across. */
export const MIN_SPAN_PS = 2000;

export function laneY(i: number): number {
  return TL_AXIS_H + i * PITCH;
}

export function timelineHeight(lanes: number): number {
  return TL_AXIS_H + lanes * PITCH + 4;
}

const MIXED = NEUTRAL_LIGHT;

/** The colour of an item's tone (one palette for every view). */
export function toneColor(tone: Tone): string {
  const [kind, arg = ''] = tone.split(':');
  switch (kind) {
    case 'purpose':
      return purposeColor(Number(arg));
    case 'tigon':
      return tigonEventColor(Number(arg));
    case 'cpuTask':
      return arg === 'serve' ? CPU_PART_COLORS.stack : (CPU_TASK_COLORS[Number(arg)] ?? MIXED);
    case 'cpuPart':
      return CPU_PART_COLORS[arg as keyof typeof CPU_PART_COLORS] ?? MIXED;
    case 'frameTx':
      return FRAME_COLORS.tx;
    case 'frameRx':
      return FRAME_COLORS.rx;
    case 'mailbox':
      return GROUP_COLORS.mailbox;
    case 'alert':
      return ALERT;
    case 'warn':
      return WARN;
    case 'spin':
      return SPIN;
    case 'web':
      return WEB_SERVER;
    case 'disk':
      return DISK_COLOR;
    case 'driver':
      return CPU_TASK_COLORS[0];
    case 'register':
      return NEUTRAL;
    case 'eta':
      return ETA_BIN_PALETTE[arg as keyof typeof ETA_BIN_PALETTE] ?? MIXED;
    default:
      return MIXED;
  }
}

/** Clips a label to what fits in `px` (about 6.4 px per character at 11.5px). */
function fit(label: string, px: number): string | null {
  const n = Math.floor((px - 8) / 6.4);
  if (n < 4) return null;
  return label.length <= n ? label : `${label.slice(0, n - 1)}…`;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

function arrowPath(x0: number, y0: number, x1: number, y1: number): string {
  if (y0 === y1) {
    // The same lane: an arc over it.
    const h = r1(Math.min(14, 6 + Math.abs(x1 - x0) / 8));
    return `M${x0},${y0 - 4}C${x0},${y0 - 4 - h} ${x1},${y1 - 4 - h} ${x1},${y1 - 4}`;
  }
  const dx = r1(Math.min(60, Math.max(10, Math.abs(x1 - x0) / 2)));
  const dir = y1 > y0 ? 1 : -1;
  // Leave and enter the lanes at their edges, not their middles.
  const ya = y0 + dir * (TL_LANE_H / 2 - 2);
  const yb = y1 - dir * (TL_LANE_H / 2 - 2);
  return `M${x0},${ya}C${r1(x0 + dx)},${ya} ${r1(x1 - dx)},${yb} ${x1},${yb}`;
}

/** The path of arrow `ai` in a layout (plot coordinates). */
export function arrowD(model: TimelineModel, layout: TimelineLayout, ai: number): string {
  const ar = model.arrows[ai]!;
  const mid = (item: number) => laneY(model.items[item]!.lane) + TL_LANE_H / 2;
  return arrowPath(r1(layout.x(ar.t0)), mid(ar.from), r1(layout.x(ar.t1)), mid(ar.to));
}

export interface LanesSvgProps {
  model: TimelineModel;
  layout: TimelineLayout;
  /** The followed packet's journey, or null. */
  journey: Journey | null;
  /** Components to highlight (ui.highlight). */
  highlight: readonly string[];
}

/** The lanes, their bars, ticks and arrows (memoised: redrawn when the view changes). */
export const TimelineLanesSvg = memo(function TimelineLanesSvg({
  model,
  layout,
  journey,
  highlight,
}: LanesSvgProps) {
  const w = layout.width;
  const height = timelineHeight(model.lanes.length);
  const onJourney = (item: number) => !journey || journey.items.has(item);
  return (
    <g>
      <defs>
        <clipPath id="tl-clip">
          <rect x={0} y={0} width={w} height={height} />
        </clipPath>
        <marker
          id="tl-head"
          viewBox="0 0 8 8"
          refX="7"
          refY="4"
          markerWidth="7"
          markerHeight="7"
          markerUnits="userSpaceOnUse"
          orient="auto"
        >
          <path d="M0,0L8,4L0,8z" className="tl-head" />
        </marker>
        <marker
          id="tl-head-on"
          viewBox="0 0 8 8"
          refX="7"
          refY="4"
          markerWidth="9"
          markerHeight="9"
          markerUnits="userSpaceOnUse"
          orient="auto"
        >
          <path d="M0,0L8,4L0,8z" className="tl-head on" />
        </marker>
      </defs>
      {model.lanes.map((l, i) => {
        const lit = highlight.includes(l.component);
        return (
          <g
            key={l.key}
            data-testid="tl-lane"
            data-lane={l.key}
            data-label={l.label}
            className={lit ? 'tl-lane lit' : 'tl-lane'}
          >
            <rect
              x={0}
              y={laneY(i) - 2}
              width={TL_LABEL_W - 6}
              height={TL_LANE_H + 4}
              rx={4}
              className="tl-label-bg"
            />
            <text x={8} y={laneY(i) + TL_LANE_H / 2 + 4.5} className="tl-lane-label">
              {l.label}
            </text>
          </g>
        );
      })}
      <g transform={`translate(${TL_LABEL_W},0)`}>
        <g className="tl-axis" data-testid="tl-axis" data-unit={layout.unit}>
          {layout.ticks.map((t) => (
            <g key={t.x} data-testid="tl-tick">
              <line x1={t.x} x2={t.x} y1={TL_AXIS_H - 7} y2={height - 2} />
              <text
                x={t.x}
                y={TL_AXIS_H - 11}
                textAnchor={t.x < 20 ? 'start' : t.x > w - 20 ? 'end' : 'middle'}
              >
                {t.label}
              </text>
            </g>
          ))}
        </g>
        <g clipPath="url(#tl-clip)">
          {model.lanes.map((l, i) => (
            <rect
              key={l.key}
              x={0}
              y={laneY(i)}
              width={w}
              height={TL_LANE_H}
              className="tl-track"
            />
          ))}
          {layout.lanes.map((ll) => {
            const y = laneY(ll.lane);
            return (
              <g key={ll.lane}>
                {ll.bars.map((b) => (
                  <Bar key={b.item} b={b} y={y} dim={!onJourney(b.item)} model={model} />
                ))}
                {ll.ticks.map((t) => (
                  <Tick key={t.item} t={t} y={y} dim={!onJourney(t.item)} />
                ))}
              </g>
            );
          })}
          <g className="tl-arrows" data-testid="tl-arrows" data-hidden={layout.arrowsHidden}>
            {layout.arrows.map((ai) => {
              const on = journey?.arrows.has(ai) ?? false;
              return (
                <path
                  key={ai}
                  d={arrowD(model, layout, ai)}
                  className={on ? 'tl-arrow on' : journey ? 'tl-arrow dim' : 'tl-arrow'}
                  markerEnd={on ? 'url(#tl-head-on)' : 'url(#tl-head)'}
                  data-testid="tl-arrow"
                />
              );
            })}
          </g>
        </g>
      </g>
    </g>
  );
});

function Bar({ b, y, dim, model }: { b: LaidBar; y: number; dim: boolean; model: TimelineModel }) {
  const fill = b.tone === 'mixed' ? MIXED : toneColor(b.tone);
  const x1 = Math.max(b.x1, b.x0 + 1);
  const waits = b.xb - b.x0 > 1;
  const wide = x1 - b.xb;
  const label = b.count === 1 && wide > 40 ? fit(model.items[b.item]!.label, wide) : null;
  const open = b.count === 1 && model.items[b.item]!.open;
  return (
    <g
      className={dim ? 'tl-bar dim' : 'tl-bar'}
      data-testid="tl-bar"
      data-count={b.count}
      data-packet={b.packet || undefined}
    >
      {waits && (
        <line
          x1={b.x0}
          x2={b.xb}
          y1={y + TL_LANE_H - 4}
          y2={y + TL_LANE_H - 4}
          stroke={fill}
          className="tl-wait"
        />
      )}
      <rect
        x={b.xb}
        y={y + 2}
        width={Math.max(1, x1 - b.xb)}
        height={TL_LANE_H - 4}
        fill={fill}
        className={open ? 'tl-slice open' : 'tl-slice'}
      />
      {label && (
        <text x={b.xb + 4} y={y + TL_LANE_H / 2 + 4} className="tl-bar-text" fill={inkOn(fill)}>
          {label}
        </text>
      )}
    </g>
  );
}

function Tick({ t, y, dim }: { t: LaidTick; y: number; dim: boolean }) {
  const c = t.tone === 'mixed' ? MIXED : toneColor(t.tone);
  return (
    <g
      className={dim ? 'tl-tick dim' : 'tl-tick'}
      data-testid="tl-instant"
      data-count={t.count}
      data-packet={t.packet || undefined}
    >
      <line x1={t.x} x2={t.x} y1={y + 1} y2={y + TL_LANE_H - 1} stroke={c} />
      <path d={`M${t.x - 4},${y + 1}L${t.x + 4},${y + 1}L${t.x},${y + 7}z`} fill={c} />
    </g>
  );
}

// ---------------------------------------------------------------------------------------------

export function TimelineView() {
  const run = useRun();
  if (!run)
    return <div className="placeholder">The timeline appears when the simulation has run.</div>;
  return <TimelineRun run={run} />;
}

interface Hover {
  item: number;
  count: number;
  x: number;
  y: number;
}

function TimelineRun({ run }: { run: DoneRun }) {
  const store = useStoreInstance();
  const cursor = useViewCursor();
  const playing = useStore((s) => s.playback.playing);
  const packet = useStore((s) => s.ui.packet);
  const highlight = useStore((s) => s.ui.highlight);
  const win = useMemo(() => windowOf(run), [run]);
  const model = useMemo(
    () =>
      cachedTimeline(
        run.trace,
        win.start,
        win.end,
        timelineSetup(run.output.system, run.output.parameters),
      ),
    [run, win],
  );
  const wrapRef = useRef<HTMLDivElement>(null);
  // The lanes are drawn once, at the measured width (see useMeasuredWidth).
  const measured = useMeasuredWidth(wrapRef, model, 960, 480);
  const width = measured ?? 960;
  const drawn = measured !== null;
  const plotW = Math.max(200, width - TL_LABEL_W - 10);
  const full = Math.max(1, win.end - win.start);
  // The view: null = the whole window.
  const [view, setView] = useState<{ t0: number; span: number } | null>(null);
  const span = view ? Math.min(full, view.span) : full;
  const t0 = view ? Math.min(win.end - span, Math.max(win.start, view.t0)) : win.start;
  const t1 = t0 + span;

  const setRange = useCallback(
    (a: number, s: number) => {
      const sp = Math.min(full, Math.max(MIN_SPAN_PS, s));
      if (sp >= full) return setView(null);
      setView({ t0: Math.min(win.end - sp, Math.max(win.start, a)), span: sp });
    },
    [full, win],
  );
  /** Zooms by `f` (below 1: in) keeping time `at` where it is on screen. */
  const zoomAt = useCallback(
    (f: number, at: number) => {
      const sp = Math.min(full, Math.max(MIN_SPAN_PS, span * f));
      setRange(at - ((at - t0) * sp) / span, sp);
    },
    [full, span, t0, setRange],
  );
  const zoomHere = (f: number) => zoomAt(f, cursor >= t0 && cursor <= t1 ? cursor : t0 + span / 2);

  const journey = useMemo(
    () => (packet !== null && model.byPacket.has(packet) ? packetJourney(model, packet) : null),
    [model, packet],
  );
  // Laid out only once measured: not at the guessed width first and again at the real one.
  const layout = useMemo(
    () => (drawn ? layoutTimeline(model, t0, t1, plotW, { keepArrows: journey?.arrows }) : null),
    [drawn, model, t0, t1, plotW, journey],
  );

  // Playing, the view pages along with the cursor (state adjusted while rendering, as React
  // advises for state derived from props).
  if (playing && view && (cursor > t1 || cursor < t0)) setRange(cursor - span * 0.1, span);

  // The wheel (and a trackpad's pinch, which arrives as a wheel with ctrlKey) zooms about the
  // pointer; a sideways wheel pans. The page does not scroll while over the lanes.
  const plotRef = useRef<SVGSVGElement>(null);
  const onWheel = useEffectEvent((e: WheelEvent, x: number) => {
    e.preventDefault();
    if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
      const d = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.deltaY;
      setRange(t0 + (d / plotW) * span, span);
      return;
    }
    const f = Math.exp(Math.max(-1, Math.min(1, e.deltaY / (e.ctrlKey ? 50 : 250))) * 0.8);
    zoomAt(f, t0 + (Math.min(plotW, x) / plotW) * span);
  });
  useEffect(() => {
    const el = plotRef.current;
    if (!el) return;
    const listener = (e: WheelEvent) => {
      const x = e.clientX - el.getBoundingClientRect().left - TL_LABEL_W;
      if (x >= 0) onWheel(e, x);
    };
    el.addEventListener('wheel', listener, { passive: false });
    return () => el.removeEventListener('wheel', listener);
  }, [model, drawn]);

  const seek = (t: number) => {
    store.setPlaying(false);
    store.setCursor(t);
  };
  // The time axis: click or drag to move the cursor.
  // (The axis and the lanes that take the pointer are drawn only with a layout.)
  const axisHit = useCursorDrag({
    cursor,
    seek,
    dragTo: (_s, _dx, x) => layout!.invert(x),
    clickTo: (x) => layout!.invert(x),
  });

  // The lanes: a drag pans, a click moves the cursor and follows the packet under it.
  const drag = useRef<{ x: number; t0: number; moved: boolean } | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const hitAt = (x: number, y: number): Hover | null => {
    const lane = Math.floor((y - TL_AXIS_H + TL_GAP / 2) / PITCH);
    const ll = layout?.lanes[lane];
    if (!ll) return null;
    let best: LaidTick | null = null;
    for (const tk of ll.ticks)
      if (Math.abs(tk.x - x) <= 4 && (!best || Math.abs(tk.x - x) < Math.abs(best.x - x)))
        best = tk;
    if (best) return { item: best.item, count: best.count, x, y };
    for (const b of ll.bars)
      if (x >= b.x0 - 1 && x <= Math.max(b.x1, b.x0 + 2) + 1)
        return { item: b.item, count: b.count, x, y };
    return null;
  };
  /** Pointer position: x in the plot, y in the whole SVG (lanes start below the axis). */
  const local = (e: React.PointerEvent<Element>) => {
    const r = plotRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left - TL_LABEL_W, y: e.clientY - r.top };
  };
  const laneHandlers = {
    onPointerDown: (e: React.PointerEvent<Element>) => {
      (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
      drag.current = { x: e.clientX, t0, moved: false };
    },
    onPointerMove: (e: React.PointerEvent<Element>) => {
      const d = drag.current;
      if (d) {
        const dx = e.clientX - d.x;
        if (Math.abs(dx) > 3) d.moved = true;
        if (d.moved && view) setRange(d.t0 - (dx / plotW) * span, span);
        if (d.moved) setHover(null);
        return;
      }
      const p = local(e);
      setHover(hitAt(p.x, p.y));
    },
    onPointerUp: (e: React.PointerEvent<Element>) => {
      const d = drag.current;
      drag.current = null;
      if (!d || d.moved) return;
      const p = local(e);
      seek(layout!.invert(p.x));
      const h = hitAt(p.x, p.y);
      const it = h && h.count === 1 ? model.items[h.item] : null;
      if (it?.packet) store.setUi({ packet: it.packet });
    },
    onPointerCancel: () => {
      drag.current = null;
    },
    onPointerLeave: () => setHover(null),
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const k = e.key;
    if (k === '+' || k === '=') zoomHere(0.5);
    else if (k === '-' || k === '_') zoomHere(2);
    else if (k === 'ArrowLeft') setRange(t0 - span * 0.2, span);
    else if (k === 'ArrowRight') setRange(t0 + span * 0.2, span);
    else if (k === '0' || k === 'Home') setView(null);
    else if (k === 'Escape' && packet !== null) store.setUi({ packet: null });
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const fitJourney = () => {
    if (!journey) return;
    const pad = Math.max(MIN_SPAN_PS, (journey.end - journey.start) * 0.06);
    setRange(journey.start - pad, journey.end - journey.start + 2 * pad);
  };

  if (model.lanes.length === 0)
    return (
      <p className="tl-message" data-testid="timeline-empty">
        The trace window ({formatTime(win.start)} → {formatTime(win.end)}) holds no records to draw.
        Widen <code>run.trace</code> or send some traffic.
      </p>
    );

  const height = timelineHeight(model.lanes.length);
  const cx = layout ? layout.x(cursor) : -1;
  const zoomed = span < full;
  const hovered = hover ? model.items[hover.item] : null;
  const laneNames = model.lanes.map((l) => l.label).join(', ');

  return (
    <div className="timeline" data-testid="timeline-view">
      <div className="tl-toolbar">
        <div className="seg" role="group" aria-label="Zoom the timeline">
          <button
            type="button"
            onClick={() => zoomHere(2)}
            disabled={!zoomed}
            aria-label="Zoom out"
            title="Zoom out (−, or scroll down over the lanes)"
            data-testid="tl-zoom-out"
          >
            −
          </button>
          <button
            type="button"
            onClick={() => zoomHere(0.5)}
            disabled={span <= MIN_SPAN_PS}
            aria-label="Zoom in"
            title="Zoom in around the cursor (+, or scroll up over the lanes)"
            data-testid="tl-zoom-in"
          >
            +
          </button>
          <button
            type="button"
            onClick={() => setView(null)}
            className={zoomed ? '' : 'on'}
            title="The whole trace window (0)"
            data-testid="tl-zoom-all"
          >
            whole window
          </button>
        </div>
        <span className="tl-range mono" data-testid="tl-range" data-t0={t0} data-t1={t1}>
          {formatTime(t0)} → {formatTime(t1)} ({formatTime(span, 2)} across)
        </span>
        <span className="muted small">
          scroll or pinch to zoom · drag the lanes to pan · click to move the cursor and follow a
          packet · drag the time axis to scrub
        </span>
      </div>
      {journey && packet !== null && (
        <div className="tl-follow" data-testid="tl-follow" data-packet={packet}>
          <span>
            Following <b>packet {packet}</b>: {journey.items.size} steps, {journey.arrows.size}{' '}
            arrows, {formatTime(journey.start)} → {formatTime(journey.end)}
          </span>
          <button type="button" className="btn btn-small" onClick={fitJourney}>
            fit to its journey
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => store.setUi({ packet: null })}
            data-testid="tl-unfollow"
          >
            stop following
          </button>
        </div>
      )}
      <div
        className="tl-wrap"
        ref={wrapRef}
        tabIndex={0}
        role="group"
        onKeyDown={onKey}
        aria-label="Timeline lanes: + and − zoom, the arrow keys pan, 0 shows the whole window"
      >
        {layout && (
          <svg
            ref={plotRef}
            className="tl-svg"
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`Timeline from ${formatTime(t0)} to ${formatTime(t1)}, lanes: ${laneNames}; ${model.arrows.length} cause-and-effect arrows in the run`}
            data-testid="timeline-svg"
          >
            <TimelineLanesSvg
              model={model}
              layout={layout}
              journey={journey}
              highlight={highlight}
            />
            <text
              x={TL_LABEL_W - 10}
              y={TL_AXIS_H - 11}
              textAnchor="end"
              className="tl-unit"
              data-testid="tl-unit"
            >
              {layout.unit}
            </text>
            <g transform={`translate(${TL_LABEL_W},0)`}>
              {hover && hover.count === 1 && (
                <g clipPath="url(#tl-clip)" pointerEvents="none">
                  {[
                    ...(model.inArrows.get(hover.item) ?? []),
                    ...(model.outArrows.get(hover.item) ?? []),
                  ]
                    .slice(0, 40)
                    .map((ai) => (
                      <path
                        key={ai}
                        d={arrowD(model, layout, ai)}
                        className="tl-arrow hover"
                        markerEnd="url(#tl-head-on)"
                      />
                    ))}
                </g>
              )}
              {cx >= 0 && cx <= plotW && (
                <line
                  x1={cx}
                  x2={cx}
                  y1={TL_AXIS_H - 6}
                  y2={height - 2}
                  className="tl-cursor"
                  data-testid="tl-cursor"
                  data-t={cursor}
                />
              )}
              <rect
                x={0}
                y={TL_AXIS_H}
                width={plotW}
                height={height - TL_AXIS_H}
                fill="transparent"
                className="tl-hit"
                {...laneHandlers}
                data-testid="tl-hit"
              />
              <rect
                x={0}
                y={0}
                width={plotW}
                height={TL_AXIS_H}
                fill="transparent"
                className="tl-axis-hit"
                {...axisHit}
                data-testid="tl-axis-hit"
              />
            </g>
          </svg>
        )}
        {hovered && hover && (
          <div
            className="tl-tip"
            role="tooltip"
            data-testid="tl-tip"
            style={{
              left: Math.min(width - 330, TL_LABEL_W + hover.x + 12),
              // Below the pointer in the upper half of the lanes, above it in the lower half.
              ...(hover.y < height / 2 ? { top: hover.y + 14 } : { bottom: height - hover.y + 10 }),
            }}
          >
            <div className="tl-tip-lane">{model.lanes[hovered.lane]!.label}</div>
            {hover.count > 1 ? (
              <div>
                {hover.count} items too narrow to tell apart here, from {formatTime(hovered.start)}:
                zoom in
              </div>
            ) : (
              <>
                <div className="tl-tip-label">{hovered.label}</div>
                <div className="mono small">{itemWhen(hovered)}</div>
                <TipArrows model={model} item={hover.item} />
                {hovered.packet > 0 && (
                  <div className="small muted">click to follow packet {hovered.packet}</div>
                )}
              </>
            )}
          </div>
        )}
      </div>
      <p className="tl-note small muted">
        Bars: what takes time (a thin line before a bar: queued). Ticks: instants. Arrows: what
        caused what, as the simulator recorded it (each record names the record it follows from;
        hover an item for its causes and effects).
        {layout !== null &&
          layout.arrowsHidden > 0 &&
          ` ${layout.arrowsHidden.toLocaleString('en-US')} arrows in view are not drawn: zoom in to see them${journey ? ' (the followed packet’s are)' : ''}.`}
      </p>
    </div>
  );
}

/** Why the hovered item is here, and what it leads to (the arrows' reasons). */
function TipArrows({ model, item }: { model: TimelineModel; item: number }) {
  const ins = (model.inArrows.get(item) ?? []).slice(0, 3);
  const outs = (model.outArrows.get(item) ?? []).slice(0, 3);
  if (!ins.length && !outs.length) return null;
  return (
    <ul className="tl-tip-why">
      {ins.map((ai) => (
        <li key={`i${ai}`}>← {model.arrows[ai]!.why}</li>
      ))}
      {outs.map((ai) => (
        <li key={`o${ai}`}>→ {model.arrows[ai]!.why}</li>
      ))}
    </ul>
  );
}
