// The timeline of lanes (issue 7), in the manner of Perfetto's timeline and OMNeT++'s sequence
// chart: one lane per part of the machine that has records in the run (host CPU, driver, PCI bus,
// each Tigon CPU, DMA read and write, MAC transmit and receive, the wire, and for the web server
// and SINIC runs their own parts), slices for what takes time, instants for what does not, and
// cause-and-effect arrows between them.
//
// Every slice, instant and arrow comes from records: an arrow is drawn only where the records'
// own identifiers (packet ids, DMA ids, bus transaction ids, mailbox values, request numbers) or
// the core's documented order of emission (a handler's effects are recorded at its end, before
// its TigonHandlerEnd; a FIFO serves in order) tie a cause to its effect. Nothing here models the
// machine; an effect whose cause the records do not name gets no arrow.
import { scaleLinear } from 'd3';
import type { Trace } from '../engine/trace';
import {
  C,
  K,
  KIND_NAMES,
  MAILBOX_NAMES,
  NIC_REGISTER_NAMES,
  P,
  TIGON_EVENTS,
  TIGON_PATHS,
  componentInstance,
  componentKind,
  componentLabel,
  purposeName,
} from '../engine/traceKinds';
import type { SystemInfo } from '../engine/types';
import { formatTime, timeUnitFor } from './format';

// ---------------------------------------------------------------------------------------------
// Types

export type LaneKind =
  | 'hostCpu'
  | 'server'
  | 'disk'
  | 'driver'
  | 'bus'
  | 'nic'
  | 'cpuA'
  | 'cpuB'
  | 'copyRx'
  | 'copyTx'
  | 'dmaRead'
  | 'dmaWrite'
  | 'macTx'
  | 'macRx'
  | 'wireTx'
  | 'wireRx'
  | 'client';

export interface Lane {
  /** Stable key, e.g. "dmaRead:1" (kind and NIC instance). */
  key: string;
  kind: LaneKind;
  /** NIC instance (0 for the host's own lanes). */
  instance: number;
  label: string;
  /** The part of the machine, as the core spells components (for ui.highlight). */
  component: string;
}

/**
 * What an item shows; the view maps it to a colour: "purpose:N" (bus and DMA, by purpose id),
 * "tigon:E" (handler runs, by event id), "cpuTask:N" (host CPU: 0 send, 1 interrupt service),
 * "cpuPart:name", or one of the plain names below.
 */
export type Tone = string;

export interface TimelineItem {
  lane: number;
  /** ps. An instant has start === end. */
  start: number;
  end: number;
  /** Where the bar proper begins: a DMA or a frame waits in its queue from `start` to here. */
  busy: number;
  instant: boolean;
  label: string;
  /** Packet id, 0 when the item is about no one packet. */
  packet: number;
  tone: Tone;
  /** Index of the record that opened the item. */
  rec: number;
  /** Still running as the trace window closes. */
  open: boolean;
}

export interface TimelineArrow {
  /** Item indices: cause and effect. */
  from: number;
  to: number;
  /** ps: where the arrow leaves the cause and reaches the effect (t1 >= t0). */
  t0: number;
  t1: number;
  /** What the records say links them. */
  why: string;
}

export interface LaneIndex {
  /** Item indices in order of start. */
  items: Int32Array;
  starts: Float64Array;
  /** Running maximum of the items' ends (to find the first item reaching into a range). */
  maxEnd: Float64Array;
}

export interface TimelineModel {
  lanes: Lane[];
  items: TimelineItem[];
  byLane: LaneIndex[];
  /** Sorted by t0. */
  arrows: TimelineArrow[];
  arrowT0: Float64Array;
  arrowMaxT1: Float64Array;
  /** Arrow indices leaving / reaching each item. */
  outArrows: Map<number, number[]>;
  inArrows: Map<number, number[]>;
  /** Item indices by packet id. */
  byPacket: Map<number, number[]>;
  start: number;
  end: number;
  /** Arrows a rule proposed that would point back in time (none are kept; a test keeps it 0). */
  backwards: number;
  /** What the run is: the lanes and rules that apply. */
  flavour: { tigon: boolean; web: boolean; stream: boolean };
}

export interface TimelineSetup {
  /** "PCI bus", "PCI-X bus" or "I/O bus". */
  busLabel: string;
  tigon: boolean;
}

/** The timeline's setup from the system the core built (no bus: the SINIC's own I/O link). */
export function timelineSetup(
  system: Pick<SystemInfo, 'bus' | 'nic_model'> | undefined,
): TimelineSetup {
  const bus = system?.bus ?? null;
  return {
    busLabel:
      !bus || bus.model === 'fixed'
        ? 'I/O bus'
        : bus.protocol === 'pci-x'
          ? 'PCI-X bus'
          : 'PCI bus',
    tigon: system?.nic_model === 'tigon',
  };
}

// ---------------------------------------------------------------------------------------------
// Lanes

const HOST_ORDER: LaneKind[] = ['hostCpu', 'server', 'disk', 'driver'];
const NIC_ORDER: LaneKind[] = [
  'nic',
  'cpuA',
  'cpuB',
  'copyRx',
  'copyTx',
  'dmaRead',
  'dmaWrite',
  'macTx',
  'macRx',
  'wireTx',
  'wireRx',
  'client',
];

const LANE_COMPONENT: Record<LaneKind, string> = {
  hostCpu: 'host_cpu',
  server: 'host_cpu',
  disk: 'disk',
  driver: 'driver',
  bus: 'bus',
  nic: 'nic',
  cpuA: 'tigon_cpu',
  cpuB: 'tigon_cpu',
  copyRx: 'nic',
  copyTx: 'nic',
  dmaRead: 'dma_read',
  dmaWrite: 'dma_write',
  macTx: 'mac_tx',
  macRx: 'mac_rx',
  wireTx: 'wire_tx',
  wireRx: 'wire_rx',
  client: 'peer',
};

function laneLabel(kind: LaneKind, nics: number, setup: TimelineSetup, web: boolean): string {
  switch (kind) {
    case 'hostCpu':
      return 'host CPU';
    case 'server':
      return 'web server';
    case 'disk':
      return 'disk';
    case 'driver':
      return 'driver';
    case 'bus':
      return setup.busLabel;
    case 'nic':
      return nics > 1 ? 'NIC' : 'NIC events';
    case 'cpuA':
      return 'Tigon CPU A';
    case 'cpuB':
      return 'Tigon CPU B';
    case 'copyRx':
      return 'copy engine (receive)';
    case 'copyTx':
      return 'copy engine (transmit)';
    case 'dmaRead':
      return 'DMA read';
    case 'dmaWrite':
      return 'DMA write';
    case 'macTx':
      return 'MAC transmit';
    case 'macRx':
      return 'MAC receive';
    case 'wireTx':
      return 'wire (to peer)';
    case 'wireRx':
      return 'wire (from peer)';
    case 'client':
      return web ? 'client' : 'peer';
  }
}

function laneOrder(kind: LaneKind, instance: number): number {
  const h = HOST_ORDER.indexOf(kind);
  if (h >= 0) return h * 100 + instance;
  if (kind === 'bus') return 1000;
  return 2000 + instance * 100 + NIC_ORDER.indexOf(kind);
}

// ---------------------------------------------------------------------------------------------
// Building

const CPU_PARTS = ['driver', 'stack', 'copy', 'user'] as const;
const DROP_REASONS = ['no receive descriptor', 'receive buffer full'];
const SINIC_WHAT = [
  '',
  ' (header, payload deferred)',
  ' (payload FIFO to user buffer)',
  ' (piece)',
];

/** Which DMA purposes a Tigon handler path queues at its end (tigon_nic.cpp finish()). */
const PATH_DMAS: Record<string, number[]> = {
  SendBdFetch: [P.SendBdFetch],
  ReceiveBdFetch: [P.RecvBdFetch],
  SendData: [P.SendDataFetch],
  SendConsumerDma: [P.SendConsumerWrite],
  ReturnProducerDma: [P.ReturnProducerWrite],
  Receive: [P.RecvDataWrite, P.ReturnBdWrite],
};

/** Which DMA purposes a DMA-complete handler path handles (tigon_nic.cpp claim()). */
const PATH_DONE: Record<string, number[]> = {
  ReadDoneSendBds: [P.SendBdFetch],
  ReadDoneReceiveBds: [P.RecvBdFetch],
  ReadDoneSendData: [P.SendDataFetch],
  WriteDoneData: [P.RecvDataWrite],
  WriteDoneReturnBd: [P.ReturnBdWrite],
  WriteDoneIndex: [P.SendConsumerWrite, P.ReturnProducerWrite],
};

/** Event ids by name (the event register's bit order is the core's, in TIGON_EVENTS). */
const eventBit = (name: string): number => TIGON_EVENTS.findIndex((e) => e.name === name);
const EV = {
  SDR: eventBit('SendDataReady'),
  RC: eventBit('ReceiveComplete'),
  SBDR: eventBit('SendBdReady'),
  RBDR: eventBit('ReceiveBdReady'),
  MB: eventBit('Mailbox'),
  USC: eventBit('UpdateSendConsumer'),
  URRP: eventBit('UpdateReturnProducer'),
  DRC: eventBit('DmaReadComplete'),
  DWC: eventBit('DmaWriteComplete'),
} as const;

/** 1,514: thousands separated (toLocaleString is too slow for 200k labels). */
function formatNumber(v: number): string {
  return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function pathName(p: number): string {
  return TIGON_PATHS[p] ?? `path ${p}`;
}

interface Raise {
  item: number;
  t: number;
  /** An unconditional raise; a fallback only counts when there is none. */
  primary: boolean;
  why: string;
}

interface HandlerRun {
  item: number;
  event: number;
  path: number;
  /** Mailboxes this run claimed (Mailbox handler). */
  boxes: Set<number>;
}

/** A map of per-NIC maps (NIC instance → key → value). */
class PerNic<V> {
  private m = new Map<number, Map<number, V>>();
  of(nic: number): Map<number, V> {
    let x = this.m.get(nic);
    if (!x) this.m.set(nic, (x = new Map()));
    return x;
  }
}

function fifo<K, V>(m: Map<K, V[]>, k: K): V[] {
  let q = m.get(k);
  if (!q) m.set(k, (q = []));
  return q;
}

export function buildTimeline(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  setup: TimelineSetup,
): TimelineModel {
  const n = trace.length;
  const { time, kind, component: comp, a, b, c, d, e } = trace;
  // What kind of run this is decides which rules apply.
  let web = false;
  let stream = false;
  let tigon = setup.tigon;
  let nics = 1;
  for (let i = 0; i < n; i++) {
    const k = kind[i]!;
    if (k === K.WebAsk || k === K.WebServe || k === K.WebSegment) web = true;
    else if (k === K.CpuPart || k === K.VnicState || k === K.SinicCopy) stream = true;
    else if (k === K.TigonHandler) tigon = true;
    nics = Math.max(nics, componentInstance(comp[i]!) + 1);
  }

  const laneIx = new Map<string, number>();
  const lanes: Lane[] = [];
  const items: TimelineItem[] = [];
  const arrows: TimelineArrow[] = [];
  let backwards = 0;

  const lane = (k: LaneKind, instance = 0): number => {
    const key = `${k}:${instance}`;
    let ix = laneIx.get(key);
    if (ix === undefined) {
      ix = lanes.length;
      laneIx.set(key, ix);
      const base = laneLabel(k, nics, setup, web);
      const perNic = k !== 'hostCpu' && k !== 'server' && k !== 'disk' && k !== 'bus';
      lanes.push({
        key,
        kind: k,
        instance,
        label:
          perNic && nics > 1
            ? k === 'nic'
              ? `NIC ${instance + 1} events`
              : `NIC ${instance + 1} ${base}`
            : base,
        component: LANE_COMPONENT[k],
      });
    }
    return ix;
  };
  const add = (
    laneI: number,
    rec: number,
    start: number,
    end: number,
    label: string,
    tone: Tone,
    packet = 0,
  ): number => {
    items.push({
      lane: laneI,
      start,
      end,
      busy: start,
      instant: end === start,
      label,
      packet,
      tone,
      rec,
      open: false,
    });
    return items.length - 1;
  };
  /** A slice whose end a later record gives (NaN until then). */
  const open = (
    laneI: number,
    rec: number,
    start: number,
    label: string,
    tone: Tone,
    packet = 0,
  ) => {
    const ix = add(laneI, rec, start, NaN, label, tone, packet);
    items[ix]!.instant = false;
    return ix;
  };
  const close = (ix: number | undefined, t: number): void => {
    if (ix === undefined) return;
    const it = items[ix]!;
    if (Number.isNaN(it.end)) it.end = Math.max(t, it.start);
  };
  const instant = (laneI: number, rec: number, t: number, label: string, tone: Tone, packet = 0) =>
    add(laneI, rec, t, t, label, tone, packet);
  const link = (
    from: number | undefined,
    to: number | undefined,
    t0: number,
    t1: number,
    why: string,
  ) => {
    if (from === undefined || to === undefined || from === to) return;
    if (t1 < t0) {
      backwards++;
      return;
    }
    arrows.push({ from, to, t0, t1, why });
  };
  const startOf = (ix: number) => items[ix]!.start;
  const endOr = (ix: number, t: number) => {
    const x = items[ix]!.end;
    return Number.isNaN(x) ? t : x;
  };
  const pk = (p: number) => (p ? ` · packet ${p}` : '');

  // Host CPU and interrupts.
  const pendingRaise = new Map<number, number[]>(); // NIC → InterruptRaise items not yet serviced
  const lastIsr = new Map<number, number>(); // NIC → the last interrupt service slice
  const lastSendTask = new Map<number, number>(); // NIC → the last send task slice
  // Driver → mailbox → NIC.
  const segBatch = new Map<number, { t: number; packets: number[]; first: number }>();
  const posts = new Map<number, { item: number; packets: number[] }[]>(); // NIC → FIFO
  const mailboxPackets = new Map<number, number[]>(); // MailboxWrite item → packets announced
  const writes = new Map<string, number[]>(); // "nic:box:value" → MailboxWrite items (FIFO)
  const announced = new PerNic<number>(); // packet → the MailboxArrive that announced it
  let lastPio = -1; // the last mailbox PIO bus transaction
  let lastPioRead = -1;
  // Bus and DMA.
  const busOpen = new Map<number, number>(); // txn → item
  const busPacket = new Map<number, number>(); // item → packet (for DMA matching)
  const busBytes = new Map<number, number>(); // item → bytes asked for
  const dmaTxns = new Map<number, number[]>(); // DMA master component → its txns since its last DMA
  const dmaOpen = new Map<number, number>(); // dma id → item
  const dmaQueue = new Map<number, number[]>(); // DMA channel component → its open DMAs in order
  const dmaPurpose = new Map<number, number>(); // item → purpose
  const dmaDoneFifo = new Map<string, number[]>(); // "nic:channel" → DmaDone items (Tigon)
  const lastDmaDone = new Map<number, { item: number; purpose: number; t: number }>();
  const bdFetches = new Map<number, { packet: number; item: number; t: number }[]>();
  const dataStarted = new PerNic<boolean>();
  const dataIn = new PerNic<{ item: number; t: number }>(); // packet's latest data in the NIC
  const indexDone = new Map<string, number[]>(); // "nic:cause" → index write DMA items (fixed NIC)
  const lastTimer = new Map<number, { item: number; t: number; cause: number }>();
  // MAC and wire.
  const macTxOpen = new PerNic<number>();
  const wireTxOpen = new PerNic<number>();
  const wireRxOpen = new PerNic<number>();
  const macRxItem = new PerNic<number>();
  const macRxOpen = new PerNic<number>();
  const lastPeerRx = new Map<number, { item: number; t: number }>();
  // Tigon.
  const handlerOpen = new Map<string, HandlerRun>(); // "nic:cpu"
  const spinOpen = new Map<string, number>();
  const pendingMailbox = new Map<number, { item: number; box: number }[]>();
  const raises = new Map<string, Raise[]>(); // "nic:event"
  const effects = new Map<number, { t: number; list: number[] }>(); // NIC → effect items at t
  const effectKind = new Map<number, 'dma' | 'mac' | 'irq'>();
  // Web.
  const deliverItem = new Map<number, number>(); // packet → HostDeliver item
  const askByPacket = new Map<number, { item: number; request: number }>();
  const requestPacket = new Map<number, number>(); // request → the packet that asked for it
  const serverOpen = new Map<number, { item: number; taskEnd: number }>(); // request → slice
  const diskOpen = new Map<number, number>();
  const webSendAt = new Map<number, { item: number; t: number }>();
  const serveTask = new Map<number, number>(); // request → its serve task slice
  // SINIC.
  const copyOpen = new Map<number, number>(); // VNIC → item

  const noteEffect = (nic: number, t: number, item: number, what: 'dma' | 'mac' | 'irq') => {
    let x = effects.get(nic);
    if (!x || x.t !== t) effects.set(nic, (x = { t, list: [] }));
    x.list.push(item);
    effectKind.set(item, what);
  };
  const raise = (nic: number, event: number, r: Raise) => fifo(raises, `${nic}:${event}`).push(r);

  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    const k = kind[i]!;
    const cf = comp[i]!;
    const inst = componentInstance(cf);
    const A = a[i]!;
    const B = b[i]!;
    const Cc = c[i]!;
    const D = d[i]!;
    const E = e[i]!;
    // By name: a switch over K's properties would look each one up for every record.
    switch (KIND_NAMES[k]) {
      // ---- host CPU -----------------------------------------------------------------------
      case 'HostCpuBusy': {
        const dur = B + Cc * 4294967296;
        const nic = D;
        const on = nics > 1 ? ` (NIC ${nic + 1})` : '';
        const prev = i > 0 && time[i - 1] === t ? kind[i - 1] : -1;
        if (A === 1) {
          const ix = add(lane('hostCpu'), i, t, t + dur, `interrupt service${on}`, 'cpuTask:1');
          for (const r of pendingRaise.get(nic) ?? [])
            link(r, ix, startOf(r), t, 'the interrupt runs the driver’s interrupt service routine');
          pendingRaise.set(nic, []);
          lastIsr.set(nic, ix);
        } else if (prev === K.WebServe) {
          const request = a[i - 1]!;
          const ix = add(
            lane('hostCpu'),
            i,
            t,
            t + dur,
            `serve request ${request}: look up the file, build the HTTP header`,
            'cpuTask:serve',
          );
          serveTask.set(request, ix);
          const s = serverOpen.get(request);
          if (s) {
            s.taskEnd = t + dur;
            link(s.item, ix, t, t, 'the server process runs on the host CPU');
          }
        } else {
          const ix = add(
            lane('hostCpu'),
            i,
            t,
            t + dur,
            web
              ? `TCP output: segments to the driver${on}`
              : `send: the driver builds a descriptor${on}`,
            'cpuTask:0',
          );
          lastSendTask.set(nic, ix);
        }
        break;
      }
      case 'CpuPart': {
        const part = CPU_PARTS[A] ?? `part ${A}`;
        add(lane('hostCpu'), i, t, t + B * 1000, `${part}${pk(Cc)}`, `cpuPart:${part}`, Cc);
        break;
      }
      case 'IsrStart':
        if (componentKind(cf) === C.Driver) {
          // SINIC and CNIC runs: the interrupt handler as one step of the driver.
          const ix = instant(lane('driver', inst), i, t, `interrupt handler ${A} starts`, 'alert');
          for (const r of pendingRaise.get(inst) ?? [])
            link(r, ix, startOf(r), t, 'the interrupt runs the driver’s handler');
          pendingRaise.set(inst, []);
        }
        break;

      // ---- web server -----------------------------------------------------------------------
      case 'WebAsk': {
        const ix = instant(
          lane('client', inst),
          i,
          t,
          `asks for request ${A} (connection ${D})`,
          'web',
          B,
        );
        askByPacket.set(B, { item: ix, request: A });
        requestPacket.set(A, B);
        break;
      }
      case 'WebServe': {
        const ix = open(
          lane('server'),
          i,
          t,
          `request ${A}: file ${B}, ${formatNumber(Cc)} B, file cache ${E ? 'hit' : 'miss'}`,
          'web',
        );
        serverOpen.set(A, { item: ix, taskEnd: t });
        const p = requestPacket.get(A);
        const del = p !== undefined ? deliverItem.get(p) : undefined;
        if (del !== undefined)
          link(del, ix, startOf(del), t, `the request arrived in packet ${p}; the server takes it`);
        break;
      }
      case 'DiskRead': {
        if (D === 0) {
          const ix = open(
            lane('disk'),
            i,
            t,
            `read file ${B} for request ${A}: ${formatNumber(Cc)} B`,
            'disk',
          );
          diskOpen.set(A, ix);
          const s = serverOpen.get(A);
          if (s)
            link(
              s.item,
              ix,
              Math.min(t, s.taskEnd),
              t,
              'a file-cache miss: the server waits for the disk',
            );
        } else {
          close(diskOpen.get(A), t);
        }
        break;
      }
      case 'WebSend': {
        const s = serverOpen.get(A);
        if (s) {
          const it = items[s.item]!;
          close(s.item, t);
          it.label += ` → TCP: ${plural(Cc, 'segment')}${D ? ' (write, a copy)' : ' (sendfile)'}`;
          const dk = diskOpen.get(A);
          if (dk !== undefined && !Number.isNaN(items[dk]!.end))
            link(dk, s.item, items[dk]!.end, t, 'the file is in memory: the response goes to TCP');
          serverOpen.delete(A);
          webSendAt.set(A, { item: s.item, t });
        }
        break;
      }
      case 'WebSegment': {
        const ix = instant(
          lane('driver', inst),
          i,
          t,
          `packet ${A}: a segment of request ${B} (${formatNumber(D)} B headers + ${formatNumber(E)} B content)`,
          'driver',
          A,
        );
        let batch = segBatch.get(inst);
        if (!batch || batch.t !== t) segBatch.set(inst, (batch = { t, packets: [], first: ix }));
        batch.packets.push(A);
        const ws = webSendAt.get(B);
        if (ws) {
          link(ws.item, ix, ws.t, t, `TCP cuts request ${B}’s response into segments`);
          webSendAt.delete(B);
        }
        break;
      }
      case 'WebResponseDone': {
        const ix = instant(
          lane('client', inst),
          i,
          t,
          `has the whole response to request ${A} (${formatNumber(Cc)} B)`,
          'web',
        );
        const last = lastPeerRx.get(inst);
        if (last && last.t === t) link(last.item, ix, t, t, 'its last segment arrived');
        break;
      }

      // ---- driver ---------------------------------------------------------------------------
      case 'DriverPostSendBd': {
        const batch = segBatch.get(inst);
        const webStyle = batch !== undefined && batch.t === t;
        const ix = webStyle
          ? instant(
              lane('driver', inst),
              i,
              t,
              `S1: posts ${Cc} send descriptors from slot ${B}`,
              'driver',
            )
          : instant(
              lane('driver', inst),
              i,
              t,
              `S1: send descriptor for packet ${A} in slot ${B} (${formatNumber(Cc)} B frame)`,
              'driver',
              A,
            );
        fifo(posts, inst).push({ item: ix, packets: webStyle ? batch.packets : [A] });
        const task = lastSendTask.get(inst);
        if (task !== undefined && items[task]!.end === t)
          link(
            task,
            webStyle ? batch.first : ix,
            t,
            t,
            'the send task ends by posting the descriptors',
          );
        if (webStyle) {
          link(batch.first, ix, t, t, 'the segments’ descriptors go into the send ring');
          segBatch.delete(inst);
        }
        break;
      }
      case 'MailboxWrite': {
        const ix = instant(
          lane('driver', inst),
          i,
          t,
          `S2: mailbox write, ${MAILBOX_NAMES[A] ?? A} = ${B}`,
          'mailbox',
        );
        if (A === 0) {
          const q = posts.get(inst);
          const post = q?.[0];
          if (post && startOf(post.item) <= t) {
            q!.shift();
            mailboxPackets.set(ix, post.packets);
            link(
              post.item,
              ix,
              startOf(post.item),
              t,
              'the driver tells the NIC of the new descriptors',
            );
          }
        }
        const isr = lastIsr.get(inst);
        if (isr !== undefined && items[isr]!.end === t)
          link(isr, ix, t, t, 'the interrupt service routine ends with these mailbox writes');
        fifo(writes, `${inst}:${A}:${B}`).push(ix);
        break;
      }
      case 'RegisterRead': {
        const ix = instant(
          lane('driver', inst),
          i,
          t,
          `reads the NIC’s send consumer index: ${B}`,
          'driver',
        );
        if (lastPioRead >= 0 && items[lastPioRead]!.end === t)
          link(lastPioRead, ix, t, t, 'the read’s bus transaction returns the value');
        break;
      }
      case 'HostDeliver': {
        const ix = instant(
          lane('driver', inst),
          i,
          t,
          `hands packet ${A} to the protocol stack (${formatNumber(B)} B)`,
          'driver',
          A,
        );
        const isr = lastIsr.get(inst);
        if (isr !== undefined && items[isr]!.end === t)
          link(isr, ix, t, t, 'the interrupt service routine finds the return descriptor');
        deliverItem.set(A, ix);
        break;
      }
      case 'SendComplete': {
        const ix = instant(
          lane('driver', inst),
          i,
          t,
          `recycles packet ${A}’s send descriptor`,
          'driver',
          A,
        );
        const isr = lastIsr.get(inst);
        if (isr !== undefined && items[isr]!.end === t)
          link(isr, ix, t, t, 'the interrupt service routine finds the descriptor consumed');
        break;
      }
      case 'RingFull':
        instant(
          lane(componentKind(cf) === C.Driver ? 'driver' : 'nic', inst),
          i,
          t,
          `${['send', 'receive', 'return'][A] ?? 'a'} ring full`,
          'alert',
        );
        break;
      case 'DriverStall':
        instant(lane('driver', inst), i, t, 'waits for send ring space', 'alert');
        break;
      case 'DriverResume':
        instant(lane('driver', inst), i, t, 'resumes: ring space again', 'driver');
        break;
      case 'NicRegister': {
        const name = NIC_REGISTER_NAMES[A] ?? `register ${A}`;
        const v = B === 0xffff ? '' : ` (VNIC ${B})`;
        if ((A === 2 || A === 5) && E > 0) {
          // RxWait / TxWait: the access lasts until the NIC satisfies it; recorded as it returns.
          add(
            lane('driver', inst),
            i,
            t - E * 1000,
            t,
            `${name}${v}: waits ${formatTime(E * 1000)}`,
            'register',
          );
        } else {
          instant(lane('driver', inst), i, t, `${name}${v}`, 'register');
        }
        break;
      }

      // ---- bus --------------------------------------------------------------------------------
      case 'BusTxnStart': {
        const master = componentLabel(B);
        const ix = open(
          lane('bus'),
          i,
          t,
          `${purposeName(D)} · ${master} · ${formatNumber(Cc)} B${pk(E)}`,
          `purpose:${D}`,
          E,
        );
        busOpen.set(A, ix);
        busPacket.set(ix, E);
        busBytes.set(ix, Cc);
        const mk = componentKind(B);
        if (mk === C.DmaRead || mk === C.DmaWrite) {
          fifo(dmaTxns, B).push(ix);
          // The channel serves its DMAs in order: this burst is its oldest open DMA's.
          const head = dmaQueue.get(B)?.[0];
          if (head !== undefined && Number.isNaN(items[head]!.busy) && items[head]!.packet === E)
            items[head]!.busy = t;
        }
        break;
      }
      case 'BusTxnEnd': {
        const ix = busOpen.get(A);
        if (ix === undefined) break;
        busOpen.delete(A);
        close(ix, t);
        const it = items[ix]!;
        if (Cc === 0 && D !== P.MailboxPio) it.label += ' · Retry (no data)';
        else if (busBytes.get(ix) !== Cc) it.label += ` · ${formatNumber(Cc)} B moved`;
        if (D === P.MailboxPio) lastPio = ix;
        if (D === P.RegisterRead) lastPioRead = ix;
        break;
      }

      // ---- NIC ------------------------------------------------------------------------------
      case 'MailboxArrive': {
        const ix = instant(
          lane('nic', inst),
          i,
          t,
          `mailbox ${MAILBOX_NAMES[A] ?? A} = ${B} reaches the NIC`,
          'mailbox',
        );
        const w = fifo(writes, `${inst}:${A}:${B}`).shift();
        if (w !== undefined) {
          if (lastPio >= 0 && items[lastPio]!.end === t) {
            link(w, lastPio, startOf(w), startOf(lastPio), 'the write crosses the bus (PIO)');
            link(lastPio, ix, t, t, 'the PIO write reaches the NIC’s mailbox');
          } else {
            link(w, ix, startOf(w), t, 'the PIO write reaches the NIC’s mailbox');
          }
          for (const p of mailboxPackets.get(w) ?? []) announced.of(inst).set(p, ix);
        }
        if (tigon) fifo(pendingMailbox, inst).push({ item: ix, box: A });
        break;
      }
      case 'InterruptRaise': {
        const cause = ['', 'send', 'receive', 'send and receive'][A & 3] ?? '';
        const ix = instant(
          lane('nic', inst),
          i,
          t,
          `S6/R4: interrupt (${cause}${B ? ', coalescing timer' : ''})`,
          'alert',
        );
        fifo(pendingRaise, inst).push(ix);
        if (tigon) noteEffect(inst, t, ix, 'irq');
        else if (!stream) {
          for (const [bit, name] of [
            [1, 'send'],
            [2, 'receive'],
          ] as const) {
            if (!(A & bit)) continue;
            const src = fifo(indexDone, `${inst}:${name}`).shift();
            if (src !== undefined)
              link(src, ix, items[src]!.end, t, 'the index is in host memory: the NIC interrupts');
          }
        }
        break;
      }
      case 'CoalesceTimer': {
        const ix = instant(
          lane('nic', inst),
          i,
          t,
          `coalescing timer expires (${['', 'send', 'receive', 'both'][A & 3]})`,
          'warn',
        );
        lastTimer.set(inst, { item: ix, t, cause: A });
        if (tigon) {
          if (A & 1)
            raise(inst, EV.USC, {
              item: ix,
              t,
              primary: true,
              why: 'the timer raises Update Send Consumer',
            });
          if (A & 2)
            raise(inst, EV.URRP, {
              item: ix,
              t,
              primary: true,
              why: 'the timer raises Update Receive Return Producer',
            });
        }
        break;
      }
      case 'TxBufferFull':
        instant(
          lane('nic', inst),
          i,
          t,
          `transmit buffer full: packet ${A}’s data waits`,
          'warn',
          A,
        );
        break;
      case 'RxDrop':
        instant(lane('nic', inst), i, t, `drops packet ${A}: ${DROP_REASONS[B] ?? B}`, 'alert', A);
        break;
      case 'NicCacheAppend': {
        const ix = instant(
          lane('nic', inst),
          i,
          t,
          `appends ${formatNumber(B)} B of cached content to packet ${A}`,
          'purpose:1',
          A,
        );
        if (!tigon) firstData(inst, A, ix, t);
        dataIn.of(inst).set(A, { item: ix, t });
        break;
      }

      // ---- DMA --------------------------------------------------------------------------------
      case 'DmaQueued': {
        const ck = componentKind(cf);
        const ix = open(
          lane(ck === C.DmaWrite ? 'dmaWrite' : 'dmaRead', inst),
          i,
          t,
          `${purposeName(B)} · ${formatNumber(Cc)} B${pk(D)}`,
          `purpose:${B}`,
          D,
        );
        items[ix]!.busy = NaN;
        dmaOpen.set(A, ix);
        fifo(dmaQueue, cf).push(ix);
        dmaPurpose.set(ix, B);
        if (tigon) {
          noteEffect(inst, t, ix, 'dma');
        } else if (!stream) {
          if (B === P.SendBdFetch) {
            const arr = announced.of(inst).get(D);
            if (arr !== undefined)
              link(
                arr,
                ix,
                startOf(arr),
                t,
                `the mailbox announced packet ${D}’s descriptor: the NIC fetches it`,
              );
          } else if (B === P.SendDataFetch) {
            firstData(inst, D, ix, t);
          } else if (B === P.RecvDataWrite || B === P.ReturnBdWrite) {
            const rx = macRxItem.of(inst).get(D);
            if (rx !== undefined)
              link(
                rx,
                ix,
                startOf(rx),
                t,
                B === P.RecvDataWrite
                  ? 'R2: the frame goes to a host buffer'
                  : 'R3: its return descriptor follows',
              );
          } else if (B === P.SendConsumerWrite || B === P.ReturnProducerWrite) {
            const want = B === P.SendConsumerWrite ? P.SendDataFetch : P.ReturnBdWrite;
            const last = lastDmaDone.get(inst);
            const timer = lastTimer.get(inst);
            const bit = B === P.SendConsumerWrite ? 1 : 2;
            if (last && last.t === t && (last.purpose === want || last.purpose === B))
              link(
                last.item,
                ix,
                t,
                t,
                last.purpose === B
                  ? 'another index write follows the one just done'
                  : B === P.SendConsumerWrite
                    ? 'S6: the descriptor is consumed; the NIC reports its consumer index'
                    : 'R4: the return descriptor is written; the NIC reports its producer index',
              );
            else if (timer && timer.t === t && timer.cause & bit)
              link(timer.item, ix, t, t, 'the coalescing timer sends the index');
          }
        }
        break;
      }
      case 'DmaDone': {
        const ix = dmaOpen.get(A);
        const ch = componentKind(cf) === C.DmaWrite ? 'write' : 'read';
        const txns = dmaTxns.get(cf) ?? [];
        dmaTxns.set(cf, []);
        if (ix === undefined) {
          // Queued before the window opened: the firmware still hears of it, in order.
          if (tigon) fifo(dmaDoneFifo, `${inst}:${ch}`).push(-1);
          break;
        }
        dmaOpen.delete(A);
        const q = dmaQueue.get(cf) ?? [];
        const at = q.indexOf(ix);
        if (at >= 0) q.splice(at, 1);
        close(ix, t);
        const it = items[ix]!;
        // The engine serves one DMA at a time, in order: this DMA's bursts are the channel's bus
        // transactions since its previous DMA was done.
        const mine = txns.filter((x) => busPacket.get(x) === D);
        if (mine.length) {
          const first = mine[0]!;
          const last = mine[mine.length - 1]!;
          it.busy = Math.max(it.start, startOf(first));
          link(ix, first, it.start, startOf(first), 'the DMA engine takes the bus');
          link(
            last,
            ix,
            endOr(last, t),
            t,
            mine.length > 1
              ? `its last of ${mine.length} bursts ends: the DMA is done`
              : 'the transfer ends: the DMA is done',
          );
        } else {
          it.busy = it.start;
        }
        lastDmaDone.set(inst, { item: ix, purpose: B, t });
        if (tigon) fifo(dmaDoneFifo, `${inst}:${ch}`).push(ix);
        if (B === P.SendBdFetch) fifo(bdFetches, inst).push({ packet: D, item: ix, t });
        if (B === P.SendDataFetch) dataIn.of(inst).set(D, { item: ix, t });
        if (B === P.SendConsumerWrite) fifo(indexDone, `${inst}:send`).push(ix);
        if (B === P.ReturnProducerWrite) fifo(indexDone, `${inst}:receive`).push(ix);
        break;
      }

      // ---- MAC and wire -----------------------------------------------------------------------
      case 'MacTxQueued': {
        const ix = open(lane('macTx', inst), i, t, `frame of packet ${A}`, 'frameTx', A);
        items[ix]!.busy = NaN;
        macTxOpen.of(inst).set(A, ix);
        noteEffect(inst, t, ix, 'mac');
        break;
      }
      case 'MacTxStart': {
        let ix = macTxOpen.of(inst).get(A);
        if (ix === undefined) {
          ix = open(lane('macTx', inst), i, t, `frame of packet ${A}`, 'frameTx', A);
          macTxOpen.of(inst).set(A, ix);
        }
        const it = items[ix]!;
        it.busy = t;
        it.label = `S5: sends packet ${A}’s frame, ${formatNumber(B)} B`;
        const w = open(
          lane('wireTx', inst),
          i,
          t,
          `packet ${A}’s frame to the peer, ${formatNumber(B)} B`,
          'frameTx',
          A,
        );
        wireTxOpen.of(inst).set(A, w);
        link(ix, w, t, t, 'the MAC puts the frame on the wire');
        const din = dataIn.of(inst).get(A);
        if (din)
          link(din.item, ix, din.t, t, 'its data is in the transmit buffer: the MAC may send it');
        break;
      }
      case 'MacTxEnd': {
        const ix = macTxOpen.of(inst).get(A);
        close(ix, t);
        macTxOpen.of(inst).delete(A);
        break;
      }
      case 'PeerRxDone': {
        const w = wireTxOpen.of(inst).get(A);
        let ix = w;
        if (w !== undefined) {
          close(w, t);
          wireTxOpen.of(inst).delete(A);
          items[w]!.label += ' · the peer has it';
        } else {
          ix = instant(
            lane('wireTx', inst),
            i,
            t,
            `the peer receives packet ${A} (${formatNumber(B)} B)`,
            'frameTx',
            A,
          );
        }
        lastPeerRx.set(inst, { item: ix!, t });
        break;
      }
      case 'PeerTxStart': {
        const ix = open(
          lane('wireRx', inst),
          i,
          t,
          `packet ${A}’s frame from the peer, ${formatNumber(B)} B`,
          'frameRx',
          A,
        );
        wireRxOpen.of(inst).set(A, ix);
        const ask = askByPacket.get(A);
        if (ask)
          link(
            ask.item,
            ix,
            startOf(ask.item),
            t,
            `the request ${ask.request} goes out on the wire`,
          );
        break;
      }
      case 'MacRxDone': {
        const w = wireRxOpen.of(inst).get(A);
        close(w, t);
        wireRxOpen.of(inst).delete(A);
        let ix: number;
        if (tigon) {
          ix = open(
            lane('macRx', inst),
            i,
            t,
            `R1: packet ${A}’s frame waits in the MAC receive queue`,
            'frameRx',
            A,
          );
          macRxOpen.of(inst).set(A, ix);
        } else {
          ix = instant(
            lane('macRx', inst),
            i,
            t,
            `R1: packet ${A}’s frame is in the NIC (${formatNumber(B)} B)`,
            'frameRx',
            A,
          );
        }
        macRxItem.of(inst).set(A, ix);
        if (w !== undefined) link(w, ix, t, t, 'the frame is in');
        break;
      }
      case 'MacRxTaken': {
        const ix = macRxOpen.of(inst).get(A);
        close(ix, t);
        macRxOpen.of(inst).delete(A);
        break;
      }

      // ---- Tigon ------------------------------------------------------------------------------
      case 'TigonHandler': {
        const cpu = B === 1 ? 1 : 0;
        const ev = TIGON_EVENTS[A];
        const ix = open(
          lane(cpu ? 'cpuB' : 'cpuA', inst),
          i,
          t,
          `${ev?.short ?? A}: ${ev?.label ?? 'event'} · ${pathName(Cc)}${pk(E)}`,
          `tigon:${A}`,
          E,
        );
        const run: HandlerRun = { item: ix, event: A, path: Cc, boxes: new Set() };
        handlerOpen.set(`${inst}:${cpu}`, run);
        close(spinOpen.get(`${inst}:${cpu}`), t);
        spinOpen.delete(`${inst}:${cpu}`);
        if (A === EV.MB) {
          for (const m of pendingMailbox.get(inst) ?? []) {
            run.boxes.add(m.box);
            link(
              m.item,
              ix,
              startOf(m.item),
              t,
              'the Mailbox event: the firmware reads the mailbox',
            );
          }
          pendingMailbox.set(inst, []);
        } else if (A === EV.DRC || A === EV.DWC) {
          // The firmware hears of DMAs in the order they completed (one queue per channel); a
          // DMA done before the window opened is not in ours, so the head must match the path.
          const q = fifo(dmaDoneFifo, `${inst}:${A === EV.DRC ? 'read' : 'write'}`);
          const head = q[0];
          const want = PATH_DONE[pathName(Cc)] ?? [];
          if (head === -1) q.shift();
          else if (
            head !== undefined &&
            want.includes(dmaPurpose.get(head) ?? -1) &&
            items[head]!.packet === E
          ) {
            q.shift();
            link(head, ix, endOr(head, t), t, `the DMA is done: ${ev?.label ?? 'DMA complete'}`);
          }
        } else if (A === EV.RC) {
          const rx = macRxItem.of(inst).get(E);
          if (rx !== undefined)
            link(rx, ix, endOr(rx, t), t, 'a frame waits: Receive Complete takes it');
        } else {
          // A flag event: the latest raise since this event's previous run claimed the flag.
          const list = raises.get(`${inst}:${A}`) ?? [];
          const primary = list.filter((r) => r.primary);
          const pick = (primary.length ? primary : list).at(-1);
          if (pick) link(pick.item, ix, pick.t, t, pick.why);
          raises.set(`${inst}:${A}`, []);
        }
        break;
      }
      case 'TigonHandlerEnd': {
        const cpu = B === 1 ? 1 : 0;
        const run = handlerOpen.get(`${inst}:${cpu}`);
        if (!run) break;
        handlerOpen.delete(`${inst}:${cpu}`);
        close(run.item, t);
        const path = TIGON_PATHS[run.path] ?? '';
        // Its effects were recorded at this instant, before this record.
        const fx = effects.get(inst);
        const now = fx && fx.t === t ? fx.list : [];
        const take = (what: 'dma' | 'mac' | 'irq', ok: (ix: number) => boolean, why: string) => {
          const at = now.findIndex((x) => effectKind.get(x) === what && ok(x));
          if (at < 0) return;
          const x = now.splice(at, 1)[0]!;
          link(run.item, x, t, t, why);
        };
        for (const purpose of PATH_DMAS[path] ?? [])
          take(
            'dma',
            (x) => dmaPurpose.get(x) === purpose,
            `${path} queues a ${purposeName(purpose)}`,
          );
        if (path === 'SendData')
          take(
            'mac',
            (x) => items[x]!.packet === items[run.item]!.packet,
            'Send Data Ready queues the frame for the MAC',
          );
        if (path === 'WriteDoneIndex' || path === 'SendConsumerLocal')
          take('irq', () => true, `${path}: the firmware interrupts the host`);
        // The events its end raises (finish()).
        const r = (ev: number, primary: boolean, why: string) =>
          raise(inst, ev, { item: run.item, t, primary, why });
        if (path === 'MailboxRead') {
          if (run.boxes.has(0))
            r(EV.SBDR, true, 'a send producer index: Send Buffer Descriptor Ready');
          if (run.boxes.has(1))
            r(EV.RBDR, true, 'a receive producer index: Receive Buffer Descriptor Ready');
        } else if (path === 'ReadDoneSendBds') {
          r(EV.SDR, true, 'the descriptors are in NIC memory: Send Data Ready');
        } else if (path === 'SendData') {
          r(EV.SDR, false, 'more descriptors wait: Send Data Ready again');
        } else if (path === 'ReadDoneSendData') {
          r(EV.USC, true, 'a descriptor consumed: Update Send Consumer');
        } else if (path === 'Receive') {
          r(EV.URRP, true, 'a return descriptor: Update Receive Return Producer');
        }
        break;
      }
      case 'TigonSemaphore': {
        const cpu = A === 1 ? 1 : 0;
        if (B === 0)
          spinOpen.set(
            `${inst}:${cpu}`,
            open(
              lane(cpu ? 'cpuB' : 'cpuA', inst),
              i,
              t,
              `spins on the semaphore (for ${TIGON_EVENTS[Cc]?.label ?? 'an event'})`,
              'spin',
            ),
          );
        else if (B === 1) {
          close(spinOpen.get(`${inst}:${cpu}`), t);
          spinOpen.delete(`${inst}:${cpu}`);
        }
        break;
      }

      // ---- SINIC ------------------------------------------------------------------------------
      case 'VnicState': {
        if (B === 2) {
          copyOpen.set(
            A,
            open(
              lane('copyRx', inst),
              i,
              t,
              `copies ${formatNumber(D)} B of packet ${Cc} (VNIC ${A})`,
              'frameRx',
              Cc,
            ),
          );
        } else if (B === 3 || B === 4) {
          close(copyOpen.get(A), t);
          copyOpen.delete(A);
        }
        break;
      }
      case 'SinicCopy':
        if (A === 1)
          instant(
            lane('copyTx', inst),
            i,
            t,
            `copies ${formatNumber(D)} B of packet ${Cc} into the transmit FIFO${SINIC_WHAT[E] ?? ''}`,
            'frameTx',
            Cc,
          );
        break;
      default:
        break;
    }
  }

  /** The fixed NIC's data step for q: caused by the descriptor fetch that brought q's descriptor. */
  function firstData(nic: number, q: number, ix: number, t: number): void {
    if (!q || dataStarted.of(nic).get(q)) return;
    dataStarted.of(nic).set(q, true);
    const list = bdFetches.get(nic) ?? [];
    // Packets are posted in ring order and fetched in ring order: the latest fetch that starts at
    // or before q holds q's (first) descriptor.
    for (let j = list.length - 1; j >= 0; j--) {
      const f = list[j]!;
      if (f.packet && f.packet <= q) {
        link(
          f.item,
          ix,
          f.t,
          t,
          `S4: packet ${q}’s descriptor is in NIC memory: the NIC fetches its data`,
        );
        return;
      }
    }
  }

  // Slices still running as the window closes end at its edge.
  const lastT = Math.max(windowEnd, n ? time[n - 1]! : windowEnd);
  for (const it of items) {
    if (Number.isNaN(it.end)) {
      it.end = Math.max(it.start, lastT);
      it.open = true;
    }
    // Still waiting as the window closes (a frame behind 30 others): all of it is the wait.
    if (Number.isNaN(it.busy)) it.busy = it.open ? it.end : it.start;
    if (it.busy > it.end) it.busy = it.end;
  }

  // SINIC and CNIC hosts: one CPU takes each packet through its steps in turn, so a packet's
  // consecutive items on different lanes are cause and effect.
  const byPacket = new Map<number, number[]>();
  items.forEach((it, ix) => {
    if (it.packet) fifo(byPacket, it.packet).push(ix);
  });
  if (stream) {
    for (const list of byPacket.values()) {
      list.sort((x, y) => items[x]!.start - items[y]!.start || x - y);
      for (let j = 1; j < list.length; j++) {
        const p = items[list[j - 1]!]!;
        const q = items[list[j]!]!;
        if (p.lane === q.lane || q.start < p.end) continue;
        link(list[j - 1]!, list[j]!, p.end, q.start, 'the packet’s next step');
      }
    }
  }

  return finishModel(lanes, items, arrows, windowStart, windowEnd, backwards, byPacket, {
    tigon,
    web,
    stream,
  });
}

function plural(nv: number, word: string): string {
  return `${formatNumber(nv)} ${word}${nv === 1 ? '' : 's'}`;
}

function finishModel(
  lanesIn: Lane[],
  items: TimelineItem[],
  arrowsIn: TimelineArrow[],
  start: number,
  end: number,
  backwards: number,
  byPacket: Map<number, number[]>,
  flavour: TimelineModel['flavour'],
): TimelineModel {
  // Lanes in the machine's order: host, bus, then each NIC from its CPUs to the wire.
  const order = lanesIn
    .map((l, i) => ({ l, i }))
    .sort((x, y) => laneOrder(x.l.kind, x.l.instance) - laneOrder(y.l.kind, y.l.instance));
  const remap = new Int32Array(lanesIn.length);
  order.forEach((o, j) => (remap[o.i] = j));
  const lanes = order.map((o) => o.l);
  for (const it of items) it.lane = remap[it.lane]!;

  const perLane: number[][] = lanes.map(() => []);
  items.forEach((it, ix) => perLane[it.lane]!.push(ix));
  const byLane: LaneIndex[] = perLane.map((list) => {
    list.sort((x, y) => items[x]!.start - items[y]!.start || x - y);
    const idx = Int32Array.from(list);
    const starts = new Float64Array(list.length);
    const maxEnd = new Float64Array(list.length);
    let m = -Infinity;
    list.forEach((ix, j) => {
      const it = items[ix]!;
      starts[j] = it.start;
      m = Math.max(m, it.end);
      maxEnd[j] = m;
    });
    return { items: idx, starts, maxEnd };
  });

  // Two rules may tie the same pair (the SINIC host's packet order and the frame's arrival).
  const seen = new Set<string>();
  const arrows = arrowsIn
    .filter((ar) => {
      const key = `${ar.from}>${ar.to}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((x, y) => x.t0 - y.t0 || x.t1 - y.t1);
  const arrowT0 = Float64Array.from(arrows, (ar) => ar.t0);
  const arrowMaxT1 = new Float64Array(arrows.length);
  const outArrows = new Map<number, number[]>();
  const inArrows = new Map<number, number[]>();
  let m = -Infinity;
  arrows.forEach((ar, j) => {
    m = Math.max(m, ar.t1);
    arrowMaxT1[j] = m;
    fifo(outArrows, ar.from).push(j);
    fifo(inArrows, ar.to).push(j);
  });
  return {
    lanes,
    items,
    byLane,
    arrows,
    arrowT0,
    arrowMaxT1,
    outArrows,
    inArrows,
    byPacket,
    start,
    end,
    backwards,
    flavour,
  };
}

const cache = new WeakMap<Trace, { key: string; model: TimelineModel }>();

/** buildTimeline, once per trace and window (views mount and unmount). */
export function cachedTimeline(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  setup: TimelineSetup,
): TimelineModel {
  const key = `${windowStart}:${windowEnd}:${setup.busLabel}:${setup.tigon}`;
  const hit = cache.get(trace);
  if (hit && hit.key === key) return hit.model;
  const model = buildTimeline(trace, windowStart, windowEnd, setup);
  cache.set(trace, { key, model });
  return model;
}

// ---------------------------------------------------------------------------------------------
// A packet's journey: the arrows that lead to and from its items

export interface Journey {
  items: Set<number>;
  arrows: Set<number>;
  /** First and last time on the journey. */
  start: number;
  end: number;
}

/** Steps through items about no one packet that a journey may take before it gives up. */
const JOURNEY_HOPS = 6;

/**
 * The items of packet p and the arrows that reach them from, or lead from them to, items about
 * no one packet (a mailbox write, an index write, an interrupt), a few steps at most; an item of
 * another packet ends the walk, and the host's interrupt service passes on only to p's own items.
 */
export function packetJourney(model: TimelineModel, p: number): Journey {
  const seeds = model.byPacket.get(p) ?? [];
  const items = new Set<number>(seeds);
  const arrows = new Set<number>();
  const walk = (forward: boolean) => {
    let frontier = seeds.map((ix) => ({ ix, hops: 0 }));
    const seen = new Set<number>(seeds);
    while (frontier.length && seen.size < 5000) {
      const next: { ix: number; hops: number }[] = [];
      for (const { ix, hops } of frontier) {
        const from = model.items[ix]!;
        const stop = from.packet !== p && from.tone === 'cpuTask:1';
        for (const ai of (forward ? model.outArrows : model.inArrows).get(ix) ?? []) {
          const ar = model.arrows[ai]!;
          const other = forward ? ar.to : ar.from;
          const it = model.items[other]!;
          if (it.packet !== 0 && it.packet !== p) continue;
          if (stop && it.packet !== p) continue;
          const h = it.packet === p ? 0 : hops + 1;
          if (h > JOURNEY_HOPS) continue;
          arrows.add(ai);
          items.add(other);
          if (!seen.has(other)) {
            seen.add(other);
            next.push({ ix: other, hops: h });
          }
        }
      }
      frontier = next;
    }
  };
  walk(true);
  walk(false);
  let start = Infinity;
  let end = -Infinity;
  for (const ix of items) {
    start = Math.min(start, model.items[ix]!.start);
    end = Math.max(end, model.items[ix]!.end);
  }
  return { items, arrows, start, end };
}

// ---------------------------------------------------------------------------------------------
// Layout for a view of [t0, t1] on `width` px: culled to the range, sub-pixel slices aggregated

export interface LaidBar {
  x0: number;
  x1: number;
  /** Where the bar proper starts (before it: waiting in a queue), px. */
  xb: number;
  /** The first item, and how many the bar stands for. */
  item: number;
  count: number;
  tone: Tone;
  /** The items' packet when they all carry the same one, else 0. */
  packet: number;
}

export interface LaidTick {
  x: number;
  item: number;
  count: number;
  tone: Tone;
  packet: number;
}

export interface LaidLane {
  lane: number;
  bars: LaidBar[];
  ticks: LaidTick[];
}

export interface AxisTick {
  x: number;
  label: string;
}

export interface TimelineLayout {
  t0: number;
  t1: number;
  width: number;
  x: (t: number) => number;
  invert: (x: number) => number;
  lanes: LaidLane[];
  /** Arrow indices to draw (in range, not both ends within a pixel), at most `maxArrows`. */
  arrows: number[];
  /** Arrows in range that were left out (too many to draw at this zoom). */
  arrowsHidden: number;
  ticks: AxisTick[];
  /** The unit the tick labels are in ("µs"). */
  unit: string;
}

/** Index of the first element of a sorted array >= v. */
function lowerBound(arr: Float64Array, v: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const MAX_ARROWS = 400;
/** Items and gaps narrower than this (px) merge into one bar. */
const MERGE_PX = 1;

export function axisTicks(
  t0: number,
  t1: number,
  width: number,
): { ticks: AxisTick[]; unit: string } {
  const span = Math.max(1, t1 - t0);
  const scale = scaleLinear()
    .domain([t0, t0 + span])
    .range([0, width]);
  const values = scale.ticks(Math.max(2, Math.floor(width / 110)));
  const step = values.length > 1 ? values[1]! - values[0]! : span;
  const { scale: us, unit } = timeUnitFor(span);
  // As many decimals as tell neighbouring ticks apart, in the span's unit.
  const digits = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / us) - 1e-9)));
  return {
    ticks: values.map((v) => ({ x: scale(v), label: (v / us).toFixed(digits) })),
    unit,
  };
}

export function layoutTimeline(
  model: TimelineModel,
  t0: number,
  t1: number,
  width: number,
  options: { maxArrows?: number; keepArrows?: ReadonlySet<number> } = {},
): TimelineLayout {
  const span = Math.max(1, t1 - t0);
  const scale = scaleLinear()
    .domain([t0, t0 + span])
    .range([0, width]);
  const pxPerPs = width / span;
  // Tenths of a pixel: finer is invisible and only lengthens the SVG.
  const x = (t: number) => Math.round((t - t0) * pxPerPs * 10) / 10;
  const lanes: LaidLane[] = model.byLane.map((ix, laneI) => {
    const bars: LaidBar[] = [];
    const ticks: LaidTick[] = [];
    // The first item that may reach into the range: the running max of ends passes t0 there.
    let j = lowerBound(ix.maxEnd, t0);
    const stop = lowerBound(ix.starts, t1 + 1);
    for (; j < stop; j++) {
      const itemI = ix.items[j]!;
      const it = model.items[itemI]!;
      if (it.end < t0) continue;
      if (it.instant) {
        const px = x(it.start);
        const last = ticks[ticks.length - 1];
        if (last && px - last.x < 2) {
          last.count++;
          if (last.tone !== it.tone) last.tone = 'mixed';
          if (last.packet !== it.packet) last.packet = 0;
          continue;
        }
        ticks.push({ x: px, item: itemI, count: 1, tone: it.tone, packet: it.packet });
        continue;
      }
      const x0 = Math.max(-2, x(it.start));
      const x1 = Math.min(width + 2, x(it.end));
      const xb = Math.min(x1, Math.max(x0, x(it.busy)));
      const last = bars[bars.length - 1];
      const narrow = x1 - x0 < MERGE_PX;
      if (last && x0 - last.x1 < MERGE_PX && (narrow || last.x1 - last.x0 < MERGE_PX)) {
        last.x1 = Math.max(last.x1, x1);
        last.count++;
        if (last.tone !== it.tone) last.tone = 'mixed';
        if (last.packet !== it.packet) last.packet = 0;
        continue;
      }
      bars.push({ x0, x1, xb, item: itemI, count: 1, tone: it.tone, packet: it.packet });
    }
    return { lane: laneI, bars, ticks };
  });

  const max = options.maxArrows ?? MAX_ARROWS;
  const keep = options.keepArrows;
  const inRange: number[] = [];
  const kept: number[] = [];
  let j = lowerBound(model.arrowMaxT1, t0);
  const stop = lowerBound(model.arrowT0, t1 + 1);
  for (; j < stop; j++) {
    const ar = model.arrows[j]!;
    if (ar.t1 < t0) continue;
    const same = model.items[ar.from]!.lane === model.items[ar.to]!.lane;
    if (same && (ar.t1 - ar.t0) * pxPerPs < 3) continue;
    if (keep?.has(j)) kept.push(j);
    else inRange.push(j);
  }
  const room = Math.max(0, max - kept.length);
  const shown = inRange.length <= room ? inRange : [];
  const { ticks, unit } = axisTicks(t0, t1, width);
  return {
    t0,
    t1: t0 + span,
    width,
    x: (t) => scale(t),
    invert: (px) => scale.invert(px),
    lanes,
    arrows: [...shown, ...kept],
    arrowsHidden: inRange.length - shown.length,
    ticks,
    unit,
  };
}

/** The item drawn at (lane, px) in a layout: a tick within 4 px, else the bar under it. */
export function itemAt(layout: TimelineLayout, lane: number, px: number): number | null {
  const l = layout.lanes[lane];
  if (!l) return null;
  let best: LaidTick | null = null;
  for (const tk of l.ticks) {
    if (Math.abs(tk.x - px) <= 4 && (!best || Math.abs(tk.x - px) < Math.abs(best.x - px)))
      best = tk;
  }
  if (best) return best.item;
  for (const b of l.bars) if (px >= b.x0 - 1 && px <= Math.max(b.x1, b.x0 + 2) + 1) return b.item;
  return null;
}

/** "4.08 µs → 10.35 µs (6.27 µs)", or "at 3.49 µs" for an instant. */
export function itemWhen(it: TimelineItem): string {
  if (it.instant) return `at ${formatTime(it.start)}`;
  const wait = it.busy > it.start ? `, queued ${formatTime(it.busy - it.start, 2)}` : '';
  return `${formatTime(it.start)} → ${formatTime(it.end)}${it.open ? ' (and on)' : ''} (${formatTime(it.end - it.start, 2)}${wait})`;
}
