// TypeScript mirror of core-cpp/trace/trace_kinds.hpp (the authoritative list).
// Ids are positions: append only, in the same order as the C++ X-macro lists.

export interface FieldDoc {
  /** Field name shown in the event log. */
  name: string;
  /** How to render the raw uint32: a lookup table, a component/purpose name, or a number. */
  format?:
    | 'component'
    | 'purpose'
    | 'ring'
    | 'copy'
    | 'mailbox'
    | 'direction'
    | 'causes'
    | 'bytes'
    | 'busPhase'
    | 'busCategory'
    | 'tigonEvent'
    | 'tigonPath'
    | 'tigonBits'
    | string[];
}

export interface KindDoc {
  name: string;
  /** Step of the thesis' send (S1–S6) or receive (R1–R4) sequence, when the kind is one. */
  step?: string;
  /** Short human description. */
  doc: string;
  /** Field meanings for a..e (undefined = unused). */
  fields: [FieldDoc?, FieldDoc?, FieldDoc?, FieldDoc?, FieldDoc?];
}

const F = (name: string, format?: FieldDoc['format']): FieldDoc => ({ name, format });

/** NicRegister field a (core-cpp/sinic/sinic_regs.hpp NicReg). */
export const NIC_REGISTER_NAMES = [
  'RxData',
  'RxDone',
  'RxWait',
  'TxData',
  'TxDone',
  'TxWait',
  'IntrStatus',
  'IntrMask',
  'doorbell',
] as const;
/** NicRegister field b of a device-wide access. */
export const ANY_VNIC = 0xffff;
/** VnicState field b (sinic_regs.hpp VnicRx). */
export const VNIC_STATE_NAMES = ['free', 'posted', 'copying', 'payload deferred', 'done'] as const;

export const TRACE_KINDS: readonly KindDoc[] = [
  {
    name: 'RunStart',
    doc: 'run starts',
    fields: [F('direction', 'direction'), F('datagram bytes', 'bytes')],
  },
  {
    name: 'DriverPostSendBd',
    step: 'S1',
    doc: 'driver creates a send descriptor',
    fields: [F('packet'), F('send ring slot'), F('frame bytes', 'bytes')],
  },
  {
    name: 'MailboxWrite',
    step: 'S2',
    doc: 'driver writes a mailbox register',
    fields: [F('mailbox', 'mailbox'), F('value')],
  },
  {
    name: 'MailboxArrive',
    doc: 'the PIO write reached the NIC',
    fields: [F('mailbox', 'mailbox'), F('value')],
  },
  {
    name: 'BusTxnStart',
    doc: 'bus transaction starts',
    fields: [
      F('txn'),
      F('master', 'component'),
      F('bytes', 'bytes'),
      F('purpose', 'purpose'),
      F('packet'),
    ],
  },
  {
    name: 'BusTxnEnd',
    doc: 'bus transaction ends',
    fields: [
      F('txn'),
      F('master', 'component'),
      F('bytes', 'bytes'),
      F('purpose', 'purpose'),
      F('packet'),
    ],
  },
  {
    name: 'BusRefused',
    doc: 'bus busy: the master is called back when free',
    fields: [F('master', 'component')],
  },
  {
    name: 'DmaQueued',
    doc: 'DMA request queued',
    fields: [F('dma'), F('purpose', 'purpose'), F('bytes', 'bytes'), F('packet'), F('queue depth')],
  },
  {
    name: 'DmaDone',
    doc: 'DMA request done',
    fields: [F('dma'), F('purpose', 'purpose'), F('bytes', 'bytes'), F('packet')],
  },
  {
    name: 'DmaQueueFull',
    doc: "the DMA channel's queue refused a request",
    fields: [F('purpose', 'purpose')],
  },
  {
    name: 'IndexUpdate',
    doc: 'ring index update',
    fields: [F('ring', 'ring'), F('copy', 'copy'), F('producer'), F('consumer'), F('size')],
  },
  { name: 'RingFull', doc: 'the producer found no free slot', fields: [F('ring', 'ring')] },
  { name: 'DriverStall', doc: 'the driver waits for ring space', fields: [F('ring', 'ring')] },
  { name: 'DriverResume', doc: 'the driver resumes', fields: [F('ring', 'ring')] },
  {
    name: 'TxBufferFull',
    doc: 'data fetch waits for transmit buffer space',
    fields: [F('packet')],
  },
  {
    name: 'MacTxStart',
    step: 'S5',
    doc: 'frame starts on the wire to the peer',
    fields: [F('packet'), F('frame bytes', 'bytes'), F('MAC transmit queue left')],
  },
  { name: 'MacTxEnd', doc: 'frame fully sent', fields: [F('packet'), F('frame bytes', 'bytes')] },
  {
    name: 'PeerTxStart',
    doc: 'peer starts a frame towards the NIC',
    fields: [F('packet'), F('frame bytes', 'bytes')],
  },
  {
    name: 'MacRxDone',
    step: 'R1',
    doc: 'frame is in the NIC receive buffer',
    fields: [F('packet'), F('frame bytes', 'bytes'), F('MAC receive queue')],
  },
  {
    name: 'RxDrop',
    doc: 'received frame dropped',
    fields: [F('packet'), F('reason', ['no receive descriptor', 'receive buffer full'])],
  },
  {
    name: 'InterruptRaise',
    step: 'S6/R4',
    doc: 'NIC raises an interrupt',
    fields: [F('causes', 'causes'), F('trigger', ['count', 'timer'])],
  },
  { name: 'IsrStart', doc: 'interrupt service routine starts', fields: [F('interrupt')] },
  {
    name: 'IsrEnd',
    doc: 'interrupt service routine ends',
    fields: [F('interrupt'), F('packets received'), F('sends completed')],
  },
  {
    name: 'HostDeliver',
    doc: 'handed to the protocol stack',
    fields: [F('packet'), F('UDP payload bytes', 'bytes')],
  },
  { name: 'SendComplete', doc: 'the driver recycled the send descriptor', fields: [F('packet')] },
  {
    name: 'PeerRxDone',
    doc: 'the peer received the frame',
    fields: [F('packet'), F('frame bytes', 'bytes')],
  },
  { name: 'CoalesceTimer', doc: 'the coalescing timer expired', fields: [F('causes', 'causes')] },
  {
    name: 'HostCpuBusy',
    doc: 'host CPU runs a task',
    fields: [
      F('task', ['send', 'interrupt service']),
      F('duration ps (low)'),
      F('duration ps (high)'),
    ],
  },
  {
    name: 'BusPhase',
    doc: 'a bus phase begins (it lasts until the next phase record)',
    fields: [
      F('master', 'component'),
      F('phase', 'busPhase'),
      F('cycles'),
      F('category', 'busCategory'),
      F('txn'),
    ],
  },
  {
    name: 'BusRequest',
    doc: 'REQ# asserted (again after a Retry or a cut)',
    fields: [F('master', 'component'), F('packet')],
  },
  { name: 'BusGrant', doc: 'GNT# given', fields: [F('master', 'component'), F('txn')] },
  {
    name: 'RegisterRead',
    doc: 'a PIO register read returned to the CPU',
    fields: [F('register', ['send consumer']), F('value')],
  },
  {
    name: 'TigonRegister',
    doc: "a Tigon CPU's event register changed (pending events it may handle)",
    fields: [F('cpu', ['A', 'B']), F('event bits', 'tigonBits'), F('mask bits', 'tigonBits')],
  },
  {
    name: 'TigonHandler',
    doc: 'the dispatch loop started a handler',
    fields: [
      F('event', 'tigonEvent'),
      F('cpu', ['A', 'B']),
      F('path', 'tigonPath'),
      F('duration ps'),
      F('packet'),
    ],
  },
  {
    name: 'TigonHandlerEnd',
    doc: 'the handler ran to completion',
    fields: [F('event', 'tigonEvent'), F('cpu', ['A', 'B']), F('path', 'tigonPath')],
  },
  {
    name: 'TigonSemaphore',
    doc: 'the hardware semaphore',
    fields: [
      F('cpu', ['A', 'B']),
      F('operation', ['spinning', 'acquired', 'released']),
      F('event', 'tigonEvent'),
    ],
  },
  {
    name: 'SramLoad',
    doc: "the SRAM's load as a handler starts",
    fields: [F('utilisation ‰'), F('wait per access ps'), F('cpu', ['A', 'B'])],
  },
  {
    name: 'MacTxQueued',
    step: 'S4',
    doc: 'Send Data Ready queued a MAC transmit descriptor',
    fields: [F('packet'), F('MAC transmit queue')],
  },
  {
    name: 'MacRxTaken',
    step: 'R2',
    doc: 'Receive Complete took a frame from the MAC receive queue',
    fields: [F('packet'), F('MAC receive queue')],
  },
  {
    name: 'TigonSnapshot',
    doc: "the Tigon's queues as the trace window opens mid-run",
    fields: [
      F('DMA read queue'),
      F('DMA write queue'),
      F('MAC transmit queue'),
      F('MAC receive queue'),
    ],
  },
  {
    name: 'WebRequest',
    doc: 'a request of the web trace (cache-only mode: request n at n µs)',
    fields: [F('request'), F('file'), F('content bytes'), F('NIC'), F('blocks found in its cache')],
  },
  {
    name: 'NicCacheBlock',
    doc: 'a NIC data cache block was hit, inserted, evicted or invalidated',
    fields: [F('slot'), F('file'), F('block'), F('what', ['hit', 'insert', 'evict', 'invalidate'])],
  },
  {
    name: 'WebServe',
    doc: 'the web server takes a request, looks up the file and builds the HTTP header',
    fields: [
      F('request'),
      F('file'),
      F('content bytes'),
      F('NIC'),
      F('file cache', ['miss', 'hit']),
    ],
  },
  {
    name: 'DiskRead',
    doc: 'a file-cache miss read from disk; the server process waits for it',
    fields: [F('request'), F('file'), F('bytes'), F('phase', ['start', 'done'])],
  },
  {
    name: 'WebSend',
    doc: 'the response is handed to TCP (sendfile, or write with a copy)',
    fields: [
      F('request'),
      F('NIC'),
      F('packets'),
      F('api', ['sendfile', 'write']),
      F('bytes copied'),
    ],
  },
  {
    name: 'CacheCommand',
    doc: 'the driver put a Fig 4.11 command in a send descriptor',
    fields: [
      F('packet'),
      F('command', ['append_mm', 'append_cache', 'cache_insert']),
      F('bytes'),
      F('NIC cache offset'),
      F('send ring slot'),
    ],
  },
  {
    name: 'WebResponseDone',
    doc: 'the client has the whole response',
    fields: [F('request'), F('NIC'), F('content bytes'), F('connection')],
  },
  // issue 6 (seed 003): SINIC / V-SINIC and the host's CPU time
  {
    name: 'CpuPart',
    doc: 'the host CPU starts a unit of work',
    fields: [F('part', ['driver', 'stack', 'copy', 'user']), F('duration ns'), F('packet')],
  },
  {
    name: 'SinicCopy',
    doc: 'a SINIC copy engine transfer',
    fields: [
      F('direction', ['receive', 'transmit']),
      F('VNIC'),
      F('packet'),
      F('bytes'),
      F('what', [
        'whole',
        'header only, payload deferred',
        'payload FIFO to user buffer',
        'piece with MORE',
      ]),
    ],
  },
  {
    name: 'L2Copy',
    doc: 'the kernel copies a received payload to the user buffer',
    fields: [F('packet'), F('bytes'), F('lines missed (DRAM)'), F('lines')],
  },
  {
    name: 'FifoLevel',
    doc: 'the receive FIFO after a frame arrived',
    fields: [F('receive FIFO bytes'), F('VNICs bound')],
  },
  // issue 5: one web request's path through the server (seed 000 Figs 4.1, 4.2)
  {
    name: 'WebAsk',
    doc: 'a client asks for a file',
    fields: [F('request'), F('packet'), F('NIC'), F('connection')],
  },
  {
    name: 'WebSegment',
    doc: 'TCP hands the driver one segment of a response',
    fields: [
      F('packet'),
      F('request'),
      F('NIC'),
      F('header bytes', 'bytes'),
      F('content bytes', 'bytes'),
    ],
  },
  {
    name: 'NicCacheAppend',
    doc: 'the NIC copies cached content into its transmit buffer',
    fields: [F('packet'), F('bytes', 'bytes')],
  },
  // issue 6: SINIC registers and VNICs (seed 003 §3.1)
  {
    name: 'NicRegister',
    doc: 'the driver read or wrote a NIC register',
    fields: [
      F('register', [...NIC_REGISTER_NAMES]),
      F('VNIC'),
      F('value bits 31..0'),
      F('value bits 63..32'),
      F('access ns'),
    ],
  },
  {
    name: 'VnicState',
    doc: 'a receive VNIC changed state',
    fields: [
      F('VNIC'),
      F('state', [...VNIC_STATE_NAMES]),
      F('packet'),
      F('bytes'),
      F('receive FIFO bytes', 'bytes'),
    ],
  },
];

export const KIND_NAMES: readonly string[] = TRACE_KINDS.map((k) => k.name);

/** Kind ids by name, e.g. K.BusTxnStart === 4. */
export const K = Object.fromEntries(KIND_NAMES.map((n, i) => [n, i])) as Record<
  | 'RunStart'
  | 'DriverPostSendBd'
  | 'MailboxWrite'
  | 'MailboxArrive'
  | 'BusTxnStart'
  | 'BusTxnEnd'
  | 'BusRefused'
  | 'DmaQueued'
  | 'DmaDone'
  | 'DmaQueueFull'
  | 'IndexUpdate'
  | 'RingFull'
  | 'DriverStall'
  | 'DriverResume'
  | 'TxBufferFull'
  | 'MacTxStart'
  | 'MacTxEnd'
  | 'PeerTxStart'
  | 'MacRxDone'
  | 'RxDrop'
  | 'InterruptRaise'
  | 'IsrStart'
  | 'IsrEnd'
  | 'HostDeliver'
  | 'SendComplete'
  | 'PeerRxDone'
  | 'CoalesceTimer'
  | 'HostCpuBusy'
  | 'BusPhase'
  | 'BusRequest'
  | 'BusGrant'
  | 'RegisterRead'
  | 'TigonRegister'
  | 'TigonHandler'
  | 'TigonHandlerEnd'
  | 'TigonSemaphore'
  | 'SramLoad'
  | 'MacTxQueued'
  | 'MacRxTaken'
  | 'TigonSnapshot'
  | 'WebRequest'
  | 'NicCacheBlock'
  | 'WebServe'
  | 'DiskRead'
  | 'WebSend'
  | 'CacheCommand'
  | 'WebResponseDone'
  | 'CpuPart'
  | 'SinicCopy'
  | 'L2Copy'
  | 'FifoLevel'
  | 'WebAsk'
  | 'WebSegment'
  | 'NicCacheAppend'
  | 'NicRegister'
  | 'VnicState',
  number
>;

/** Component names as the core spells them (NICSIM_COMPONENTS), index = component id. */
export const COMPONENT_NAMES: readonly string[] = [
  'host_cpu',
  'driver',
  'bus',
  'nic',
  'dma_read',
  'dma_write',
  'mac_tx',
  'mac_rx',
  'wire_tx',
  'wire_rx',
  'peer',
  'host_bridge',
  'disk',
  'tigon_cpu',
  'sram',
];

export const C = {
  HostCpu: 0,
  Driver: 1,
  Bus: 2,
  Nic: 3,
  DmaRead: 4,
  DmaWrite: 5,
  MacTx: 6,
  MacRx: 7,
  WireTx: 8,
  WireRx: 9,
  Peer: 10,
  HostBridge: 11,
  Disk: 12,
  TigonCpu: 13,
  Sram: 14,
} as const;

/** Component fields carry the device instance in their high byte (the second NIC is 1). */
export function componentKind(field: number): number {
  return field & 0xff;
}
export function componentInstance(field: number): number {
  return field >>> 8;
}

export const COMPONENT_LABELS: readonly string[] = [
  'host CPU',
  'driver',
  'I/O bus',
  'NIC',
  'DMA read',
  'DMA write',
  'MAC transmit',
  'MAC receive',
  'wire (to peer)',
  'wire (from peer)',
  'peer',
  'host bridge',
  'disk',
  'Tigon CPU',
  'Tigon SRAM',
];

/** What a bus transaction or DMA carries (NICSIM_PURPOSES), index = purpose id. */
export const PURPOSE_NAMES: readonly string[] = [
  'send descriptor fetch',
  'send data fetch',
  'receive descriptor fetch',
  'receive data write',
  'return descriptor write',
  'send consumer index write',
  'return producer index write',
  'mailbox write',
  'disk transfer',
  'register read',
];

/** Phases of a bus tenure (NICSIM_BUS_PHASES), index = phase id. */
export const BUS_PHASE_NAMES: readonly string[] = [
  'arbitration',
  'address',
  'dual address',
  'attribute',
  'turnaround',
  'wait',
  'data',
  'stop',
  'idle',
  'split response',
  'bus idle',
];

/** Bus cycle categories (NICSIM_BUS_CATEGORIES), index = category id. */
export const BUS_CATEGORY_NAMES: readonly string[] = [
  'packet content',
  'network headers',
  'application headers',
  'descriptors and ring indices',
  'other devices',
  'arbitration',
  'address',
  'wait/stall',
  'retry',
  'turnaround',
  'idle',
];

export const P = {
  SendBdFetch: 0,
  SendDataFetch: 1,
  RecvBdFetch: 2,
  RecvDataWrite: 3,
  ReturnBdWrite: 4,
  SendConsumerWrite: 5,
  ReturnProducerWrite: 6,
  MailboxPio: 7,
  DiskTransfer: 8,
  RegisterRead: 9,
} as const;

/** Bus phase ids (NICSIM_BUS_PHASES). */
export const BP = {
  Arbitration: 0,
  Address: 1,
  DualAddress: 2,
  Attribute: 3,
  Turnaround: 4,
  Wait: 5,
  Data: 6,
  Stop: 7,
  Idle: 8,
  SplitResponse: 9,
  BusIdle: 10,
} as const;

/** Bus cycle category ids (NICSIM_BUS_CATEGORIES). */
export const BC = {
  Content: 0,
  NetworkHeaders: 1,
  AppHeaders: 2,
  Descriptors: 3,
  OtherDevices: 4,
  Arbitration: 5,
  Address: 6,
  Wait: 7,
  Retry: 8,
  Turnaround: 9,
  Idle: 10,
} as const;

/** The six colour groups used by every view (legend order). */
export type PurposeGroup =
  'descriptor' | 'dataFetch' | 'dataWrite' | 'returnBd' | 'index' | 'mailbox' | 'disk';

export const PURPOSE_GROUP: readonly PurposeGroup[] = [
  'descriptor',
  'dataFetch',
  'descriptor',
  'dataWrite',
  'returnBd',
  'index',
  'index',
  'mailbox',
  'disk',
  'index',
];

export const GROUP_LABELS: Record<PurposeGroup, string> = {
  descriptor: 'descriptor fetch',
  dataFetch: 'data fetch (send)',
  dataWrite: 'data write (receive)',
  returnBd: 'return descriptor',
  index: 'index write',
  mailbox: 'mailbox write',
  disk: 'disk transfer',
};

/** Direction of the data a purpose carries across the bus. */
export function purposeTowardsNic(purpose: number): boolean {
  return (
    purpose === P.SendBdFetch ||
    purpose === P.SendDataFetch ||
    purpose === P.RecvBdFetch ||
    purpose === P.MailboxPio
  );
}

export const RING_NAMES: readonly string[] = ['send', 'receive', 'return'];
export const COPY_NAMES: readonly string[] = ['host', 'NIC'];
export const MAILBOX_NAMES: readonly string[] = [
  'send producer',
  'receive producer',
  'return consumer',
  'interrupt ack',
];
export const DIRECTION_NAMES: readonly string[] = ['send', 'receive', 'bidirectional'];

export function kindName(kind: number): string {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}

/** Components that belong to one NIC (and its driver, wire and peer). */
const PER_NIC = new Set<number>([
  C.Driver,
  C.Nic,
  C.DmaRead,
  C.DmaWrite,
  C.MacTx,
  C.MacRx,
  C.WireTx,
  C.WireRx,
  C.Peer,
]);

/** "DMA read", "NIC 2 DMA read", "NIC 2", "peer 2", "host bridge (split completions)". */
export function componentLabel(c: number): string {
  const kind = componentKind(c);
  const label = COMPONENT_LABELS[kind] ?? `component ${c}`;
  const instance = componentInstance(c);
  if (instance === 0) return label;
  if (kind === C.Nic) return `NIC ${instance + 1}`;
  if (kind === C.Peer) return `peer ${instance + 1}`;
  if (kind === C.HostBridge && instance === 1) return 'host bridge (split completions)';
  if (PER_NIC.has(kind)) return `NIC ${instance + 1} ${label}`;
  return `${label} ${instance + 1}`;
}

/**
 * The Tigon firmware's events (Table 3.1) in event-register bit order (core-cpp/nic/tigon/
 * firmware.hpp; checked against the wasm build's tigonInfo()). PRI picks the highest set bit.
 */
export const TIGON_EVENTS: readonly { name: string; label: string; short: string }[] = [
  { name: 'SendDataReady', label: 'Send Data Ready', short: 'SDR' },
  { name: 'ReceiveComplete', label: 'Receive Complete', short: 'RC' },
  { name: 'SendBdReady', label: 'Send Buffer Descriptor Ready', short: 'SBDR' },
  { name: 'ReceiveBdReady', label: 'Receive Buffer Descriptor Ready', short: 'RBDR' },
  { name: 'Mailbox', label: 'Mailbox', short: 'MB' },
  { name: 'UpdateSendConsumer', label: 'Update Send Consumer', short: 'USC' },
  { name: 'UpdateReturnProducer', label: 'Update Receive Return Producer', short: 'URRP' },
  { name: 'DmaReadComplete', label: 'DMA Read Complete', short: 'DRC' },
  { name: 'DmaWriteComplete', label: 'DMA Write Complete', short: 'DWC' },
];

/** Handler code paths (NICSIM_TIGON_PATHS), index = path id in TigonHandler records. */
export const TIGON_PATHS: readonly string[] = [
  'MailboxRead',
  'SendBdFetch',
  'SendBdIdle',
  'ReceiveBdFetch',
  'ReceiveBdIdle',
  'ReadDoneSendBds',
  'ReadDoneReceiveBds',
  'ReadDoneSendData',
  'SendData',
  'SendDataWait',
  'SendConsumerDma',
  'SendConsumerLocal',
  'Receive',
  'ReceiveNoBuffer',
  'ReturnProducerDma',
  'WriteDoneData',
  'WriteDoneReturnBd',
  'WriteDoneIndex',
];

function tigonBits(bits: number): string {
  const out: string[] = [];
  for (let i = TIGON_EVENTS.length - 1; i >= 0; i--)
    if (bits & (1 << i)) out.push(TIGON_EVENTS[i]!.short);
  return out.length ? out.join(' ') : 'none';
}

export function purposeName(p: number): string {
  return PURPOSE_NAMES[p] ?? `purpose ${p}`;
}

function causes(bits: number): string {
  const out: string[] = [];
  if (bits & 1) out.push('send');
  if (bits & 2) out.push('receive');
  return out.length ? out.join('+') : String(bits);
}

/** Renders one field value for humans, following the kind's field doc. */
export function formatField(doc: FieldDoc, v: number): string {
  const f = doc.format;
  if (Array.isArray(f)) return f[v] ?? String(v);
  switch (f) {
    case 'component':
      return componentLabel(v);
    case 'purpose':
      return purposeName(v);
    case 'ring':
      return `${RING_NAMES[v] ?? v} ring`;
    case 'copy':
      return COPY_NAMES[v] ?? String(v);
    case 'mailbox':
      return MAILBOX_NAMES[v] ?? String(v);
    case 'direction':
      return DIRECTION_NAMES[v] ?? String(v);
    case 'causes':
      return causes(v);
    case 'bytes':
      return `${v} B`;
    case 'busPhase':
      return BUS_PHASE_NAMES[v] ?? String(v);
    case 'busCategory':
      return BUS_CATEGORY_NAMES[v] ?? String(v);
    case 'tigonEvent':
      return TIGON_EVENTS[v]?.label ?? String(v);
    case 'tigonPath':
      return TIGON_PATHS[v] ?? String(v);
    case 'tigonBits':
      return tigonBits(v);
    default:
      return String(v);
  }
}

/** Named, rendered fields of a record, e.g. [["ring","send ring"],["copy","host"],...]. */
export function describeFields(
  kind: number,
  values: readonly number[],
  component?: number,
): Array<[string, string]> {
  // BusRequest: the core records the requesting master as the record's component and the packet
  // in field a (the kind list's doc says a=master); read whichever the record carries.
  if (kind === K.BusRequest && component !== undefined && componentKind(component) !== C.Bus)
    return [['packet', String(values[0] ?? 0)]];
  const doc = TRACE_KINDS[kind];
  if (!doc) return values.map((v, i) => ['abcde'[i]!, String(v)]);
  const out: Array<[string, string]> = [];
  doc.fields.forEach((fd, i) => {
    if (fd) out.push([fd.name, formatField(fd, values[i] ?? 0)]);
  });
  if (kind === K.HostCpuBusy) {
    const dur = (values[1] ?? 0) + (values[2] ?? 0) * 2 ** 32;
    return [out[0]!, ['duration', `${dur} ps`]];
  }
  return out;
}
