// One web request's path through the server, in the form of the thesis's Figures 4.1 (no NIC
// cache) and 4.2 (with one): the client's request in, the server's lookup and headers, the
// driver's descriptors, then either the whole file crossing the PCI bus or only the headers and a
// cache reference while the NIC appends the cached blocks itself, and the frames out. The view
// follows one request at a time (the oldest in flight at the playback cursor, or the one picked
// with the previous/next buttons), lists its steps with their times and lights the diagram's parts
// of the steps under way; a stacked bar counts the request's bytes over the bus so far. Every time
// and count is a trace record's (model/requestPath.ts).
import { useMemo, useState } from 'react';
import { useRun, useStoreInstance, useViewCursor } from '../run/store';
import {
  busBytesLayout,
  bytesLabel,
  cachedRequestPathIndex,
  crossedUpTo,
  currentSteps,
  figureStepText,
  STEP_SHORT,
  timelineLayout,
  litParts,
  neighbour,
  requestAt,
  stepState,
  transfersAt,
  type Cargo,
  type BytesKey,
  type Crossed,
  type Part,
  type RequestPath,
  type RequestPathIndex,
  type RequestStep,
} from './requestPath';
import { activeAt } from '../trace/traceIndex';
import { paramAt, type ParameterTree } from '../engine/types';
import { formatKbytes } from '../kit/paramLabels';
import { formatTime } from '../kit/format';
import {
  BUS_CATEGORY_COLORS,
  CPU_TASK_COLORS,
  FRAME_COLORS,
  GROUP_COLORS,
  SLATE,
  WAIT_PAPER,
  WARN,
  inkOn,
} from '../kit/palette';
import { SweepPointPicker } from '../charts';
import { HatchPattern } from '../kit/HatchPattern';
import './request.css';
import { RequestPacketChips } from '../inspector';

// What a transfer carries, coloured as everywhere else: content dark blue, headers light blue,
// descriptors teal (the bus categories of Figs 4.6/4.7), the request frame green (incoming).
export const CARGO_COLORS: Record<Cargo, string> = {
  request: FRAME_COLORS.rx,
  descriptors: BUS_CATEGORY_COLORS[3]!,
  headers: BUS_CATEGORY_COLORS[1]!,
  content: BUS_CATEGORY_COLORS[0]!,
  insert: BUS_CATEGORY_COLORS[0]!,
};
const CARGO_SHORT: Record<Cargo, string> = {
  request: '‹ GET',
  descriptors: 'BDs ›',
  headers: 'hdr ›',
  content: 'data ›',
  insert: 'ins ›',
};
/** The accent of a lit part: the server's CPU navy-blue, the request green, the reply orange. */
const PART_ACCENT: Partial<Record<Part, string>> = {
  client: FRAME_COLORS.tx,
  wireIn: FRAME_COLORS.rx,
  rxBuffer: FRAME_COLORS.rx,
  memRequest: FRAME_COLORS.rx,
  http: CPU_TASK_COLORS[0],
  tcp: CPU_TASK_COLORS[0],
  driver: CPU_TASK_COLORS[0],
  memRing: GROUP_COLORS.descriptor,
  disk: GROUP_COLORS.disk,
  nicCache: BUS_CATEGORY_COLORS[0],
  memFile: BUS_CATEGORY_COLORS[0],
  memHeaders: BUS_CATEGORY_COLORS[1],
  txBuffer: FRAME_COLORS.tx,
  wireOut: FRAME_COLORS.tx,
};
const DEFAULT_ACCENT = SLATE;

// Layout (viewBox units).
const W = 940;
const H = 344;
const CPU = { x: 14, y: 12, w: 304, h: 96 };
const HTTP = { x: 24, y: 42, w: 96, h: 56 };
const TCP = { x: 126, y: 42, w: 84, h: 56 };
const DRV = { x: 216, y: 42, w: 92, h: 56 };
const MEM = { x: 14, y: 120, w: 304, h: 212 };
const ROW_X = MEM.x + 10;
const ROW_W = MEM.w - 20;
const ROWS = { request: 148, file: 190, headers: 232, ring: 274 };
const ROW_H = 36;
const BRIDGE = { x: 318, y: 202, w: 46, h: 38 };
const BUS = { x0: 364, x1: 580, y: 221, h: 22 };
const DISK = { x: 412, y: 276, w: 124, h: 52 };
const NIC = { x: 580, y: 12, w: 212, h: 320 };
const TXB = { x: 602, y: 42, w: 178, h: 52 };
const NCACHE = { x: 602, y: 112, w: 178, h: 62 };
const DMA = { x: 602, y: 197, w: 178, h: 48 };
const RXB = { x: 602, y: 266, w: 178, h: 52 };
const WIRE = { x0: 780, x1: 842, tx: 68, rx: 292 };
const CLIENT = { x: 842, y: 42, w: 88, h: 276 };
const TOKEN_W = 46;

type Box = { x: number; y: number; w: number; h: number };

function accent(part: Part): string {
  return PART_ACCENT[part] ?? DEFAULT_ACCENT;
}

function Unit({
  b,
  part,
  lit,
  title,
  sub,
  dashed,
  testId,
}: {
  b: Box;
  part: Part;
  lit: Map<Part, 'on' | 'wait'>;
  title: string;
  sub?: string;
  dashed?: boolean;
  testId?: string;
}) {
  const state = lit.get(part);
  const color = state === 'wait' ? WARN : accent(part);
  return (
    <g
      className={`rp-unit ${state ?? ''} ${dashed ? 'dashed' : ''}`}
      data-part={part}
      data-lit={state ?? 'off'}
      data-testid={testId}
    >
      <rect
        x={b.x}
        y={b.y}
        width={b.w}
        height={b.h}
        rx={6}
        style={
          state
            ? {
                stroke: color,
                fill: `color-mix(in srgb, ${color} ${state === 'wait' ? 8 : 13}%, var(--panel))`,
              }
            : undefined
        }
      />
      <text x={b.x + 8} y={b.y + 16} className="rp-title">
        {title}
      </text>
      {sub && (
        <text x={b.x + 8} y={b.y + 31} className="rp-sub">
          {sub}
        </text>
      )}
    </g>
  );
}

/** A circled step number of Figs 4.1/4.2, filled while that step is under way. */
function FigMark({ n, x, y, on }: { n: number; x: number; y: number; on: boolean }) {
  return (
    <g className={`rp-fig ${on ? 'on' : ''}`} data-fig={n} aria-hidden="true">
      <circle cx={x} cy={y} r={9} />
      <text x={x} y={y + 4} textAnchor="middle">
        {n}
      </text>
    </g>
  );
}

function Token({ x, y, cargo, label }: { x: number; y: number; cargo: Cargo; label?: string }) {
  const fill = CARGO_COLORS[cargo];
  return (
    <g className="rp-token" transform={`translate(${x.toFixed(1)}, ${y})`} data-cargo={cargo}>
      <rect width={TOKEN_W} height={16} rx={8} fill={fill} />
      <text x={TOKEN_W / 2} y={11.5} textAnchor="middle" fill={inkOn(fill)}>
        {label ?? CARGO_SHORT[cargo]}
      </text>
    </g>
  );
}

function Link({ d, on, color }: { d: string; on: boolean; color?: string }) {
  return (
    <path
      d={d}
      className={`rp-link ${on ? 'on' : ''}`}
      style={on && color ? { stroke: color } : undefined}
    />
  );
}

export interface DiagramFacts {
  /** NIC cache per NIC, KB (0: none). */
  cacheKb: number;
  busLabel: string;
  /** Some other transfer (another request, the other NIC) holds the bus at the cursor. */
  busOther: boolean;
}

/** The server of Figs 4.1/4.2 with the parts of the request's current steps lit (pure). */
export function RequestDiagram({
  path,
  t,
  facts,
}: {
  path: RequestPath;
  t: number;
  facts: DiagramFacts;
}) {
  const lit = litParts(path, t);
  const on = (p: Part) => lit.has(p);
  const figsOn = new Set(
    currentSteps(path, t).map((id) => path.steps.find((s) => s.id === id)!.fig),
  );
  const crossed = crossedUpTo(path, t);
  const cache = facts.cacheKb > 0;
  const bus = transfersAt(path.bus, t);
  const frames = transfersAt(path.frames, t);
  const y = path.bytes;
  const stateOf = (id: RequestStep['id']) => {
    const s = path.steps.find((x) => x.id === id);
    return s ? stepState(s, t) : null;
  };
  const served = stateOf('serve') === 'done' || stateOf('serve') === 'active';
  const posted = stateOf('post') === 'done' || stateOf('post') === 'active';
  const received = stateOf('in') === 'done';
  const fileText =
    path.file === null
      ? 'file cache'
      : `file ${path.file}` +
        (path.fileBytes !== null ? ` · ${bytesLabel(path.fileBytes)}` : '') +
        (path.fileCacheHit === null ? '' : path.fileCacheHit ? ' · hit' : ' · miss');
  const busColor = bus[0] ? CARGO_COLORS[bus[0].cargo] : undefined;
  const descriptors = y.descriptors[0] + y.descriptors[1] + y.descriptors[2];
  const memoryRows: Array<{ part: Part; y: number; title: string; sub: string }> = [
    {
      part: 'memRequest',
      y: ROWS.request,
      title: 'Request',
      sub: received ? `GET file ${path.file ?? '…'}` : 'receive buffer',
    },
    {
      part: 'memFile',
      y: ROWS.file,
      title: 'File cache (content)',
      sub: served ? fileText : 'the OS file cache',
    },
    {
      part: 'memHeaders',
      y: ROWS.headers,
      title: 'HTTP and TCP/IP headers',
      sub: posted
        ? `${bytesLabel(y.headers)} for ${y.segments} segment${y.segments === 1 ? '' : 's'}`
        : served
          ? 'HTTP header built'
          : '—',
    },
    {
      part: 'memRing',
      y: ROWS.ring,
      title: 'Send descriptors',
      sub: posted ? `${descriptors} in the send ring` : 'send ring',
    },
  ];
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="rp-diagram"
      role="img"
      aria-label={`The server of Figure ${cache ? '4.2' : '4.1'}. ${describe(path, t)}`}
      data-testid="request-diagram"
    >
      {/* Host CPU: the HTTP server, TCP/IP and the driver (steps 2 and 3). */}
      <g className="rp-host">
        <rect x={CPU.x} y={CPU.y} width={CPU.w} height={CPU.h} rx={8} className="rp-frame" />
        <text x={CPU.x + 10} y={CPU.y + 19} className="rp-title big">
          Host CPU
        </text>
        <Unit b={HTTP} part="http" lit={lit} title="HTTP server" sub="thttpd" />
        <Unit b={TCP} part="tcp" lit={lit} title="TCP/IP" sub="kernel" />
        <Unit b={DRV} part="driver" lit={lit} title="Driver" sub={`NIC ${path.nic + 1}`} />
        <rect x={MEM.x} y={MEM.y} width={MEM.w} height={MEM.h} rx={8} className="rp-frame" />
        <text x={MEM.x + 10} y={MEM.y + 19} className="rp-title big">
          Main memory
        </text>
        {memoryRows.map((row) => (
          <Unit
            key={row.part}
            b={{ x: ROW_X, y: row.y, w: ROW_W, h: ROW_H }}
            part={row.part}
            lit={lit}
            title={row.title}
            sub={row.sub}
          />
        ))}
      </g>
      <FigMark n={2} x={CPU.x + CPU.w - 12} y={CPU.y + 16} on={figsOn.has(2)} />
      <FigMark n={3} x={MEM.x + MEM.w - 12} y={MEM.y + 16} on={figsOn.has(3)} />

      {/* The bridge and the PCI bus (steps 1 and 4). */}
      <rect
        x={BRIDGE.x}
        y={BRIDGE.y}
        width={BRIDGE.w}
        height={BRIDGE.h}
        rx={5}
        className="rp-bridge"
      />
      <text x={BRIDGE.x + BRIDGE.w / 2} y={BRIDGE.y + 23} textAnchor="middle" className="rp-sub">
        bridge
      </text>
      <g
        className={`rp-bus ${on('bus') ? 'on' : ''} ${facts.busOther ? 'other' : ''}`}
        data-testid="request-bus"
        data-busy={bus.length ? 'request' : facts.busOther ? 'other' : 'idle'}
      >
        <rect
          x={BUS.x0}
          y={BUS.y - BUS.h / 2}
          width={BUS.x1 - BUS.x0}
          height={BUS.h}
          rx={4}
          className="rp-bus-rail"
          style={bus.length && busColor ? { stroke: busColor } : undefined}
        />
        <text x={(BUS.x0 + BUS.x1) / 2} y={BUS.y - 18} textAnchor="middle" className="rp-bus-label">
          {facts.busLabel}
        </text>
        {facts.busOther && !bus.length && (
          <text x={(BUS.x0 + BUS.x1) / 2} y={BUS.y + 27} textAnchor="middle" className="rp-sub">
            busy with other traffic
          </text>
        )}
        {bus.map((b, i) => {
          const towardsNic = b.cargo !== 'request';
          const span = BUS.x1 - BUS.x0 - TOKEN_W - 8;
          const x = BUS.x0 + 4 + (towardsNic ? b.progress : 1 - b.progress) * span;
          return <Token key={i} x={x} y={BUS.y - 8} cargo={b.cargo} />;
        })}
      </g>
      <FigMark n={1} x={BUS.x0 + 14} y={BUS.y + 28} on={figsOn.has(1)} />
      <FigMark n={4} x={BUS.x1 - 14} y={BUS.y + 28} on={figsOn.has(4)} />
      <Link
        d={`M${(DISK.x + DISK.x + DISK.w) / 2} ${BUS.y + BUS.h / 2} V${DISK.y}`}
        on={on('disk')}
      />
      <Unit
        b={DISK}
        part="disk"
        lit={lit}
        title="Disk"
        sub={path.fileCacheHit === false ? 'reads the file' : 'file-cache misses'}
      />

      {/* The NIC: DMA engine, transmit and receive buffers, and its data cache (Fig 4.9). */}
      <rect x={NIC.x} y={NIC.y} width={NIC.w} height={NIC.h} rx={9} className="rp-frame nic" />
      <text x={NIC.x + 12} y={NIC.y + 20} className="rp-title big">
        NIC {path.nic + 1}
      </text>
      <Unit
        b={TXB}
        part="txBuffer"
        lit={lit}
        title="Transmit buffer"
        sub={
          crossed.framesSent > 0 || on('txBuffer')
            ? `${crossed.framesSent} of ${path.packets ?? y.segments} frames sent`
            : 'headers + content → frame'
        }
      />
      <Unit
        b={NCACHE}
        part="nicCache"
        lit={lit}
        dashed={!cache}
        title={cache ? `NIC cache · ${formatKbytes(facts.cacheKb)}` : 'No NIC cache'}
        sub={
          cache
            ? crossed.fromCache > 0
              ? `${bytesLabel(crossed.fromCache)} appended from here`
              : y.appendedFromCache > 0
                ? 'blocks of this file'
                : 'nothing of this file'
            : 'content from main memory'
        }
      />
      {cache && <FigMark n={5} x={NCACHE.x + NCACHE.w - 12} y={NCACHE.y + 14} on={figsOn.has(5)} />}
      <Unit
        b={DMA}
        part="dma"
        lit={lit}
        title="DMA engine"
        sub={bus[0] ? dmaWords(bus[0].cargo) : 'to and from main memory'}
      />
      <Unit
        b={RXB}
        part="rxBuffer"
        lit={lit}
        title="Receive buffer"
        sub={received ? 'the request frame' : 'frames from the clients'}
      />
      {/* Inside the NIC: DMA → transmit buffer, DMA → cache (insert), cache → buffer (append). */}
      <Link
        d={`M${DMA.x} ${DMA.y + 12} H${NIC.x + 11} V${TXB.y + 26} H${TXB.x}`}
        on={on('toTxBuffer')}
        color={CARGO_COLORS.content}
      />
      <Link
        d={`M${NCACHE.x + 60} ${DMA.y} V${NCACHE.y + NCACHE.h}`}
        on={on('insertPath')}
        color={CARGO_COLORS.insert}
      />
      <Link
        d={`M${NCACHE.x + 120} ${NCACHE.y} V${TXB.y + TXB.h}`}
        on={on('appendPath')}
        color={CARGO_COLORS.content}
      />
      <Link d={`M${RXB.x + 89} ${RXB.y} V${DMA.y + DMA.h}`} on={on('rxBuffer') && on('dma')} />
      <path d={`M${BUS.x1} ${BUS.y} H${DMA.x}`} className="rp-link" />
      <path d={`M${MEM.x + MEM.w} ${BUS.y} H${BRIDGE.x}`} className="rp-link" />

      {/* The wire and the clients. */}
      <Link d={`M${WIRE.x0} ${WIRE.tx} H${WIRE.x1}`} on={on('wireOut')} color={FRAME_COLORS.tx} />
      <Link d={`M${WIRE.x1} ${WIRE.rx} H${WIRE.x0}`} on={on('wireIn')} color={FRAME_COLORS.rx} />
      {frames.map((f, i) => {
        const out = f.cargo !== 'request';
        const span = WIRE.x1 - WIRE.x0 - 36;
        const x = WIRE.x0 + 2 + (out ? f.progress : 1 - f.progress) * span;
        return (
          <rect
            key={i}
            x={x}
            y={(out ? WIRE.tx : WIRE.rx) - 6}
            width={32}
            height={12}
            rx={3}
            fill={out ? FRAME_COLORS.tx : FRAME_COLORS.rx}
            className="rp-frame-token"
          />
        );
      })}
      <Unit
        b={CLIENT}
        part="client"
        lit={lit}
        title="Client"
        sub={path.connection !== null ? `connection ${path.connection}` : undefined}
      />
      <text x={CLIENT.x + 8} y={CLIENT.y + 60} className="rp-sub">
        <tspan x={CLIENT.x + 8}>{stateOf('done') === 'done' ? 'has the' : 'asks for'}</tspan>
        <tspan x={CLIENT.x + 8} dy={14}>
          {path.file !== null ? `file ${path.file}` : 'a file'}
        </tspan>
      </text>
    </svg>
  );
}

function dmaWords(c: Cargo): string {
  switch (c) {
    case 'request':
      return 'writes the request to memory';
    case 'descriptors':
      return 'reads send descriptors';
    case 'headers':
      return 'reads headers (append_mm)';
    case 'content':
      return 'reads content (append_mm)';
    case 'insert':
      return 'reads a block into the cache';
  }
}

/** The request's steps over its lifetime: where its time goes (mostly waiting). */
export function StepTimeline({
  path,
  t,
  onJump,
}: {
  path: RequestPath;
  t: number;
  onJump: (time: number) => void;
}) {
  const LABEL = 104;
  const PLOT = 480;
  const ROW = 13;
  const l = timelineLayout(path, PLOT);
  const h = l.bars.length * ROW + 22;
  const cx = LABEL + l.x(t);
  const inside = t >= l.from && t <= l.to;
  return (
    <figure className="rp-timeline" data-testid="request-timeline">
      <figcaption>
        <b>Where the time goes</b>{' '}
        <span className="muted">
          {formatTime(l.to - l.from, 1)} from the first step to the last · waits hatched
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${LABEL + PLOT + 8} ${h}`}
        className="rp-timeline-svg"
        role="group"
        aria-label={`Timeline of the request's ${l.bars.length} steps over ${formatTime(l.to - l.from, 1)}; each step moves the cursor to its start`}
      >
        <defs>
          <HatchPattern id="rp-wait-hatch" size={6} fill={WAIT_PAPER} stroke={WARN} />
        </defs>
        {l.bars.map((b) => {
          const s = path.steps[b.row]!;
          const y = b.row * ROW + 2;
          const state = stepState(s, t);
          return (
            <g
              key={b.id}
              className={`rp-tl-row ${state}`}
              data-step={b.id}
              onClick={() => onJump(s.start)}
              role="button"
              tabIndex={0}
              aria-label={`${STEP_SHORT[b.id]}: ${s.title} (${state}${s.wait ? ', waiting' : ''}); go to ${formatTime(s.start)}`}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onJump(s.start);
                }
              }}
            >
              <text x={LABEL - 6} y={y + 9.5} textAnchor="end" className="rp-tl-label">
                {STEP_SHORT[b.id]}
              </text>
              <rect x={LABEL} y={y} width={PLOT} height={ROW - 2} className="rp-tl-track" />
              <rect
                x={LABEL + b.x}
                y={y + 1}
                width={b.w}
                height={ROW - 4}
                rx={1.5}
                fill={b.wait ? 'url(#rp-wait-hatch)' : (STEP_COLORS[b.id] ?? DEFAULT_ACCENT)}
                stroke={b.wait ? WARN : 'none'}
                strokeWidth={0.8}
              />
            </g>
          );
        })}
        {inside && <line x1={cx} x2={cx} y1={0} y2={h - 18} className="rp-tl-cursor" />}
        <text x={LABEL} y={h - 4} className="rp-tl-axis">
          {formatTime(l.from)}
        </text>
        <text x={LABEL + PLOT} y={h - 4} textAnchor="end" className="rp-tl-axis">
          {formatTime(l.to)}
        </text>
      </svg>
    </figure>
  );
}

/** The colour of a step's bar: the part of the server it uses. */
const STEP_COLORS: Partial<Record<RequestStep['id'], string>> = {
  in: FRAME_COLORS.rx,
  toMemory: FRAME_COLORS.rx,
  interrupt: CPU_TASK_COLORS[0],
  serve: CPU_TASK_COLORS[0],
  disk: GROUP_COLORS.disk,
  toTcp: CPU_TASK_COLORS[0],
  post: CPU_TASK_COLORS[0],
  fetch: GROUP_COLORS.descriptor,
  dma: BUS_CATEGORY_COLORS[0],
  append: BUS_CATEGORY_COLORS[0],
  wire: FRAME_COLORS.tx,
  done: FRAME_COLORS.tx,
};

/** What the request is doing at the cursor, with the thesis's words for that step. */
function NowBox({ path, t, cache }: { path: RequestPath; t: number; cache: boolean }) {
  const steps = currentSteps(path, t).map((id) => path.steps.find((s) => s.id === id)!);
  const figs = [...new Set(steps.map((s) => s.fig))];
  return (
    <div className="rp-now" data-testid="request-now">
      <span className="now-label">Now</span>
      {steps.length === 0 ? (
        <span className="muted">
          The request begins at {formatTime(path.start)}: play or step forward.
        </span>
      ) : (
        <div className="rp-now-body">
          <div>
            {steps.map((s, i) => (
              <span key={s.id} className={s.wait ? 'rp-now-wait' : ''}>
                {i > 0 && ' · '}
                <b>{s.title}</b>
                {stepState(s, t) === 'done' && ' (done; the next step has not begun)'}
              </span>
            ))}
          </div>
          {figs.map((f) => (
            <div key={f} className="rp-now-fig">
              <span className="rp-step-fig">{f}</span> Figure {cache ? '4.2' : '4.1'}, step {f}:{' '}
              {figureStepText(f, cache)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function StepList({
  path,
  t,
  onJump,
}: {
  path: RequestPath;
  t: number;
  onJump: (time: number) => void;
}) {
  const current = new Set(currentSteps(path, t));
  const t0 = path.steps[0]?.start ?? path.start;
  return (
    <ol className="rp-steps" data-testid="request-steps" aria-label="Steps of this request">
      {path.steps.map((s) => {
        const state = stepState(s, t);
        const cur = current.has(s.id);
        const dur = s.end - s.start;
        return (
          <li
            key={s.id}
            className={`rp-step ${state} ${cur ? 'current' : ''} ${s.wait ? 'wait' : ''}`}
            data-step={s.id}
            data-state={state}
            aria-current={cur ? 'step' : undefined}
          >
            <button type="button" onClick={() => onJump(s.start)} title="Move the cursor here">
              <span className="rp-step-fig" aria-label={`step ${s.fig} of the figure`}>
                {s.fig}
              </span>
              <span className="rp-step-body">
                <span className="rp-step-title">{s.title}</span>
                {s.detail && <span className="rp-step-detail">{s.detail}</span>}
              </span>
              <span className="rp-step-time mono">
                +{formatTime(s.start - t0, 1)}
                {dur > 0 && <span className="rp-step-dur">{formatTime(dur, 1)}</span>}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The request's bytes over the PCI bus: so far (solid) of the whole (faint), by cargo. */
export function BusBytes({
  path,
  crossed,
  bdBytes,
}: {
  path: RequestPath;
  crossed: Crossed;
  bdBytes: number;
}) {
  const y = path.bytes;
  const l = busBytesLayout(path, crossed, bdBytes, 600);
  const labels: Record<BytesKey, string> = {
    headers: 'headers',
    content: 'content (append_mm)',
    insert: 'content into the NIC cache (cache_insert)',
    refs: `cache references (${y.descriptors[1]} × ${bdBytes} B descriptors)`,
  };
  return (
    <figure className="rp-bytes" data-testid="request-bytes">
      <figcaption>
        <b>Over the PCI bus for this request:</b>{' '}
        <span className="mono" data-testid="request-bytes-total">
          {bytesLabel(l.soFar)} of {bytesLabel(l.total)}
        </span>{' '}
        so far
        {y.appendedFromCache > 0 && (
          <>
            {' '}
            · <b>not on the bus:</b>{' '}
            <span className="mono" data-testid="request-bytes-cache">
              {bytesLabel(y.appendedFromCache - y.inserted)}
            </span>{' '}
            appended from blocks cached before
          </>
        )}
      </figcaption>
      <svg
        viewBox="0 0 600 22"
        preserveAspectRatio="none"
        className="rp-bytes-bar"
        aria-hidden="true"
      >
        <rect x={0} y={3} width={600} height={16} rx={3} className="rp-bytes-track" />
        {l.segments.map((g) => (
          <g key={g.key} data-key={g.key}>
            <rect x={g.x} y={3} width={g.w} height={16} fill={BYTES_COLORS[g.key]} opacity={0.28} />
            <rect x={g.x} y={3} width={g.wSoFar} height={16} fill={BYTES_COLORS[g.key]} />
          </g>
        ))}
      </svg>
      <ul className="rp-bytes-legend">
        {l.segments.map((g) => (
          <li key={g.key}>
            <span className="swatch" style={{ background: BYTES_COLORS[g.key] }} />
            {labels[g.key]} <span className="mono">{bytesLabel(g.total)}</span>
          </li>
        ))}
        <li className="muted">
          full width: headers + the whole content ({bytesLabel(l.scale)}), all of it over the bus
          without a cache
        </li>
      </ul>
    </figure>
  );
}

const BYTES_COLORS: Record<BytesKey, string> = {
  headers: CARGO_COLORS.headers,
  content: CARGO_COLORS.content,
  insert: CARGO_COLORS.insert,
  refs: CARGO_COLORS.descriptors,
};

function describe(path: RequestPath, t: number): string {
  const cur = currentSteps(path, t)
    .map((id) => path.steps.find((s) => s.id === id)!.title)
    .join('; ');
  return `Request ${path.request}${path.file !== null ? ` for file ${path.file}` : ''} on NIC ${path.nic + 1}: ${cur || 'not begun yet'}.`;
}

function numberAt(params: ParameterTree, p: string, fallback: number): number {
  const v = paramAt(params, p);
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

export function RequestPathView() {
  const run = useRun();
  const t = useViewCursor();
  const store = useStoreInstance();
  const [pinned, setPinned] = useState<number | null>(null);
  const ix: RequestPathIndex | null = useMemo(
    () => (run ? cachedRequestPathIndex(run.trace) : null),
    [run],
  );
  if (!run || !ix)
    return <div className="placeholder">The request path appears when the simulation has run.</div>;
  const params = run.output.parameters;
  if (paramAt(params, 'workload.web_mode') !== 'full-system' || ix.requests.length === 0)
    return (
      <div className="placeholder" data-testid="request-empty">
        No web request in the trace window: this view follows the full-system web server
        (workload.web_mode &quot;full-system&quot;).
      </div>
    );
  // A picked request holds while the cursor is within it; elsewhere the view follows the cursor
  // like every other view.
  const picked = pinned !== null ? ix.byRequest.get(pinned) : undefined;
  const held = picked && t >= picked.start && t <= picked.end ? picked : undefined;
  const path = held ?? requestAt(ix, t)!;
  const following = !held;
  const go = (dir: -1 | 1) => {
    const next = neighbour(ix, path, dir);
    if (!next) return;
    setPinned(next.request);
    store.setCursor(next.start);
  };
  const cacheKb =
    paramAt(params, 'system.server.send_api') === 'write'
      ? 0
      : numberAt(params, 'system.nic_cache.kbytes', 0);
  const busOther = activeAt(run.index.bus, t).length > transfersAt(path.bus, t).length;
  const facts: DiagramFacts = {
    cacheKb,
    busOther,
    busLabel: `PCI bus · ${numberAt(params, 'system.bus.width_bits', 64)}-bit · ${numberAt(params, 'system.bus.clock_mhz', 33)} MHz`,
  };
  const pos = ix.requests.indexOf(path);
  const crossed = crossedUpTo(path, t);
  const where =
    t < path.start ? 'starts after the cursor' : t > path.end ? 'ended before the cursor' : null;
  return (
    <div className="request-view" data-testid="request-view" data-request={path.request}>
      <div className="rp-toolbar">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => go(-1)}
          disabled={pos <= 0}
          data-testid="request-prev"
        >
          ‹ Previous request
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => go(1)}
          disabled={pos >= ix.requests.length - 1}
          data-testid="request-next"
        >
          Next request ›
        </button>
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => setPinned(null)}
          disabled={following}
          data-testid="request-follow"
        >
          Follow the cursor
        </button>
        <span className="rp-figure-name">
          {cacheKb > 0
            ? `Figure 4.2: with a ${formatKbytes(cacheKb)} NIC cache`
            : 'Figure 4.1: no NIC cache'}
        </span>
        <SweepPointPicker output={run.output} label="Run shown" />
      </div>
      <p className="rp-summary" data-testid="request-summary">
        <b>Request {path.request.toLocaleString('en-US')}</b>
        {path.file !== null && <> · file {path.file}</>}
        {path.fileBytes !== null && <> · {bytesLabel(path.fileBytes)}</>} · NIC {path.nic + 1}
        {path.packets !== null && (
          <>
            {' '}
            · {path.packets} segment{path.packets === 1 ? '' : 's'}
          </>
        )}
        <span className="muted">
          {' '}
          · {pos + 1} of {ix.requests.length} in the trace window
          {following ? ', the oldest in flight at the cursor' : ', picked'}
          {!path.asked && ', asked before the window opened'}
          {path.asked && !path.complete && ', still in flight when the window closes'}
          {where && `; ${where}`}
        </span>
      </p>
      <RequestPacketChips request={path.request} />
      <div className="rp-layout">
        <div className="rp-main">
          <RequestDiagram path={path} t={t} facts={facts} />
          <NowBox path={path} t={t} cache={cacheKb > 0} />
          <BusBytes
            path={path}
            crossed={crossed}
            bdBytes={numberAt(params, 'system.nic.send_bd_bytes', 16)}
          />
          <StepTimeline path={path} t={t} onJump={(time) => store.setCursor(time)} />
        </div>
        <StepList path={path} t={t} onJump={(time) => store.setCursor(time)} />
      </div>
    </div>
  );
}
