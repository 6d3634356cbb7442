// The receive path of the run's NIC, animated at the playback cursor (the SINIC paper §2.2, §3.1-3.3,
// §6): the frame on the wire, into the NIC's FIFO, then — conventional NIC — DMA into a posted
// buffer in DRAM (off chip) or the L2 (on chip), or — SINIC — the copy engine moving it into an
// sk_buff when the driver writes RxData; TCP/IP examines the header; read() copies the payload
// into the user's buffer, from the L2 or from DRAM; with zero copy, the VNIC copies the payload
// from the FIFO straight into the user's buffer, once. One packet is followed (the one of the
// latest step at the cursor, or the one picked); its steps are listed with their times.
import { useMemo, useState } from 'react';
import { useRun, useStoreInstance, type DoneRun, useViewCursor } from '../run/store';
import {
  cachedRxPath,
  isSinic,
  neighbours,
  packetAt,
  packetNow,
  pathWords,
  rxSetup,
  stepArrow,
  stepToken,
  type RxArrow,
  type RxPacket,
  type RxPart,
  type RxPlace,
  type RxSetup,
  type RxStep,
} from './rxPath';
import { formatUs } from '../kit/format';
import { cachedVnicIndex, fifoAt, vnicSetup } from './vnics';
import { pointAlong, polylinePath, type Point } from '../kit/geometry';
import { formatNumber, formatTime } from '../kit/format';
import { formatKbytes } from '../kit/paramLabels';
import {
  ALERT,
  ALERT_INK,
  CPU_PART_COLORS,
  FRAME_COLORS,
  GROUP_COLORS,
  inkOn,
  ON_FILL,
} from '../kit/palette';
import './sinic.css';
import { PacketChip } from '../inspector';

// Layout (viewBox units).
const W = 1000;
const H = 330;
const PEER = { x: 8, y: 52, w: 100, h: 62 };
const NIC = { x: 170, y: 26, w: 244, h: 166 };
const FIFO = { x: 184, y: 52, w: 216, h: 58 };
const ENGINE = { x: 184, y: 120, w: 216, h: 30 };
const REGS = { x: 184, y: 156, w: 216, h: 28 }; // wide enough for its names in bold
const L2 = { x: 478, y: 26, w: 244, h: 166 };
const KBUF = { x: 492, y: 56, w: 216, h: 52 };
const UBUF = { x: 492, y: 126, w: 216, h: 52 };
const DRAM = { x: 478, y: 236, w: 244, h: 88 };
const DBUF = { x: 492, y: 264, w: 216, h: 50 };
const CPU = { x: 770, y: 26, w: 222, h: 166 };
const CPU_ROWS = [
  { part: 0, label: 'driver', y: 58 },
  { part: 1, label: 'TCP/IP stack', y: 90 },
  { part: 2, label: 'copy', y: 122 },
  { part: 3, label: 'user (netperf)', y: 154 },
];
const BRIDGE = { x: 412, y: 228, w: 52, h: 40 };
const BUS_Y = 216;

type Box = { x: number; y: number; w: number; h: number };
const right = (b: Box, dy = b.h / 2): Point => [b.x + b.w, b.y + dy];
const left = (b: Box, dy = b.h / 2): Point => [b.x, b.y + dy];

/** The arrows' polylines for the run's NIC (kernel buffers in DRAM off chip). */
export function arrowPaths(setup: RxSetup): Record<Exclude<RxArrow, 'none'>, Point[]> {
  const k = setup.kernelIn === 'dram' ? DBUF : KBUF;
  const eng = right(ENGINE);
  const toKernel: Point[] =
    setup.kernelIn === 'dram'
      ? [eng, [438, eng[1]], [438, DBUF.y + DBUF.h / 2], left(DBUF)]
      : [eng, [438, eng[1]], [438, KBUF.y + KBUF.h / 2], left(KBUF)];
  const reg: Point[] = [
    [CPU.x + 40, CPU.y + CPU.h],
    [CPU.x + 40, BUS_Y],
    [REGS.x + REGS.w + 14, BUS_Y],
    [REGS.x + REGS.w + 14, REGS.y + REGS.h / 2],
    right(REGS),
  ];
  return {
    wire: [right(PEER, 29), left(FIFO, 29)],
    toKernel,
    toUser: [eng, [456, eng[1]], [456, UBUF.y + UBUF.h / 2], left(UBUF)],
    header: [
      right(k, 14),
      [742, k.y + 14],
      [742, CPU_ROWS[1]!.y + 12],
      [CPU.x, CPU_ROWS[1]!.y + 12],
    ],
    desc: [right(k, 8), [736, k.y + 8], [736, CPU_ROWS[0]!.y + 12], [CPU.x, CPU_ROWS[0]!.y + 12]],
    copy: [right(k, k.h - 12), [754, k.y + k.h - 12], [754, UBUF.y + 36], right(UBUF, 36)],
    reg,
    irq: [...reg].reverse(),
  };
}

const PART_WORDS: Record<RxPart, string> = {
  frame: 'frame',
  header: 'header',
  payload: 'payload',
};
const PART_COLORS: Record<RxPart, string> = {
  frame: FRAME_COLORS.rx,
  header: GROUP_COLORS.descriptor,
  payload: GROUP_COLORS.dataFetch,
};

function Unit({
  b,
  title,
  sub,
  on,
  className = '',
  testId,
}: {
  b: Box;
  title: string;
  sub?: string;
  on?: boolean;
  className?: string;
  testId?: string;
}) {
  return (
    <g className={`unit ${on ? 'busy' : ''} ${className}`} data-testid={testId}>
      <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={7} />
      <text x={b.x + 10} y={b.y + 17} className="unit-title">
        {title}
      </text>
      {sub && (
        <text x={b.x + 10} y={b.y + 31} className="unit-sub">
          {sub}
        </text>
      )}
    </g>
  );
}

/** Chips for what a place holds of the followed packet. */
function Holds({ b, parts }: { b: Box; parts: RxPart[] }) {
  return (
    <g>
      {parts.map((p, i) => {
        const w = 58;
        const x = b.x + b.w - 8 - (parts.length - i) * (w + 4);
        return (
          <g key={p} transform={`translate(${x}, ${b.y + b.h - 22})`} data-testid={`hold-${p}`}>
            <rect width={w} height={16} rx={4} fill={PART_COLORS[p]} />
            <text
              x={w / 2}
              y={11.5}
              textAnchor="middle"
              className="token-text"
              style={{ fill: inkOn(PART_COLORS[p]) }}
            >
              {PART_WORDS[p]}
            </text>
          </g>
        );
      })}
    </g>
  );
}

function nicTitle(setup: RxSetup): string {
  switch (setup.nic) {
    case 'cnic-off-chip':
      return 'CNIC (off chip)';
    case 'cnic-on-chip':
      return 'CNIC (on chip)';
    case 'sinic':
      return 'SINIC';
    case 'v-sinic':
      return 'V-SINIC';
    default:
      return 'NIC';
  }
}

export function RxDiagram({
  setup,
  packet,
  t,
  fifoBytes,
  fifoCapacity,
}: {
  setup: RxSetup;
  packet: RxPacket | null;
  t: number;
  fifoBytes: number | null;
  fifoCapacity: number | null;
}) {
  const paths = useMemo(() => arrowPaths(setup), [setup]);
  const now = packet ? packetNow(packet, t) : null;
  const step: RxStep | null = now && now.step >= 0 ? packet!.steps[now.step]! : null;
  const sinic = isSinic(setup.nic);
  // SINIC has no descriptors: its driver's header read goes the header's way.
  const stepArrowOf = step ? stepArrow(step) : 'none';
  const arrow: RxArrow = stepArrowOf === 'desc' && sinic ? 'header' : stepArrowOf;
  const holds = (place: RxPlace) => (now?.holds ?? []).filter((h) => h.place === place);
  const offChip = setup.nic === 'cnic-off-chip';
  const kernel = setup.kernelIn === 'dram' ? DBUF : KBUF;
  const cpuPart = step && step.cpuPart !== undefined && now?.moving ? step.cpuPart : null;
  const die = offChip
    ? { x: 468, y: 12, w: 530, h: 188 }
    : { x: NIC.x - 10, y: 12, w: W - NIC.x + 8, h: 188 };
  const token = step && arrow !== 'none' && !now!.finished ? stepToken(step) : '';
  const tokenW = Math.max(48, token.length * 6.6 + 16);
  const at = step && arrow !== 'none' ? pointAlong(paths[arrow], now!.progress) : null;
  const placeOn = (p: RxPlace) => !!step && (step.from === p || step.to === p);
  const fill = fifoBytes !== null && fifoCapacity ? Math.min(1, fifoBytes / fifoCapacity) : null;
  // The kernel copy in progress reads lines from DRAM.
  const dramRead = !!step && step.kind === 'copy' && (step.missed ?? 0) > 0 && !!now?.moving;
  return (
    <svg
      className="diagram rx-diagram"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Receive path of ${nicTitle(setup)}`}
      data-testid="rx-diagram"
      data-arrow={arrow}
    >
      <defs>
        <marker
          id="rx-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="6"
          markerHeight="6"
          orient="auto-start-reverse"
        >
          <path d="M0 0 L10 5 L0 10 z" className="arrow-head" />
        </marker>
      </defs>
      <rect x={die.x} y={die.y} width={die.w} height={die.h} rx={12} className="rx-die" />
      <text x={die.x + 10} y={die.y + 11} className="rx-die-label">
        CPU die
      </text>
      <Unit b={PEER} title="Stressor" sub="netperf sender" on={arrow === 'wire'} />
      <g className={`unit nic ${placeOn('fifo') ? 'busy' : ''}`}>
        <rect x={NIC.x} y={NIC.y} width={NIC.w} height={NIC.h} rx={9} />
        <text x={NIC.x + 12} y={NIC.y + 18} className="unit-title big">
          {nicTitle(setup)}
        </text>
      </g>
      <Unit
        b={FIFO}
        title="Receive FIFO"
        sub={
          fifoBytes !== null
            ? `${formatKbytes(+(fifoBytes / 1024).toFixed(1))}${fifoCapacity ? ` of ${formatKbytes(fifoCapacity / 1024)}` : ''}`
            : undefined
        }
        on={holds('fifo').length > 0}
        testId="rx-fifo"
      />
      {fill !== null && (
        <g>
          <rect x={FIFO.x + 10} y={FIFO.y + 38} width={80} height={8} rx={2} className="rx-bar" />
          <rect
            x={FIFO.x + 10}
            y={FIFO.y + 38}
            width={Math.max(fill > 0 ? 1 : 0, 80 * fill)}
            height={8}
            rx={2}
            fill={FRAME_COLORS.rx}
            data-testid="rx-fifo-fill"
          />
        </g>
      )}
      <Holds b={FIFO} parts={holds('fifo').map((h) => h.part)} />
      <Unit
        b={ENGINE}
        title={sinic ? 'Copy engine' : 'DMA engine'}
        on={arrow === 'toKernel' || arrow === 'toUser'}
        testId="rx-engine"
      />
      <Unit
        b={REGS}
        title={sinic ? 'RxData · RxDone · RxWait' : 'Interrupt status · doorbell'}
        on={arrow === 'reg' || arrow === 'irq'}
        testId="rx-regs"
      />
      {step?.vnic !== undefined && setup.nic === 'v-sinic' && (
        <text
          x={NIC.x + NIC.w - 10}
          y={NIC.y + 18}
          textAnchor="end"
          className="row-value"
          data-testid="rx-vnic"
        >
          VNIC {step.vnic}
        </text>
      )}

      <g className="unit" data-testid="rx-l2">
        <rect x={L2.x} y={L2.y} width={L2.w} height={L2.h} rx={9} className="rx-mem" />
        <text x={L2.x + 12} y={L2.y + 18} className="unit-title big">
          L2 cache
        </text>
      </g>
      {setup.kernelIn === 'l2' && (
        <Unit
          b={KBUF}
          title="Kernel buffer (sk_buff)"
          on={holds('kernel').length > 0}
          testId="rx-kernel"
        />
      )}
      <Unit b={UBUF} title="User buffer (netperf)" on={holds('user').length > 0} testId="rx-user" />
      <Holds b={UBUF} parts={holds('user').map((h) => h.part)} />
      <g className={`unit ${dramRead ? 'busy' : ''}`} data-testid="rx-dram">
        <rect x={DRAM.x} y={DRAM.y} width={DRAM.w} height={DRAM.h} rx={9} className="rx-mem" />
        <text x={DRAM.x + 12} y={DRAM.y + 17} className="unit-title">
          DRAM
        </text>
        {setup.kernelIn === 'dram' && (
          <text x={DRAM.x + 60} y={DRAM.y + 17} className="unit-sub">
            50 ns a line
          </text>
        )}
        {/* Under the title, on two lines: on one it is wider than the box. */}
        {(setup.kernelIn === 'dram'
          ? []
          : dramRead
            ? ['lines the L2 no longer held:', '50 ns each']
            : ['untouched while the L2', 'holds the data']
        ).map((line, i) => (
          <text key={i} x={DRAM.x + 12} y={DRAM.y + 35 + i * 15} className="unit-sub">
            {line}
          </text>
        ))}
      </g>
      {setup.kernelIn === 'dram' ? (
        <Unit b={DBUF} title="Posted sk_buffs" on={holds('kernel').length > 0} testId="rx-kernel" />
      ) : null}
      <Holds b={kernel} parts={holds('kernel').map((h) => h.part)} />

      <g className="unit">
        <rect x={CPU.x} y={CPU.y} width={CPU.w} height={CPU.h} rx={9} />
        <text x={CPU.x + 12} y={CPU.y + 18} className="unit-title big">
          CPU
        </text>
      </g>
      {CPU_ROWS.map((r) => {
        const color = [
          CPU_PART_COLORS.driver,
          CPU_PART_COLORS.stack,
          CPU_PART_COLORS.copy,
          CPU_PART_COLORS.user,
        ][r.part]!;
        const on = cpuPart === r.part;
        return (
          <g key={r.label} data-testid={`rx-cpu-${r.part}`} data-on={on ? 'yes' : 'no'}>
            <rect
              x={CPU.x + 12}
              y={r.y}
              width={CPU.w - 24}
              height={24}
              rx={5}
              className="rx-cpu-row"
              style={on ? { fill: color, stroke: color } : { stroke: color }}
            />
            <text
              x={CPU.x + 22}
              y={r.y + 16}
              className="rx-cpu-label"
              style={on ? { fill: ON_FILL } : undefined}
            >
              {r.label}
            </text>
          </g>
        );
      })}

      {(Object.keys(paths) as Array<Exclude<RxArrow, 'none'>>).map((k) => {
        // Only the arrows this NIC uses.
        if (k === 'toUser' && setup.zeroCopy === 'off') return null;
        if (k === 'desc' && sinic) return null; // no descriptors
        return (
          <path
            key={k}
            d={polylinePath(paths[k])}
            className={`link rx-link ${arrow === k ? 'link-on' : ''} ${k === 'reg' || k === 'irq' ? 'rx-dashed' : ''}`}
            markerEnd={k === 'irq' ? undefined : 'url(#rx-arrow)'}
            data-testid={`rx-arrow-${k}`}
            data-on={arrow === k ? 'yes' : 'no'}
          />
        );
      })}
      {offChip && (
        <g className="rx-bridge">
          <Unit b={BRIDGE} title="I/O" sub="bridge" />
          <text x={BRIDGE.x - 6} y={BRIDGE.y + 25} textAnchor="end" className="link-label">
            PCIe-like link
          </text>
        </g>
      )}
      <text
        x={(PEER.x + PEER.w + FIFO.x) / 2}
        y={PEER.y + 22}
        textAnchor="middle"
        className="link-label"
      >
        10 Gb/s
      </text>
      {step?.kind === 'copy' && step.lines !== undefined && (
        <text
          x={UBUF.x + 4}
          y={UBUF.y + UBUF.h + 11}
          className="rx-miss-label"
          data-testid="rx-miss-label"
        >
          <tspan fill={ALERT_INK}>{step.missed} lines from DRAM</tspan>
          <tspan>, {step.lines! - step.missed!} from the L2</tspan>
        </text>
      )}
      {at && token && (
        <g
          className="token"
          transform={`translate(${(at[0] - tokenW / 2).toFixed(1)}, ${(at[1] - 9).toFixed(1)})`}
          data-testid="rx-token"
          data-progress={now!.progress.toFixed(2)}
        >
          <rect width={tokenW} height={18} rx={9} fill={tokenColor(step!)} />
          <text
            x={tokenW / 2}
            y={12.5}
            textAnchor="middle"
            className="token-text"
            style={{ fill: inkOn(tokenColor(step!)) }}
          >
            {token}
          </text>
        </g>
      )}
    </svg>
  );
}

function tokenColor(s: RxStep): string {
  switch (stepToken(s)) {
    case 'frame':
      return PART_COLORS.frame;
    case 'header':
      return PART_COLORS.header;
    case 'payload':
      return PART_COLORS.payload;
    case 'IRQ':
      return ALERT;
    default:
      return GROUP_COLORS.mailbox;
  }
}

/** The lines a kernel copy read: a cell per cache line, missed ones red. */
export function LineCells({ missed, lines }: { missed: number; lines: number }) {
  return (
    <span
      className="rx-lines"
      aria-label={`${missed} of ${lines} lines missed`}
      data-testid="rx-lines"
    >
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={i < lines - missed ? 'hit' : 'miss'} />
      ))}
    </span>
  );
}

export function StepList({
  packet,
  current,
  t,
  onSeek,
}: {
  packet: RxPacket;
  current: number;
  t: number;
  onSeek: (t: number) => void;
}) {
  const t0 = packet.steps[0]!.start;
  return (
    <ol className="rx-steps" data-testid="rx-steps">
      {packet.steps.map((s, i) => {
        const state = i === current ? 'now' : s.start > t ? 'later' : 'done';
        return (
          <li
            key={`${s.rec}-${s.kind}`}
            className={`rx-step ${state}`}
            data-testid="rx-step"
            data-kind={s.kind}
            data-state={state}
          >
            <button type="button" onClick={() => onSeek(s.start)} title="Move the cursor here">
              <span className="rx-step-time">{formatUs(s.start)}</span>
              <span className="rx-step-rel">+{formatTime(s.start - t0, 3)}</span>
              <span className={`rx-step-kind k-${s.kind}`}>
                {s.kind === 'zcsetup' ? 'read()' : s.kind}
              </span>
              <span className="rx-step-text">
                {s.text}
                {s.lines !== undefined && s.missed !== undefined && (
                  <LineCells missed={s.missed} lines={s.lines} />
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

export function RxPathView() {
  const run = useRun();
  if (!run)
    return <div className="placeholder">The receive path appears when the simulation has run.</div>;
  return <RxPathRun run={run} />;
}

/** When a packet's last step ends (a step that lasts ends at `end`). */
function lastEnd(p: RxPacket): number {
  return p.steps.reduce(
    (m, s) => Math.max(m, s.start, Number.isFinite(s.end) ? s.end : s.start),
    0,
  );
}

function RxPathRun({ run }: { run: DoneRun }) {
  const store = useStoreInstance();
  const t = useViewCursor();
  const setup = useMemo(() => rxSetup(run.output.parameters), [run]);
  const ix = useMemo(() => cachedRxPath(run.trace, setup), [run, setup]);
  const vs = useMemo(() => vnicSetup(run.output.parameters), [run]);
  const vix = useMemo(() => cachedVnicIndex(run.trace, vs.vnics), [run, vs.vnics]);
  const [pinned, setPinned] = useState<number | null>(null);
  if (!setup.nic)
    return (
      <p className="tg-message" data-testid="rx-message">
        This run is not one of the SINIC paper&apos;s NICs. Set <code>system.nic.model</code> to{' '}
        <code>cnic-off-chip</code>, <code>cnic-on-chip</code>, <code>sinic</code> or{' '}
        <code>v-sinic</code> (with <code>workload.kind</code> <code>tcp-stream</code>).
      </p>
    );
  if (ix.packets.length === 0)
    return (
      <p className="tg-message" data-testid="rx-message">
        The trace window holds no received packet. Widen <code>run.trace</code>.
      </p>
    );
  // A picked packet holds while the cursor is within its steps; elsewhere the view follows the
  // cursor like every other view.
  const picked = pinned !== null ? ix.byId.get(pinned) : undefined;
  const held = picked && t >= picked.steps[0]!.start && t <= lastEnd(picked) ? picked : undefined;
  const packet = held ?? packetAt(ix, t)!;
  const now = packetNow(packet, t);
  const { prev, next } = neighbours(ix, packet);
  const seek = (time: number) => {
    store.setPlaying(false);
    store.setCursor(time);
  };
  const go = (p: RxPacket | null) => {
    if (!p) return;
    setPinned(p.id);
    seek(p.steps[0]!.start);
  };
  const stepPrev = now.step > 0 ? packet.steps[now.step - 1]! : null;
  const stepNext = now.step + 1 < packet.steps.length ? packet.steps[now.step + 1]! : null;
  const fifo = isSinic(setup.nic) ? fifoAt(vix, t) : null;
  const first = packet.steps[0]!;
  return (
    <div
      className="rx-view"
      data-testid="rxpath-view"
      data-packet={packet.id}
      data-step={now.step}
      data-nic={setup.nic}
    >
      <p className="tg-sub">{pathWords(setup)}</p>
      <div className="fw-toolbar">
        <div className="seg" role="group" aria-label="Packets">
          <button type="button" onClick={() => go(prev)} disabled={!prev} data-testid="rx-prev">
            ◀ previous packet
          </button>
          <button type="button" onClick={() => go(next)} disabled={!next} data-testid="rx-next">
            next packet ▶
          </button>
        </div>
        <div className="seg" role="group" aria-label="Steps of this packet">
          <button
            type="button"
            onClick={() => {
              setPinned(packet.id);
              if (stepPrev) seek(stepPrev.start);
            }}
            disabled={!stepPrev}
            data-testid="rx-step-prev"
          >
            ◀ step
          </button>
          <button
            type="button"
            onClick={() => {
              setPinned(packet.id);
              if (stepNext) seek(stepNext.start);
            }}
            disabled={!stepNext}
            data-testid="rx-step-next"
          >
            step ▶
          </button>
        </div>
        <span className="fw-time" data-testid="rx-packet">
          packet {formatNumber(packet.id)} · {packet.steps.length} steps from{' '}
          {formatUs(first.start)}
        </span>
        <PacketChip packet={packet.id} label="inspect" />
        {held ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setPinned(null)}
            data-testid="rx-follow"
          >
            follow the cursor
          </button>
        ) : (
          <span className="muted small">following the packet of the latest step</span>
        )}
      </div>
      <RxDiagram setup={setup} packet={packet} t={t} fifoBytes={fifo} fifoCapacity={vs.fifoBytes} />
      <p className="rx-now" data-testid="rx-now">
        {now.pending
          ? 'The cursor is before this packet’s first step.'
          : now.finished
            ? `Done: ${packet.steps[packet.steps.length - 1]!.text}`
            : packet.steps[now.step]!.text}
      </p>
      {packet.before && (
        <p className="muted small">
          This packet arrived before the trace window opened: its first steps are not in the trace.
        </p>
      )}
      <StepList
        packet={packet}
        current={now.step}
        t={t}
        onSeek={(time) => {
          setPinned(packet.id);
          seek(time);
        }}
      />
    </div>
  );
}
