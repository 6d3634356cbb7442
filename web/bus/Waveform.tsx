// The bus as a logic analyser shows it: CLK, who owns the bus, REQ#/GNT# of every master,
// FRAME#, IRDY#, TRDY#, STOP# and AD with each phase named, around the time cursor (centred).
// Zoom from single cycles to the whole window with the buttons or the mouse wheel; drag or
// click to move the cursor. Beside it, the tenure at the cursor in words.
import { HatchPattern } from '../kit/HatchPattern';
import { useCursorDrag } from '../kit/useCursorDrag';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useRun, useStoreInstance, useViewCursor } from '../run/store';
import { BC } from '../trace/traceKinds';
import {
  CATEGORY_LABELS,
  OVERHEAD_CATEGORIES,
  PAYLOAD_CATEGORIES,
  SIGNAL_NAMES,
  busPhaseIndex,
  describeTenure,
  signalsAt,
  tenureNear,
  type BusPhaseIndex,
  type BusPortInfo,
  type TenureWords,
} from './busPhases';
import { waveModel, zoomLimits, type AdCell, type Run, type WaveModel } from './waveform';
import { formatTime } from '../kit/format';
import {
  BRIDGE_COLOR,
  BUS_CATEGORY_COLORS,
  COMPLETER_COLOR,
  DISK_COLOR,
  HATCH_PAPER,
  INK_2,
  inkOn,
  NAVY,
  NEUTRAL,
  NEUTRAL_LIGHT,
  nicColor,
  UNKNOWN_PAPER,
  UNKNOWN_STROKE,
} from '../kit/palette';
import type { DoneRun } from '../run/store';

export const LABEL_W = 112;
const HATCH_CSS = `repeating-linear-gradient(45deg,${BUS_CATEGORY_COLORS[BC.Turnaround]} 0 2px,${HATCH_PAPER} 2px 4px)`;
const AXIS_H = 22;
const CLK_H = 12;
const OWNER_H = 18;
const SIG_H = 14;
const GAP = 5;
const AD_H = 22;
const DEFAULT_CYCLES = 48;

export function portColor(p: Pick<BusPortInfo, 'role' | 'instance'>): string {
  switch (p.role) {
    case 'nic':
      return nicColor(p.instance);
    case 'bridge':
      return BRIDGE_COLOR;
    case 'completer':
      return COMPLETER_COLOR;
    case 'disk':
      return DISK_COLOR;
    default:
      return NEUTRAL;
  }
}

export function windowOf(run: DoneRun): { start: number; end: number } {
  const start = run.output.trace.start_ps;
  let end = run.output.trace.end_ps;
  const tr = run.trace;
  if (tr.length && tr.time[tr.length - 1]! > end) end = tr.time[tr.length - 1]!;
  return { start, end: Math.max(start, end) };
}

export function useBusPhaseIndex(run: DoneRun | null): BusPhaseIndex | null {
  return useMemo(() => {
    if (!run) return null;
    const w = windowOf(run);
    return busPhaseIndex(run.trace, w.start, w.end, run.output.parameters, run.output.system);
  }, [run]);
}

interface RowSpec {
  key: string;
  label: string;
  y: number;
  h: number;
}

export function waveLayout(m: Pick<WaveModel, 'ports'>): { rows: RowSpec[]; height: number } {
  const rows: RowSpec[] = [];
  let y = AXIS_H;
  const add = (key: string, label: string, h: number) => {
    rows.push({ key, label, y, h });
    y += h + GAP;
  };
  add('clk', 'CLK', CLK_H);
  add('owner', 'bus owner', OWNER_H);
  for (const p of m.ports) {
    add(`req-${p.port.id}`, `${p.port.short} REQ#`, SIG_H);
    add(`gnt-${p.port.id}`, `${p.port.short} GNT#`, SIG_H);
  }
  SIGNAL_NAMES.forEach((n) => add(n, n, SIG_H));
  add('ad', 'AD', AD_H);
  return { rows, height: y + 2 };
}

/** One active-low signal: high line when deasserted, low line (shaded) when asserted. */
function rectPath(x0: number, x1: number, y0: number, y1: number): string {
  const w = Math.max(0.5, x1 - x0);
  return `M${x0.toFixed(1)} ${y0}h${w.toFixed(1)}V${y1}h${(-w).toFixed(1)}Z`;
}

/**
 * One active-low signal: high line when deasserted, low line (shaded) when asserted; sub-pixel
 * toggling and unknown stretches as blocks. A few paths per row, however many runs.
 */
function Digital({ runs, y, h, color }: { runs: Run[]; y: number; h: number; color: string }) {
  const hi = y + 1.5;
  const lo = y + h - 1.5;
  let d = '';
  let shade = '';
  let toggle = '';
  let unknown = '';
  let prev: Run | null = null;
  for (const r of runs) {
    if (r.s === 2) toggle += rectPath(r.x0, r.x1, hi, lo);
    else if (r.s === 3) unknown += rectPath(r.x0, r.x1, hi, lo);
    else {
      const lev = r.s === 1 ? lo : hi;
      if (r.s === 1) shade += rectPath(r.x0, r.x1, hi, lo);
      if (prev && prev.s !== r.s && (prev.s === 0 || prev.s === 1))
        d += `M${r.x0.toFixed(1)} ${hi}V${lo}`;
      d += `M${r.x0.toFixed(1)} ${lev}H${r.x1.toFixed(1)}`;
    }
    prev = r;
  }
  return (
    <g>
      {shade && <path d={shade} fill={color} opacity={0.16} />}
      {toggle && <path d={toggle} className="wave-toggle" style={{ fill: color }} />}
      {unknown && <path d={unknown} className="wave-unknown" />}
      <path d={d} className="wave-line" style={{ stroke: color }} />
    </g>
  );
}

function adShape(c: AdCell, y: number, h: number): string {
  const s = Math.min(3, (c.x1 - c.x0) / 3);
  const m = y + h / 2;
  return `M${c.x0} ${m}L${c.x0 + s} ${y}H${c.x1 - s}L${c.x1} ${m}L${c.x1 - s} ${y + h}H${c.x0 + s}Z`;
}

function cellPath(c: AdCell, y: number, h: number): string {
  const w = c.x1 - c.x0;
  return w > 6 ? adShape(c, y + 1, h - 2) : rectPath(c.x0, c.x1, y + 1, y + h - 1);
}

function AdRow({ cells, y, h }: { cells: AdCell[]; y: number; h: number }) {
  // Bands (zoomed out): one path per colour, labels only where they fit.
  const bands = new Map<string, string>();
  const idle: string[] = [];
  for (const c of cells) {
    if (c.kind === 'band') {
      const fill =
        c.category === BC.Turnaround
          ? 'url(#wave-hatch)'
          : (BUS_CATEGORY_COLORS[c.category] ?? NEUTRAL_LIGHT);
      bands.set(fill, (bands.get(fill) ?? '') + cellPath(c, y, h));
    } else if (c.kind === 'idle' && !c.label)
      idle.push(`M${c.x0.toFixed(1)} ${y + h / 2}H${c.x1.toFixed(1)}`);
  }
  return (
    <g className="wave-ad">
      {idle.length > 0 && <path d={idle.join('')} className="wave-z" />}
      {[...bands].map(([fill, d]) => (
        <path key={fill} d={d} fill={fill} className="wave-cell" data-testid="ad-band" />
      ))}
      {cells.map((c, i) => {
        const w = c.x1 - c.x0;
        if (c.kind === 'band') {
          if (!c.label) return null;
          const fill = BUS_CATEGORY_COLORS[c.category] ?? NEUTRAL_LIGHT;
          return (
            <text
              key={i}
              x={(c.x0 + c.x1) / 2}
              y={y + h / 2 + 4}
              className="wave-cell-text"
              fill={c.category === BC.Turnaround ? INK_2 : inkOn(fill)}
            >
              {c.label}
            </text>
          );
        }
        if (c.kind === 'idle')
          return c.label ? (
            <g key={i} data-phase="idle">
              <title>{c.title}</title>
              <line x1={c.x0} x2={c.x1} y1={y + h / 2} y2={y + h / 2} className="wave-z" />
              <text x={(c.x0 + c.x1) / 2} y={y + h / 2 - 3} className="wave-idle-text">
                {c.label}
              </text>
            </g>
          ) : null;
        if (c.kind === 'unknown')
          return (
            <g key={i} data-phase="unknown">
              <title>{c.title}</title>
              <rect
                x={c.x0}
                y={y + 2}
                width={Math.max(0.5, w)}
                height={h - 4}
                className="wave-unknown"
              />
              {c.label && (
                <text x={(c.x0 + c.x1) / 2} y={y + h / 2 + 4} className="wave-cell-text dark">
                  {c.label}
                </text>
              )}
            </g>
          );
        const fill = BUS_CATEGORY_COLORS[c.category] ?? NEUTRAL_LIGHT;
        const hatched = c.category === BC.Turnaround;
        return (
          <g key={i} data-phase={c.label || 'phase'} data-testid="ad-cell">
            <title>{c.title}</title>
            <path
              d={cellPath(c, y, h)}
              fill={hatched ? 'url(#wave-hatch)' : fill}
              className="wave-cell"
            />
            {c.label && (
              <text
                x={(c.x0 + c.x1) / 2}
                y={y + h / 2 + 4}
                className="wave-cell-text"
                fill={hatched ? INK_2 : inkOn(fill)}
              >
                {c.label}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}

export interface WaveformSvgProps {
  model: WaveModel;
  cursor: number;
  /** Full width of the SVG in px (labels + plot). */
  width: number;
}

/** The waveform drawing (pure: a function of the model). */
export function WaveformSvg({ model, cursor, width }: WaveformSvgProps) {
  const { rows, height } = waveLayout(model);
  const rowOf = (key: string) => rows.find((r) => r.key === key)!;
  const plotW = model.width;
  const cx = (cursor - model.t0) * model.pxPerPs;
  const clk = rowOf('clk');
  const owner = rowOf('owner');
  const ad = rowOf('ad');
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className="wave-svg"
      role="img"
      aria-label={`Bus waveform from ${formatTime(model.t0)} to ${formatTime(model.t1)}`}
      data-detailed={model.detailed ? 'true' : 'false'}
    >
      <defs>
        <HatchPattern id="wave-hatch" />
        <pattern
          id="wave-unknown"
          width="6"
          height="6"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <rect width="6" height="6" fill={UNKNOWN_PAPER} />
          <line x1="0" y1="0" x2="0" y2="6" stroke={UNKNOWN_STROKE} strokeWidth="2" />
        </pattern>
        <clipPath id="wave-clip">
          <rect x={0} y={0} width={plotW} height={height} />
        </clipPath>
      </defs>
      {rows.map((r, i) => (
        <g key={r.key} data-testid={`wave-row-${r.key}`}>
          {i % 2 === 1 && (
            <rect x={0} y={r.y - GAP / 2} width={width} height={r.h + GAP} className="wave-band" />
          )}
          <text x={LABEL_W - 8} y={r.y + r.h / 2 + 4} className="wave-label" textAnchor="end">
            {r.label}
          </text>
        </g>
      ))}
      <g transform={`translate(${LABEL_W}, 0)`} clipPath="url(#wave-clip)">
        {model.outside.map((o, i) => (
          <rect
            key={i}
            x={o.x0}
            y={AXIS_H - 4}
            width={Math.max(0, o.x1 - o.x0)}
            height={height - AXIS_H + 4}
            className="wave-outside"
          />
        ))}
        {model.cycleTicks.map((x, i) => (
          <line key={i} x1={x} x2={x} y1={AXIS_H - 4} y2={height} className="wave-cycle" />
        ))}
        {model.timeTicks.map((t) => (
          <g key={t.label} className="wave-tick">
            <line x1={t.x} x2={t.x} y1={AXIS_H - 6} y2={AXIS_H - 1} />
            <text x={t.x} y={AXIS_H - 9} textAnchor="middle">
              {t.label}
            </text>
          </g>
        ))}
        {/* CLK: a square wave when cycles are wide enough, else a solid band. */}
        {model.pxPerCycle >= 6 ? (
          <path
            className="wave-clk"
            d={model.cycleTicks
              .map((x) => {
                const half = model.pxPerCycle / 2;
                return `M${x.toFixed(1)} ${clk.y + clk.h - 1}V${clk.y + 1}H${(x + half).toFixed(1)}V${clk.y + clk.h - 1}H${(x + model.pxPerCycle).toFixed(1)}`;
              })
              .join('')}
          />
        ) : (
          <rect x={0} y={clk.y + 2} width={plotW} height={clk.h - 4} className="wave-clk-band" />
        )}
        <g className="wave-owner">
          {model.tenures.map((c) => {
            const color = portColor(portOfCell(model, c.port));
            return (
              <g key={`${c.tenure}-${c.x0}`} data-testid="owner-cell" data-port={c.port}>
                <title>{c.title}</title>
                <rect
                  x={c.x0}
                  y={owner.y + 1}
                  width={Math.max(0.75, c.x1 - c.x0)}
                  height={owner.h - 2}
                  rx={3}
                  fill={color}
                />
                {c.label && (
                  <text
                    x={(c.x0 + c.x1) / 2}
                    y={owner.y + owner.h / 2 + 4}
                    className="wave-cell-text"
                    fill={inkOn(color)}
                  >
                    {c.label}
                  </text>
                )}
              </g>
            );
          })}
        </g>
        {model.ports.map((p) => {
          const color = portColor(p.port);
          const rq = rowOf(`req-${p.port.id}`);
          const gt = rowOf(`gnt-${p.port.id}`);
          return (
            <g key={p.port.id}>
              <Digital runs={p.req} y={rq.y} h={rq.h} color={color} />
              <Digital runs={p.gnt} y={gt.y} h={gt.h} color={color} />
            </g>
          );
        })}
        {SIGNAL_NAMES.map((n, i) => {
          const r = rowOf(n);
          return <Digital key={n} runs={model.control[i]!} y={r.y} h={r.h} color={NAVY} />;
        })}
        <AdRow cells={model.ad} y={ad.y} h={ad.h} />
        <g className="wave-cursor" data-testid="wave-cursor">
          <line x1={cx} x2={cx} y1={AXIS_H - 4} y2={height} />
        </g>
      </g>
    </svg>
  );
}

function portOfCell(model: WaveModel, id: number): BusPortInfo {
  return (
    model.ports.find((p) => p.port.id === id)?.port ?? {
      id,
      role: 'other',
      instance: 0,
      label: '',
      short: '',
    }
  );
}

function TenurePanel({
  words,
  when,
  phaseNow,
}: {
  words: TenureWords | null;
  when: string;
  phaseNow: string;
}) {
  if (!words) return <div className="wave-side muted">No bus tenure in the trace window.</div>;
  const color = portColor(words.port);
  const overhead = words.phases
    .filter((w) => OVERHEAD_CATEGORIES.includes(w.category) && w.phase !== 6)
    .reduce((s, w) => s + w.cycles, 0);
  return (
    <div className="wave-side" data-testid="tenure-words">
      <div className="wave-side-when">{when}</div>
      <div className="wave-side-title">
        <span className="chip" style={{ background: color }} />
        {words.title}
        {words.partial && <span className="muted small"> (began before the trace window)</span>}
      </div>
      {words.what && <div className="wave-side-what">{words.what}</div>}
      <ol className="wave-phases" aria-label={words.sentence} title={words.sentence}>
        {words.phases.map((w, i) => (
          <li
            key={i}
            className={w.current ? 'current' : ''}
            aria-current={w.current ? 'step' : undefined}
          >
            <span
              className="chip"
              style={
                w.category === BC.Turnaround
                  ? { background: HATCH_CSS }
                  : { background: BUS_CATEGORY_COLORS[w.category] }
              }
            />
            <span className="wave-phase-name">
              {w.name} <span className="mono">{w.cycles}</span>
              {w.note && <span className="muted"> ({w.note})</span>}
            </span>
          </li>
        ))}
      </ol>
      <p className="wave-side-sum small">
        {words.total} cycles
        {overhead > 0 && words.total > 0
          ? `, ${Math.round((overhead / words.total) * 100)}% overhead`
          : ''}
      </p>
      {words.outcome && <p className="wave-side-note small">{words.outcome}</p>}
      <p className="wave-now" data-testid="phase-now">
        {phaseNow}
      </p>
    </div>
  );
}

export const CategoryLegend = memo(function CategoryLegend({
  compact = false,
}: {
  compact?: boolean;
}) {
  return (
    <ul
      className={`legend bus-legend ${compact ? 'compact' : ''}`}
      aria-label="Bus cycle categories"
    >
      {[...PAYLOAD_CATEGORIES, ...OVERHEAD_CATEGORIES].map((k) => (
        <li key={k}>
          <span
            className="chip"
            style={
              k === BC.Turnaround
                ? { background: HATCH_CSS }
                : { background: BUS_CATEGORY_COLORS[k] }
            }
          />
          {CATEGORY_LABELS[k]}
        </li>
      ))}
      <li>
        <span className="chip chip-idle" /> idle
      </li>
    </ul>
  );
});

export function Waveform() {
  const run = useRun();
  const store = useStoreInstance();
  const cursor = useViewCursor();
  const ix = useBusPhaseIndex(run);
  const [span, setSpan] = useState<number | null>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgBoxRef = useRef<HTMLDivElement>(null);
  const [boxW, setBoxW] = useState(820);

  useLayoutEffect(() => {
    const el = svgBoxRef.current;
    if (!el) return;
    const measure = () => setBoxW(Math.max(240, Math.floor(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ix]);

  const limits = ix ? zoomLimits(ix) : { min: 1, max: 1 };
  const spanPs = ix
    ? Math.min(limits.max, Math.max(limits.min, span ?? DEFAULT_CYCLES * ix.cyclePs))
    : 1;
  const plotW = boxW - LABEL_W - 6;
  const t0 = cursor - spanPs / 2;
  const t1 = cursor + spanPs / 2;
  const model = useMemo(
    () => (ix ? waveModel(ix, t0, t1, plotW, cursor) : null),
    [ix, t0, t1, plotW, cursor],
  );

  // Drag pans the waveform under the cursor; a click puts the cursor where it landed.
  const hit = useCursorDrag({
    cursor,
    seek: (t) => {
      store.setPlaying(false);
      store.setCursor(t);
    },
    // The hit layer exists only once the model does.
    dragTo: (start, dx) => (model ? start - dx / model.pxPerPs : start),
    clickTo: (x) => (model ? model.t0 + x / model.pxPerPs : cursor),
  });

  // Mouse wheel zooms about the cursor (the page does not scroll while over the waveform).
  useEffect(() => {
    const el = svgBoxRef.current;
    if (!el || !ix) return;
    const onWheel = (e: WheelEvent) => {
      if (e.ctrlKey || e.metaKey || Math.abs(e.deltaY) < 1) return;
      e.preventDefault();
      const f = Math.exp(Math.max(-1, Math.min(1, e.deltaY / 200)) * 0.7);
      const { min, max } = zoomLimits(ix);
      setSpan((prev) =>
        Math.min(max, Math.max(min, Math.min(max, prev ?? DEFAULT_CYCLES * ix.cyclePs) * f)),
      );
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [ix]);

  const near = useMemo(() => (ix ? tenureNear(ix, cursor) : null), [ix, cursor]);
  const words = useMemo(
    () => (ix && near ? describeTenure(ix, near.ti, cursor, run?.output.parameters) : null),
    [ix, near, cursor, run],
  );
  const sig = useMemo(() => (ix ? signalsAt(ix, cursor) : null), [ix, cursor]);

  if (!run || !ix || !model || !sig)
    return <div className="placeholder">The bus waveform appears when the simulation has run.</div>;
  if (ix.n === 0)
    return (
      <p className="muted">
        This run recorded no bus phases (the bus model is not cycle-accounted, or no transaction
        fell in the trace window).
      </p>
    );

  const cycles = spanPs / ix.cyclePs;
  const zoom = (f: number) => setSpan(Math.min(limits.max, Math.max(limits.min, spanPs * f)));
  const when =
    near?.when === 'now'
      ? 'On the bus now'
      : near?.when === 'last'
        ? 'Last tenure (the bus is idle now)'
        : 'Next tenure';
  const cur = words?.phases.find((w) => w.current);
  const phaseNow = !sig.known
    ? 'The trace window opened in the middle of a tenure: its earlier phases are not recorded.'
    : cur
      ? `Now: ${cur.name}${cur.note && cur.phase === 5 ? ` (${cur.note})` : ''}, cycle ${cur.at ?? 1} of ${cur.cycles}` +
        ` — FRAME# ${sig.frame === 'low' ? 'asserted' : 'released'}, IRDY# ${sig.irdy === 'low' ? 'asserted' : 'released'}, TRDY# ${sig.trdy === 'low' ? 'asserted' : 'released'}${sig.stop === 'low' ? ', STOP# asserted' : ''}`
      : 'Now: the bus is idle (no master drives FRAME#).';

  const { height } = waveLayout(model);

  return (
    <div className="waveform" data-testid="waveform" ref={wrapRef}>
      <div className="wave-toolbar">
        <div className="seg" role="group" aria-label="Zoom">
          <button
            type="button"
            onClick={() => zoom(2)}
            disabled={spanPs >= limits.max}
            aria-label="Zoom out"
            title="Zoom out (or scroll down over the waveform)"
            data-testid="wave-zoom-out"
          >
            −
          </button>
          <button
            type="button"
            onClick={() => zoom(0.5)}
            disabled={spanPs <= limits.min}
            aria-label="Zoom in"
            title="Zoom in (or scroll up over the waveform)"
            data-testid="wave-zoom-in"
          >
            +
          </button>
          <button
            type="button"
            onClick={() => setSpan(DEFAULT_CYCLES * ix.cyclePs)}
            title="48 bus cycles across"
          >
            cycles
          </button>
          <button type="button" onClick={() => setSpan(limits.max)} title="The whole trace window">
            window
          </button>
        </div>
        <span className="wave-span mono" data-testid="wave-span" data-span={spanPs}>
          {formatTime(spanPs, 2)} across ·{' '}
          {cycles >= 100 ? Math.round(cycles).toLocaleString('en-US') : +cycles.toFixed(1)} cycles
          of {formatTime(ix.cyclePs, 2)}
        </span>
        <span className="wave-hint muted small">
          scroll to zoom · drag or click to move the cursor · line low = asserted
        </span>
      </div>
      <div className="wave-body">
        <div className="wave-plot" ref={svgBoxRef} style={{ minHeight: height }}>
          <WaveformSvg model={model} cursor={cursor} width={boxW} />
          <svg
            className="wave-hit-layer"
            width={plotW}
            height={height}
            style={{ left: LABEL_W }}
            aria-hidden="true"
          >
            <rect
              width={plotW}
              height={height}
              fill="transparent"
              {...hit}
              data-testid="wave-hit"
            />
          </svg>
        </div>
        <TenurePanel words={words} when={when} phaseNow={phaseNow} />
      </div>
      <CategoryLegend compact />
      <p className="wave-key muted small">
        Cells too narrow for a name show a letter: R arbitration · A address · B attribute · T
        turnaround · W wait · D data · S stop · P split response · I idle. Hatched AD: nobody drives
        it (turnaround); dashed: the bus is idle.
      </p>
    </div>
  );
}
