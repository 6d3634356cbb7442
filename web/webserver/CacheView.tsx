// The NIC data cache (thesis §4.3, Figs 4.3-4.5) as a grid of blocks: one cell per slot of each
// NIC's cache, side by side for two NICs, coloured by the file whose block it holds (a hash of
// the file id, so one file's blocks share a colour), at the playback cursor. The slots the
// current request hit, inserted into and evicted are outlined green, blue and red. Beside it the
// request itself, the counts up to the cursor and the legend.
//
// The cells are drawn on <canvas>, not SVG: a 16 MB cache of 512 B blocks is 32,768 slots per
// NIC. A base canvas holds the slots and is repainted only where the replay changed a slot; an
// overlay canvas holds the current request's outlines and is cleared at each request. A cache
// too big for a pixel per slot draws several slots per cell (gridLayout's perCell).
import { useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useWidth } from '../kit/useWidth';
import { useRun, useStoreInstance, type DoneRun, useViewCursor } from '../run/store';
import {
  CacheReplay,
  EMPTY,
  FLASH,
  TRACE_LABELS,
  UNKNOWN,
  cacheSetup,
  cachedCacheGridIndex,
  cellXY,
  countsUpTo,
  fileColor,
  formatBytes,
  gridLayout,
  nextEvictionTime,
  nextRequestTime,
  prevRequestTime,
  requestAt,
  requestNow,
  slotAtPoint,
  type CacheCounts,
  type CacheFlash,
  type CacheGridIndex,
  type CacheSetup,
  type GridLayout,
  type RequestNow,
} from './cacheGrid';
import { formatKbytes } from '../kit/paramLabels';
import { formatNumber } from '../kit/format';
import { ALERT, canvasColor, GROUP_COLORS, SLOT_EMPTY, SLOT_UNKNOWN, WARN } from '../kit/palette';
import './cache.css';

export { SLOT_EMPTY, SLOT_UNKNOWN };
/** Outline colours of what the current request did to a slot. */
export const FLASH_COLORS = {
  hit: GROUP_COLORS.dataWrite,
  insert: GROUP_COLORS.descriptor,
  evict: ALERT,
  invalidate: WARN,
} as const;
// Outermost first: a slot evicted and refilled shows red around blue.
const RING_ORDER: Array<[number, string]> = [
  [FLASH.evict, FLASH_COLORS.evict],
  [FLASH.invalidate, FLASH_COLORS.invalidate],
  [FLASH.insert, FLASH_COLORS.insert],
  [FLASH.hit, FLASH_COLORS.hit],
];
/** Room around the grid for the outlines of edge slots, CSS px. */
const PAD = 7;
const NIC_GAP = 24;
const MAX_GRID_H = 440;

export function slotFill(file: number): string {
  if (file === EMPTY) return SLOT_EMPTY;
  if (file === UNKNOWN) return SLOT_UNKNOWN;
  return fileColor(file);
}

/** The part of CanvasRenderingContext2D the painters use (a fake records calls in tests). */
export interface Paint2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
}

/** The file a cell shows: its slot's, or with several slots a cell, the first holding a block. */
function cellFile(l: GridLayout, replay: CacheReplay, nic: number, cell: number): number {
  const base = nic * replay.ix.slots;
  const first = cell * l.perCell;
  const last = Math.min(l.slots, first + l.perCell);
  let f = replay.file[base + first]!;
  for (let s = first + 1; s < last && f < 0; s++) {
    const g = replay.file[base + s]!;
    if (g >= 0 || (g === UNKNOWN && f === EMPTY)) f = g;
  }
  return f;
}

/**
 * Paints a NIC's slots: every cell, or only the cells of the slots (nic * slots + slot) listed.
 * The context is translated so the grid starts at (PAD, PAD).
 */
export function paintSlots(
  ctx: Paint2D,
  l: GridLayout,
  replay: CacheReplay,
  nic: number,
  which: readonly number[] | 'all',
): number {
  const base = nic * replay.ix.slots;
  let painted = 0;
  const paint = (cell: number) => {
    const { x, y } = cellXY(l, cell);
    ctx.fillStyle = canvasColor(slotFill(cellFile(l, replay, nic, cell)));
    ctx.fillRect(PAD + x, PAD + y, l.cell, l.cell);
    painted++;
  };
  if (which === 'all') {
    ctx.clearRect(0, 0, l.width + 2 * PAD, l.height + 2 * PAD);
    for (let c = 0; c < l.cells; c++) paint(c);
    return painted;
  }
  let lastCell = -1;
  for (const g of which) {
    const slot = g - base;
    if (slot < 0 || slot >= replay.ix.slots) continue;
    const cell = Math.floor(slot / l.perCell);
    if (cell === lastCell) continue;
    lastCell = cell;
    paint(cell);
  }
  return painted;
}

/** Outlines the current request's slots on a NIC's overlay (cleared first). */
export function paintFlashes(ctx: Paint2D, l: GridLayout, flashes: readonly CacheFlash[]): void {
  ctx.clearRect(0, 0, l.width + 2 * PAD, l.height + 2 * PAD);
  const big = l.pitch >= 10;
  for (const f of flashes) {
    const { x, y } = cellXY(l, Math.floor(f.slot / l.perCell));
    const rings = RING_ORDER.filter(([bit]) => f.bits & bit);
    rings.forEach(([, color], k) => {
      // Big cells: rings from the cell's edge inwards. Small ones: rings around the cell, the
      // first outermost, so even a 2 px cell shows a visible mark.
      const out = big ? 1.5 - 2.5 * k : 2 + 2.5 * (rings.length - 1 - k);
      ctx.strokeStyle = color;
      ctx.lineWidth = big ? 2.5 : 2;
      ctx.strokeRect(
        PAD + x - out,
        PAD + y - out,
        Math.max(1, l.cell + 2 * out),
        Math.max(1, l.cell + 2 * out),
      );
    });
  }
}

function sizeCanvas(c: HTMLCanvasElement, l: GridLayout): CanvasRenderingContext2D | null {
  const dpr = typeof window === 'undefined' ? 1 : Math.min(3, window.devicePixelRatio || 1);
  const w = l.width + 2 * PAD;
  const h = l.height + 2 * PAD;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  c.style.width = `${w}px`;
  c.style.height = `${h}px`;
  const ctx = c.getContext('2d');
  ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

interface Hover {
  nic: number;
  slot: number;
}

/** The NIC grids: base and overlay canvases per NIC, repainted in layout effects. */
function CacheGrids({
  ix,
  replay,
  request,
  now,
  width,
  knownFrom,
}: {
  ix: CacheGridIndex;
  replay: CacheReplay;
  /** The cursor's request (index), for repainting when it changes. */
  request: number;
  now: RequestNow | null;
  width: number;
  knownFrom: number | null;
}) {
  const nics = ix.nics;
  const each = Math.max(80, Math.floor((width - NIC_GAP * (nics - 1)) / nics) - 2 * PAD);
  const layout = useMemo(() => gridLayout(ix.slots, each, MAX_GRID_H), [ix.slots, each]);
  const base = useRef<Array<HTMLCanvasElement | null>>([]);
  const over = useRef<Array<HTMLCanvasElement | null>>([]);
  const [hover, setHover] = useState<Hover | null>(null);

  // A new layout (or run) sizes the canvases and repaints every slot.
  useLayoutEffect(() => {
    replay.takeDirty();
    for (let n = 0; n < nics; n++) {
      const b = base.current[n];
      const o = over.current[n];
      const ctx = b ? sizeCanvas(b, layout) : null;
      if (ctx) paintSlots(ctx, layout, replay, n, 'all');
      if (o) sizeCanvas(o, layout);
    }
  }, [layout, replay, nics]);

  // Each move of the cursor: the changed slots, and the new request's outlines.
  useLayoutEffect(() => {
    const dirty = replay.takeDirty();
    for (let n = 0; n < nics; n++) {
      const ctx = base.current[n]?.getContext('2d');
      if (ctx) paintSlots(ctx, layout, replay, n, dirty);
      const octx = over.current[n]?.getContext('2d');
      if (octx)
        paintFlashes(
          octx,
          layout,
          (now?.flashes ?? []).filter((f) => f.nic === n),
        );
    }
  }, [request, now, layout, replay, nics]);

  const onMove = (nic: number) => (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const slot = slotAtPoint(layout, e.clientX - r.left - PAD, e.clientY - r.top - PAD);
    setHover(slot === null ? null : { nic, slot });
  };

  return (
    <div className="cache-grids-wrap">
      <div className="cache-grids" style={{ gap: NIC_GAP }}>
        {Array.from({ length: nics }, (_, n) => (
          <figure key={n} className="cache-nic" data-testid={`cache-nic-${n}`}>
            <figcaption>
              <b>{nics > 1 ? `NIC ${n}` : 'The NIC’s cache'}</b>{' '}
              <span className="muted">
                {formatNumber(replay.used[n] ?? 0)} of {formatNumber(ix.slots)} slots hold blocks of{' '}
                {plural(replay.filesIn(n), 'file')}
                {(replay.unknown[n] ?? 0) > 0 && `, ${formatNumber(replay.unknown[n]!)} not known`}
              </span>
            </figcaption>
            <div
              className="cache-canvas"
              style={{ width: layout.width + 2 * PAD, height: layout.height + 2 * PAD }}
            >
              <canvas
                ref={(c) => {
                  base.current[n] = c;
                }}
                role="img"
                aria-label={`NIC ${n} cache: ${ix.slots} slots of ${blockWords(ix.blockBytes)}, ${replay.used[n] ?? 0} holding blocks`}
                data-testid="cache-canvas"
              />
              <canvas
                className="cache-overlay"
                ref={(c) => {
                  over.current[n] = c;
                }}
                aria-hidden="true"
                onPointerMove={onMove(n)}
                onPointerLeave={() => setHover(null)}
              />
            </div>
          </figure>
        ))}
      </div>
      <p className="cache-hover" data-testid="cache-hover">
        {hover ? (
          <HoverText hover={hover} replay={replay} layout={layout} knownFrom={knownFrom} />
        ) : (
          <span className="muted">
            Point at a slot to see the block it holds.{' '}
            {layout.perCell > 1
              ? `Each cell stands for ${layout.perCell} slots (the first that holds a block).`
              : `One cell per slot, ${layout.cols} to a row.`}
          </span>
        )}
      </p>
    </div>
  );
}

function HoverText({
  hover,
  replay,
  layout,
  knownFrom,
}: {
  hover: Hover;
  replay: CacheReplay;
  layout: GridLayout;
  knownFrom: number | null;
}) {
  const ix = replay.ix;
  const g = hover.nic * ix.slots + hover.slot;
  const f = replay.file[g]!;
  const where = `${ix.nics > 1 ? `NIC ${hover.nic}, ` : ''}slot ${formatNumber(hover.slot)}${
    layout.perCell > 1 ? `–${formatNumber(hover.slot + layout.perCell - 1)}` : ''
  }`;
  if (f === EMPTY) return <>{where}: empty</>;
  if (f === UNKNOWN)
    return (
      <>
        {where}: not known — the trace window opens at request {formatNumber(knownFrom ?? 0)}, and
        this slot has not been touched since
      </>
    );
  const b = replay.block[g]!;
  return (
    <span>
      {where}: <span className="chip" style={{ background: fileColor(f) }} /> file{' '}
      <b>{formatNumber(f)}</b>, block {formatNumber(b)} (bytes {formatNumber(b * ix.blockBytes)}–
      {formatNumber((b + 1) * ix.blockBytes - 1)})
    </span>
  );
}

/** What the cursor's request did. */
export function RequestBox({
  now,
  nics,
  firstRequest,
}: {
  now: RequestNow | null;
  nics: number;
  firstRequest: number | null;
}) {
  return (
    <section className="cache-box" aria-labelledby="cache-h-req" data-testid="cache-request">
      <h3 id="cache-h-req">{now ? `Request ${formatNumber(now.request)}` : 'No request yet'}</h3>
      {now ? (
        <>
          <p className="cache-req-file">
            <span className="chip" style={{ background: fileColor(now.file) }} />
            <span>
              file <b>{formatNumber(now.file)}</b>, {formatNumber(now.bytes)} bytes ={' '}
              {plural(now.blocks, 'block')}
              {nics > 1 && <>, to NIC {now.nic}</>}
            </span>
          </p>
          <ul className="cache-req-facts">
            <li data-testid="cache-found">
              <span className="ring" style={{ borderColor: FLASH_COLORS.hit }} />
              {now.found} found in the cache: {formatBytes(now.cachedBytes)} need not cross the bus
            </li>
            <li>
              <span className="ring" style={{ borderColor: FLASH_COLORS.insert }} />
              {now.inserted} inserted (fetched by DMA into the cache)
            </li>
            <li>
              <span className="ring" style={{ borderColor: FLASH_COLORS.evict }} />
              {now.evicted} evicted to make room
            </li>
            {now.invalidated > 0 && (
              <li>
                <span className="ring" style={{ borderColor: FLASH_COLORS.invalidate }} />
                {now.invalidated} invalidated (stale)
              </li>
            )}
          </ul>
        </>
      ) : (
        <p className="muted">
          The cursor is before the first request of the trace window
          {firstRequest !== null ? ` (request ${formatNumber(firstRequest)})` : ''}.
        </p>
      )}
    </section>
  );
}

function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** A block size: "512 B", "4 KB". */
export function blockWords(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : formatKbytes(bytes / 1024);
}

function pct(v: number): string {
  return `${(v * 100).toFixed(1)}%`;
}

/** Counts up to the cursor, beside the whole run's figure. */
export function CountsBox({
  counts,
  runReduction,
  runRequests,
  warmup,
  window,
}: {
  counts: CacheCounts;
  runReduction: number | undefined;
  runRequests: number | undefined;
  warmup: number;
  /** "0–400" when the trace window holds only part of the run's requests. */
  window: string | null;
}) {
  return (
    <section className="cache-box" aria-labelledby="cache-h-counts" data-testid="cache-counts">
      <h3 id="cache-h-counts">
        Up to the cursor
        {counts.from !== null && counts.from > 0 && (
          <span className="muted"> from request {formatNumber(counts.from)}</span>
        )}
      </h3>
      <dl className="cache-counts">
        <dt>requests</dt>
        <dd data-testid="cache-count-requests">{formatNumber(counts.requests)}</dd>
        <dt>content sent</dt>
        <dd>{formatBytes(counts.contentBytes)}</dd>
        <dt>from the NIC cache</dt>
        <dd>{formatBytes(counts.cachedBytes)}</dd>
        <dt>blocks hit</dt>
        <dd>{formatNumber(counts.hits)}</dd>
        <dt>blocks inserted · evicted</dt>
        <dd>
          {formatNumber(counts.insertions)} · {formatNumber(counts.evictions)}
        </dd>
      </dl>
      <div
        className="cache-meter"
        role="meter"
        aria-label="Content-traffic reduction so far"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={+(counts.reduction * 100).toFixed(1)}
        data-testid="cache-reduction"
      >
        <div className="cache-meter-fill" style={{ width: pct(counts.reduction) }} />
        <span className="cache-meter-text">
          content-traffic reduction <b>{pct(counts.reduction)}</b>
        </span>
      </div>
      {runReduction !== undefined && (
        <p className="cache-note">
          The whole run: <b>{pct(runReduction)}</b>
          {runRequests !== undefined && <> over {formatNumber(runRequests)} requests</>}
          {warmup > 0 && <>, counted after a warm-up of {formatNumber(warmup)}</>}.
          {window && ` The trace window holds requests ${window}.`}
        </p>
      )}
    </section>
  );
}

export function CacheLegend({ unknown, sample }: { unknown: boolean; sample: readonly number[] }) {
  return (
    <ul className="legend cache-legend" aria-label="Cache grid legend">
      <li>
        <span className="chip chip-slot" style={{ background: SLOT_EMPTY }} /> empty slot
      </li>
      {unknown && (
        <li>
          <span className="chip chip-slot" style={{ background: SLOT_UNKNOWN }} /> not known yet
        </li>
      )}
      <li>
        <span className="cache-file-chips">
          {sample.map((f) => (
            <span key={f} className="chip" style={{ background: fileColor(f) }} />
          ))}
        </span>
        a block of a file (one colour per file)
      </li>
      <li>
        <span className="ring" style={{ borderColor: FLASH_COLORS.hit }} /> hit by this request
      </li>
      <li>
        <span className="ring" style={{ borderColor: FLASH_COLORS.insert }} /> inserted
      </li>
      <li>
        <span className="ring" style={{ borderColor: FLASH_COLORS.evict }} /> evicted
      </li>
      <li>
        <span className="ring" style={{ borderColor: FLASH_COLORS.invalidate }} /> invalidated
      </li>
    </ul>
  );
}

/** "LRU, 4 KB blocks, 2 MB per NIC = 512 slots; World Cup trace". */
export function setupWords(s: CacheSetup, slots: number): string {
  const trace = s.trace ? `; ${TRACE_LABELS[s.trace] ?? s.trace} trace` : '';
  const size = `${formatKbytes(s.kbytes)} = ${formatNumber(slots)} slots`;
  const where = s.nics > 1 ? `${size} on each of ${s.nics} NICs (the requests split evenly)` : size;
  return `${s.replacement.toUpperCase()}, ${blockWords(s.blockBytes)} blocks, ${where}${trace}`;
}

function Message({ children }: { children: React.ReactNode }) {
  return (
    <p className="tg-message" data-testid="cache-message">
      {children}
    </p>
  );
}

export function CacheView() {
  const run = useRun();
  if (!run)
    return <div className="placeholder">The cache view appears when the simulation has run.</div>;
  return <CacheRun run={run} />;
}

function CacheRun({ run }: { run: DoneRun }) {
  const store = useStoreInstance();
  const cursor = useViewCursor();
  const setup = useMemo(() => cacheSetup(run.output.parameters, run.output.results), [run]);
  const ix = useMemo(
    () => cachedCacheGridIndex(run.trace, setup, run.output.trace.start_ps),
    [run, setup],
  );
  const replay = useMemo(() => new CacheReplay(ix), [ix]);
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapRef, ix, 900, 320);

  const r = requestAt(ix, cursor);
  // Seeking is idempotent (the state depends only on the request), so it is safe in render;
  // the layout effects of CacheGrids repaint what it changed.
  replay.seekEvents(r < 0 ? 0 : ix.evStart[r + 1]!);
  const now = useMemo(() => requestNow(ix, r), [ix, r]);
  const counts = countsUpTo(ix, r);
  const first = ix.requests > 0 ? ix.reqId[0]! : null;
  const sample = useMemo(() => {
    const out: number[] = [];
    for (let k = 0; k < ix.requests && out.length < 6; k++)
      if (!out.includes(ix.reqFile[k]!)) out.push(ix.reqFile[k]!);
    return out.length ? out : [1, 2, 3, 4, 5];
  }, [ix]);

  if (!setup.web)
    return (
      <Message>
        This run is not a web server&apos;s trace, so there is no NIC data cache to show. Set{' '}
        <code>workload.kind</code> to <code>web</code>.
      </Message>
    );
  if (setup.kbytes <= 0 || ix.slots === 0)
    return (
      <Message>
        This run has no NIC data cache (<code>system.nic_cache.kbytes</code> is 0): every
        response&apos;s content crosses the bus. Give the NIC a cache to see its blocks.
      </Message>
    );
  if (ix.requests === 0)
    return (
      <Message>
        {ix.stop?.reason === 'events'
          ? 'The core kept cache events only for the first part of the trace, and the trace window lies beyond it. Move run.trace nearer the start.'
          : 'The trace window holds no request. Each request sits at its number in µs: widen run.trace to see some.'}
      </Message>
    );

  const seek = (t: number | null) => {
    if (t === null) return;
    store.setPlaying(false);
    store.setCursor(t);
  };
  const nextReq = nextRequestTime(ix, cursor);
  const prevReq = prevRequestTime(ix, cursor);
  const nextEvict = nextEvictionTime(ix, cursor);
  const res = run.output.results;

  return (
    <div className="cache-view" data-testid="cache-view" data-request={now?.request ?? ''}>
      <p className="tg-sub">
        <b>{setupWords(setup, ix.slots)}.</b> Each request sits at its number in µs: play or step
        through them and watch the slots fill, hit and turn over.
      </p>
      <div className="fw-toolbar">
        <div className="seg" role="group" aria-label="Step by request">
          <button
            type="button"
            onClick={() => seek(prevReq)}
            disabled={prevReq === null}
            data-testid="cache-prev"
          >
            ◀ previous request
          </button>
          <button
            type="button"
            onClick={() => seek(nextReq)}
            disabled={nextReq === null}
            data-testid="cache-next"
          >
            next request ▶
          </button>
          <button
            type="button"
            onClick={() => seek(nextEvict)}
            disabled={nextEvict === null}
            title="Move the cursor to the next request that evicts a block"
          >
            next eviction ▶
          </button>
        </div>
        <span className="fw-time" data-testid="cache-cursor">
          {now
            ? `request ${formatNumber(now.request)} of ${formatNumber(first ?? 0)}–${formatNumber(ix.reqId[ix.requests - 1]!)}`
            : 'before the first request'}
        </span>
      </div>
      {ix.stop && (
        <p className="notice notice-warn" data-testid="cache-stop">
          The trace stops at request {formatNumber(ix.stop.request)}:{' '}
          {ix.stop.reason === 'dropped'
            ? 'records beyond run.trace.max_records were not recorded. Narrow run.trace to see the requests after it.'
            : 'the core kept no more cache events. Narrow or move run.trace.'}
        </p>
      )}
      <div className="cache-layout">
        <div ref={wrapRef} className="cache-main">
          <CacheGrids
            ix={ix}
            replay={replay}
            request={r}
            now={now}
            width={width}
            knownFrom={first}
          />
        </div>
        <div className="cache-side">
          <RequestBox now={now} nics={ix.nics} firstRequest={first} />
          <CountsBox
            counts={counts}
            runReduction={res.content_traffic_reduction?.value}
            runRequests={res.web_requests?.value}
            warmup={setup.warmup}
            window={
              ix.requests < (res.web_requests?.value ?? 0) + setup.warmup
                ? `${formatNumber(first ?? 0)}–${formatNumber(ix.reqId[ix.requests - 1]!)}`
                : null
            }
          />
        </div>
      </div>
      <CacheLegend unknown={!ix.knownStart} sample={sample} />
    </div>
  );
}
