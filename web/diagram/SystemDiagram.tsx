import { useMemo } from 'react';
import { holdFor, useRun, useStore, useViewCursor } from '../run/store';
import {
  CPU_TASKS,
  cpuTimeline,
  countSince,
  diagramStateAt,
  type Badge,
  type BadgePlace,
  type BusToken,
  type CpuTimeline,
} from './diagramState';
import { ringsAt, type RingCopyState } from '../rings';
import { narrate } from './narrate';
import { tokenX } from '../kit/geometry';
import { countUpTo } from '../trace/trace';
import {
  C,
  GROUP_LABELS,
  K,
  P,
  PURPOSE_GROUP,
  purposeName,
  type PurposeGroup,
} from '../trace/traceKinds';
import { countKindUpTo } from '../trace/traceIndex';
import type { NicState } from './diagramState';
import { describeTenure, signalsAt } from '../bus';
import { nicName } from './narrate';
import { useBusPhaseIndex } from '../bus';
import { useInspectableProps } from '../inspector';
import { paramAt } from '../engine/types';
import {
  ALERT,
  ALERT_INK,
  CPU_TASK_COLORS,
  DISK_COLOR,
  FRAME_COLORS,
  FRAME_PROGRESS,
  GROUP_COLORS,
  NAVY,
  NEUTRAL,
  RING_COLORS,
  SLATE,
  inkOn,
  nicColor,
  textInk,
  purposeColor,
} from '../kit/palette';
import { formatTime, timeUnitFor } from '../kit/format';
import { RingBar } from '../rings';
import { HighlightLayer, type PartShape } from './DiagramHighlight';
import { partsText } from '../tour';

// Layout (viewBox units). Boxes are wide enough for their names in bold (e2e/stage.spec.ts checks).
const W = 1100;
const H = 430;
const CPU = { x: 20, y: 40, w: 200, h: 96 };
const CPU_STRIP = { x: CPU.x + 10, y: CPU.y + 56, w: CPU.w - 20, h: 12 };
const MEM = { x: 20, y: 158, w: 200, h: 250 };
const BRIDGE = { x: 248, y: 208, w: 100, h: 56 };
const BUS = { x0: 348, x1: 540, y: 236 };
const NIC = { x: 540, y: 30, w: 318, h: 378 };
const MBOX = { x: 556, y: 64, w: 142, h: 36 };
const DMAR = { x: 556, y: 112, w: 142, h: 52 };
const DMAW = { x: 556, y: 176, w: 142, h: 52 };
const TXB = { x: 712, y: 64, w: 130, h: 92 };
const MAC = { x: 712, y: 170, w: 130, h: 72 };
const RXB = { x: 712, y: 256, w: 130, h: 92 };
const WIRE = { x0: 842, x1: 950, tx: 194, rx: 220 };
const PEER = { x: 950, y: 140, w: 130, h: 132 };
const MEM_ROWS = { send: 200, receive: 242, ret: 284, idx: 326, bufs: 366 };
const NIC_ROWS = [262, 304, 346];
const TOKEN_W = 50;
const FRAME_W = 64;
// The second NIC (compact: DMA engines, buffers, MAC; its rings' host copies sit in memory).
const H2 = 622;
const NIC2 = { x: 540, y: 434, w: 318, h: 172 };
const DMAR2 = { x: 556, y: 466, w: 142, h: 44 };
const DMAW2 = { x: 556, y: 518, w: 142, h: 44 };
const TXB2 = { x: 712, y: 458, w: 130, h: 44 };
const MAC2 = { x: 712, y: 508, w: 130, h: 40 };
const RXB2 = { x: 712, y: 554, w: 130, h: 44 };
const WIRE2 = { x0: 842, x1: 950, tx: 514, rx: 540 };
const PEER2 = { x: 950, y: 462, w: 130, h: 124 };
const STUB = { x: 516, w: 12, y0: BUS.y + 11, y1: DMAW2.y + 22 };
const MEM2_ROWS = [438, 474, 510];
const DISK = { x: 350, y: 330, w: 150, h: 64 };

const SHORT: Record<PurposeGroup, string> = {
  descriptor: 'BD',
  dataFetch: 'data',
  dataWrite: 'data',
  returnBd: 'ret BD',
  index: 'index',
  mailbox: 'mbox',
  disk: 'disk',
};

const BADGE_AT2: Partial<Record<BadgePlace, { x: number; y: number }>> = {
  sendRing: { x: MEM.x + MEM.w / 2, y: MEM2_ROWS[0]! + 10 },
  recvRing: { x: MEM.x + MEM.w / 2, y: MEM2_ROWS[1]! + 10 },
  returnRing: { x: MEM.x + MEM.w / 2, y: MEM2_ROWS[2]! + 10 },
  txBuffer: { x: TXB2.x + TXB2.w / 2, y: TXB2.y + 4 },
  rxBuffer: { x: RXB2.x + RXB2.w / 2, y: RXB2.y + RXB2.h - 4 },
  dmaRead: { x: DMAR2.x + DMAR2.w / 2, y: DMAR2.y + 4 },
  dmaWrite: { x: DMAW2.x + DMAW2.w / 2, y: DMAW2.y + DMAW2.h - 4 },
};

const BADGE_AT: Record<BadgePlace, { x: number; y: number }> = {
  driver: { x: CPU.x + CPU.w / 2, y: CPU.y + CPU.h + 4 },
  sendRing: { x: MEM.x + MEM.w / 2, y: MEM_ROWS.send + 10 },
  recvRing: { x: MEM.x + MEM.w / 2, y: MEM_ROWS.receive + 10 },
  returnRing: { x: MEM.x + MEM.w / 2, y: MEM_ROWS.ret + 10 },
  bus: { x: (BUS.x0 + BUS.x1) / 2, y: BUS.y - 48 },
  txBuffer: { x: TXB.x + TXB.w / 2, y: TXB.y + 4 },
  rxBuffer: { x: RXB.x + RXB.w / 2, y: RXB.y + RXB.h - 4 },
  dmaRead: { x: DMAR.x + DMAR.w / 2, y: DMAR.y + 4 },
  dmaWrite: { x: DMAW.x + DMAW.w / 2, y: DMAW.y + DMAW.h - 4 },
};

// The highlight of a memory row the bus is touching right now.
function TouchRect({ y, h, purpose }: { y: number; h: number; purpose: number | undefined }) {
  if (purpose === undefined) return null;
  return (
    <rect
      x={MEM.x + 6}
      y={y - 14}
      width={MEM.w - 12}
      height={h}
      rx={5}
      className="touch"
      style={{ stroke: purposeColor(purpose) }}
    />
  );
}

// One ring's host copy in main memory: its name, occupancy and slots.
function MemoryRingRow({
  label,
  y,
  state,
  color,
  touched,
  testId,
}: {
  label: string;
  y: number;
  state: RingCopyState;
  color: string;
  touched?: number;
  testId?: string;
}) {
  return (
    <g className={touched !== undefined ? 'touched' : ''} data-testid={testId}>
      <TouchRect y={y} h={38} purpose={touched} />
      <text x={MEM.x + 14} y={y - 2} className="row-label">
        {label}
      </text>
      <text x={MEM.x + MEM.w - 14} y={y - 2} className="row-value" textAnchor="end">
        {state.known ? `${state.occupied}/${state.size}` : ''}
      </text>
      <RingBar state={state} x={MEM.x + 14} y={y + 4} w={MEM.w - 28} h={11} color={color} />
    </g>
  );
}

function Box({
  b,
  title,
  sub,
  busy,
  accent,
  className = '',
  testId,
}: {
  b: { x: number; y: number; w: number; h: number };
  title: string;
  sub?: string;
  busy?: boolean;
  accent?: string;
  className?: string;
  testId?: string;
}) {
  return (
    <g
      className={`unit ${busy ? 'busy' : ''} ${className}`}
      data-testid={testId}
      data-busy={busy ? 'true' : 'false'}
    >
      <rect
        x={b.x}
        y={b.y}
        width={b.w}
        height={b.h}
        rx={7}
        style={
          busy && accent
            ? { stroke: accent, fill: `color-mix(in srgb, ${accent} 12%, var(--panel))` }
            : undefined
        }
      />
      <text x={b.x + 10} y={b.y + 17} className="unit-title">
        {title}
      </text>
      {sub && (
        <text x={b.x + 10} y={b.y + 32} className="unit-sub">
          {sub}
        </text>
      )}
    </g>
  );
}

function BadgePill({ badge }: { badge: Badge }) {
  const at = (badge.nic > 0 ? BADGE_AT2[badge.place] : undefined) ?? BADGE_AT[badge.place];
  const w = Math.max(56, badge.label.length * 6.4 + 18);
  return (
    <g
      className={`badge badge-${badge.tone}`}
      transform={`translate(${at.x - w / 2}, ${at.y - 10})`}
      data-testid="badge"
    >
      <rect width={w} height={20} rx={10} />
      <text x={w / 2} y={14} textAnchor="middle">
        {badge.label}
      </text>
    </g>
  );
}

function PacketBlocks({ n, x, y, color }: { n: number; x: number; y: number; color: string }) {
  const shown = Math.min(n, 6);
  return (
    <g>
      {Array.from({ length: shown }, (_, i) => (
        <rect
          key={i}
          x={x + (i % 3) * 30}
          y={y + Math.floor(i / 3) * 16}
          width={26}
          height={12}
          rx={2}
          fill={color}
          className="pkt"
        />
      ))}
      {n > 6 && (
        <text x={x + 94} y={y + 26} className="unit-sub">
          +{n - 6}
        </text>
      )}
    </g>
  );
}

function BusTokenView({ tok, lane, nics }: { tok: BusToken; lane: number; nics: number }) {
  const disk = tok.masterKind === C.Disk;
  const color = disk ? DISK_COLOR : purposeColor(tok.purpose);
  const group = PURPOSE_GROUP[tok.purpose] ?? 'descriptor';
  const x = tokenX(BUS.x0 + 4, BUS.x1 - 4, TOKEN_W, tok.progress, tok.towardsNic);
  const y = BUS.y - 9 + lane * 22;
  // With two NICs, a token says whose it is: "2·data ›", outlined in that NIC's colour.
  const who = nics > 1 && !disk && tok.masterKind !== C.HostBridge ? `${tok.nic + 1}·` : '';
  const inspectable = useInspectableProps()(tok.packet, purposeName(tok.purpose));
  return (
    <g
      className={`token ${tok.packet > 0 ? 'inspectable' : ''}`}
      transform={`translate(${x.toFixed(2)}, ${y})`}
      data-testid="bus-token"
      data-nic={tok.nic}
      data-x={x.toFixed(2)}
      {...inspectable}
    >
      <rect
        width={TOKEN_W}
        height={18}
        rx={9}
        fill={color}
        style={who ? { stroke: nicColor(tok.nic), strokeWidth: 2.5 } : undefined}
      />
      <text
        x={TOKEN_W / 2}
        y={12.5}
        textAnchor="middle"
        className="token-text"
        style={{ fill: inkOn(color) }}
      >
        {tok.towardsNic ? '' : '‹ '}
        {who}
        {disk ? 'disk' : SHORT[group]}
        {tok.towardsNic ? ' ›' : ''}
      </text>
    </g>
  );
}

/** The second NIC, compact: DMA engines, transmit/receive buffers and MAC, its wire and peer. */
function SecondNic({
  st,
  sent,
  received,
  dropped,
  since,
}: {
  st: NicState;
  sent: number;
  received: number;
  dropped: number;
  /** countSince's words: the counts start at the trace window. */
  since: string;
}) {
  const color = nicColor(1);
  return (
    <g data-testid="unit-nic-2">
      <rect
        x={STUB.x}
        y={STUB.y0}
        width={STUB.w}
        height={STUB.y1 - STUB.y0}
        rx={3}
        className={`bus-rail stub ${st.dmaRead + st.dmaWrite > 0 ? 'busy' : ''}`}
      />
      <g className={`unit nic ${st.busy ? 'busy' : ''}`}>
        <rect
          x={NIC2.x}
          y={NIC2.y}
          width={NIC2.w}
          height={NIC2.h}
          rx={9}
          style={{ stroke: color }}
        />
        <text x={NIC2.x + 12} y={NIC2.y + 20} className="unit-title big" fill={textInk(color)}>
          NIC 2
        </text>
        {st.mailbox && (
          <text
            x={NIC2.x + 70}
            y={NIC2.y + 19}
            className="unit-note"
            fill={textInk(GROUP_COLORS.mailbox)}
          >
            mailbox write
          </text>
        )}
        {st.interrupt && (
          <text x={NIC2.x + 170} y={NIC2.y + 19} className="unit-note" fill={ALERT_INK}>
            interrupt
          </text>
        )}
      </g>
      <path d={`M${STUB.x + STUB.w} ${DMAR2.y + 22} H${DMAR2.x}`} className="link" />
      <path d={`M${STUB.x + STUB.w} ${DMAW2.y + 22} H${DMAW2.x}`} className="link" />
      <Box
        b={DMAR2}
        title="DMA read"
        sub={st.dmaRead ? `${st.dmaRead} request${st.dmaRead > 1 ? 's' : ''}` : 'idle'}
        busy={st.dmaRead > 0}
        accent={GROUP_COLORS.descriptor}
        testId="unit-dma-read-2"
      />
      <Box
        b={DMAW2}
        title="DMA write"
        sub={st.dmaWrite ? `${st.dmaWrite} request${st.dmaWrite > 1 ? 's' : ''}` : 'idle'}
        busy={st.dmaWrite > 0}
        accent={GROUP_COLORS.dataWrite}
        testId="unit-dma-write-2"
      />
      <Box
        b={TXB2}
        title="Transmit buffer"
        sub={`${st.txBuffer} packet${st.txBuffer === 1 ? '' : 's'}`}
        busy={st.txBuffer > 0}
        accent={FRAME_COLORS.tx}
      />
      <Box
        b={MAC2}
        title="MAC"
        sub={st.macTx ? 'transmitting ›' : st.macRx ? '‹ receiving' : 'idle'}
        busy={st.macTx || st.macRx}
        accent={NAVY}
      />
      <Box
        b={RXB2}
        title="Receive buffer"
        sub={`${st.rxBuffer} packet${st.rxBuffer === 1 ? '' : 's'}`}
        busy={st.rxBuffer > 0}
        accent={FRAME_COLORS.rx}
      />
      <path
        d={`M${WIRE2.x0} ${WIRE2.tx} H${WIRE2.x1}`}
        className={`wire ${st.macTx ? 'wire-on-tx' : ''}`}
        markerEnd="url(#arrow)"
      />
      <path
        d={`M${WIRE2.x1} ${WIRE2.rx} H${WIRE2.x0}`}
        className={`wire ${st.macRx ? 'wire-on-rx' : ''}`}
        markerEnd="url(#arrow)"
      />
      <text
        x={(WIRE2.x0 + WIRE2.x1) / 2}
        y={WIRE2.tx - 14}
        textAnchor="middle"
        className="unit-sub"
      >
        Ethernet 2
      </text>
      <Box
        b={PEER2}
        title="Peer 2"
        sub="traffic source / sink"
        busy={st.peer}
        accent={SLATE}
        testId="unit-peer-2"
      />
      <text x={PEER2.x + 10} y={PEER2.y + 62} className="row-label">
        received {sent}
        {since}
      </text>
      <text x={PEER2.x + 10} y={PEER2.y + 80} className="row-label">
        sent {received}
        {since}
      </text>
      {dropped > 0 && (
        <text x={PEER2.x + 10} y={PEER2.y + 98} className="row-label" fill={ALERT_INK}>
          dropped at NIC {dropped}
          {since}
        </text>
      )}
    </g>
  );
}

/** Where each part a tour can highlight is drawn (tour parts: web/tour/tour.ts). */
function partShapes(two: boolean, disk: boolean, memH: number): Record<string, PartShape[]> {
  const both = (a: PartShape, b: PartShape) => (two ? [a, b] : [a]);
  const hostRow = (y: number) => ({ x: MEM.x + 6, y: y - 14, w: MEM.w - 12, h: 36, r: 5 });
  const nicRow = (y: number) => ({ x: NIC.x + 10, y: y - 14, w: MBOX.w + 14, h: 34, r: 5 });
  const wire = (y: number, w: typeof WIRE) => ({ d: `M${w.x0} ${y} H${w.x1}` });
  return {
    host_cpu: [CPU],
    driver: [CPU],
    memory: [{ ...MEM, h: memH }],
    send_ring: [hostRow(MEM_ROWS.send), nicRow(NIC_ROWS[0]!)],
    receive_ring: [hostRow(MEM_ROWS.receive), nicRow(NIC_ROWS[1]!)],
    return_ring: [hostRow(MEM_ROWS.ret), nicRow(NIC_ROWS[2]!)],
    host_bridge: [BRIDGE],
    bus: [{ x: BUS.x0, y: BUS.y - 30, w: BUS.x1 - BUS.x0, h: 44, r: 6 }],
    disk: disk ? [DISK] : [],
    nic: both(NIC, NIC2),
    mailbox: [MBOX],
    dma_read: both(DMAR, DMAR2),
    dma_write: both(DMAW, DMAW2),
    tx_buffer: both(TXB, TXB2),
    rx_buffer: both(RXB, RXB2),
    mac_tx: both(MAC, MAC2),
    mac_rx: both(MAC, MAC2),
    wire_tx: both(wire(WIRE.tx, WIRE), wire(WIRE2.tx, WIRE2)),
    wire_rx: both(wire(WIRE.rx, WIRE), wire(WIRE2.rx, WIRE2)),
    peer: both(PEER, PEER2),
    interrupt: [{ d: `M${NIC.x + 60} ${NIC.y} V16 H${CPU.x + 100} V${CPU.y}` }],
  };
}

/** A step chip in its purpose's colour, with the ink that reads on it. */
function stepStyle(fill: string | undefined): React.CSSProperties | undefined {
  return fill ? { background: fill, color: inkOn(fill) } : undefined;
}

export function SystemDiagram() {
  const run = useRun();
  const cursor = useViewCursor();
  const speed = useStore((s) => s.playback.speed);
  const inspectable = useInspectableProps();
  const idx = run?.index;
  const state = useMemo(
    () => (idx ? diagramStateAt(idx, cursor, holdFor(speed)) : null),
    [idx, cursor, speed],
  );
  const rings = useMemo(() => (idx ? ringsAt(idx, cursor) : null), [idx, cursor]);
  const activities = useMemo(
    () => (idx && state ? narrate(idx, state, cursor, holdFor(speed)) : []),
    [idx, state, cursor, speed],
  );
  const cpuHalf = cpuStripHalf(speed);
  const cpu = useMemo(
    () => (idx ? cpuTimeline(idx, cursor, cpuHalf) : null),
    [idx, cursor, cpuHalf],
  );
  const nicsParam = Number(paramAt(run?.output.parameters, 'system.nics') ?? 1) || 1;
  const nics = Math.max(nicsParam, state?.nics.length ?? 1);
  const rings2 = useMemo(
    () => (idx && nics > 1 ? ringsAt(idx, cursor, 1) : null),
    [idx, cursor, nics],
  );
  // The bus phase at the cursor, from the cycle-accounted bus (when the run has one).
  const phases = useBusPhaseIndex(run);
  const highlight = useStore((s) => s.ui.highlight);
  const phaseNow = useMemo(() => {
    if (!phases || phases.n === 0) return null;
    const sig = signalsAt(phases, cursor);
    if (!sig.known || sig.phaseIndex < 0) return null;
    const words = describeTenure(phases, sig.tenure, cursor, run?.output.parameters);
    const cur = words?.phases.find((w) => w.current);
    if (!words || !cur) return null;
    return {
      short: `${cur.name}${cur.note && cur.phase === 5 ? ` (${cur.note})` : ''} · cycle ${cur.at ?? 1} of ${cur.cycles}`,
      text: `${words.title}: ${cur.name}${cur.note && cur.phase === 5 ? ` (${cur.note})` : ''}, cycle ${cur.at ?? 1} of ${cur.cycles}`,
    };
  }, [phases, cursor, run]);

  if (!run || !idx || !state || !rings || !cpu) return <DiagramPlaceholder />;

  const disk = Number(paramAt(run.output.parameters, 'system.disk.rate_mbps') ?? 0) > 0;
  const two = nics > 1 && rings2 !== null;
  const H_ = two ? H2 : H;
  const MEM_H = two ? MEM2_ROWS[2]! + 24 - MEM.y : MEM.h;
  const nic2 = state.nics[1] ?? {
    dmaRead: 0,
    dmaWrite: 0,
    txBuffer: 0,
    rxBuffer: 0,
    macTx: false,
    macRx: false,
    peer: false,
    busy: false,
    mailbox: false,
    interrupt: false,
  };

  const width = paramAt(run.output.parameters, 'system.bus.width_bits');
  const clock = paramAt(run.output.parameters, 'system.bus.clock_mhz');
  const protocol = paramAt(run.output.parameters, 'system.bus.protocol');
  const model = paramAt(run.output.parameters, 'system.bus.model');
  const busSpec = [
    width !== undefined ? `${String(width)}-bit` : null,
    clock !== undefined ? `${String(clock)} MHz` : null,
    protocol === 'pci-x' ? 'PCI-X' : protocol === 'pci' ? 'PCI' : null,
    model === 'fixed' ? 'cost model' : null,
  ]
    .filter(Boolean)
    .join(' · ');

  // Which endpoints the active bus transactions touch.
  const purposes = new Set(state.bus.map((b) => b.purpose));
  const hl = (ps: number[]) => ps.find((p) => purposes.has(p));
  const memRow = {
    send: hl([P.SendBdFetch]),
    receive: hl([P.RecvBdFetch]),
    ret: hl([P.ReturnBdWrite]),
    idx: hl([P.SendConsumerWrite, P.ReturnProducerWrite]),
    bufs: hl([P.SendDataFetch, P.RecvDataWrite]),
  };
  const active = state.bus[0];
  const cpuTask = cpu.now?.task ?? state.busy.cpuTask;

  const since = countSince(run.output.trace.start_ps);
  const sentToPeer = countKindUpTo(idx, K.PeerRxDone, cursor, 0);
  const fromPeer = countKindUpTo(idx, K.PeerTxStart, cursor, 0);
  const delivered = countKindUpTo(idx, K.HostDeliver, cursor);
  const dropped = countKindUpTo(idx, K.RxDrop, cursor, 0);
  const intrColor = state.interrupt ? ALERT : undefined;
  const now = countUpTo(idx.trace.time, cursor);

  return (
    <div className="diagram-wrap">
      <svg
        viewBox={`0 0 ${W} ${H_}`}
        className="diagram"
        role="img"
        aria-label={`System diagram: host CPU, memory, host bridge, I/O bus${disk ? ', disk controller' : ''}, ${two ? 'two NICs, each with its Ethernet wire and peer' : 'NIC, Ethernet wire and peer'}${highlight.length ? `; highlighted: ${partsText(highlight)}` : ''}`}
        data-nics={two ? 2 : 1}
        data-testid="system-diagram"
        data-events={now}
        data-highlight={highlight.join(' ')}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="8"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto-start-reverse"
          >
            <path d="M0 0 L10 5 L0 10 z" className="arrow-head" />
          </marker>
        </defs>

        {/* Interrupt line NIC → CPU */}
        <g
          className={`intr ${state.interrupt ? 'on' : ''}`}
          data-testid="interrupt-line"
          data-on={state.interrupt ? 'true' : 'false'}
        >
          <path
            d={`M${NIC.x + 60} ${NIC.y} V16 H${CPU.x + 100} V${CPU.y}`}
            markerEnd="url(#arrow)"
            style={intrColor ? { stroke: intrColor } : undefined}
          />
          <text x={(NIC.x + CPU.x + 160) / 2} y={11} textAnchor="middle" className="link-label">
            {state.interrupt
              ? `interrupt${two ? ` from ${nicName(state.interrupt.nic, nics)}` : ''}: ${state.interrupt.causes & 2 ? 'receive' : ''}${state.interrupt.causes === 3 ? ' + ' : ''}${state.interrupt.causes & 1 ? 'send' : ''}`
              : 'interrupt line'}
          </text>
        </g>

        {/* Host side */}
        <Box
          b={CPU}
          title="Host CPU"
          busy={state.busy.cpu}
          accent={cpuTask !== null ? CPU_TASK_COLORS[cpuTask] : NAVY}
          testId="unit-cpu"
        />
        <CpuStrip timeline={cpu} cursor={cursor} half={cpuHalf} />
        {state.mailbox && (
          <text
            x={CPU.x + CPU.w + 8}
            y={CPU.y + 36}
            className="unit-note"
            fill={textInk(GROUP_COLORS.mailbox)}
          >
            mailbox write (PIO)
          </text>
        )}
        <g
          className="unit"
          data-testid="unit-memory"
          data-busy={state.busy.memory ? 'true' : 'false'}
        >
          <rect x={MEM.x} y={MEM.y} width={MEM.w} height={MEM_H} rx={7} />
          <text x={MEM.x + 10} y={MEM.y + 17} className="unit-title">
            Main memory
          </text>
        </g>
        {(
          [
            [
              two ? 'NIC 1 send ring' : 'send ring',
              MEM_ROWS.send,
              rings[0]!.host,
              RING_COLORS[0],
              memRow.send,
            ],
            [
              two ? 'NIC 1 receive ring' : 'receive ring',
              MEM_ROWS.receive,
              rings[1]!.host,
              RING_COLORS[1],
              memRow.receive,
            ],
            [
              two ? 'NIC 1 return ring' : 'return ring',
              MEM_ROWS.ret,
              rings[2]!.host,
              RING_COLORS[2],
              memRow.ret,
            ],
          ] as const
        ).map(([label, y, st, color, touched]) => (
          <MemoryRingRow
            key={label}
            label={label}
            y={y}
            state={st}
            color={color}
            touched={touched}
          />
        ))}
        <g className={memRow.idx !== undefined ? 'touched' : ''}>
          <TouchRect y={MEM_ROWS.idx} h={26} purpose={memRow.idx} />
          <text x={MEM.x + 14} y={MEM_ROWS.idx + 2} className="row-label">
            index words (status block)
          </text>
        </g>
        <g className={memRow.bufs !== undefined ? 'touched' : ''}>
          <TouchRect y={MEM_ROWS.bufs} h={34} purpose={memRow.bufs} />
          <text x={MEM.x + 14} y={MEM_ROWS.bufs + 2} className="row-label">
            packet buffers
          </text>
          <text x={MEM.x + 14} y={MEM_ROWS.bufs + 15} className="unit-sub">
            delivered {delivered}
            {since}
          </text>
        </g>
        {two &&
          rings2!.map((r, i) => (
            <MemoryRingRow
              key={`nic2-${r.name}`}
              testId={`memory-ring-nic2-${r.name}`}
              label={`NIC 2 ${r.name} ring`}
              y={MEM2_ROWS[i]!}
              state={r.host}
              color={RING_COLORS[i]!}
            />
          ))}

        {/* Bridge and links */}
        <path
          d={`M${CPU.x + CPU.w} ${CPU.y + 42} H${BRIDGE.x + BRIDGE.w / 2} V${BRIDGE.y}`}
          className={`link ${state.mailbox ? 'link-on' : ''}`}
        />
        <path
          d={`M${MEM.x + MEM.w} ${BUS.y} H${BRIDGE.x}`}
          className={`link ${state.busy.memory ? 'link-on' : ''}`}
        />
        <Box
          b={BRIDGE}
          title="Host bridge"
          busy={state.busy.bridge}
          accent={SLATE}
          testId="unit-bridge"
        />

        {/* I/O bus */}
        <g
          className={`bus ${state.busy.bus ? 'busy' : ''}`}
          data-testid="unit-bus"
          data-busy={state.busy.bus ? 'true' : 'false'}
        >
          <rect
            x={BUS.x0}
            y={BUS.y - 11}
            width={BUS.x1 - BUS.x0}
            height={22}
            rx={4}
            className="bus-rail"
          />
          <text x={(BUS.x0 + BUS.x1) / 2} y={BUS.y - 18} textAnchor="middle" className="unit-title">
            I/O bus
          </text>
          <text x={(BUS.x0 + BUS.x1) / 2} y={BUS.y + 28} textAnchor="middle" className="unit-sub">
            {busSpec}
          </text>
        </g>
        {disk && (
          <g data-testid="unit-disk">
            <path d={`M${DISK.x + DISK.w / 2} ${BUS.y + 11} V${DISK.y}`} className="link" />
            <Box
              b={DISK}
              title="Disk controller"
              sub={
                state.bus.some((b) => b.masterKind === C.Disk)
                  ? 'DMA write to memory'
                  : `${String(paramAt(run.output.parameters, 'system.disk.rate_mbps'))} Mb/s background`
              }
              busy={state.bus.some((b) => b.masterKind === C.Disk)}
              accent={DISK_COLOR}
            />
          </g>
        )}
        {two && (
          <SecondNic
            st={nic2}
            sent={countKindUpTo(idx, K.PeerRxDone, cursor, 1)}
            received={countKindUpTo(idx, K.PeerTxStart, cursor, 1)}
            dropped={countKindUpTo(idx, K.RxDrop, cursor, 1)}
            since={since}
          />
        )}
        {state.bus.map((tok, i) => (
          <BusTokenView key={tok.key} tok={tok} lane={i} nics={two ? 2 : 1} />
        ))}
        {active && (
          <text
            x={(BRIDGE.x + BUS.x1) / 2}
            y={BUS.y + 46}
            textAnchor="middle"
            className="bus-caption"
            // The purpose's colour darkened to 4.5:1 on white (the mailbox's yellow is not).
            fill={textInk(active.masterKind === C.Disk ? DISK_COLOR : purposeColor(active.purpose))}
          >
            {two && active.masterKind !== C.Disk && active.masterKind !== C.HostBridge
              ? `${nicName(active.nic, nics)} · `
              : ''}
            {purposeName(active.purpose)} · {active.bytes} B
          </text>
        )}
        {phaseNow && (
          <text
            x={(BRIDGE.x + BUS.x1) / 2}
            y={BUS.y + 62}
            textAnchor="middle"
            className="bus-phase-caption"
            data-testid="bus-phase-caption"
          >
            {phaseNow.short}
          </text>
        )}

        {/* NIC */}
        <g className={`unit nic ${state.busy.nic ? 'busy' : ''}`} data-testid="unit-nic">
          <rect x={NIC.x} y={NIC.y} width={NIC.w} height={NIC.h} rx={9} />
          <text
            x={NIC.x + 12}
            y={NIC.y + 20}
            className="unit-title big"
            fill={two ? nicColor(0) : undefined}
          >
            {two ? 'NIC 1' : 'NIC'}
          </text>
        </g>
        <Box
          b={MBOX}
          title="Mailbox registers"
          busy={purposes.has(P.MailboxPio)}
          accent={GROUP_COLORS.mailbox}
          testId="unit-mailbox"
        />
        <Box
          b={DMAR}
          title="DMA read"
          sub={
            state.dmaDepth.read
              ? `${state.dmaDepth.read} request${state.dmaDepth.read > 1 ? 's' : ''}`
              : 'idle'
          }
          busy={state.busy.dmaRead}
          accent={GROUP_COLORS.descriptor}
          testId="unit-dma-read"
        />
        <Box
          b={DMAW}
          title="DMA write"
          sub={
            state.dmaDepth.write
              ? `${state.dmaDepth.write} request${state.dmaDepth.write > 1 ? 's' : ''}`
              : 'idle'
          }
          busy={state.busy.dmaWrite}
          accent={GROUP_COLORS.dataWrite}
          testId="unit-dma-write"
        />
        <path d={`M${BUS.x1} ${BUS.y} H${NIC.x + 8} V${DMAR.y + 26} H${DMAR.x}`} className="link" />
        <path d={`M${NIC.x + 8} ${BUS.y} V${DMAW.y + 26} H${DMAW.x}`} className="link" />
        <path
          d={`M${DMAR.x + DMAR.w} ${DMAR.y + 26} H${TXB.x}`}
          className="link"
          markerEnd="url(#arrow)"
        />
        <path
          d={`M${RXB.x} ${RXB.y + 40} H${DMAW.x + DMAW.w + 8} V${DMAW.y + 30} H${DMAW.x + DMAW.w}`}
          className="link"
          markerEnd="url(#arrow)"
        />
        <text x={NIC.x + 16} y={NIC_ROWS[0]! - 22} className="unit-sub">
          NIC ring copies
        </text>
        {rings.map((r, i) => (
          <g key={r.name}>
            <text x={NIC.x + 16} y={NIC_ROWS[i]! - 2} className="row-label">
              {r.name}
            </text>
            <text x={MBOX.x + MBOX.w} y={NIC_ROWS[i]! - 2} className="row-value" textAnchor="end">
              {r.nic.known ? `${r.nic.occupied}/${r.nic.size}` : ''}
            </text>
            <RingBar
              state={r.nic}
              x={NIC.x + 16}
              y={NIC_ROWS[i]! + 4}
              w={MBOX.w}
              h={11}
              color={RING_COLORS[i]!}
            />
          </g>
        ))}
        <Box
          b={TXB}
          title="Transmit buffer"
          sub={`${state.txBuffer} packet${state.txBuffer === 1 ? '' : 's'}`}
          busy={state.txBuffer > 0}
          accent={FRAME_COLORS.tx}
          testId="unit-tx-buffer"
        />
        <PacketBlocks n={state.txBuffer} x={TXB.x + 12} y={TXB.y + 44} color={FRAME_COLORS.tx} />
        <Box
          b={MAC}
          title="MAC"
          sub={state.busy.macTx || state.busy.macRx ? undefined : 'idle'}
          busy={state.busy.macTx || state.busy.macRx}
          accent={NAVY}
          testId="unit-mac"
        />
        {state.busy.macTx && (
          <text x={MAC.x + 10} y={MAC.y + 34} className="unit-note" fill={textInk(FRAME_COLORS.tx)}>
            transmitting ›
          </text>
        )}
        {state.busy.macRx && (
          <text x={MAC.x + 10} y={MAC.y + 50} className="unit-note" fill={textInk(FRAME_COLORS.rx)}>
            ‹ receiving
          </text>
        )}
        <path
          d={`M${TXB.x + TXB.w / 2} ${TXB.y + TXB.h} V${MAC.y}`}
          className="link"
          markerEnd="url(#arrow)"
        />
        <path
          d={`M${MAC.x + MAC.w / 2} ${MAC.y + MAC.h} V${RXB.y}`}
          className="link"
          markerEnd="url(#arrow)"
        />
        <Box
          b={RXB}
          title="Receive buffer"
          sub={`${state.rxBuffer} packet${state.rxBuffer === 1 ? '' : 's'}`}
          busy={state.rxBuffer > 0}
          accent={FRAME_COLORS.rx}
          testId="unit-rx-buffer"
        />
        <PacketBlocks n={state.rxBuffer} x={RXB.x + 12} y={RXB.y + 44} color={FRAME_COLORS.rx} />
        {state.drops.length > 0 && (
          <g
            className="drop-mark"
            transform={`translate(${RXB.x + RXB.w - 20}, ${RXB.y + 18})`}
            data-testid="drop-marker"
          >
            <circle r={10} fill={ALERT} />
            <path
              d="M-4 -4 L4 4 M4 -4 L-4 4"
              stroke="white"
              strokeWidth={2.2}
              strokeLinecap="round"
            />
          </g>
        )}

        {/* Wire */}
        <text
          x={(WIRE.x0 + WIRE.x1) / 2}
          y={WIRE.tx - 18}
          textAnchor="middle"
          className="unit-title"
        >
          Ethernet
        </text>
        <path
          d={`M${WIRE.x0} ${WIRE.tx} H${WIRE.x1}`}
          className={`wire ${state.busy.macTx ? 'wire-on-tx' : ''}`}
          markerEnd="url(#arrow)"
        />
        <path
          d={`M${WIRE.x1} ${WIRE.rx} H${WIRE.x0}`}
          className={`wire ${state.busy.macRx ? 'wire-on-rx' : ''}`}
          markerEnd="url(#arrow)"
        />
        {state.frames.map((f) => {
          const wire = f.nic > 0 && two ? WIRE2 : WIRE;
          const lane = f.dir === 'tx' ? wire.tx : wire.rx;
          const x = tokenX(wire.x0 + 2, wire.x1 - 2, FRAME_W, f.progress, f.dir === 'tx');
          const color = f.dropped && f.progress > 0.85 ? ALERT : FRAME_COLORS[f.dir];
          return (
            <g
              key={f.key}
              className={`token frame ${f.packet > 0 ? 'inspectable' : ''}`}
              transform={`translate(${x.toFixed(2)}, ${lane - 8})`}
              data-testid={`frame-${f.dir}`}
              data-nic={f.nic}
              data-x={x.toFixed(2)}
              {...inspectable(
                f.packet,
                `${f.dir === 'tx' ? 'frame to the peer' : 'frame from the peer'}`,
              )}
            >
              <rect width={FRAME_W} height={16} rx={3} fill={color} />
              <rect width={FRAME_W * f.progress} height={3} y={13} fill={FRAME_PROGRESS} />
              <text
                x={FRAME_W / 2}
                y={11.5}
                textAnchor="middle"
                className="token-text"
                style={{ fill: inkOn(color) }}
              >
                {f.bytes} B
              </text>
            </g>
          );
        })}
        <text x={(WIRE.x0 + WIRE.x1) / 2} y={WIRE.rx + 24} textAnchor="middle" className="unit-sub">
          full duplex
        </text>

        {/* Peer */}
        <Box
          b={PEER}
          title={two ? 'Peer 1' : 'Peer'}
          sub="traffic source / sink"
          busy={state.busy.peer}
          accent={SLATE}
          testId="unit-peer"
        />
        <text x={PEER.x + 10} y={PEER.y + 62} className="row-label">
          received {sentToPeer}
          {since}
        </text>
        <text x={PEER.x + 10} y={PEER.y + 80} className="row-label">
          sent {fromPeer}
          {since}
        </text>
        {dropped > 0 && (
          <text x={PEER.x + 10} y={PEER.y + 98} className="row-label" fill={ALERT_INK}>
            dropped at NIC {dropped}
            {since}
          </text>
        )}

        {state.badges.map((b) => (
          <BadgePill key={b.key} badge={b} />
        ))}
        <HighlightLayer
          parts={highlight}
          shapes={partShapes(two, disk, MEM_H)}
          width={W}
          height={H_}
        />
      </svg>
      <div className="now" aria-live="off" data-testid="now-list">
        <span className="now-label">Now</span>
        {activities.length === 0 && !phaseNow ? (
          <span className="now-empty">nothing in flight: press play or step to the next event</span>
        ) : (
          <ul>
            {phaseNow && (
              <li key="bus-phase" data-testid="now-bus-phase">
                <span className="now-step now-bus">bus</span>
                {phaseNow.text}
              </li>
            )}
            {activities.slice(0, phaseNow ? 4 : 5).map((a) => (
              <li key={a.key}>
                <span
                  className={`now-step now-${a.kind}`}
                  style={stepStyle(
                    a.purpose >= 0
                      ? purposeColor(a.purpose)
                      : a.kind === 'tx'
                        ? FRAME_COLORS.tx
                        : a.kind === 'rx'
                          ? FRAME_COLORS.rx
                          : undefined,
                  )}
                >
                  {a.step}
                </span>
                {a.text}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Legend disk={disk} nics={two ? 2 : 1} />
    </div>
  );
}

export function Legend({ disk = false, nics = 1 }: { disk?: boolean; nics?: number }) {
  return (
    <ul className="legend" aria-label="Legend">
      {(Object.keys(GROUP_LABELS) as PurposeGroup[])
        .filter((g) => g !== 'disk' || disk)
        .map((g) => (
          <li key={g}>
            <span className="chip" style={{ background: GROUP_COLORS[g] }} />
            {GROUP_LABELS[g]}
          </li>
        ))}
      {nics > 1 &&
        [0, 1].map((n) => (
          <li key={`nic${n}`}>
            <span className="chip chip-outline" style={{ borderColor: nicColor(n) }} /> NIC {n + 1}
            ’s transfer
          </li>
        ))}
      <li>
        <span className="chip chip-frame" style={{ background: FRAME_COLORS.tx }} /> frame to peer
      </li>
      <li>
        <span className="chip chip-frame" style={{ background: FRAME_COLORS.rx }} /> frame from peer
      </li>
      <li>
        <span className="chip" style={{ background: CPU_TASK_COLORS[0] }} /> CPU: sending
      </li>
      <li>
        <span className="chip" style={{ background: CPU_TASK_COLORS[1] }} /> CPU: interrupt handler
      </li>
      <li>
        <span className="chip chip-busy" /> busy
      </li>
      <li>
        <span className="chip chip-badge" /> ring full · bus busy · buffer full
      </li>
      <li>
        <span className="chip" style={{ background: ALERT }} /> drop · interrupt
      </li>
    </ul>
  );
}

/** Half the span of the CPU strip: five seconds of playback either side of the cursor. */
function cpuStripHalf(speed: number): number {
  return 5 * speed;
}

/** The host CPU's tasks around the cursor (HostCpuBusy spans): sending vs interrupt handler. */
function CpuStrip({
  timeline,
  cursor,
  half,
}: {
  timeline: CpuTimeline;
  cursor: number;
  half: number;
}) {
  const { x, y, w, h } = CPU_STRIP;
  const now = timeline.now;
  const label = now ? (now.task === 0 ? 'sending' : (CPU_TASKS[now.task] ?? 'task')) : 'idle';
  let progress = '';
  if (now) {
    const u = timeUnitFor(Math.max(1, now.end - now.start));
    const v = (ps: number) => String(+(ps / u.scale).toFixed(2));
    progress = `${v(cursor - now.start)} / ${v(now.end - now.start)} ${u.unit}`;
  }
  return (
    <g
      className="cpu-strip"
      data-testid="cpu-strip"
      data-task={now ? now.task : 'idle'}
      data-segments={timeline.segments.length}
    >
      <text
        x={x}
        y={CPU.y + 32}
        className={now ? 'unit-note' : 'unit-sub'}
        fill={now ? textInk(CPU_TASK_COLORS[now.task] ?? NEUTRAL) : undefined}
      >
        {label}
      </text>
      {progress && (
        <text x={x} y={CPU.y + 46} className="cpu-progress">
          {progress}
        </text>
      )}
      <rect x={x} y={y} width={w} height={h} rx={3} className="cpu-track" />
      {timeline.segments.map((s) => (
        <rect
          key={s.rec}
          x={x + s.x0 * w}
          y={y + 1}
          width={Math.max(1, (s.x1 - s.x0) * w)}
          height={h - 2}
          rx={2}
          fill={CPU_TASK_COLORS[s.task] ?? NEUTRAL}
          opacity={s.current ? 1 : 0.55}
          data-testid="cpu-span"
          data-task={s.task}
        />
      ))}
      <line x1={x + w / 2} x2={x + w / 2} y1={y - 2} y2={y + h + 2} className="cpu-now-line" />
      <text x={x} y={y + h + 10} className="cpu-scale">
        −{formatTime(half, 1)}
      </text>
      <text x={x + w / 2} y={y + h + 10} textAnchor="middle" className="cpu-scale">
        now
      </text>
      <text x={x + w} y={y + h + 10} textAnchor="end" className="cpu-scale">
        +{formatTime(half, 1)}
      </text>
    </g>
  );
}

function DiagramPlaceholder() {
  return (
    <div className="placeholder" aria-busy="true">
      <div className="placeholder-shape" />
      <span>The diagram appears when the simulation has run.</span>
    </div>
  );
}
