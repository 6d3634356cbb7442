// One packet as the trace knows it (the packet inspector): every record that names it,
// its headers by layer (sizes only: the model carries no addresses, ports or checksums), and
// the descriptors that carried it. Pure functions of the trace, its index and the parameters.
//
// Which field names the packet, per kind (core-cpp/trace/trace_kinds.hpp):
//   a: DriverPostSendBd, TxBufferFull, MacTxStart, MacTxEnd, PeerTxStart, MacRxDone, RxDrop,
//      HostDeliver, SendComplete, PeerRxDone, MacTxQueued, MacRxTaken, CacheCommand, L2Copy,
//      WebSegment, NicCacheAppend
//   b: WebAsk (a is the request); BusRequest recorded by the bus (a is the master)
//   c: CpuPart, SinicCopy, VnicState
//   d: DmaQueued, DmaDone
//   e: BusTxnStart, BusTxnEnd, TigonHandler
// Packet ids are unique within a run (SimContext::new_packet counts from 1); 0 names none.
// A descriptor fetch or an index write that serves several packets names the first of them.
import {
  C,
  COMPONENT_NAMES,
  K,
  P,
  TRACE_KINDS,
  componentInstance,
  componentKind,
  componentLabel,
  describeRecord,
  kindName,
  purposeName,
  VNIC_STATE_NAMES,
} from '../trace/traceKinds';
import { countUpTo, type Trace } from '../trace/trace';
import {
  BusRequest,
  BusTxnStart,
  CacheCommand,
  DmaQueued,
  DriverPostSendBd,
  HostDeliver,
  IndexUpdate,
  MacRxTaken,
  MacTxQueued,
  MacTxStart,
  ROLE_COLUMN,
  SinicCopy,
  VnicState,
  WebAsk,
  WebSegment,
  column,
} from '../trace/records.gen';
import { paramAt, type ParameterTree, type RunOutput, type SystemFrame } from '../engine/types';
import { occupancy } from '../kit/format';
import { recordStep } from '../trace/steps';
import type { TraceIndex } from '../trace/traceIndex';

/** The column of record i that names its packet (the definition's packet role), or -1. */
export function packetColumn(trace: Trace, i: number): number {
  const k = trace.kind[i]!;
  // The bus records REQ# with the master first and the packet second (the definition's layout);
  // other recorders of BusRequest put the packet first.
  if (k === K.BusRequest && componentKind(trace.component[i]!) !== C.Bus) return 0;
  return ROLE_COLUMN.packet[k] ?? -1;
}

/** The packet record i names, or 0 for none. */
export function packetOf(trace: Trace, i: number): number {
  const c = packetColumn(trace, i);
  return c < 0 ? 0 : column(trace, c, i);
}

const packetIndexes = new WeakMap<Trace, Map<number, number[]>>();

/** Record indices per packet id, in time order (built once per trace). */
export function packetIndex(trace: Trace): Map<number, number[]> {
  let m = packetIndexes.get(trace);
  if (m) return m;
  m = new Map();
  for (let i = 0; i < trace.length; i++) {
    const p = packetOf(trace, i);
    if (p === 0) continue;
    let l = m.get(p);
    if (!l) m.set(p, (l = []));
    l.push(i);
  }
  packetIndexes.set(trace, m);
  return m;
}

/** The packet of the latest record at or before t that names one (the "packet at the cursor"). */
export function packetAtCursor(trace: Trace, t: number): number | null {
  const i = countUpTo(trace.time, t) - 1;
  if (i < 0) return null;
  // Looked up in a table built once, not walked back on every frame; at most 5000 records back.
  const r = lastPacketRecord(trace)[i]!;
  return r >= 0 && i - r < PACKET_LOOKBACK ? packetOf(trace, r) : null;
}

const PACKET_LOOKBACK = 5000;
const lastPacketRecords = new WeakMap<Trace, Int32Array>();

/** For each record, the latest record at or before it that names a packet (-1: none). */
function lastPacketRecord(trace: Trace): Int32Array {
  let out = lastPacketRecords.get(trace);
  if (out) return out;
  out = new Int32Array(trace.length);
  let last = -1;
  for (let i = 0; i < trace.length; i++) {
    if (packetOf(trace, i) !== 0) last = i;
    out[i] = last;
  }
  lastPacketRecords.set(trace, out);
  return out;
}

// ---- the journey -----------------------------------------------------------------------------

export interface JourneyStep {
  rec: number;
  time: number;
  kind: number;
  name: string;
  /** What happened, in words ("frame starts on the wire to the peer"). */
  words: string;
  /** The thesis's step (S1–S6, R1–R4), when the kind is one. */
  step?: string;
  /** Where it happened, as the views name it ("DMA read", "NIC 2"). */
  where: string;
  /** The parts to highlight (component names as the core spells them). */
  highlight: string[];
  /** The record's other fields, rendered. */
  details: Array<[string, string]>;
  /** The one or two details that say most ("send data fetch · 1514 B"), or ''. */
  summary: string;
}

// The details worth a glance in the journey list, in order of preference.
const SUMMARY_FIELDS = ['purpose', 'event', 'command', 'what', 'part', 'state', 'reason', 'path'];
const SIZE_FIELDS = ['bytes', 'frame bytes', 'UDP payload bytes', 'content bytes'];

/** The parts of the machine a record happened at: its component, plus the bus's master or the wire. */
export function highlightOf(trace: Trace, i: number): string[] {
  const k = trace.kind[i]!;
  const name = (c: number) => COMPONENT_NAMES[componentKind(c)] ?? `component ${c}`;
  const out = [name(trace.component[i]!)];
  if (k === K.BusTxnStart || k === K.BusTxnEnd) out.push(name(BusTxnStart.master(trace, i)));
  else if (k === K.BusRequest && componentKind(trace.component[i]!) === C.Bus)
    out.push(name(BusRequest.master(trace, i)));
  else if (k === K.MacTxStart) out.push('wire_tx');
  else if (k === K.PeerTxStart) out.push('wire_rx');
  return [...new Set(out)];
}

function journeyStep(trace: Trace, i: number): JourneyStep {
  const k = trace.kind[i]!;
  const doc = TRACE_KINDS[k];
  const idx = packetColumn(trace, i);
  const fields = describeRecord(trace, i);
  // The packet field is the inspector's subject: leave it out of the details.
  const names = doc?.fields.map((fd) => fd?.name) ?? [];
  const details = fields.filter(([n]) => !(idx >= 0 && n === names[idx]) && n !== 'packet');
  return {
    rec: i,
    time: trace.time[i]!,
    kind: k,
    name: kindName(k),
    words: doc?.doc ?? kindName(k),
    step: recordStep(trace, i),
    where: componentLabel(trace.component[i]!),
    highlight: highlightOf(trace, i),
    details,
    summary: [
      details.find(([n]) => SUMMARY_FIELDS.includes(n))?.[1],
      details.find(([n]) => SIZE_FIELDS.includes(n))?.[1],
    ]
      .filter(Boolean)
      .join(' · '),
  };
}

// ---- headers by layer ------------------------------------------------------------------------

export interface LayerField {
  name: string;
  value: string;
}

export interface FrameSegment {
  layer: HeaderLayer['layer'] | 'payload' | 'CRC' | 'padding';
  label: string;
  bytes: number;
}

export interface HeaderLayer {
  layer: 'Ethernet' | 'IP' | 'UDP' | 'TCP' | 'HTTP';
  fields: LayerField[];
}

const B = (n: number) => `${n.toLocaleString('en-US')} B`;

// ---- descriptors -----------------------------------------------------------------------------

export interface DescriptorRow {
  /** What kind of descriptor or transfer ("send descriptor", "receive data write"). */
  what: string;
  /** The ring and slot, when known: "send ring, slot 3". */
  where: string | null;
  /** The buffer it points at or the transfer's direction. */
  buffer: string | null;
  bytes: number | null;
  /** How the slot was found, when not recorded with the packet. */
  note?: string;
  rec: number;
  time: number;
}

const DMA_BUFFER: Record<number, string> = {
  [P.SendBdFetch]: 'send ring in host memory → NIC',
  [P.SendDataFetch]: 'host buffer → NIC transmit buffer',
  [P.RecvBdFetch]: 'receive ring in host memory → NIC',
  [P.RecvDataWrite]: 'NIC receive buffer → host receive buffer',
  [P.ReturnBdWrite]: 'NIC → return ring in host memory',
  [P.SendConsumerWrite]: 'NIC → send consumer index in host memory',
  [P.ReturnProducerWrite]: 'NIC → return producer index in host memory',
};

const CACHE_COMMANDS = ['append_mm', 'append_cache', 'cache_insert'];
const SINIC_COPY_WHAT = [
  'whole frame',
  'header only, payload deferred',
  'payload FIFO to user buffer',
  'piece with MORE',
];

/**
 * The ring slot a NIC-side index update at instant t freed or filled, when exactly one update of
 * that ring copy moved the index by one there: the slot is the index before it.
 */
function slotMovedAt(
  idx: TraceIndex,
  nic: number,
  ring: number,
  which: 'producer' | 'consumer',
  t: number,
): { slot: number; size: number } | null {
  const list = idx.ringUpdatesByNic?.[nic]?.[ring * 2 + 1] ?? [];
  const tr = idx.trace;
  const field = which === 'producer' ? IndexUpdate.producer : IndexUpdate.consumer;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tr.time[list[mid]!]! < t) lo = mid + 1;
    else hi = mid;
  }
  let found: { slot: number; size: number } | null = null;
  for (let p = lo; p < list.length && tr.time[list[p]!]! === t; p++) {
    if (p === 0) continue;
    const rec = list[p]!;
    const prev = list[p - 1]!;
    const size = IndexUpdate.size(tr, rec);
    const moved = occupancy(field(tr, rec), field(tr, prev), size);
    if (moved === 0) continue;
    if (moved !== 1 || found) return null;
    found = { slot: field(tr, prev) % size, size };
  }
  return found;
}

/** True when no other packet has a record of these kinds at instant t (so a match is unique). */
function onlyPacketAt(
  trace: Trace,
  t: number,
  packet: number,
  test: (i: number) => boolean,
): boolean {
  let i = countUpTo(trace.time, t) - 1;
  for (; i >= 0 && trace.time[i] === t; i--) {
    if (test(i) && packetOf(trace, i) !== packet) return false;
  }
  return true;
}

// ---- the inspector's view of one packet ------------------------------------------------------

export interface PacketView {
  id: number;
  /** The trace names it at all. */
  found: boolean;
  /** "UDP datagram sent", "TCP segment of a web response", … */
  what: string;
  direction: 'send' | 'receive' | null;
  /** NIC instance of its records (0 = the first NIC). */
  nic: number;
  frameBytes: number | null;
  layers: HeaderLayer[];
  /** The frame's bytes in wire order, by part (they add up to frameBytes), or [] when unknown. */
  segments: FrameSegment[];
  /** What the headers can and cannot say. */
  layersNote: string;
  descriptors: DescriptorRow[];
  steps: JourneyStep[];
  /** The web request it belongs to, when it does. */
  request: number | null;
}

function firstOf(trace: Trace, recs: readonly number[], kinds: readonly number[]): number | null {
  for (const i of recs) if (kinds.includes(trace.kind[i]!)) return i;
  return null;
}

export function packetView(
  idx: TraceIndex,
  output: Pick<RunOutput, 'parameters' | 'system'>,
  id: number,
): PacketView {
  const params = output.parameters;
  const trace = idx.trace;
  const recs = packetIndex(trace).get(id) ?? [];
  const workload = String(paramAt(params, 'workload.kind') ?? 'udp');
  const steps = recs.map((i) => journeyStep(trace, i));
  const nic = recs.length ? componentInstance(trace.component[recs[0]!]!) : 0;
  const out: PacketView = {
    id,
    found: recs.length > 0,
    what: 'packet',
    direction: null,
    nic,
    frameBytes: null,
    layers: [],
    segments: [],
    layersNote: '',
    descriptors: [],
    steps,
    request: null,
  };
  if (!recs.length) return out;

  // Direction and frame size from the wire records (the NIC's, else the peer's).
  const tx = firstOf(trace, recs, [K.MacTxStart, K.MacTxEnd, K.PeerRxDone, K.MacTxQueued]);
  const rx = firstOf(trace, recs, [K.PeerTxStart, K.MacRxDone, K.RxDrop, K.MacRxTaken]);
  const frameRec =
    firstOf(trace, recs, [K.MacTxStart, K.MacTxEnd, K.PeerTxStart, K.MacRxDone, K.PeerRxDone]) ??
    null;
  out.direction = tx !== null ? 'send' : rx !== null ? 'receive' : null;
  const post = firstOf(trace, recs, [K.DriverPostSendBd]);
  // A SINIC copy of the whole frame (e = 0) carries its size when the wire's records lie
  // before the trace window.
  const whole = recs.find((i) => trace.kind[i] === K.SinicCopy && SinicCopy.what(trace, i) === 0);
  if (frameRec !== null) out.frameBytes = MacTxStart.frameBytes(trace, frameRec);
  else if (post !== null && workload !== 'web')
    out.frameBytes = DriverPostSendBd.frameBytes(trace, post);
  else if (whole !== undefined) out.frameBytes = SinicCopy.bytes(trace, whole);
  if (out.direction === null && whole !== undefined)
    out.direction = SinicCopy.direction(trace, whole) === 1 ? 'send' : 'receive';
  if (out.direction === null && (post !== null || firstOf(trace, recs, [K.WebSegment]) !== null))
    out.direction = 'send';

  headers(out, trace, recs, workload, params, output.system.frame);
  out.descriptors = descriptors(idx, recs, id, workload);
  return out;
}

function headers(
  out: PacketView,
  trace: Trace,
  recs: readonly number[],
  workload: string,
  params: ParameterTree | undefined,
  layout: SystemFrame,
): void {
  // The header sizes the core builds frames with (the run's "system" block).
  const ETH_HEADER = layout.ethernet_header_bytes;
  const ETH_CRC = layout.crc_bytes;
  const IP_HEADER = layout.ip_header_bytes;
  const UDP_HEADER = layout.udp_header_bytes ?? 0;
  const MIN_FRAME = layout.min_frame_bytes ?? 0;
  const F = out.frameBytes;
  const eth = (crc: boolean): HeaderLayer => ({
    layer: 'Ethernet',
    fields: [
      { name: 'header', value: `${B(ETH_HEADER)} (size only)` },
      ...(crc ? [{ name: 'CRC', value: B(ETH_CRC) }] : []),
      ...(F !== null
        ? [
            {
              name: 'frame',
              value: `${B(F)}${crc ? '' : ` (the wire adds the ${ETH_CRC}-byte CRC)`}`,
            },
          ]
        : []),
    ],
  });
  const ip = (len: number | null): HeaderLayer => ({
    layer: 'IP',
    fields: [
      { name: 'header', value: `${B(IP_HEADER)} (size only)` },
      ...(len !== null ? [{ name: 'total length', value: B(len) }] : []),
    ],
  });
  const sizesOnly =
    'The model carries sizes, not contents: no addresses, ports, sequence numbers or checksums.';
  if (workload === 'udp') {
    const delivered = firstOf(trace, recs, [K.HostDeliver]);
    const datagram = Number(paramAt(params, 'workload.datagram_bytes') ?? NaN);
    // frame = max(minimum, datagram + UDP, IP and Ethernet headers + CRC) (config.hpp frame_bytes).
    const payload =
      delivered !== null
        ? HostDeliver.payloadBytes(trace, delivered)
        : F !== null && F > MIN_FRAME
          ? F - ETH_HEADER - ETH_CRC - IP_HEADER - UDP_HEADER
          : Number.isFinite(datagram)
            ? datagram
            : null;
    const pad =
      F !== null && payload !== null
        ? F - (payload + UDP_HEADER + IP_HEADER + ETH_HEADER + ETH_CRC)
        : 0;
    out.what = `UDP datagram ${out.direction === 'receive' ? 'received' : 'sent'}`;
    const e = eth(true);
    if (pad > 0) e.fields.push({ name: 'padding', value: `${B(pad)} (to the 64-byte minimum)` });
    out.layers = [
      e,
      ip(payload !== null ? payload + UDP_HEADER + IP_HEADER : null),
      {
        layer: 'UDP',
        fields: [
          { name: 'header', value: `${B(UDP_HEADER)} (size only)` },
          ...(payload !== null
            ? [
                { name: 'length', value: B(payload + UDP_HEADER) },
                {
                  name: 'payload',
                  value: `${B(payload)}${delivered !== null ? ' (delivered to the stack)' : ''}`,
                },
              ]
            : []),
        ],
      },
    ];
    if (payload !== null)
      out.segments = frame(F, [
        ['Ethernet', 'Ethernet header', ETH_HEADER],
        ['IP', 'IP header', IP_HEADER],
        ['UDP', 'UDP header', UDP_HEADER],
        ['payload', 'UDP payload', payload],
        ['padding', 'padding', pad],
        ['CRC', 'CRC', ETH_CRC],
      ]);
    out.layersNote = sizesOnly;
    return;
  }
  if (workload === 'web' || workload === 'tcp-segments') {
    const hdr = layout.segment_header_bytes ?? 0;
    const tcpHdr = layout.tcp_header_bytes ?? 0;
    const seg = firstOf(trace, recs, [K.WebSegment]);
    const ask = firstOf(trace, recs, [K.WebAsk]);
    const tcp = (payload: number | null): HeaderLayer => ({
      layer: 'TCP',
      fields: [
        { name: 'header', value: `${B(tcpHdr)} (size only; 20 + options)` },
        ...(payload !== null ? [{ name: 'payload', value: B(payload) }] : []),
      ],
    });
    if (seg !== null) {
      const headerBytes = WebSegment.headerBytes(trace, seg);
      const content = WebSegment.contentBytes(trace, seg);
      const http = Math.max(0, headerBytes - hdr);
      out.request = WebSegment.request(trace, seg);
      out.what = `TCP segment of the response to request ${out.request}`;
      out.layers = [
        eth(true),
        ip(F !== null ? F - ETH_HEADER - ETH_CRC : null),
        tcp(http + content),
        {
          layer: 'HTTP',
          fields: [
            ...(http > 0 ? [{ name: 'response header', value: `${B(http)} (size only)` }] : []),
            { name: 'content', value: `${B(content)} of the file` },
          ],
        },
      ];
      out.segments = frame(F, [
        ['Ethernet', 'Ethernet header', ETH_HEADER],
        ['IP', 'IP header', IP_HEADER],
        ['TCP', 'TCP header', tcpHdr],
        ['HTTP', 'HTTP header', http],
        ['payload', 'content', content],
        ['CRC', 'CRC', ETH_CRC],
      ]);
    } else if (ask !== null) {
      out.request = WebAsk.request(trace, ask);
      out.what = `HTTP request ${out.request} from a client`;
      const payload = F !== null ? F - hdr - ETH_CRC : null;
      out.layers = [
        eth(true),
        ip(F !== null ? F - ETH_HEADER - ETH_CRC : null),
        tcp(payload),
        {
          layer: 'HTTP',
          fields: [
            ...(payload !== null ? [{ name: 'request', value: `${B(payload)} (size only)` }] : []),
            { name: 'asks for', value: `request ${out.request} of the trace` },
            { name: 'connection', value: String(WebAsk.connection(trace, ask)) },
          ],
        },
      ];
      if (payload !== null)
        out.segments = frame(F, [
          ['Ethernet', 'Ethernet header', ETH_HEADER],
          ['IP', 'IP header', IP_HEADER],
          ['TCP', 'TCP header', tcpHdr],
          ['HTTP', 'HTTP request', payload],
          ['CRC', 'CRC', ETH_CRC],
        ]);
    } else if (F !== null) {
      const payload = F - hdr - ETH_CRC;
      out.what =
        payload <= 0
          ? 'TCP segment with no payload (an acknowledgement)'
          : workload === 'web'
            ? 'TCP segment'
            : 'TCP segment sent';
      out.layers = [eth(true), ip(F - ETH_HEADER - ETH_CRC), tcp(Math.max(0, payload))];
      out.segments = frame(F, [
        ['Ethernet', 'Ethernet header', ETH_HEADER],
        ['IP', 'IP header', IP_HEADER],
        ['TCP', 'TCP header', tcpHdr],
        ['payload', 'TCP payload', Math.max(0, payload)],
        ['CRC', 'CRC', ETH_CRC],
      ]);
    } else {
      out.what =
        firstOf(trace, recs, [K.DriverPostSendBd]) !== null
          ? "the driver's post of send descriptors (no frame of its own)"
          : 'packet';
    }
    out.layersNote = sizesOnly;
    return;
  }
  if (workload === 'tcp-stream') {
    const SINIC_TCP_HEADER = layout.tcp_header_bytes ?? 0;
    const payload = F !== null ? F - ETH_HEADER - IP_HEADER - SINIC_TCP_HEADER : null;
    out.what =
      payload === 0
        ? `TCP acknowledgement ${out.direction === 'send' ? 'sent' : 'received'}`
        : `TCP segment ${out.direction === 'send' ? 'sent' : 'received'}`;
    out.layers = [
      eth(layout.crc_in_frame),
      ip(F !== null ? F - ETH_HEADER : null),
      {
        layer: 'TCP',
        fields: [
          { name: 'header', value: `${B(SINIC_TCP_HEADER)} (size only; 20 + timestamps)` },
          ...(payload !== null ? [{ name: 'payload', value: B(payload) }] : []),
        ],
      },
    ];
    if (payload !== null)
      out.segments = frame(F, [
        ['Ethernet', 'Ethernet header', ETH_HEADER],
        ['IP', 'IP header', IP_HEADER],
        ['TCP', 'TCP header', SINIC_TCP_HEADER],
        ['payload', 'TCP payload', payload],
      ]);
    out.layersNote = sizesOnly;
    return;
  }
  out.layersNote = `This run's workload (${workload}) has no frame layout in the model.`;
}

/** The frame's parts (empty ones left out), only when they add up to the recorded frame. */
function frame(
  total: number | null,
  parts: Array<[FrameSegment['layer'], string, number]>,
): FrameSegment[] {
  const segs = parts
    .filter(([, , bytes]) => bytes > 0)
    .map(([layer, label, bytes]) => ({ layer, label, bytes }));
  const sum = segs.reduce((a, s) => a + s.bytes, 0);
  return total !== null && sum === total ? segs : [];
}

function descriptors(
  idx: TraceIndex,
  recs: readonly number[],
  id: number,
  workload: string,
): DescriptorRow[] {
  const trace = idx.trace;
  const out: DescriptorRow[] = [];
  const row = (i: number, r: Omit<DescriptorRow, 'rec' | 'time'>) =>
    out.push({ ...r, rec: i, time: trace.time[i]! });
  const nicOf = (i: number) => componentInstance(trace.component[i]!);
  for (const i of recs) {
    const k = trace.kind[i]!;
    if (k === K.DriverPostSendBd) {
      if (workload === 'web')
        row(i, {
          what: `the driver posts ${DriverPostSendBd.frameBytes(trace, i)} send descriptors`,
          where: `send ring, from slot ${DriverPostSendBd.slot(trace, i)}`,
          buffer: null,
          bytes: null,
        });
      else
        row(i, {
          what: 'send descriptor',
          where: `send ring, slot ${DriverPostSendBd.slot(trace, i)}`,
          buffer: 'the frame in host memory',
          bytes: DriverPostSendBd.frameBytes(trace, i),
        });
    } else if (k === K.CacheCommand) {
      const cmd = CacheCommand.command(trace, i);
      row(i, {
        what: `send descriptor: ${CACHE_COMMANDS[cmd] ?? `command ${cmd}`}`,
        where: `send ring, slot ${CacheCommand.slot(trace, i)}`,
        buffer:
          cmd === 0 ? 'host memory' : `NIC cache offset ${CacheCommand.cacheOffset(trace, i)}`,
        bytes: CacheCommand.bytes(trace, i),
      });
    } else if (k === K.DmaQueued) {
      const purpose = DmaQueued.purpose(trace, i);
      row(i, {
        what: purposeName(purpose),
        where: null,
        buffer: DMA_BUFFER[purpose] ?? null,
        bytes: DmaQueued.bytes(trace, i),
      });
    } else if (k === K.MacTxQueued) {
      row(i, {
        what: 'MAC transmit descriptor',
        where: `MAC transmit queue (${MacTxQueued.macQueue(trace, i)} after)`,
        buffer: 'NIC transmit buffer',
        bytes: null,
      });
    } else if (k === K.MacRxTaken) {
      row(i, {
        what: 'MAC receive descriptor taken',
        where: `MAC receive queue (${MacRxTaken.macQueue(trace, i)} after)`,
        buffer: 'NIC receive buffer',
        bytes: null,
      });
    } else if (k === K.VnicState) {
      const state = VnicState.state(trace, i);
      row(i, {
        what: `VNIC ${VnicState.vnic(trace, i)}: ${VNIC_STATE_NAMES[state] ?? `state ${state}`}`,
        where: `VNIC ${VnicState.vnic(trace, i)} (receive registers)`,
        buffer: `receive FIFO (${VnicState.fifoBytes(trace, i).toLocaleString('en-US')} B in it)`,
        bytes: VnicState.bytes(trace, i),
      });
    } else if (k === K.SinicCopy) {
      const what = SinicCopy.what(trace, i);
      const transmit = SinicCopy.direction(trace, i) === 1;
      row(i, {
        what: `copy engine, ${transmit ? 'transmit' : 'receive'}: ${SINIC_COPY_WHAT[what] ?? what}`,
        where: `VNIC ${SinicCopy.vnic(trace, i)}`,
        buffer: transmit ? 'host buffer → transmit FIFO' : 'receive FIFO → host buffer',
        bytes: SinicCopy.bytes(trace, i),
      });
    }
  }
  // Receive and return ring slots: not recorded with the packet; the NIC's index update at the
  // same instant as the packet's buffer or return descriptor, when it is the only one, names it.
  const rxTake = recs.find(
    (i) =>
      trace.kind[i] === K.MacRxTaken ||
      (trace.kind[i] === K.DmaQueued && DmaQueued.purpose(trace, i) === P.RecvDataWrite),
  );
  if (rxTake !== undefined) {
    const t = trace.time[rxTake]!;
    const s = slotMovedAt(idx, nicOf(rxTake), 1, 'consumer', t);
    const unique = onlyPacketAt(
      trace,
      t,
      id,
      (i) =>
        trace.kind[i] === K.MacRxTaken ||
        (trace.kind[i] === K.DmaQueued && DmaQueued.purpose(trace, i) === P.RecvDataWrite),
    );
    if (s && unique)
      row(rxTake, {
        what: 'receive descriptor (an empty buffer the driver posted)',
        where: `receive ring, slot ${s.slot}`,
        buffer: 'host receive buffer',
        bytes: null,
        note: "matched by time: the NIC's receive consumer index moved past this slot at the same instant",
      });
  }
  const isReturn = (i: number) =>
    (trace.kind[i] === K.DmaQueued || trace.kind[i] === K.DmaDone) &&
    DmaQueued.purpose(trace, i) === P.ReturnBdWrite;
  for (const i of recs.filter(isReturn)) {
    const t = trace.time[i]!;
    const s = slotMovedAt(idx, nicOf(i), 2, 'producer', t);
    if (s && onlyPacketAt(trace, t, id, isReturn)) {
      row(i, {
        what: 'return descriptor',
        where: `return ring, slot ${s.slot}`,
        buffer: 'points at the host receive buffer',
        bytes: DmaQueued.bytes(trace, i),
        note: "matched by time: the NIC's return producer index moved past this slot at the same instant",
      });
      break;
    }
  }
  out.sort((x, y) => x.time - y.time || x.rec - y.rec);
  return out;
}

// ---- which packets a ring's slots hold -------------------------------------------------------

export interface SlotPacket {
  slot: number;
  packet: number;
}

const slotAssignments = new WeakMap<
  TraceIndex,
  Map<number, Array<{ time: number; packet: number; slot: number }>>
>();

/** Every time a packet was put in a ring slot: send (recorded), return (matched by time). */
function assignments(
  idx: TraceIndex,
  ring: number,
  nic: number,
): Array<{ time: number; packet: number; slot: number }> {
  let m = slotAssignments.get(idx);
  if (!m) slotAssignments.set(idx, (m = new Map()));
  const key = ring * 256 + nic;
  const have = m.get(key);
  if (have) return have;
  const tr = idx.trace;
  const out: Array<{ time: number; packet: number; slot: number }> = [];
  const inst = (i: number) => componentInstance(tr.component[i]!);
  if (ring === 0) {
    // Web runs post a batch id in DriverPostSendBd and each segment's descriptors in
    // CacheCommand (slot e); other runs, one descriptor per DriverPostSendBd (slot b).
    const commands = idx.byKind.get(K.CacheCommand) ?? [];
    if (commands.length) {
      for (const i of commands)
        if (inst(i) === nic)
          out.push({
            time: tr.time[i]!,
            packet: CacheCommand.packet(tr, i),
            slot: CacheCommand.slot(tr, i),
          });
    } else {
      for (const i of idx.byKind.get(K.DriverPostSendBd) ?? [])
        if (inst(i) === nic)
          out.push({
            time: tr.time[i]!,
            packet: DriverPostSendBd.packet(tr, i),
            slot: DriverPostSendBd.slot(tr, i),
          });
    }
  } else if (ring === 2) {
    const isReturn = (i: number) =>
      (tr.kind[i] === K.DmaQueued || tr.kind[i] === K.DmaDone) &&
      DmaQueued.purpose(tr, i) === P.ReturnBdWrite;
    const seen = new Set<number>();
    for (const kind of [K.DmaQueued, K.DmaDone]) {
      for (const i of idx.byKind.get(kind) ?? []) {
        if (!isReturn(i) || inst(i) !== nic) continue;
        const packet = DmaQueued.packet(tr, i);
        if (seen.has(packet)) continue;
        const s = slotMovedAt(idx, nic, 2, 'producer', tr.time[i]!);
        if (s && onlyPacketAt(tr, tr.time[i]!, packet, isReturn)) {
          seen.add(packet);
          out.push({ time: tr.time[i]!, packet, slot: s.slot });
        }
      }
    }
    out.sort((x, y) => x.time - y.time);
  }
  m.set(key, out);
  return out;
}

/**
 * The packets in the given slots of a ring at t (the latest packet put in each slot at or before
 * t), for the send ring and the return ring; slots with no known packet are left out.
 */
export function packetsInSlots(
  idx: TraceIndex,
  ring: number,
  slots: readonly number[],
  t: number,
  nic = 0,
): SlotPacket[] {
  const list = assignments(idx, ring, nic);
  if (!list.length || !slots.length) return [];
  const latest = new Map<number, number>();
  for (const a of list) {
    if (a.time > t) break;
    latest.set(a.slot, a.packet);
  }
  const out: SlotPacket[] = [];
  const seen = new Set<number>();
  for (const slot of slots) {
    const packet = latest.get(slot);
    if (packet === undefined || packet === 0 || seen.has(packet)) continue;
    seen.add(packet);
    out.push({ slot, packet });
  }
  return out;
}

export interface RequestPacket {
  packet: number;
  /** The client's request frame (WebAsk) or a segment of the response (WebSegment). */
  role: 'request' | 'segment';
}

const requestIndexes = new WeakMap<Trace, Map<number, RequestPacket[]>>();

/** The packets of one web request in the trace window: the client's ask, its response's segments. */
export function requestPackets(trace: Trace, request: number): RequestPacket[] {
  let m = requestIndexes.get(trace);
  if (!m) {
    m = new Map();
    for (let i = 0; i < trace.length; i++) {
      const k = trace.kind[i];
      if (k !== K.WebAsk && k !== K.WebSegment) continue;
      const r = k === K.WebAsk ? WebAsk.request(trace, i) : WebSegment.request(trace, i);
      const packet = k === K.WebAsk ? WebAsk.packet(trace, i) : WebSegment.packet(trace, i);
      let l = m.get(r);
      if (!l) m.set(r, (l = []));
      if (!l.some((x) => x.packet === packet))
        l.push({ packet, role: k === K.WebAsk ? 'request' : 'segment' });
    }
    requestIndexes.set(trace, m);
  }
  return m.get(request) ?? [];
}
