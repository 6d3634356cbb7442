// The timeline of lanes, in the manner of Perfetto's timeline and OMNeT++'s sequence
// chart: one lane per part of the machine that has records in the run (host CPU, driver, PCI bus,
// each Tigon CPU, DMA read and write, MAC transmit and receive, the wire, and for the web server,
// SINIC and ETA+AIO runs their own parts), slices for what takes time, instants for what does not, and
// cause-and-effect arrows between them.
//
// Every slice, instant and arrow comes from records: a slice's start and end are paired by the ids
// both records carry (DMA id, bus transaction id, packet, request), and an arrow is drawn only
// where a record names its cause's id (core-cpp/README.md, "Causes"). Nothing here models the
// machine: no firmware tables, no queue order; an effect whose cause the core did not record gets
// no arrow.
import { mailboxStep } from '../trace/steps';
import { scaleLinear } from 'd3';
import type { Trace } from '../trace/trace';
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
} from '../trace/traceKinds';
import type { ParameterTree, SystemInfo } from '../engine/types';
import { paramAt } from '../engine/types';
import {
  BusTxnEnd,
  BusTxnStart,
  CoalesceTimer,
  CpuPart,
  DiskRead,
  DmaDone,
  DmaQueued,
  DriverPostSendBd,
  EtaAck,
  EtaCpuWork,
  EtaDone,
  EtaDoorbell,
  EtaEvent,
  EtaIdle,
  EtaInterrupt,
  EtaIteration,
  EtaRequest,
  EtaSegment,
  EtaSignal,
  HostCpuBusy,
  HostDeliver,
  InterruptRaise,
  IsrStart,
  KINDS,
  MacRxDone,
  MacRxTaken,
  MacTxEnd,
  MacTxQueued,
  MacTxStart,
  MailboxArrive,
  MailboxWrite,
  NicCacheAppend,
  NicRegister,
  OffloadDescriptor,
  OffloadDma,
  OffloadDmaQueued,
  OffloadFrame,
  OffloadFrameIn,
  OffloadHostEvent,
  PeerRxDone,
  PeerTxStart,
  RegisterRead,
  RingFull,
  RxDrop,
  SendComplete,
  SinicCopy,
  TigonHandler,
  TigonHandlerEnd,
  TigonSemaphore,
  TxBufferFull,
  VnicState,
  WebAsk,
  WebResponseDone,
  WebSegment,
  WebSend,
  WebServe,
  TABLES,
} from '../trace/records.gen';
import { formatTime, timeUnitFor } from '../kit/format';

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
  /** What the link is: the kinds of its two records, in words. */
  why: string;
  /** The records at its two ends: the effect's cause, or a cause of a record no item holds. */
  causeRec: number;
  effectRec: number;
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
  flavour: { tigon: boolean; web: boolean; stream: boolean; eta?: boolean };
}

export interface TimelineSetup {
  /** "PCI bus", "PCI-X bus" or "I/O bus". */
  busLabel: string;
  tigon: boolean;
  /** ps per cycle of the ETA+AIO run's host CPUs (its records count work in cycles). */
  etaCyclePs?: number;
}

/** The timeline's setup from the system the core built (no bus: the SINIC's own I/O link). */
export function timelineSetup(
  system: Pick<SystemInfo, 'bus' | 'nic_model'> | undefined,
  parameters?: ParameterTree,
): TimelineSetup {
  const bus = system?.bus ?? null;
  const mhz = Number(paramAt(parameters, 'system.eta.cpu_mhz'));
  return {
    busLabel:
      !bus || bus.model === 'fixed'
        ? 'I/O bus'
        : bus.protocol === 'pci-x'
          ? 'PCI-X bus'
          : 'PCI bus',
    tigon: system?.nic_model === 'tigon',
    ...(mhz > 0 ? { etaCyclePs: 1e6 / mhz } : {}),
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

function laneLabel(
  kind: LaneKind,
  nics: number,
  setup: TimelineSetup,
  web: boolean,
  eta: EtaLanes | null,
  instance: number,
): string {
  switch (kind) {
    case 'hostCpu':
      // ETA+AIO (Brecht et al., EuroSys 2006 §4): CPU 0 is the Packet Processing Engine.
      if (eta) return eta.ppe ? ['CPU 0: PPE', 'CPU 1: application'][instance]! : `CPU ${instance}`;
      return 'host CPU';
    case 'server':
      return 'web server';
    case 'disk':
      return 'disk';
    case 'driver':
      return eta ? 'doorbell, event queues' : 'driver';
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
      return web || eta ? 'client' : 'peer';
  }
}

/** An ETA+AIO run: its CPUs' lanes are named by role when one CPU is the PPE. */
interface EtaLanes {
  ppe: boolean;
}
const ETA_BIN_KEYS = ['user', 'tcpip', 'ethernet', 'kernel_other', 'ppe_other'];
const ETA_BIN_WORDS = ['user', 'TCP/IP', 'Ethernet', 'kernel other', 'PPE other'];
const ETA_OP_WORDS = ['', 'a send', 'a receive posted'];
const ETA_SIGNAL_WORDS = [
  'signal armed',
  'signal raised (Interrupt Queue and IPI)',
  'signal delivered',
];

function laneOrder(kind: LaneKind, instance: number): number {
  const h = HOST_ORDER.indexOf(kind);
  if (h >= 0) return h * 100 + instance;
  if (kind === 'bus') return 1000;
  return 2000 + instance * 100 + NIC_ORDER.indexOf(kind);
}

// ---------------------------------------------------------------------------------------------
// Building

const CPU_PARTS = TABLES.cpuPart.names;
const OFFLOAD_PURPOSES = TABLES.offloadPurpose.names;
const OFFLOAD_FRAMES = TABLES.offloadFrame.names;
const OFFLOAD_TABLES = TABLES.offloadTable.names;
const OFFLOAD_OPS = TABLES.offloadTableOp.names;
const OFFLOAD_DESCRIPTORS = TABLES.offloadDescriptor.names;
const DROP_REASONS = TABLES.rxDropReason.names;
const SINIC_WHAT = [
  '',
  ' (header, payload deferred)',
  ' (payload FIFO to user buffer)',
  ' (piece)',
];

/** 1,514: thousands separated (toLocaleString is too slow for 200k labels). */
function formatNumber(v: number): string {
  return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function pathName(p: number): string {
  return TIGON_PATHS[p] ?? `path ${p}`;
}

/** Short words for a record at either end of a cause link ("mailbox write", "Send Data Ready"). */
const LINK_WORDS: Partial<Record<string, string>> = {
  DriverPostSendBd: 'send descriptor posted',
  MailboxWrite: 'mailbox write',
  MailboxArrive: 'mailbox reaches the NIC',
  BusTxnStart: 'bus transfer',
  BusTxnEnd: 'bus transfer ends',
  MacTxQueued: 'frame queued for the MAC',
  MacTxStart: 'frame on the wire',
  MacTxEnd: 'frame sent',
  PeerRxDone: 'peer has the frame',
  PeerTxStart: 'frame from the peer',
  MacRxDone: 'frame in',
  MacRxTaken: 'frame taken',
  InterruptRaise: 'interrupt',
  IsrStart: 'interrupt service',
  IsrEnd: 'interrupt service ends',
  HostDeliver: 'handed to the stack',
  SendComplete: 'send descriptor recycled',
  CoalesceTimer: 'coalescing timer',
  HostCpuBusy: 'host CPU task',
  TigonHandlerEnd: 'handler ends',
  WebAsk: 'request asked',
  WebServe: 'server takes the request',
  DiskRead: 'disk read',
  WebSend: 'response to TCP',
  WebSegment: 'segment',
  WebResponseDone: 'whole response in',
  NicCacheAppend: 'cached content appended',
  NicRegister: 'register access',
  VnicState: 'VNIC copy',
  SinicCopy: 'copy engine',
  CpuPart: 'host CPU step',
  L2Copy: 'copy to the user buffer',
  RegisterRead: 'register read',
  TxBufferFull: 'transmit buffer full',
  RxDrop: 'frame dropped',
  EtaRequest: 'request arrives',
  EtaIteration: 'PPE iteration',
  EtaDoorbell: 'doorbell',
  EtaSegment: 'segment sent',
  EtaAck: 'ACK taken',
  EtaEvent: 'completion posted',
  EtaSignal: 'signal',
  EtaCpuWork: 'CPU work',
  EtaDone: 'response complete',
  OffloadDmaQueued: 'DMA queued',
  OffloadDma: 'DMA done',
  OffloadFrame: 'frame on the wire',
  OffloadFrameIn: 'frame arrives',
  OffloadDescriptor: 'descriptor',
  OffloadHostEvent: 'interrupt',
};

/** What record i is, as one end of an arrow. */
function linkWords(trace: Trace, i: number): string {
  const k = trace.kind[i]!;
  if (DmaQueued.is(trace, i)) return purposeName(DmaQueued.purpose(trace, i));
  if (DmaDone.is(trace, i)) return `${purposeName(DmaDone.purpose(trace, i))} done`;
  if (TigonHandler.is(trace, i)) {
    const ev = TIGON_EVENTS[TigonHandler.event(trace, i)];
    return ev?.label ?? 'handler';
  }
  const name = KIND_NAMES[k] ?? '';
  return LINK_WORDS[name] ?? KINDS[k]?.doc ?? `kind ${k}`;
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

/** Records without an item a link may pass through before it gives up (BusGrant, CacheCommand). */
const CAUSE_HOPS = 8;

export function buildTimeline(
  trace: Trace,
  windowStart: number,
  windowEnd: number,
  setup: TimelineSetup,
): TimelineModel {
  const n = trace.length;
  const { time, kind, component: comp } = trace;
  // What kind of run this is decides the labels and lanes.
  let web = false;
  let stream = false;
  let tigon = setup.tigon;
  let nics = 1;
  let eta: EtaLanes | null = null;
  for (let i = 0; i < n; i++) {
    const k = kind[i]!;
    if (k === K.EtaIteration || k === K.EtaIdle || k === K.EtaDoorbell) eta = { ppe: true };
    else if (k === K.EtaCpuWork || k === K.EtaRequest) eta ??= { ppe: false };
    if (k === K.WebAsk || k === K.WebServe || k === K.WebSegment) web = true;
    else if (k === K.CpuPart || k === K.VnicState || k === K.SinicCopy) stream = true;
    else if (k === K.TigonHandler) tigon = true;
    nics = Math.max(nics, componentInstance(comp[i]!) + 1);
  }

  const laneIx = new Map<string, number>();
  const lanes: Lane[] = [];
  const items: TimelineItem[] = [];
  // The item that holds each record (-1: none): the record that opened it, or closed it.
  const holder = new Int32Array(n).fill(-1);
  let cur = 0;

  const lane = (k: LaneKind, instance = 0): number => {
    const key = `${k}:${instance}`;
    let ix = laneIx.get(key);
    if (ix === undefined) {
      ix = lanes.length;
      laneIx.set(key, ix);
      const base = laneLabel(k, nics, setup, web, eta, instance);
      const perNic =
        k !== 'hostCpu' &&
        k !== 'server' &&
        k !== 'disk' &&
        k !== 'bus' &&
        !(eta && k === 'driver');
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
    holder[rec] = items.length - 1;
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
  /** The current record ends slice ix (and belongs to it). */
  const close = (ix: number | undefined, t: number): void => {
    if (ix === undefined) return;
    holder[cur] = ix;
    const it = items[ix]!;
    if (Number.isNaN(it.end)) it.end = Math.max(t, it.start);
  };
  const instant = (laneI: number, rec: number, t: number, label: string, tone: Tone, packet = 0) =>
    add(laneI, rec, t, t, label, tone, packet);
  const pk = (p: number) => (p ? ` · packet ${p}` : '');

  // Slices opened by one record and ended by another, paired by the ids both carry.
  const serviceAt = new Map<string, number>(); // "nic:start" and "nic:end" → interrupt service
  const isrRecords: number[] = []; // IsrStart/IsrEnd of the host CPU's service routine
  const segBatch = new Map<number, { t: number; packets: number[] }>();
  const busOpen = new Map<number, number>(); // txn → item
  const busBytes = new Map<number, number>(); // item → bytes asked for
  const dmaOpen = new Map<number, number>(); // dma id → item
  const recOfId = new Map<number, number>(); // record id → index (for the bus's DMA)
  const macTxOpen = new PerNic<number>(); // packet → item
  const wireTxOpen = new PerNic<number>();
  const wireRxOpen = new PerNic<number>();
  const macRxOpen = new PerNic<number>();
  const handlerOpen = new Map<string, number>(); // "nic:cpu" → item
  const spinOpen = new Map<string, number>();
  const serverOpen = new Map<number, number>(); // request → slice
  const diskOpen = new Map<number, number>();
  const copyOpen = new Map<number, number>(); // VNIC → item
  const copyDone = new Map<number, number>(); // VNIC → its last copying slice
  const offloadDma = new Map<number, number>(); // TCP offload: DMA id → item
  const offloadWire = new Map<number, number>(); // frame * 2 + way → item

  for (let i = 0; i < n; i++) {
    cur = i;
    recOfId.set(trace.id[i]!, i);
    const t = time[i]!;
    const k = kind[i]!;
    const cf = comp[i]!;
    const inst = componentInstance(cf);
    // By name: a switch over K's properties would look each one up for every record.
    switch (KIND_NAMES[k]) {
      // ---- host CPU -----------------------------------------------------------------------
      case 'HostCpuBusy': {
        const dur = HostCpuBusy.durationPs(trace, i);
        const nic = HostCpuBusy.nic(trace, i);
        const on = nics > 1 ? ` (NIC ${nic + 1})` : '';
        if (HostCpuBusy.task(trace, i) === 1) {
          const ix = add(lane('hostCpu'), i, t, t + dur, `interrupt service${on}`, 'cpuTask:1');
          serviceAt.set(`${nic}:${t}`, ix);
          serviceAt.set(`${nic}:${t + dur}`, ix);
        } else if (i > 0 && time[i - 1] === t && WebServe.is(trace, i - 1)) {
          const request = WebServe.request(trace, i - 1);
          add(
            lane('hostCpu'),
            i,
            t,
            t + dur,
            `serve request ${request}: look up the file, build the HTTP header`,
            'cpuTask:serve',
          );
        } else {
          add(
            lane('hostCpu'),
            i,
            t,
            t + dur,
            web
              ? `TCP output: segments to the driver${on}`
              : `send: the driver builds a descriptor${on}`,
            'cpuTask:0',
          );
        }
        break;
      }
      case 'CpuPart': {
        const p = CpuPart.part(trace, i);
        const part = CPU_PARTS[p] ?? `part ${p}`;
        const packet = CpuPart.packet(trace, i);
        add(
          lane('hostCpu'),
          i,
          t,
          t + CpuPart.durationNs(trace, i) * 1000,
          `${part}${pk(packet)}`,
          `cpuPart:${part}`,
          packet,
        );
        break;
      }
      case 'IsrStart':
        if (componentKind(cf) === C.Driver) {
          // SINIC and CNIC runs: the interrupt handler as one step of the driver.
          instant(
            lane('driver', inst),
            i,
            t,
            `interrupt handler ${IsrStart.interrupt(trace, i)} starts`,
            'alert',
          );
        } else {
          // The fixed NIC and the Tigon: the service routine is the host CPU's interrupt service
          // task of this NIC starting at this time (recorded just after it).
          isrRecords.push(i);
        }
        break;
      case 'IsrEnd':
        isrRecords.push(i);
        break;

      // ---- web server -----------------------------------------------------------------------
      case 'WebAsk': {
        const request = WebAsk.request(trace, i);
        instant(
          lane('client', inst),
          i,
          t,
          `asks for request ${request} (connection ${WebAsk.connection(trace, i)})`,
          'web',
          WebAsk.packet(trace, i),
        );
        break;
      }
      case 'WebServe': {
        const request = WebServe.request(trace, i);
        const ix = open(
          lane('server'),
          i,
          t,
          `request ${request}: file ${WebServe.file(trace, i)}, ${formatNumber(WebServe.contentBytes(trace, i))} B, file cache ${WebServe.fileCache(trace, i) ? 'hit' : 'miss'}`,
          'web',
        );
        serverOpen.set(request, ix);
        break;
      }
      case 'DiskRead': {
        const request = DiskRead.request(trace, i);
        if (DiskRead.phase(trace, i) === 0) {
          const ix = open(
            lane('disk'),
            i,
            t,
            `read file ${DiskRead.file(trace, i)} for request ${request}: ${formatNumber(DiskRead.bytes(trace, i))} B`,
            'disk',
          );
          diskOpen.set(request, ix);
        } else {
          close(diskOpen.get(request), t);
          diskOpen.delete(request);
        }
        break;
      }
      case 'WebSend': {
        const request = WebSend.request(trace, i);
        const s = serverOpen.get(request);
        if (s !== undefined) {
          const it = items[s]!;
          close(s, t);
          const segs = WebSend.packets(trace, i);
          it.label += ` → TCP: ${plural(segs, 'segment')}${WebSend.api(trace, i) ? ' (write, a copy)' : ' (sendfile)'}`;
          serverOpen.delete(request);
        }
        break;
      }
      case 'WebSegment': {
        const packet = WebSegment.packet(trace, i);
        instant(
          lane('driver', inst),
          i,
          t,
          `packet ${packet}: a segment of request ${WebSegment.request(trace, i)} (${formatNumber(WebSegment.headerBytes(trace, i))} B headers + ${formatNumber(WebSegment.contentBytes(trace, i))} B content)`,
          'driver',
          packet,
        );
        let batch = segBatch.get(inst);
        if (!batch || batch.t !== t) segBatch.set(inst, (batch = { t, packets: [] }));
        batch.packets.push(packet);
        break;
      }
      case 'WebResponseDone':
        instant(
          lane('client', inst),
          i,
          t,
          `has the whole response to request ${WebResponseDone.request(trace, i)} (${formatNumber(WebResponseDone.contentBytes(trace, i))} B)`,
          'web',
        );
        break;

      // ---- driver ---------------------------------------------------------------------------
      case 'DriverPostSendBd': {
        // The web server's driver posts a batch of segments' descriptors at one instant.
        const batch = segBatch.get(inst);
        const slot = DriverPostSendBd.slot(trace, i);
        if (batch !== undefined && batch.t === t) {
          instant(
            lane('driver', inst),
            i,
            t,
            `S1: posts ${DriverPostSendBd.frameBytes(trace, i)} send descriptors from slot ${slot}`,
            'driver',
          );
          segBatch.delete(inst);
        } else {
          const packet = DriverPostSendBd.packet(trace, i);
          instant(
            lane('driver', inst),
            i,
            t,
            `S1: send descriptor for packet ${packet} in slot ${slot} (${formatNumber(DriverPostSendBd.frameBytes(trace, i))} B frame)`,
            'driver',
            packet,
          );
        }
        break;
      }
      case 'MailboxWrite': {
        const box = MailboxWrite.mailbox(trace, i);
        instant(
          lane('driver', inst),
          i,
          t,
          `${mailboxStep(box) ? `${mailboxStep(box)}: ` : ''}mailbox write, ${MAILBOX_NAMES[box] ?? box} = ${MailboxWrite.value(trace, i)}`,
          'mailbox',
        );
        break;
      }
      case 'RegisterRead':
        instant(
          lane('driver', inst),
          i,
          t,
          `reads the NIC’s send consumer index: ${RegisterRead.value(trace, i)}`,
          'driver',
        );
        break;
      case 'HostDeliver': {
        const packet = HostDeliver.packet(trace, i);
        instant(
          lane('driver', inst),
          i,
          t,
          `hands packet ${packet} to the protocol stack (${formatNumber(HostDeliver.payloadBytes(trace, i))} B)`,
          'driver',
          packet,
        );
        break;
      }
      case 'SendComplete': {
        const packet = SendComplete.packet(trace, i);
        instant(
          lane('driver', inst),
          i,
          t,
          `recycles packet ${packet}’s send descriptor`,
          'driver',
          packet,
        );
        break;
      }
      case 'RingFull':
        instant(
          lane(componentKind(cf) === C.Driver ? 'driver' : 'nic', inst),
          i,
          t,
          `${TABLES.ring.names[RingFull.ring(trace, i)] ?? 'a'} ring full`,
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
        const reg = NicRegister.reg(trace, i);
        const vnic = NicRegister.vnic(trace, i);
        const waitNs = NicRegister.accessNs(trace, i);
        const name = NIC_REGISTER_NAMES[reg] ?? `register ${reg}`;
        const v = vnic === 0xffff ? '' : ` (VNIC ${vnic})`;
        if ((reg === 2 || reg === 5) && waitNs > 0) {
          // RxWait / TxWait: the access lasts until the NIC satisfies it; recorded as it returns.
          add(
            lane('driver', inst),
            i,
            t - waitNs * 1000,
            t,
            `${name}${v}: waits ${formatTime(waitNs * 1000)}`,
            'register',
          );
        } else {
          instant(lane('driver', inst), i, t, `${name}${v}`, 'register');
        }
        break;
      }

      // ---- bus --------------------------------------------------------------------------------
      case 'BusTxnStart': {
        const purpose = BusTxnStart.purpose(trace, i);
        const packet = BusTxnStart.packet(trace, i);
        const bytes = BusTxnStart.bytes(trace, i);
        const ix = open(
          lane('bus'),
          i,
          t,
          `${purposeName(purpose)} · ${componentLabel(BusTxnStart.master(trace, i))} · ${formatNumber(bytes)} B${pk(packet)}`,
          `purpose:${purpose}`,
          packet,
        );
        busOpen.set(BusTxnStart.txn(trace, i), ix);
        busBytes.set(ix, bytes);
        // A DMA's wait in its queue ends with its first burst: the DMA its causes lead back to.
        let c = recOfId.get(trace.cause[i]!);
        for (let hop = 0; c !== undefined && hop < CAUSE_HOPS; hop++) {
          if (DmaQueued.is(trace, c)) {
            const d = holder[c]!;
            if (d >= 0 && Number.isNaN(items[d]!.busy)) items[d]!.busy = t;
            break;
          }
          c = recOfId.get(trace.cause[c]!);
        }
        break;
      }
      case 'BusTxnEnd': {
        const txn = BusTxnEnd.txn(trace, i);
        const ix = busOpen.get(txn);
        if (ix === undefined) break;
        busOpen.delete(txn);
        close(ix, t);
        const it = items[ix]!;
        const moved = BusTxnEnd.bytes(trace, i);
        const purpose = BusTxnEnd.purpose(trace, i);
        if (moved === 0 && purpose !== P.MailboxPio) it.label += ' · Retry (no data)';
        else if (busBytes.get(ix) !== moved) it.label += ` · ${formatNumber(moved)} B moved`;
        break;
      }

      // ---- NIC ------------------------------------------------------------------------------
      case 'MailboxArrive': {
        const box = MailboxArrive.mailbox(trace, i);
        instant(
          lane('nic', inst),
          i,
          t,
          `mailbox ${MAILBOX_NAMES[box] ?? box} = ${MailboxArrive.value(trace, i)} reaches the NIC`,
          'mailbox',
        );
        break;
      }
      case 'InterruptRaise': {
        const causes = InterruptRaise.causes(trace, i);
        const what = ['', 'send', 'receive', 'send and receive'][causes & 3] ?? '';
        instant(
          lane('nic', inst),
          i,
          t,
          `S6/R4: interrupt (${what}${InterruptRaise.trigger(trace, i) ? ', coalescing timer' : ''})`,
          'alert',
        );
        break;
      }
      case 'CoalesceTimer':
        instant(
          lane('nic', inst),
          i,
          t,
          `coalescing timer expires (${['', 'send', 'receive', 'both'][CoalesceTimer.causes(trace, i) & 3]})`,
          'warn',
        );
        break;
      case 'TxBufferFull': {
        const packet = TxBufferFull.packet(trace, i);
        instant(
          lane('nic', inst),
          i,
          t,
          `transmit buffer full: packet ${packet}’s data waits`,
          'warn',
          packet,
        );
        break;
      }
      case 'RxDrop': {
        const packet = RxDrop.packet(trace, i);
        const reason = RxDrop.reason(trace, i);
        instant(
          lane('nic', inst),
          i,
          t,
          `drops packet ${packet}: ${DROP_REASONS[reason] ?? reason}`,
          'alert',
          packet,
        );
        break;
      }
      case 'NicCacheAppend': {
        const packet = NicCacheAppend.packet(trace, i);
        instant(
          lane('nic', inst),
          i,
          t,
          `appends ${formatNumber(NicCacheAppend.bytes(trace, i))} B of cached content to packet ${packet}`,
          'purpose:1',
          packet,
        );
        break;
      }

      // ---- DMA --------------------------------------------------------------------------------
      case 'DmaQueued': {
        const purpose = DmaQueued.purpose(trace, i);
        const packet = DmaQueued.packet(trace, i);
        const ix = open(
          lane(componentKind(cf) === C.DmaWrite ? 'dmaWrite' : 'dmaRead', inst),
          i,
          t,
          `${purposeName(purpose)} · ${formatNumber(DmaQueued.bytes(trace, i))} B${pk(packet)}`,
          `purpose:${purpose}`,
          packet,
        );
        items[ix]!.busy = NaN;
        dmaOpen.set(DmaQueued.dma(trace, i), ix);
        break;
      }
      case 'DmaDone': {
        const dma = DmaDone.dma(trace, i);
        const ix = dmaOpen.get(dma);
        if (ix === undefined) break; // queued before the window opened
        dmaOpen.delete(dma);
        close(ix, t);
        const it = items[ix]!;
        if (Number.isNaN(it.busy)) it.busy = it.start; // no burst of its own in the trace
        break;
      }

      // ---- MAC and wire -----------------------------------------------------------------------
      case 'MacTxQueued': {
        const packet = MacTxQueued.packet(trace, i);
        const ix = open(lane('macTx', inst), i, t, `frame of packet ${packet}`, 'frameTx', packet);
        items[ix]!.busy = NaN;
        macTxOpen.of(inst).set(packet, ix);
        break;
      }
      case 'MacTxStart': {
        const packet = MacTxStart.packet(trace, i);
        const bytes = MacTxStart.frameBytes(trace, i);
        let ix = macTxOpen.of(inst).get(packet);
        if (ix === undefined) {
          ix = open(lane('macTx', inst), i, t, `frame of packet ${packet}`, 'frameTx', packet);
          macTxOpen.of(inst).set(packet, ix);
        }
        const it = items[ix]!;
        it.busy = t;
        it.label = `S5: sends packet ${packet}’s frame, ${formatNumber(bytes)} B`;
        const w = open(
          lane('wireTx', inst),
          i,
          t,
          `packet ${packet}’s frame to the peer, ${formatNumber(bytes)} B`,
          'frameTx',
          packet,
        );
        wireTxOpen.of(inst).set(packet, w);
        // The frame's start is the MAC's: the wire's slice follows from it (PeerRxDone's cause).
        holder[i] = ix;
        break;
      }
      case 'MacTxEnd': {
        const packet = MacTxEnd.packet(trace, i);
        close(macTxOpen.of(inst).get(packet), t);
        macTxOpen.of(inst).delete(packet);
        break;
      }
      case 'PeerRxDone': {
        const packet = PeerRxDone.packet(trace, i);
        const w = wireTxOpen.of(inst).get(packet);
        if (w !== undefined) {
          close(w, t);
          wireTxOpen.of(inst).delete(packet);
          items[w]!.label += ' · the peer has it';
        } else {
          instant(
            lane('wireTx', inst),
            i,
            t,
            `the peer receives packet ${packet} (${formatNumber(PeerRxDone.frameBytes(trace, i))} B)`,
            'frameTx',
            packet,
          );
        }
        break;
      }
      case 'PeerTxStart': {
        const packet = PeerTxStart.packet(trace, i);
        const ix = open(
          lane('wireRx', inst),
          i,
          t,
          `packet ${packet}’s frame from the peer, ${formatNumber(PeerTxStart.frameBytes(trace, i))} B`,
          'frameRx',
          packet,
        );
        wireRxOpen.of(inst).set(packet, ix);
        break;
      }
      case 'MacRxDone': {
        const packet = MacRxDone.packet(trace, i);
        const w = wireRxOpen.of(inst).get(packet);
        if (w !== undefined) {
          const it = items[w]!;
          if (Number.isNaN(it.end)) it.end = Math.max(t, it.start);
          wireRxOpen.of(inst).delete(packet);
        }
        // The frame in the NIC is an item of its own: the wire's slice leads to it.
        if (tigon) {
          const ix = open(
            lane('macRx', inst),
            i,
            t,
            `R1: packet ${packet}’s frame waits in the MAC receive queue`,
            'frameRx',
            packet,
          );
          macRxOpen.of(inst).set(packet, ix);
        } else {
          instant(
            lane('macRx', inst),
            i,
            t,
            `R1: packet ${packet}’s frame is in the NIC (${formatNumber(MacRxDone.frameBytes(trace, i))} B)`,
            'frameRx',
            packet,
          );
        }
        break;
      }
      case 'MacRxTaken': {
        const packet = MacRxTaken.packet(trace, i);
        close(macRxOpen.of(inst).get(packet), t);
        macRxOpen.of(inst).delete(packet);
        break;
      }

      // ---- Tigon ------------------------------------------------------------------------------
      case 'TigonHandler': {
        const event = TigonHandler.event(trace, i);
        const cpu = TigonHandler.cpu(trace, i) === 1 ? 1 : 0;
        const packet = TigonHandler.packet(trace, i);
        const ev = TIGON_EVENTS[event];
        const ix = open(
          lane(cpu ? 'cpuB' : 'cpuA', inst),
          i,
          t,
          `${ev?.short ?? event}: ${ev?.label ?? 'event'} · ${pathName(TigonHandler.path(trace, i))}${pk(packet)}`,
          `tigon:${event}`,
          packet,
        );
        handlerOpen.set(`${inst}:${cpu}`, ix);
        const spin = spinOpen.get(`${inst}:${cpu}`);
        if (spin !== undefined) {
          const it = items[spin]!;
          if (Number.isNaN(it.end)) it.end = Math.max(t, it.start);
        }
        spinOpen.delete(`${inst}:${cpu}`);
        break;
      }
      case 'TigonHandlerEnd': {
        const cpu = TigonHandlerEnd.cpu(trace, i) === 1 ? 1 : 0;
        close(handlerOpen.get(`${inst}:${cpu}`), t);
        handlerOpen.delete(`${inst}:${cpu}`);
        break;
      }
      case 'TigonSemaphore': {
        const cpu = TigonSemaphore.cpu(trace, i) === 1 ? 1 : 0;
        const op = TigonSemaphore.operation(trace, i);
        if (op === 0)
          spinOpen.set(
            `${inst}:${cpu}`,
            open(
              lane(cpu ? 'cpuB' : 'cpuA', inst),
              i,
              t,
              `spins on the semaphore (for ${TIGON_EVENTS[TigonSemaphore.event(trace, i)]?.label ?? 'an event'})`,
              'spin',
            ),
          );
        else if (op === 1) {
          close(spinOpen.get(`${inst}:${cpu}`), t);
          spinOpen.delete(`${inst}:${cpu}`);
        }
        break;
      }

      // ---- SINIC ------------------------------------------------------------------------------
      case 'VnicState': {
        const vnic = VnicState.vnic(trace, i);
        const state = VnicState.state(trace, i);
        if (state === 2) {
          const packet = VnicState.packet(trace, i);
          copyOpen.set(
            vnic,
            open(
              lane('copyRx', inst),
              i,
              t,
              `copies ${formatNumber(VnicState.bytes(trace, i))} B of packet ${packet} (VNIC ${vnic})`,
              'frameRx',
              packet,
            ),
          );
        } else if (state === 3 || state === 4) {
          const ix = copyOpen.get(vnic);
          close(ix, t);
          copyOpen.delete(vnic);
          if (ix !== undefined) copyDone.set(vnic, ix);
        }
        break;
      }
      case 'SinicCopy':
        if (SinicCopy.direction(trace, i) === 0) {
          // The receive copy is recorded as it ends, with its VNIC's copying slice.
          const vnic = SinicCopy.vnic(trace, i);
          const ix = copyOpen.get(vnic) ?? copyDone.get(vnic);
          if (ix !== undefined && items[ix]!.packet === SinicCopy.packet(trace, i)) holder[i] = ix;
        } else {
          const packet = SinicCopy.packet(trace, i);
          instant(
            lane('copyTx', inst),
            i,
            t,
            `copies ${formatNumber(SinicCopy.bytes(trace, i))} B of packet ${packet} into the transmit FIFO${SINIC_WHAT[SinicCopy.what(trace, i)] ?? ''}`,
            'frameTx',
            packet,
          );
        }
        break;

      // ---- ETA+AIO (Brecht et al., EuroSys 2006) ------------------------------------------
      // The records count work in cycles; a slice lasts cycles × the run's clock period.
      case 'EtaRequest': {
        const request = EtaRequest.request(trace, i);
        const refused = EtaRequest.refused(trace, i) !== 0;
        instant(
          lane('client', EtaRequest.nic(trace, i)),
          i,
          t,
          refused
            ? `request ${request} refused: every connection busy`
            : `request ${request} arrives (${formatNumber(EtaRequest.responseBytes(trace, i))} B response)`,
          refused ? 'alert' : 'web',
        );
        break;
      }
      case 'EtaIteration': {
        const frames = EtaIteration.frames(trace, i);
        const op = EtaIteration.op(trace, i);
        const request = EtaIteration.request(trace, i);
        add(
          lane('hostCpu', 0),
          i,
          t,
          t + EtaIteration.cycles(trace, i) * (setup.etaCyclePs ?? 0),
          `polls NIC ${EtaIteration.nic(trace, i) + 1}: ${plural(frames, 'frame')}${op ? `, ${ETA_OP_WORDS[op] ?? 'an operation'} (request ${request})` : ''}`,
          op === 1 ? 'eta:tcpip' : frames > 0 ? 'eta:ethernet' : 'eta:ppe_other',
        );
        break;
      }
      case 'EtaIdle':
        add(
          lane('hostCpu', 0),
          i,
          t - EtaIdle.durationNs(trace, i) * 1000,
          t,
          `${plural(EtaIdle.iterations(trace, i), 'empty iteration')} (152 cycles each)`,
          'spin',
        );
        break;
      case 'EtaCpuWork': {
        const bin = EtaCpuWork.bin(trace, i);
        const cycles = EtaCpuWork.cycles(trace, i);
        const request = EtaCpuWork.request(trace, i);
        add(
          lane('hostCpu', EtaCpuWork.cpu(trace, i)),
          i,
          t,
          t + cycles * (setup.etaCyclePs ?? 0),
          `${ETA_BIN_WORDS[bin] ?? 'work'}, ${formatNumber(cycles)} cycles${request ? ` (request ${request})` : ''}`,
          `eta:${ETA_BIN_KEYS[bin] ?? 'user'}`,
        );
        break;
      }
      case 'EtaDoorbell': {
        const op = EtaDoorbell.op(trace, i);
        instant(
          lane('driver'),
          i,
          t,
          `doorbell: ${ETA_OP_WORDS[op] ?? 'an operation'} for request ${EtaDoorbell.request(trace, i)} (queue ${EtaDoorbell.depth(trace, i)} deep)`,
          'mailbox',
        );
        break;
      }
      case 'EtaEvent':
        instant(
          lane('driver'),
          i,
          t,
          `${EtaEvent.queue(trace, i) === 0 ? 'receive' : 'send'} completion for request ${EtaEvent.request(trace, i)} (event queue ${EtaEvent.depth(trace, i)} deep)`,
          'driver',
        );
        break;
      case 'EtaSegment': {
        const packet = EtaSegment.packet(trace, i);
        instant(
          lane('wireTx', EtaSegment.nic(trace, i)),
          i,
          t,
          `segment of request ${EtaSegment.request(trace, i)}, ${formatNumber(EtaSegment.bytes(trace, i))} B${pk(packet)}`,
          'frameTx',
          packet,
        );
        break;
      }
      case 'EtaAck':
        instant(
          lane('wireRx', inst),
          i,
          t,
          `ACK for request ${EtaAck.request(trace, i)}: ${plural(EtaAck.acked(trace, i), 'segment')}, ${EtaAck.left(trace, i)} left`,
          'frameRx',
        );
        break;
      case 'EtaInterrupt':
        instant(
          lane('nic', EtaInterrupt.nic(trace, i)),
          i,
          t,
          `interrupt: ${plural(EtaInterrupt.frames(trace, i), 'frame')}`,
          'alert',
        );
        break;
      case 'EtaSignal': {
        const step = EtaSignal.step(trace, i);
        instant(lane('hostCpu', inst), i, t, ETA_SIGNAL_WORDS[step] ?? 'signal', 'warn');
        break;
      }
      case 'EtaDone':
        instant(
          lane('client', inst),
          i,
          t,
          `request ${EtaDone.request(trace, i)} complete: ${formatNumber(EtaDone.bytes(trace, i))} B in ${formatTime(EtaDone.latencyNs(trace, i) * 1000)}`,
          'web',
        );
        break;
      // ---- TCP offload (seed 004): the ledger's DMAs, the wire, descriptors, interrupts ---------
      case 'OffloadDmaQueued': {
        const read = componentKind(cf) !== C.DmaWrite;
        const ix = open(
          lane(read ? 'dmaRead' : 'dmaWrite', inst),
          i,
          t,
          `${OFFLOAD_PURPOSES[OffloadDmaQueued.purpose(trace, i)] ?? 'DMA'} · ${formatNumber(OffloadDmaQueued.bytes(trace, i))} B`,
          `purpose:${read ? P.SendDataFetch : P.RecvDataWrite}`,
          OffloadDmaQueued.frame(trace, i),
        );
        offloadDma.set(OffloadDmaQueued.dma(trace, i), ix);
        break;
      }
      case 'OffloadDma': {
        const dma = OffloadDma.dma(trace, i);
        const ix = offloadDma.get(dma);
        if (ix === undefined) break;
        offloadDma.delete(dma);
        items[ix]!.label += ` · ${OffloadDma.cycles(trace, i)} cycles`;
        close(ix, t);
        break;
      }
      case 'OffloadFrame': {
        const way = OffloadFrame.way(trace, i);
        const frame = OffloadFrame.frame(trace, i);
        offloadWire.set(
          frame * 2 + way,
          open(
            lane(way === 0 ? 'wireTx' : 'wireRx', inst),
            i,
            t,
            `${OFFLOAD_FRAMES[OffloadFrame.what(trace, i)] ?? 'frame'} · ${formatNumber(OffloadFrame.frameBytes(trace, i))} B`,
            way === 0 ? 'frameTx' : 'frameRx',
            frame,
          ),
        );
        break;
      }
      case 'OffloadFrameIn': {
        const key = OffloadFrameIn.frame(trace, i) * 2 + OffloadFrameIn.way(trace, i);
        close(offloadWire.get(key), t);
        offloadWire.delete(key);
        break;
      }
      case 'OffloadDescriptor': {
        const table = OFFLOAD_TABLES[OffloadDescriptor.table(trace, i)] ?? 'table';
        const what = OFFLOAD_DESCRIPTORS[OffloadDescriptor.what(trace, i)] ?? 'descriptor';
        instant(
          lane(componentKind(cf) === C.Driver ? 'driver' : 'nic', inst),
          i,
          t,
          `${what} ${OFFLOAD_OPS[OffloadDescriptor.op(trace, i)] ?? ''} (${table}, slot ${OffloadDescriptor.slot(trace, i)})`,
          'driver',
        );
        break;
      }
      case 'OffloadHostEvent':
        instant(
          lane('nic', inst),
          i,
          t,
          `interrupt ${OffloadHostEvent.interrupt(trace, i)}: ${plural(OffloadHostEvent.items(trace, i), 'item')}`,
          'alert',
        );
        break;
      default:
        break;
    }
  }

  for (const i of isrRecords) {
    const s = serviceAt.get(`${componentInstance(comp[i]!)}:${time[i]!}`);
    if (s !== undefined) holder[i] = s;
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

  // Arrows: one per cause link the core recorded, from the item holding the cause record to the
  // item holding the effect. A link may pass through records no item shows (a bus grant, a cache
  // command); a cause before the window (no such record here) draws none.
  const arrows: TimelineArrow[] = [];
  let backwards = 0;
  for (let i = 0; i < n; i++) {
    const to = holder[i]!;
    if (to < 0 || trace.cause[i] === 0) continue;
    let c = recOfId.get(trace.cause[i]!);
    let via = 0;
    while (c !== undefined && holder[c]! < 0 && via < CAUSE_HOPS) {
      c = recOfId.get(trace.cause[c]!);
      via++;
    }
    if (c === undefined || holder[c]! < 0) continue;
    const from = holder[c]!;
    if (from === to) continue;
    const t0 = time[c]!;
    // An effect that ends a slice begun at or after its cause (the peer has the frame the MAC
    // started) reaches the slice where it begins.
    const target = items[to]!;
    const t1 = target.rec !== i && target.start >= t0 ? target.start : time[i]!;
    if (t1 < t0) {
      backwards++;
      continue;
    }
    arrows.push({
      from,
      to,
      t0,
      t1,
      why: `${linkWords(trace, c)} → ${linkWords(trace, i)}`,
      causeRec: c,
      effectRec: i,
    });
  }

  const byPacket = new Map<number, number[]>();
  items.forEach((it, ix) => {
    if (it.packet) fifo(byPacket, it.packet).push(ix);
  });

  return finishModel(lanes, items, arrows, windowStart, windowEnd, backwards, byPacket, {
    tigon,
    web,
    stream,
    ...(eta ? { eta: true } : {}),
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

  // Several links may tie the same two items (a DMA queued and done by one handler): one arrow.
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
