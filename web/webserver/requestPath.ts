// One web request's path through the full-system server (the thesis §4.1.1, Figs 4.1 and 4.2), from
// the trace records the core emits for it: the client's ask (WebAsk, with the request's frame),
// the frame's way in (PeerTxStart, MacRxDone, the receive DMA, HostDeliver), the server's work
// (WebServe, DiskRead, WebSend), the driver's segments and their Fig 4.11 commands (WebSegment,
// CacheCommand), the NIC's DMA reads and cache appends (DmaQueued/DmaDone, BusTxnStart/End,
// NicCacheAppend) and the frames out (MacTxStart, PeerRxDone, WebResponseDone).
//
// Nothing here models the server: every time and byte count is a record's. Records belong to a
// request by the ids they carry (request, packet, DMA, bus transaction); a bus burst carries what
// the DMA its cause ids lead back to carries, and a DMA read what the cache command its causes
// lead to asks for, else the packet's descriptor of its byte count (Fig 4.12: the append_mm of
// the segment's header bytes is its headers). No queue order is assumed.
import { K, P } from '../trace/traceKinds';
import {
  BusTxnEnd,
  BusTxnStart,
  CacheCommand,
  DiskRead,
  DmaDone,
  DmaQueued,
  HostDeliver,
  MacRxDone,
  MacTxStart,
  NicCacheAppend,
  PeerRxDone,
  PeerTxStart,
  WebAsk,
  WebResponseDone,
  WebSegment,
  WebSend,
  WebServe,
} from '../trace/records.gen';
import { countUpTo, type Trace } from '../trace/trace';

/** What a DMA read or a bus transaction of the request carries. */
export type Cargo = 'request' | 'descriptors' | 'headers' | 'content' | 'insert';

/** Steps, in the order of Figs 4.1/4.2 (a request shows those its records give). */
export type StepId =
  | 'in'
  | 'toMemory'
  | 'interrupt'
  | 'queued'
  | 'serve'
  | 'disk'
  | 'toTcp'
  | 'waitNic'
  | 'post'
  | 'waitRing'
  | 'fetch'
  | 'dma'
  | 'append'
  | 'wire'
  | 'done';

export interface RequestStep {
  id: StepId;
  /** The step's number in Fig 4.1 (no cache, 1–4) or Fig 4.2 (with a cache, 1–5). */
  fig: number;
  title: string;
  detail: string;
  /** ps; an instant has end === start. */
  start: number;
  end: number;
  /** The request waits (for the server process, or behind earlier responses on its NIC). */
  wait: boolean;
}

export interface TimedBytes {
  time: number;
  bytes: number;
}

/** A transfer of this request on the bus or the wire (start and end in ps). */
export interface Transfer {
  start: number;
  end: number;
  bytes: number;
  cargo: Cargo;
}

/** A DMA read of one of the request's segments, queued then done. */
interface DmaRead {
  queued: number;
  done: number;
  bytes: number;
  cargo: Cargo;
  packet: number;
}

/** What the driver's descriptors asked for (CacheCommand and WebSegment records). */
export interface RequestBytes {
  segments: number;
  /** TCP/IP and HTTP headers, by nic_pkt_append_mm. */
  headers: number;
  /** Content in the segments (every byte, from memory or the NIC cache). */
  content: number;
  /** Content by nic_pkt_append_mm: it crosses the bus into the transmit buffer. */
  contentFromMemory: number;
  /** Content by nic_cache_insert: it crosses the bus once, into the NIC cache. */
  inserted: number;
  /** Content by nic_pkt_append_cache (blocks cached before, or just inserted). */
  appendedFromCache: number;
  /** Descriptors by command: append_mm, append_cache (the cache references), cache_insert. */
  descriptors: [number, number, number];
}

export interface RequestPath {
  /** The request's index in the trace (WebServe field a). */
  request: number;
  nic: number;
  file: number | null;
  /** The file's size (WebServe), else the response's content (WebResponseDone). */
  fileBytes: number | null;
  connection: number | null;
  /** OS file cache (WebServe): true hit, false miss (a disk read), null not in the window. */
  fileCacheHit: boolean | null;
  /** sendfile or write (WebSend). */
  api: 'sendfile' | 'write' | null;
  copied: number;
  /** Segments TCP cut the response into (WebSend). */
  packets: number | null;
  /** First and last record of the request in the window. */
  start: number;
  end: number;
  /** The client's ask is in the trace window (the request is followed from its start). */
  asked: boolean;
  /** The client's ask and the whole response are both in the trace window. */
  complete: boolean;
  steps: RequestStep[];
  bytes: RequestBytes;
  /** The request's DMA reads, in the order queued. */
  dmas: DmaRead[];
  /** Its bus transactions (request frame in, descriptors, headers, content, inserts). */
  bus: Transfer[];
  /** Its frames on the wire: the request in (cargo 'request'), the segments out. */
  frames: Transfer[];
  /** The NIC's append_cache copies (NicCacheAppend). */
  appends: TimedBytes[];
}

export interface RequestPathIndex {
  /** In the order of their first record. */
  requests: RequestPath[];
  byRequest: Map<number, RequestPath>;
  /** The run has a NIC cache in use (some descriptor is an append_cache or a cache_insert). */
  cacheUsed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Building

interface Builder {
  request: number;
  nic: number;
  first: number;
  last: number;
  file: number | null;
  fileBytes: number | null;
  connection: number | null;
  hit: boolean | null;
  api: 'sendfile' | 'write' | null;
  copied: number;
  packets: number | null;
  t: Partial<Record<TimeKey, number>>;
  bytes: RequestBytes;
  dmas: DmaRead[];
  bus: Transfer[];
  frames: Transfer[];
  appends: TimedBytes[];
  responseBytes: number | null;
}

type TimeKey =
  | 'ask'
  | 'inStart'
  | 'inEnd'
  | 'memStart'
  | 'memEnd'
  | 'deliver'
  | 'serve'
  | 'diskStart'
  | 'diskEnd'
  | 'toTcp'
  | 'postFirst'
  | 'postLast'
  | 'fetchStart'
  | 'fetchEnd'
  | 'dmaStart'
  | 'dmaEnd'
  | 'appendStart'
  | 'appendEnd'
  | 'wireStart'
  | 'wireEnd'
  | 'done';

function emptyBytes(): RequestBytes {
  return {
    segments: 0,
    headers: 0,
    content: 0,
    contentFromMemory: 0,
    inserted: 0,
    appendedFromCache: 0,
    descriptors: [0, 0, 0],
  };
}

/** A descriptor that moves bytes over the bus (append_mm, cache_insert) and the DMA it claimed. */
interface Descriptor {
  rec: number;
  bytes: number;
  cargo: Cargo;
  claimed: boolean;
}

/** Per-segment state: its descriptors that a DMA read moves. */
interface Segment {
  request: number;
  headerBytes: number;
  headerSeen: boolean;
  descriptors: Descriptor[];
}

/** Records a cause chain may pass through (bus grant, mailbox, descriptor fetch …). */
const CAUSE_HOPS = 16;

const dmaKey = (component: number, id: number) => component * 4294967296 + id;

export function requestPathIndex(trace: Trace): RequestPathIndex {
  const builders = new Map<number, Builder>();
  const frameOf = new Map<number, number>(); // request frame -> request
  const segments = new Map<number, Segment>(); // segment packet -> its pairing state
  const dmaOf = new Map<number, { b: Builder; dma: DmaRead | null; fetch: boolean }>();
  const txnOf = new Map<number, { b: Builder; tr: Transfer }>();
  const recOfId = new Map<number, number>(); // record id -> index
  const dmaAt = new Map<number, DmaRead>(); // DmaQueued record -> the data DMA read
  const commandAt = new Map<number, Descriptor>(); // CacheCommand record -> its descriptor
  const frameOut = new Map<number, Transfer>();
  const frameIn = new Map<number, Transfer>();
  let cacheUsed = false;

  const get = (request: number, t: number, nic = 0): Builder => {
    let b = builders.get(request);
    if (!b) {
      b = {
        request,
        nic,
        first: t,
        last: t,
        file: null,
        fileBytes: null,
        connection: null,
        hit: null,
        api: null,
        copied: 0,
        packets: null,
        t: {},
        bytes: emptyBytes(),
        dmas: [],
        bus: [],
        frames: [],
        appends: [],
        responseBytes: null,
      };
      builders.set(request, b);
    }
    b.last = Math.max(b.last, t);
    return b;
  };
  const touch = (b: Builder, t: number) => {
    b.last = Math.max(b.last, t);
  };
  const firstTime = (b: Builder, key: TimeKey, t: number) => {
    if (b.t[key] === undefined) b.t[key] = t;
  };
  const ofFrame = (packet: number) => {
    const r = frameOf.get(packet);
    return r === undefined ? undefined : builders.get(r);
  };
  const ofSegment = (packet: number) => {
    const s = segments.get(packet);
    return s ? { s, b: builders.get(s.request)! } : undefined;
  };
  /** The first record with an item of ours that record i's causes lead back to. */
  const causeOf = <V>(i: number, at: Map<number, V>): V | undefined => {
    let c = recOfId.get(trace.cause[i]!);
    for (let hop = 0; c !== undefined && hop < CAUSE_HOPS; hop++) {
      const v = at.get(c);
      if (v !== undefined) return v;
      c = recOfId.get(trace.cause[c]!);
    }
    return undefined;
  };
  const causeDma = (i: number) => causeOf(i, dmaAt);
  /**
   * What a data DMA read carries: the cache command its causes lead to, else the packet's
   * unclaimed descriptor of its byte count (the command and bytes the records carry).
   */
  const descriptorCargo = (i: number, s: Segment, bytes: number): Cargo => {
    // (A cause chain through a batch of descriptors posted at once names the batch's last
    // command: only one of this packet's, unclaimed and of this size, counts.)
    let d = causeOf(i, commandAt);
    if (!d || d.claimed || d.bytes !== bytes || !s.descriptors.includes(d))
      d = s.descriptors.find((x) => !x.claimed && x.bytes === bytes);
    if (!d) return 'content';
    d.claimed = true;
    return d.cargo;
  };

  for (let i = 0; i < trace.length; i++) {
    const k = trace.kind[i]!;
    const t = trace.time[i]!;
    recOfId.set(trace.id[i]!, i);
    switch (k) {
      case K.WebAsk: {
        const request = WebAsk.request(trace, i);
        const b = get(request, t, WebAsk.nic(trace, i));
        b.t.ask = t;
        b.connection = WebAsk.connection(trace, i);
        frameOf.set(WebAsk.packet(trace, i), request);
        break;
      }
      case K.PeerTxStart: {
        const packet = PeerTxStart.packet(trace, i);
        const b = ofFrame(packet);
        if (b) {
          touch(b, t);
          firstTime(b, 'inStart', t);
          const tr: Transfer = {
            start: t,
            end: Infinity,
            bytes: PeerTxStart.frameBytes(trace, i),
            cargo: 'request',
          };
          b.frames.push(tr);
          frameIn.set(packet, tr);
        }
        break;
      }
      case K.MacRxDone: {
        const packet = MacRxDone.packet(trace, i);
        const b = ofFrame(packet);
        if (b) {
          touch(b, t);
          b.t.inEnd = t;
          const tr = frameIn.get(packet);
          if (tr) tr.end = t;
        }
        break;
      }
      case K.DmaQueued:
      case K.DmaDone: {
        const queued = k === K.DmaQueued;
        const purpose = queued ? DmaQueued.purpose(trace, i) : DmaDone.purpose(trace, i);
        const packet = queued ? DmaQueued.packet(trace, i) : DmaDone.packet(trace, i);
        const key = dmaKey(
          trace.component[i]!,
          queued ? DmaQueued.dma(trace, i) : DmaDone.dma(trace, i),
        );
        if (purpose === P.RecvDataWrite) {
          const b = ofFrame(packet);
          if (!b) break;
          touch(b, t);
          if (queued) firstTime(b, 'memStart', t);
          else b.t.memEnd = t;
        } else if (purpose === P.SendBdFetch) {
          if (queued) {
            const seg = ofSegment(packet);
            if (!seg) break;
            touch(seg.b, t);
            firstTime(seg.b, 'fetchStart', t);
            dmaOf.set(key, { b: seg.b, dma: null, fetch: true });
          } else {
            const o = dmaOf.get(key);
            if (!o) break;
            dmaOf.delete(key);
            touch(o.b, t);
            o.b.t.fetchEnd = t;
          }
        } else if (purpose === P.SendDataFetch) {
          if (queued) {
            const seg = ofSegment(packet);
            if (!seg) break;
            touch(seg.b, t);
            firstTime(seg.b, 'dmaStart', t);
            const bytes = DmaQueued.bytes(trace, i);
            const dma: DmaRead = {
              queued: t,
              done: Infinity,
              bytes,
              cargo: descriptorCargo(i, seg.s, bytes),
              packet,
            };
            seg.b.dmas.push(dma);
            dmaOf.set(key, { b: seg.b, dma, fetch: false });
            dmaAt.set(i, dma);
          } else {
            const o = dmaOf.get(key);
            if (!o || !o.dma) break;
            dmaOf.delete(key);
            touch(o.b, t);
            o.dma.done = t;
            o.b.t.dmaEnd = t;
          }
        }
        break;
      }
      case K.BusTxnStart: {
        // The request's frame in, its segments' descriptors and data.
        const purpose = BusTxnStart.purpose(trace, i);
        const packet = BusTxnStart.packet(trace, i);
        let b: Builder | undefined;
        let cargo: Cargo | null = null;
        if (purpose === P.RecvDataWrite) {
          b = ofFrame(packet);
          cargo = 'request';
        } else if (purpose === P.SendBdFetch || purpose === P.SendDataFetch) {
          const seg = ofSegment(packet);
          b = seg?.b;
          if (b && purpose === P.SendBdFetch) cargo = 'descriptors';
          // A data burst carries what its DMA carries: the DMA its causes lead back to.
          if (b && purpose === P.SendDataFetch) cargo = causeDma(i)?.cargo ?? 'content';
        }
        if (b && cargo) {
          touch(b, t);
          const tr: Transfer = {
            start: t,
            end: Infinity,
            bytes: BusTxnStart.bytes(trace, i),
            cargo,
          };
          b.bus.push(tr);
          txnOf.set(BusTxnStart.txn(trace, i), { b, tr });
        }
        break;
      }
      case K.BusTxnEnd: {
        const txn = BusTxnEnd.txn(trace, i);
        const o = txnOf.get(txn);
        if (o) {
          txnOf.delete(txn);
          o.tr.end = t;
          touch(o.b, t);
        }
        break;
      }
      case K.HostDeliver: {
        const b = ofFrame(HostDeliver.packet(trace, i));
        if (b) {
          touch(b, t);
          b.t.deliver = t;
        }
        break;
      }
      case K.WebServe: {
        const nic = WebServe.nic(trace, i);
        const b = get(WebServe.request(trace, i), t, nic);
        b.nic = nic;
        b.t.serve = t;
        b.file = WebServe.file(trace, i);
        b.fileBytes = WebServe.contentBytes(trace, i);
        b.hit = WebServe.fileCache(trace, i) === 1;
        break;
      }
      case K.DiskRead: {
        const b = get(DiskRead.request(trace, i), t);
        if (DiskRead.phase(trace, i) === 0) b.t.diskStart = t;
        else b.t.diskEnd = t;
        break;
      }
      case K.WebSend: {
        const nic = WebSend.nic(trace, i);
        const b = get(WebSend.request(trace, i), t, nic);
        b.nic = nic;
        b.t.toTcp = t;
        b.packets = WebSend.packets(trace, i);
        b.api = WebSend.api(trace, i) === 1 ? 'write' : 'sendfile';
        b.copied = WebSend.bytesCopied(trace, i);
        break;
      }
      case K.WebSegment: {
        const request = WebSegment.request(trace, i);
        const nic = WebSegment.nic(trace, i);
        const headerBytes = WebSegment.headerBytes(trace, i);
        const b = get(request, t, nic);
        b.nic = nic;
        firstTime(b, 'postFirst', t);
        b.t.postLast = t;
        b.bytes.segments++;
        b.bytes.headers += headerBytes;
        b.bytes.content += WebSegment.contentBytes(trace, i);
        segments.set(WebSegment.packet(trace, i), {
          request,
          headerBytes,
          headerSeen: false,
          descriptors: [],
        });
        break;
      }
      case K.CacheCommand: {
        const seg = ofSegment(CacheCommand.packet(trace, i));
        if (!seg) break;
        const { s, b } = seg;
        touch(b, t);
        const command = CacheCommand.command(trace, i);
        const bytes = CacheCommand.bytes(trace, i);
        if (command <= 2) b.bytes.descriptors[command as 0 | 1 | 2]++;
        let cargo: Cargo | null = null;
        if (command === 0) {
          // Fig 4.12 BD1: the packet's append_mm of its header bytes is its headers.
          if (!s.headerSeen && bytes === s.headerBytes) {
            s.headerSeen = true;
            cargo = 'headers';
          } else {
            b.bytes.contentFromMemory += bytes;
            cargo = 'content';
          }
        } else if (command === 1) {
          cacheUsed = true;
          b.bytes.appendedFromCache += bytes;
        } else if (command === 2) {
          cacheUsed = true;
          b.bytes.inserted += bytes;
          cargo = 'insert';
        }
        if (cargo) {
          const d = { rec: i, bytes, cargo, claimed: false };
          s.descriptors.push(d);
          commandAt.set(i, d);
        }
        break;
      }
      case K.NicCacheAppend: {
        const seg = ofSegment(NicCacheAppend.packet(trace, i));
        if (!seg) break;
        touch(seg.b, t);
        firstTime(seg.b, 'appendStart', t);
        seg.b.t.appendEnd = t;
        seg.b.appends.push({ time: t, bytes: NicCacheAppend.bytes(trace, i) });
        break;
      }
      case K.MacTxStart: {
        const packet = MacTxStart.packet(trace, i);
        const seg = ofSegment(packet);
        if (!seg) break;
        touch(seg.b, t);
        firstTime(seg.b, 'wireStart', t);
        const tr: Transfer = {
          start: t,
          end: Infinity,
          bytes: MacTxStart.frameBytes(trace, i),
          cargo: 'content',
        };
        seg.b.frames.push(tr);
        frameOut.set(packet, tr);
        break;
      }
      case K.PeerRxDone: {
        const packet = PeerRxDone.packet(trace, i);
        const seg = ofSegment(packet);
        if (!seg) break;
        touch(seg.b, t);
        seg.b.t.wireEnd = t;
        const tr = frameOut.get(packet);
        if (tr) tr.end = t;
        break;
      }
      case K.WebResponseDone: {
        const b = get(WebResponseDone.request(trace, i), t, WebResponseDone.nic(trace, i));
        b.t.done = t;
        b.responseBytes = WebResponseDone.contentBytes(trace, i);
        if (b.connection === null) b.connection = WebResponseDone.connection(trace, i);
        break;
      }
      default:
        break;
    }
  }

  const requests = [...builders.values()]
    .map((b) => finish(b, cacheUsed))
    .sort((x, y) => x.start - y.start || x.request - y.request);
  return { requests, byRequest: new Map(requests.map((r) => [r.request, r])), cacheUsed };
}

const indexCache = new WeakMap<Trace, RequestPathIndex>();

/** The index of a trace, built once. */
export function cachedRequestPathIndex(trace: Trace): RequestPathIndex {
  let ix = indexCache.get(trace);
  if (!ix) {
    ix = requestPathIndex(trace);
    indexCache.set(trace, ix);
  }
  return ix;
}

// ---------------------------------------------------------------------------------------------
// Steps

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Bytes as the step list writes them: "1,448 B", "40.1 KB". */
export function bytesLabel(n: number): string {
  if (Math.abs(n) >= 1e6) return `${+(n / 1e6).toPrecision(3)} MB`;
  if (Math.abs(n) >= 1e4) return `${+(n / 1e3).toPrecision(3)} KB`;
  return `${Math.round(n).toLocaleString('en-US')} B`;
}

function finish(b: Builder, cacheUsed: boolean): RequestPath {
  const t = b.t;
  const steps: RequestStep[] = [];
  const y = b.bytes;
  const fig4 = (cache: number) => (cacheUsed ? cache : 4);
  const add = (
    id: StepId,
    fig: number,
    start: number | undefined,
    end: number | undefined,
    title: string,
    detail: string,
    wait = false,
  ) => {
    if (start === undefined && end === undefined) return;
    const s = start ?? end!;
    steps.push({ id, fig, title, detail, start: s, end: Math.max(s, end ?? s), wait });
  };
  const file = b.file !== null ? `file ${b.file}` : 'the file';
  const nicName = `NIC ${b.nic + 1}`;

  add(
    'in',
    1,
    t.ask ?? t.inStart,
    t.inEnd,
    'Request in: the client’s GET crosses the wire',
    `${b.frames.find((f) => f.cargo === 'request')?.bytes ?? '—'}-byte frame to ${nicName}` +
      (b.connection !== null ? `, persistent connection ${b.connection}` : ''),
  );
  add(
    'toMemory',
    1,
    t.memStart,
    t.memEnd,
    'The NIC DMA-writes the request into main memory',
    'across the PCI bus, into a receive buffer',
  );
  add(
    'interrupt',
    2,
    t.memEnd ?? t.deliver,
    t.deliver,
    'Interrupt: the driver and TCP/IP take the request',
    'at the next interrupt, with the other frames that arrived',
  );
  if (t.deliver !== undefined && t.serve !== undefined && t.serve > t.deliver)
    add(
      'queued',
      2,
      t.deliver,
      t.serve,
      'Waits for the server process',
      'the one CPU is busy with earlier requests, segments and interrupts',
      true,
    );
  const hit =
    b.hit === null
      ? ''
      : b.hit
        ? 'file-cache hit: the file is in main memory'
        : 'file-cache miss: the file must come from disk';
  add(
    'serve',
    3,
    t.serve,
    t.diskStart ?? t.toTcp,
    `The server looks up ${file} and builds the HTTP header`,
    [b.fileBytes !== null ? bytesLabel(b.fileBytes) : '', hit].filter(Boolean).join(' · '),
  );
  add(
    'disk',
    3,
    t.diskStart,
    t.diskEnd,
    'Disk read into the file cache',
    'the single server process waits for the disk',
  );
  add(
    'toTcp',
    3,
    t.toTcp,
    t.toTcp,
    b.api === 'write'
      ? 'write(): the response is copied to TCP'
      : 'sendfile(): the response is handed to TCP',
    [
      b.packets !== null ? `TCP cuts it into ${plural(b.packets, 'segment')}` : '',
      b.api === 'write' && b.copied > 0 ? `${bytesLabel(b.copied)} copied into the kernel` : '',
    ]
      .filter(Boolean)
      .join(' · '),
  );
  if (t.toTcp !== undefined && t.postFirst !== undefined && t.postFirst > t.toTcp)
    add(
      'waitNic',
      3,
      t.toTcp,
      t.postFirst,
      `Waits: earlier responses on ${nicName} go first`,
      'the driver posts one response after another',
      true,
    );
  const [mm, ac, ins] = y.descriptors;
  add(
    'post',
    3,
    t.postFirst,
    t.postLast,
    'TCP/IP headers written; the driver posts send descriptors',
    [
      `${mm} × append_mm`,
      ac > 0 ? `${ac} × append_cache` : '',
      ins > 0 ? `${ins} × cache_insert` : '',
    ]
      .filter(Boolean)
      .join(', ') + ` for ${plural(y.segments, 'segment')}`,
  );
  const nicStart = t.fetchStart ?? t.dmaStart;
  if (t.postLast !== undefined && nicStart !== undefined && nicStart > t.postLast)
    add(
      'waitRing',
      3,
      t.postLast,
      nicStart,
      `Waits in the send ring of ${nicName}`,
      'the NIC works through the descriptors posted before',
      true,
    );
  add(
    'fetch',
    4,
    t.fetchStart,
    t.fetchEnd,
    'The NIC fetches the descriptors',
    'DMA read of the send ring',
  );
  const onBus = y.headers + y.contentFromMemory + y.inserted;
  add(
    'dma',
    4,
    t.dmaStart,
    t.dmaEnd,
    y.contentFromMemory > 0 || !cacheUsed
      ? 'Headers and content cross the bus (DMA read)'
      : y.inserted > 0
        ? 'Headers cross the bus; uncached blocks go into the NIC cache'
        : 'Only the headers cross the bus',
    `${bytesLabel(onBus)}: headers ${bytesLabel(y.headers)}` +
      (y.contentFromMemory > 0 ? `, content ${bytesLabel(y.contentFromMemory)}` : '') +
      (y.inserted > 0 ? `, cache_insert ${bytesLabel(y.inserted)}` : ''),
  );
  add(
    'append',
    5,
    t.appendStart,
    t.appendEnd,
    'The NIC appends cached content to the headers',
    `${bytesLabel(y.appendedFromCache)} from its own memory, no bus`,
  );
  const out = b.frames.filter((f) => f.cargo !== 'request').length;
  add(
    'wire',
    fig4(5),
    t.wireStart,
    t.wireEnd,
    'Frames on the wire to the client',
    `${plural(out, 'frame')}` + (b.packets !== null ? ` of ${b.packets}` : ''),
  );
  add(
    'done',
    fig4(5),
    t.done,
    t.done,
    'The client has the whole response',
    b.responseBytes !== null ? `${bytesLabel(b.responseBytes)} of content` : '',
  );
  steps.sort((p, q) => p.start - q.start || ORDER.indexOf(p.id) - ORDER.indexOf(q.id));
  const byStart = (x: { start: number }, z: { start: number }) => x.start - z.start;
  return {
    request: b.request,
    nic: b.nic,
    file: b.file,
    fileBytes: b.fileBytes ?? b.responseBytes,
    connection: b.connection,
    fileCacheHit: b.hit,
    api: b.api,
    copied: b.copied,
    packets: b.packets,
    start: b.first,
    end: b.last,
    asked: t.ask !== undefined,
    complete: t.ask !== undefined && t.done !== undefined,
    steps,
    bytes: y,
    dmas: b.dmas,
    bus: b.bus.sort(byStart),
    frames: b.frames.sort(byStart),
    appends: b.appends,
  };
}

const ORDER: StepId[] = [
  'in',
  'toMemory',
  'interrupt',
  'queued',
  'serve',
  'disk',
  'toTcp',
  'waitNic',
  'post',
  'waitRing',
  'fetch',
  'dma',
  'append',
  'wire',
  'done',
];

// ---------------------------------------------------------------------------------------------
// At the cursor

export type StepState = 'done' | 'active' | 'pending';

export function stepState(s: RequestStep, t: number): StepState {
  if (t < s.start) return 'pending';
  if (t > s.end || (s.end === s.start && t > s.start)) return 'done';
  return 'active';
}

/**
 * The steps to highlight at time t: those in progress, else the last one begun (the request
 * rests there until its next step), else none (before its first step).
 */
export function currentSteps(path: RequestPath, t: number): StepId[] {
  const active = path.steps.filter((s) => stepState(s, t) === 'active').map((s) => s.id);
  if (active.length) return active;
  let last: RequestStep | null = null;
  for (const s of path.steps) if (s.start <= t) last = s;
  return last ? [last.id] : [];
}

/** Bytes over the bus for the request, up to time t (DMA reads done, cache references taken). */
export interface Crossed {
  headers: number;
  content: number;
  inserted: number;
  /** append_cache commands the NIC took (each a cache reference in a descriptor). */
  references: number;
  /** Content the NIC appended from its cache. */
  fromCache: number;
  framesSent: number;
}

export function crossedUpTo(path: RequestPath, t: number): Crossed {
  const out: Crossed = {
    headers: 0,
    content: 0,
    inserted: 0,
    references: 0,
    fromCache: 0,
    framesSent: 0,
  };
  for (const d of path.dmas) {
    if (d.done > t) continue;
    if (d.cargo === 'headers') out.headers += d.bytes;
    else if (d.cargo === 'insert') out.inserted += d.bytes;
    else out.content += d.bytes;
  }
  for (const a of path.appends) {
    if (a.time > t) continue;
    out.references++;
    out.fromCache += a.bytes;
  }
  for (const f of path.frames) if (f.cargo !== 'request' && f.end <= t) out.framesSent++;
  return out;
}

/** The request's transfers under way at t (on the bus or the wire), with their progress 0–1. */
export function transfersAt(
  list: readonly Transfer[],
  t: number,
): Array<Transfer & { progress: number }> {
  const out: Array<Transfer & { progress: number }> = [];
  for (const x of list) {
    if (x.start > t) break;
    if (t <= x.end && Number.isFinite(x.end))
      out.push({ ...x, progress: x.end > x.start ? (t - x.start) / (x.end - x.start) : 1 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Which request

/**
 * The request to follow at time t: among those whose ask is in the window, the oldest one in
 * flight; else the next to start; else the last one. Requests begun before the window are
 * chosen only when the window holds no other.
 */
export function requestAt(ix: RequestPathIndex, t: number): RequestPath | null {
  const { pool, starts, blockEnd } = requestPool(ix);
  if (!pool.length) return null;
  const n = countUpTo(starts, t);
  // The oldest in flight: skip whole blocks of POOL_BLOCK requests that all ended before t.
  for (let b = 0; b * POOL_BLOCK < n; b++) {
    if (blockEnd[b]! < t) continue;
    for (let i = b * POOL_BLOCK; i < Math.min(n, (b + 1) * POOL_BLOCK); i++)
      if (pool[i]!.end >= t) return pool[i]!;
  }
  return pool[n] ?? pool[pool.length - 1]!;
}

const POOL_BLOCK = 64;

interface RequestPool {
  pool: RequestPath[];
  starts: Float64Array;
  /** Latest end among each block of POOL_BLOCK requests. */
  blockEnd: Float64Array;
}

const pools = new WeakMap<RequestPathIndex, RequestPool>();

/** The requests requestAt chooses among, with their starts, built once per index. */
function requestPool(ix: RequestPathIndex): RequestPool {
  let p = pools.get(ix);
  if (p) return p;
  const whole = ix.requests.filter((r) => r.asked);
  const pool = whole.length ? whole : ix.requests;
  const blockEnd = new Float64Array(Math.ceil(pool.length / POOL_BLOCK)).fill(-Infinity);
  pool.forEach((r, i) => {
    const b = Math.floor(i / POOL_BLOCK);
    blockEnd[b] = Math.max(blockEnd[b]!, r.end);
  });
  p = { pool, starts: Float64Array.from(pool.map((r) => r.start)), blockEnd };
  pools.set(ix, p);
  return p;
}

/** The request before or after `from` in the window's order (null at either end). */
export function neighbour(
  ix: RequestPathIndex,
  from: RequestPath,
  dir: -1 | 1,
): RequestPath | null {
  const i = ix.requests.indexOf(from);
  return ix.requests[i + dir] ?? null;
}

// ---------------------------------------------------------------------------------------------
// The diagram (Figs 4.1/4.2): which parts of the server a step lights

export type Part =
  | 'client'
  | 'wireIn'
  | 'wireOut'
  | 'rxBuffer'
  | 'txBuffer'
  | 'nicCache'
  | 'dma'
  | 'bus'
  | 'disk'
  | 'http'
  | 'tcp'
  | 'driver'
  | 'memRequest'
  | 'memFile'
  | 'memHeaders'
  | 'memRing'
  | 'toTxBuffer'
  | 'insertPath'
  | 'appendPath';

export const STEP_PARTS: Record<StepId, readonly Part[]> = {
  in: ['client', 'wireIn', 'rxBuffer'],
  toMemory: ['rxBuffer', 'dma', 'bus', 'memRequest'],
  interrupt: ['driver', 'tcp', 'memRequest'],
  queued: ['http'],
  serve: ['http', 'memFile', 'memHeaders'],
  disk: ['disk', 'bus', 'memFile'],
  toTcp: ['tcp', 'memFile'],
  waitNic: ['memHeaders'],
  post: ['tcp', 'driver', 'memHeaders', 'memRing'],
  waitRing: ['memRing'],
  fetch: ['memRing', 'bus', 'dma'],
  dma: ['memHeaders', 'bus', 'dma', 'toTxBuffer', 'txBuffer'],
  append: ['nicCache', 'appendPath', 'txBuffer'],
  wire: ['txBuffer', 'wireOut', 'client'],
  done: ['client'],
};

/**
 * The parts to light at time t: those of the current steps ('wait' for a step that waits),
 * with the DMA step's content source: main memory's file (append_mm) and the NIC cache when the
 * step inserts blocks into it.
 */
export function litParts(path: RequestPath, t: number): Map<Part, 'on' | 'wait'> {
  const out = new Map<Part, 'on' | 'wait'>();
  for (const id of currentSteps(path, t)) {
    const step = path.steps.find((s) => s.id === id)!;
    const parts = [...STEP_PARTS[id]];
    if (id === 'dma') {
      if (path.bytes.contentFromMemory > 0 || path.bytes.inserted > 0) parts.push('memFile');
      if (path.bytes.inserted > 0) parts.push('insertPath', 'nicCache');
    }
    for (const p of parts) if (out.get(p) !== 'on') out.set(p, step.wait ? 'wait' : 'on');
  }
  return out;
}

/** The thesis's words for each step of Fig 4.1 (no cache) and Fig 4.2 (with one), §4.1.1. */
export function figureStepText(fig: number, cache: boolean): string {
  switch (fig) {
    case 1:
      return 'Request packets arrive at the server; the NIC DMA-writes them into main memory.';
    case 2:
      return 'The CPU reads the request: the kernel’s TCP/IP and the HTTP server act on it.';
    case 3:
      return 'The server creates the HTTP header and starts the transmission by a system call: on a file-cache hit the kernel passes TCP/IP a reference to the file cache’s buffers, on a miss a disk read comes first. TCP/IP writes its headers and the driver alerts the NIC.';
    case 4:
      return cache
        ? 'If the kernel finds the file in the NIC cache, only the headers and the cache location cross the bus by DMA; blocks not cached yet cross once, into the cache (nic_cache_insert).'
        : 'The NIC DMA-reads the TCP/IP headers, the HTTP header and the HTTP content into its buffers, computes checksums and transmits.';
    case 5:
      return 'The NIC finds the data in its own memory, appends it to the headers, computes checksums and sends.';
    default:
      return '';
  }
}

/** Short names of the steps, for the request's timeline. */
export const STEP_SHORT: Record<StepId, string> = {
  in: 'request in',
  toMemory: 'DMA to memory',
  interrupt: 'interrupt',
  queued: 'wait: server',
  serve: 'lookup, header',
  disk: 'disk read',
  toTcp: 'to TCP',
  waitNic: 'wait: NIC',
  post: 'descriptors',
  waitRing: 'wait: ring',
  fetch: 'fetch BDs',
  dma: 'DMA over bus',
  append: 'cache append',
  wire: 'on the wire',
  done: 'done',
};

export interface TimelineBar {
  id: StepId;
  row: number;
  x: number;
  w: number;
  wait: boolean;
  /** An instant: drawn as a tick. */
  instant: boolean;
}

/**
 * The request's steps as rows of a timeline over [from, to] (its first and last step), `width`
 * units wide. A step lasting less than `minW` keeps that width so it stays visible.
 */
export function timelineLayout(
  path: RequestPath,
  width: number,
  minW = 2,
): { from: number; to: number; bars: TimelineBar[]; x: (t: number) => number } {
  const from = path.steps[0]?.start ?? path.start;
  const to = Math.max(from + 1, ...path.steps.map((s) => s.end));
  const x = (t: number) => ((Math.min(to, Math.max(from, t)) - from) / (to - from)) * width;
  const bars = path.steps.map((s, row) => {
    const x0 = x(s.start);
    return {
      id: s.id,
      row,
      x: Math.min(x0, width - minW),
      w: Math.max(minW, x(s.end) - x0),
      wait: s.wait,
      instant: s.end === s.start,
    };
  });
  return { from, to, bars, x };
}

export type BytesKey = 'headers' | 'content' | 'insert' | 'refs';

export interface BytesSegment {
  key: BytesKey;
  total: number;
  soFar: number;
  /** Position and widths in `width` units: the whole segment, and the part crossed so far. */
  x: number;
  w: number;
  wSoFar: number;
}

/**
 * The request's bytes over the bus as segments of one bar: headers, content by append_mm,
 * content by cache_insert, and the cache references (append_cache descriptors of `bdBytes`
 * each). The bar's full width is the headers with the whole content, what crosses without a
 * cache; segments with nothing to carry are left out.
 */
export function busBytesLayout(
  path: RequestPath,
  crossed: Crossed,
  bdBytes: number,
  width: number,
): { segments: BytesSegment[]; scale: number; total: number; soFar: number } {
  const y = path.bytes;
  const refs = y.descriptors[1];
  const rows: Array<[BytesKey, number, number]> = [
    ['headers', y.headers, crossed.headers],
    ['content', y.contentFromMemory, crossed.content],
    ['insert', y.inserted, crossed.inserted],
    ['refs', refs * bdBytes, crossed.references * bdBytes],
  ];
  const scale = Math.max(1, y.headers + y.content + refs * bdBytes);
  let x = 0;
  const segments: BytesSegment[] = [];
  for (const [key, total, soFar] of rows) {
    if (total <= 0) continue;
    const w = (total / scale) * width;
    segments.push({ key, total, soFar, x, w, wSoFar: (Math.min(soFar, total) / scale) * width });
    x += w;
  }
  return {
    segments,
    scale,
    total: segments.reduce((s, g) => s + g.total, 0),
    soFar: segments.reduce((s, g) => s + Math.min(g.soFar, g.total), 0),
  };
}
