import { existsSync } from 'node:fs';
import { fixtureSystem } from '../engine/fixture';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K, P } from '../trace/traceKinds';
import { loadNodeCore } from '../engine/nodeCore';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { buildIndex } from '../trace/traceIndex';
import {
  highlightOf,
  packetAtCursor,
  packetIndex,
  packetOf,
  packetView,
  packetsInSlots,
  requestPackets,
} from './packetJourney';

const US = 1e6;
const udp = {
  parameters: { workload: { kind: 'udp', datagram_bytes: 18 } },
  system: fixtureSystem(),
};

function indexOf(records: RawRecord[]) {
  const trace = decodeTrace(encodeTrace(records));
  return buildIndex(trace, 0, 100 * US);
}

// One small send (18-byte datagram: a 64-byte frame with padding), two receives.
const RECORDS: RawRecord[] = [
  { time: 0, kind: K.IndexUpdate, component: C.Nic, a: 1, b: 1, c: 8, d: 0, e: 8 },
  { time: 0, kind: K.IndexUpdate, component: C.Nic, a: 2, b: 1, c: 0, d: 0, e: 8 },
  { time: 1 * US, kind: K.DriverPostSendBd, component: C.Driver, a: 5, b: 3, c: 64 },
  { time: 2 * US, kind: K.DmaQueued, component: C.DmaRead, a: 1, b: P.SendDataFetch, c: 60, d: 5 },
  { time: 2 * US, kind: K.BusRequest, component: C.Bus, a: C.DmaRead, b: 5 },
  { time: 3 * US, kind: K.BusTxnStart, component: C.Bus, a: 9, b: C.DmaRead, c: 60, d: 1, e: 5 },
  { time: 4 * US, kind: K.MacTxStart, component: C.MacTx, a: 5, b: 64 },
  { time: 5 * US, kind: K.PeerTxStart, component: C.Peer, a: 6, b: 1518 },
  { time: 5 * US, kind: K.PeerTxStart, component: C.Peer, a: 7, b: 1518 },
  { time: 6 * US, kind: K.MacRxDone, component: C.MacRx, a: 6, b: 1518 },
  // Packet 6 takes receive slot 0 alone; 7's return descriptor shares an instant with 6's.
  { time: 7 * US, kind: K.IndexUpdate, component: C.Nic, a: 1, b: 1, c: 8, d: 1, e: 8 },
  {
    time: 7 * US,
    kind: K.DmaQueued,
    component: C.DmaWrite,
    a: 2,
    b: P.RecvDataWrite,
    c: 1514,
    d: 6,
  },
  { time: 8 * US, kind: K.IndexUpdate, component: C.Nic, a: 2, b: 1, c: 1, d: 0, e: 8 },
  { time: 8 * US, kind: K.DmaDone, component: C.DmaWrite, a: 3, b: P.ReturnBdWrite, c: 32, d: 6 },
  { time: 9 * US, kind: K.IndexUpdate, component: C.Nic, a: 2, b: 1, c: 3, d: 0, e: 8 },
  { time: 9 * US, kind: K.DmaDone, component: C.DmaWrite, a: 4, b: P.ReturnBdWrite, c: 32, d: 7 },
  { time: 9 * US, kind: K.DmaDone, component: C.DmaWrite, a: 5, b: P.ReturnBdWrite, c: 32, d: 8 },
  { time: 10 * US, kind: K.HostDeliver, component: C.Driver, a: 6, b: 1472 },
];

describe('the packet a record names', () => {
  const idx = indexOf(RECORDS);
  const tr = idx.trace;

  it('reads the field each kind keeps it in', () => {
    expect(packetOf(tr, 2)).toBe(5); // DriverPostSendBd a
    expect(packetOf(tr, 3)).toBe(5); // DmaQueued d
    expect(packetOf(tr, 4)).toBe(5); // BusRequest by the bus: b
    expect(packetOf(tr, 5)).toBe(5); // BusTxnStart e
    expect(packetOf(tr, 0)).toBe(0); // IndexUpdate names none
    // A BusRequest recorded by the master keeps the packet in a.
    const own = decodeTrace(encodeTrace([{ time: 0, kind: K.BusRequest, component: C.Nic, a: 4 }]));
    expect(packetOf(own, 0)).toBe(4);
    expect([...packetIndex(tr).keys()].sort()).toEqual([5, 6, 7, 8]);
    expect(packetAtCursor(tr, 4.5 * US)).toBe(5);
    expect(packetAtCursor(tr, 0)).toBeNull();
  });

  it('highlights where a record happened: the component, the bus master, the wire', () => {
    expect(highlightOf(tr, 5)).toEqual(['bus', 'dma_read']);
    expect(highlightOf(tr, 6)).toEqual(['mac_tx', 'wire_tx']);
    expect(highlightOf(tr, 2)).toEqual(['driver']);
  });
});

describe('the inspector’s view of one packet', () => {
  const idx = indexOf(RECORDS);

  it('a small UDP send: headers by layer with the padding, its descriptor and journey', () => {
    const v = packetView(idx, udp, 5);
    expect(v.what).toBe('UDP datagram sent');
    expect(v.frameBytes).toBe(64);
    // 18 + 46 = 64: the smallest datagram fills the minimum frame exactly.
    const eth = v.layers.find((l) => l.layer === 'Ethernet')!;
    expect(eth.fields.map((f) => f.name)).toEqual(['header', 'CRC', 'frame']);
    const u = v.layers.find((l) => l.layer === 'UDP')!;
    expect(u.fields).toContainEqual({ name: 'payload', value: '18 B' });
    // A shorter datagram would be padded to it.
    const short = packetView(
      idx,
      { parameters: { workload: { kind: 'udp', datagram_bytes: 10 } }, system: fixtureSystem() },
      5,
    );
    expect(short.layers[0]!.fields).toContainEqual({
      name: 'padding',
      value: '8 B (to the 64-byte minimum)',
    });
    expect(v.layersNote).toMatch(/sizes, not contents/);
    expect(v.segments.map((x) => [x.label, x.bytes])).toEqual([
      ['Ethernet header', 14],
      ['IP header', 20],
      ['UDP header', 8],
      ['UDP payload', 18],
      ['CRC', 4],
    ]);
    expect(v.descriptors[0]).toMatchObject({ what: 'send descriptor', where: 'send ring, slot 3' });
    expect(v.steps.map((s) => s.name)).toEqual([
      'DriverPostSendBd',
      'DmaQueued',
      'BusRequest',
      'BusTxnStart',
      'MacTxStart',
    ]);
    expect(v.steps[4]!.step).toBe('S5');
    // The packet field is the subject, not a detail.
    expect(v.steps[0]!.details.map(([n]) => n)).toEqual(['send ring slot', 'frame bytes']);
  });

  it('receive and return slots come from the NIC index update at the same instant, when unique', () => {
    const v = packetView(idx, udp, 6);
    expect(v.direction).toBe('receive');
    const where = v.descriptors.map((d) => d.where);
    expect(where).toContain('receive ring, slot 0');
    expect(where).toContain('return ring, slot 0');
    // Packet 7's return descriptor shares its instant with packet 8's: no slot is claimed.
    const seven = packetView(idx, udp, 7);
    expect(seven.descriptors.some((d) => d.where?.startsWith('return ring'))).toBe(false);
    expect(packetsInSlots(idx, 2, [0, 1, 2], 8.5 * US)).toEqual([{ slot: 0, packet: 6 }]);
    expect(packetsInSlots(idx, 0, [3], 1.5 * US)).toEqual([{ slot: 3, packet: 5 }]);
    expect(packetsInSlots(idx, 0, [3], 0.5 * US)).toEqual([]);
  });

  it('a packet the trace does not name', () => {
    const v = packetView(idx, udp, 99);
    expect(v.found).toBe(false);
    expect(v.steps).toEqual([]);
  });

  it('a web response segment: TCP/IP, the HTTP header on the first, content, cache commands', () => {
    const web = indexOf(
      [
        {
          time: 1,
          kind: K.WebSegment,
          component: C.Driver,
          a: 40,
          b: 3,
          c: 0,
          d: 66 + 240,
          e: 1208,
        },
        { time: 1, kind: K.CacheCommand, component: C.Driver, a: 40, b: 0, c: 306, d: 0, e: 12 },
        {
          time: 1,
          kind: K.CacheCommand,
          component: C.Driver,
          a: 40,
          b: 2,
          c: 1208,
          d: 8192,
          e: 13,
        },
        {
          time: 1,
          kind: K.CacheCommand,
          component: C.Driver,
          a: 40,
          b: 1,
          c: 1208,
          d: 8192,
          e: 14,
        },
        { time: 1, kind: K.DriverPostSendBd, component: C.Driver, a: 41, b: 12, c: 3 },
        { time: 9, kind: K.MacTxStart, component: C.MacTx, a: 40, b: 1518 },
        { time: 0, kind: K.WebAsk, component: C.Peer, a: 3, b: 39, c: 0, d: 2 },
      ].sort((x, y) => x.time - y.time),
    );
    const params = {
      parameters: { workload: { kind: 'web' } },
      system: fixtureSystem({
        frame: { udp_header_bytes: null, tcp_header_bytes: 32, segment_header_bytes: 66 },
      }),
    };
    const v = packetView(web, params, 40);
    expect(v.what).toBe('TCP segment of the response to request 3');
    expect(v.layers.map((l) => l.layer)).toEqual(['Ethernet', 'IP', 'TCP', 'HTTP']);
    const http = v.layers[3]!.fields;
    expect(http).toEqual([
      { name: 'response header', value: '240 B (size only)' },
      { name: 'content', value: '1,208 B of the file' },
    ]);
    expect(v.layers[2]!.fields).toContainEqual({ name: 'payload', value: '1,448 B' });
    expect(v.segments.map((x) => x.bytes)).toEqual([14, 20, 32, 240, 1208, 4]);
    expect(v.descriptors.map((d) => `${d.what} @ ${d.where}`)).toEqual([
      'send descriptor: append_mm @ send ring, slot 12',
      'send descriptor: cache_insert @ send ring, slot 13',
      'send descriptor: append_cache @ send ring, slot 14',
    ]);
    expect(packetsInSlots(web, 0, [12, 13, 14], 5)).toEqual([{ slot: 12, packet: 40 }]);
    expect(requestPackets(web.trace, 3)).toEqual([
      { packet: 39, role: 'request' },
      { packet: 40, role: 'segment' },
    ]);
    const ask = packetView(web, params, 39);
    expect(ask.what).toBe('HTTP request 3 from a client');
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('packets of the presets the inspector is for (real engine)', async () => {
  const core = built ? await loadNodeCore() : null;
  const runOf = (id: string) => {
    const out = JSON.parse(core!.run(scenarioById(id)!.text, '{}')) as RunOutput;
    const trace = decodeTrace(core!.traceBytes());
    return { out, idx: buildIndex(trace, out.trace.start_ps, out.trace.end_ps) };
  };

  it('anatomy of a send: S1 to the peer, a 1518-byte frame of a 1472-byte datagram', () => {
    const { out, idx } = runOf('anatomy-of-a-send');
    const v = packetView(idx, out, 1);
    expect(v.what).toBe('UDP datagram sent');
    expect(v.steps[0]!.name).toBe('DriverPostSendBd');
    expect(v.steps.at(-1)!.name).toBe('PeerRxDone');
    expect(v.frameBytes).toBe(1518);
    expect(v.layers[2]!.fields).toContainEqual({ name: 'payload', value: '1,472 B' });
    expect(v.descriptors.map((d) => d.what)).toEqual([
      'send descriptor',
      'send descriptor fetch',
      'send data fetch',
    ]);
  });

  it('anatomy of a receive and the Tigon: receive and return ring slots', () => {
    for (const id of ['anatomy-of-a-receive', 'tigon-one-packet']) {
      const { out, idx } = runOf(id);
      const v = packetView(idx, out, 1);
      expect(v.what).toBe('UDP datagram received');
      const where = v.descriptors.map((d) => d.where);
      expect(where).toContain('receive ring, slot 0');
      expect(where).toContain('return ring, slot 0');
      expect(v.steps.at(-1)!.name).toBe('HostDeliver');
    }
  });

  it('a web request: the ask and every segment of its response', () => {
    const { out, idx } = runOf('web-anatomy-of-a-request');
    const asks = idx.byKind.get(K.WebAsk) ?? [];
    expect(asks.length).toBeGreaterThan(0);
    const request = idx.trace.a[asks[0]!]!;
    const packets = requestPackets(idx.trace, request);
    expect(packets.length).toBeGreaterThan(1);
    expect(packets[0]!.role).toBe('request');
    const ask = packetView(idx, out, packets[0]!.packet);
    expect(ask.what).toBe(`HTTP request ${request} from a client`);
    const seg = packetView(idx, out, packets[1]!.packet);
    expect(seg.layers.map((l) => l.layer)).toEqual(['Ethernet', 'IP', 'TCP', 'HTTP']);
    expect(seg.descriptors.some((d) => d.what.startsWith('send descriptor:'))).toBe(true);
  });

  it('SINIC: a received segment through the FIFO, VNIC and copy engine', () => {
    const { out, idx } = runOf('sinic-anatomy');
    const arrived = new Set((idx.byKind.get(K.MacRxDone) ?? []).map((i) => idx.trace.a[i]!));
    const rx = idx.byKind
      .get(K.SinicCopy)!
      .find((i) => idx.trace.a[i] === 0 && arrived.has(idx.trace.c[i]!))!;
    const v = packetView(idx, out, idx.trace.c[rx]!);
    expect(v.what).toBe('TCP segment received');
    expect(v.layers[2]!.fields).toContainEqual({ name: 'payload', value: '1,448 B' });
    expect(v.descriptors.some((d) => d.what.startsWith('copy engine'))).toBe(true);
    expect(v.steps.map((s) => s.name)).toContain('MacRxDone');
  });
});
