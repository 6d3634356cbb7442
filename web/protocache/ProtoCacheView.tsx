// The host caches one protocol packet runs through (seed 002, "Cache Behavior of Network
// Protocols"): a sets × ways grid per cache (L1-I, L1-D, unified L2), each line coloured by the
// layer whose code or data it holds, data lines striped so instructions and data differ without
// colour; the reference under the cursor outlined (a hit, a miss the L2 served, a trip to
// memory) with its stall; per-layer references and misses of the packet so far; the packet's
// cycles split into CPU time and stall by level. Canvas grids: thousands of lines, of which a
// frame redraws only the sets that changed, and the current reference on a canvas of its own.
import { useEffect, useMemo, useRef } from 'react';
import { useRun, useViewCursor } from '../run/store';
import { formatNumber } from '../kit/format';
import {
  CACHES,
  EMPTY,
  LAYER_LABELS,
  cacheShapes,
  cachedProtoIndex,
  gridColumns,
  LinesPlayer,
  packetAt,
  type CacheShape,
  type CurrentRef,
  type PacketNow,
} from './protocache';
import { ALERT, BLACK, canvasColor, DATA_STRIPE, OKABE_ITO, SLOT_EMPTY } from '../kit/palette';
import { LAYER_COLORS, SERVED_LABELS, STALL_COLORS } from './palette';
import './protocache.css';

const ACCESS = ['instruction', 'load', 'store'] as const;

/** What a grid's canvas shows: its geometry and colours, and a copy of the cells drawn. */
interface Drawn {
  key: string;
  cells: Uint8Array;
}

/**
 * One set's box (all its ways): the empty slot's colour, then each held line in its layer's hue,
 * a data line with a dark diagonal so I and D differ without colour. Clipped to the box, so a set
 * redrawn alone leaves its neighbours' pixels as they were.
 */
function drawSet(
  ctx: CanvasRenderingContext2D,
  shape: CacheShape,
  cells: Uint8Array,
  s: number,
  cols: number,
  cell: number,
  empty: string,
) {
  const x0 = (s % cols) * cell;
  const y0 = Math.floor(s / cols) * cell;
  const wayW = cell / shape.ways;
  ctx.fillStyle = empty;
  ctx.fillRect(x0, y0, cell, cell);
  let clipped = false;
  for (let k = 0; k < shape.ways; k++) {
    const v = cells[s * shape.ways + k]!;
    if (v === EMPTY) continue;
    const x = x0 + k * wayW;
    ctx.fillStyle = LAYER_COLORS[v & 15] ?? OKABE_ITO.grey;
    ctx.fillRect(x, y0, Math.max(1, wayW - (shape.ways > 1 ? 0.5 : 0)), cell - 0.5);
    if (v & 16) {
      if (!clipped) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, y0, cell, cell);
        ctx.clip();
        ctx.strokeStyle = DATA_STRIPE;
        ctx.lineWidth = Math.max(0.8, cell / 6);
        clipped = true;
      }
      ctx.beginPath();
      ctx.moveTo(x, y0 + cell - 0.5);
      ctx.lineTo(x + wayW, y0);
      ctx.stroke();
    }
  }
  if (clipped) ctx.restore();
}

/**
 * Draws the grid: all of it when its geometry or colours changed, else only the sets whose
 * lines changed since the last frame (a packet fills a few dozen lines; the L2 has 8,192 sets).
 */
function paintGrid(
  canvas: HTMLCanvasElement | null,
  shape: CacheShape,
  cells: Uint8Array,
  cell: number,
  drawn: { current: Drawn | null },
) {
  if (!canvas) return;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const cols = gridColumns(shape.sets);
  const rows = Math.ceil(shape.sets / cols);
  const w = cols * cell;
  const h = rows * cell;
  const empty = canvasColor(SLOT_EMPTY);
  const key = `${shape.sets}x${shape.ways}@${cell}:${empty}`;
  const prev = drawn.current;
  if (canvas.width !== w || canvas.height !== h || !prev || prev.key !== key) {
    canvas.width = w;
    canvas.height = h;
    ctx.fillStyle = empty;
    ctx.fillRect(0, 0, w, h);
    for (let s = 0; s < shape.sets; s++) drawSet(ctx, shape, cells, s, cols, cell, empty);
    drawn.current = { key, cells: cells.slice() };
    return;
  }
  const was = prev.cells;
  const ways = shape.ways;
  for (let s = 0; s < shape.sets; s++) {
    let changed = false;
    for (let k = s * ways; k < (s + 1) * ways; k++) {
      if (was[k] !== cells[k]) {
        was[k] = cells[k]!;
        changed = true;
      }
    }
    if (changed) drawSet(ctx, shape, cells, s, cols, cell, empty);
  }
}

/** The current reference's outline, on a canvas of its own over the grid. */
function paintMark(
  canvas: HTMLCanvasElement | null,
  shape: CacheShape,
  cell: number,
  mark: { set: number; miss: boolean } | null,
) {
  if (!canvas) return;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const cols = gridColumns(shape.sets);
  const w = cols * cell;
  const h = Math.ceil(shape.sets / cols) * cell;
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  } else ctx.clearRect(0, 0, w, h);
  if (mark && mark.set < shape.sets) {
    const x = (mark.set % cols) * cell;
    const y = Math.floor(mark.set / cols) * cell;
    ctx.lineWidth = 2;
    ctx.strokeStyle = canvasColor(mark.miss ? ALERT : BLACK);
    ctx.strokeRect(x - 1.5, y - 1.5, cell + 3, cell + 3);
  }
}

function CacheGrid({
  name,
  shape,
  cells,
  current,
}: {
  name: string;
  shape: CacheShape;
  cells: Uint8Array;
  current: CurrentRef | null;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const markRef = useRef<HTMLCanvasElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const cell = shape.sets >= 4096 ? 3 : shape.sets >= 1024 ? 6 : 10;
  const isL2 = name === 'L2';
  const mark =
    current && current.served !== 3
      ? isL2
        ? current.served >= 1
          ? { set: current.l2Set, miss: current.served === 2 }
          : null
        : (name === 'L1-I') === (current.access === 0)
          ? { set: current.l1Set, miss: current.served >= 1 }
          : null
      : null;
  // Every render: the cells change in place (LinesPlayer), so no dependency list can see it.
  useEffect(() => paintGrid(ref.current, shape, cells, cell, drawn));
  const markSet = mark ? mark.set : -1;
  const markMiss = mark?.miss ?? false;
  useEffect(
    () =>
      paintMark(
        markRef.current,
        shape,
        cell,
        markSet < 0 ? null : { set: markSet, miss: markMiss },
      ),
    [shape, cell, markSet, markMiss],
  );
  let held = 0;
  for (const v of cells) if (v !== EMPTY) held++;
  return (
    <figure className="pc-cache" data-testid="pc-cache" data-cache={name} data-lines={held}>
      <figcaption>
        <b>{name}</b>{' '}
        <span className="muted small">
          {formatNumber(shape.sets)} sets × {shape.ways} way{shape.ways > 1 ? 's' : ''},{' '}
          {formatNumber(held)} lines held
        </span>
      </figcaption>
      <div className="pc-grid">
        <canvas
          ref={ref}
          className="pc-canvas"
          role="img"
          aria-label={`${name}: ${held} of ${shape.sets * shape.ways} lines held, coloured by layer`}
        />
        <canvas ref={markRef} className="pc-mark" aria-hidden="true" />
      </div>
    </figure>
  );
}

function LayerBars({ now }: { now: PacketNow }) {
  const max = Math.max(1, ...now.layers.map((l) => Math.max(l.iRefs, l.dRefs)));
  const W = 220;
  return (
    <table className="pc-layers" data-testid="pc-layers">
      <caption>This packet so far: references (light) and misses (dark) by layer</caption>
      <thead>
        <tr>
          <th scope="col">layer</th>
          <th scope="col">instructions</th>
          <th scope="col">data</th>
        </tr>
      </thead>
      <tbody>
        {now.layers.map((l, i) =>
          l.iRefs + l.dRefs === 0 ? null : (
            <tr key={LAYER_LABELS[i]}>
              <th scope="row">
                <span className="chip" style={{ background: LAYER_COLORS[i] }} />
                {LAYER_LABELS[i]}
              </th>
              {[
                [l.iRefs, l.iMisses],
                [l.dRefs, l.dMisses],
              ].map(([refs, misses], k) => (
                <td key={k} title={`${refs} references, ${misses} misses`}>
                  <svg viewBox={`0 0 ${W} 12`} preserveAspectRatio="none" aria-hidden="true">
                    <rect
                      width={(W * refs!) / max}
                      height={12}
                      fill={LAYER_COLORS[i]}
                      opacity={0.35}
                    />
                    <rect
                      width={Math.max(misses ? 1 : 0, (W * misses!) / max)}
                      height={12}
                      fill={LAYER_COLORS[i]}
                    />
                  </svg>
                  <span className="small">
                    {formatNumber(refs!)} / {formatNumber(misses!)}
                  </span>
                </td>
              ))}
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function LatencyBar({ now }: { now: PacketNow }) {
  const total = now.cpuCycles + now.l2Stall + now.memoryStall;
  const parts = [
    { key: 'cpu', label: 'CPU (instructions × CPI)', v: now.cpuCycles },
    { key: 'l2', label: 'stalled on the L2', v: now.l2Stall },
    { key: 'memory', label: 'stalled on memory', v: now.memoryStall },
  ];
  const W = 460;
  let x = 0;
  const soFar = now.l2StallSoFar + now.memoryStallSoFar;
  return (
    <div className="pc-latency" data-testid="pc-latency" data-cycles={total}>
      <p className="small">
        Packet {now.packet}: {formatNumber(total)} cycles, {formatNumber(now.instructions)}{' '}
        instructions. Stalled so far: {formatNumber(soFar)} of{' '}
        {formatNumber(now.l2Stall + now.memoryStall)} cycles.
      </p>
      <svg
        className="pc-latency-bar"
        viewBox={`0 0 ${W} 22`}
        preserveAspectRatio="none"
        role="img"
        aria-label="The packet's cycles: CPU and stall by level"
      >
        {parts.map((p) => {
          const w = total > 0 ? (W * p.v) / total : 0;
          const r = (
            <rect key={p.key} x={x} width={w} height={22} fill={STALL_COLORS[p.key as 'cpu']} />
          );
          x += w;
          return r;
        })}
      </svg>
      <ul className="legend">
        {parts.map((p) => (
          <li key={p.key}>
            <span className="chip" style={{ background: STALL_COLORS[p.key as 'cpu'] }} />
            {p.label}: {formatNumber(p.v)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ProtoCacheView() {
  const run = useRun();
  const cursor = useViewCursor();
  const params = run?.output.parameters;
  const shapes = useMemo(() => cacheShapes(params), [params]);
  const ix = useMemo(() => (run ? cachedProtoIndex(run.trace) : null), [run]);
  const player = useMemo(() => (ix ? new LinesPlayer(ix, shapes) : null), [ix, shapes]);
  // The same arrays each frame, changed in place by the records since the last cursor.
  const cells = player ? player.at(cursor) : null;
  const now = useMemo(() => (ix ? packetAt(ix, cursor) : null), [ix, cursor]);
  if (!run || !ix || !cells)
    return <div className="placeholder">The caches appear when the simulation has run.</div>;
  if (ix.packets.length === 0)
    return (
      <p className="tg-message" data-testid="pc-message">
        No packet in the trace window: this view follows <code>workload.kind</code>{' '}
        <code>protocol-cache</code> runs.
      </p>
    );
  const cur = now?.current ?? null;
  return (
    <div className="pc-view" data-testid="protocache-view" data-packet={now?.packet ?? -1}>
      <div className="pc-grids">
        {CACHES.map((c, i) => (
          <CacheGrid key={c} name={c} shape={shapes[i]!} cells={cells[i]!} current={cur} />
        ))}
      </div>
      <ul className="legend pc-legend" aria-label="Layers">
        {LAYER_LABELS.map((l, i) => (
          <li key={l}>
            <span className="chip" style={{ background: LAYER_COLORS[i] }} />
            {l}
          </li>
        ))}
        <li>
          <span className="chip pc-chip-data" /> striped: a data line (plain: instructions)
        </li>
        <li>
          <span className="chip pc-chip-mark" /> outlined: the current reference (orange: a miss)
        </li>
      </ul>
      {cur && (
        <p className="pc-current" data-testid="pc-current" data-served={cur.served}>
          {LAYER_LABELS[cur.layer]} {ACCESS[cur.access]}: {SERVED_LABELS[cur.served]}
          {cur.stall > 0 ? `, ${cur.stall} cycles` : ''}
        </p>
      )}
      {now && (
        <div className="pc-side">
          <LatencyBar now={now} />
          <div className="pc-layers-box">
            <LayerBars now={now} />
          </div>
        </div>
      )}
    </div>
  );
}
