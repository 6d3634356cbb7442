// The timeline's lanes and arrows on the real engine's traces (skipped when the wasm is not
// built): every arrow is one cause link the core recorded, the causal chains of the thesis's send
// (Fig 2.4), of the Tigon's firmware, of the web server and of the SINIC exist as arrows, and no
// arrow points back in time or leaves its cause / reaches its effect outside them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace, type Trace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import {
  buildTimeline,
  layoutTimeline,
  packetJourney,
  timelineSetup,
  type TimelineItem,
  type TimelineModel,
} from './lanes';

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

type Step = { lane: string; label: RegExp; packet?: number };

/**
 * Follows arrows from `start` through items matching each step in turn (an item may be both the
 * target of one step and the source of the next: a DMA is queued, then done). Returns the items.
 */
function follow(m: TimelineModel, start: number, steps: Step[]): number[] {
  const path = [start];
  let at = start;
  for (const s of steps) {
    const next = (m.outArrows.get(at) ?? [])
      .map((ai) => m.arrows[ai]!.to)
      .find((to) => matches(m, m.items[to]!, s));
    if (next === undefined) {
      const from = m.items[at]!;
      const outs = (m.outArrows.get(at) ?? []).map((ai) => {
        const to = m.items[m.arrows[ai]!.to]!;
        return `[${m.lanes[to.lane]!.label}] ${to.label}`;
      });
      throw new Error(
        `no arrow from [${m.lanes[from.lane]!.label}] ${from.label} to [${s.lane}] ${s.label}; it leads to: ${outs.join(' | ') || 'nothing'}`,
      );
    }
    path.push(next);
    at = next;
  }
  return path;
}

function matches(m: TimelineModel, it: TimelineItem, s: Step): boolean {
  return (
    m.lanes[it.lane]!.label === s.lane &&
    s.label.test(it.label) &&
    (s.packet === undefined || it.packet === s.packet)
  );
}

function find(m: TimelineModel, s: Step): number {
  const ix = m.items.findIndex((it) => matches(m, it, s));
  expect(ix, `[${s.lane}] ${s.label}`).toBeGreaterThanOrEqual(0);
  return ix;
}

/**
 * Arrows point forward in time, from within their cause to within their effect, and each is one
 * cause link of the trace: the effect record names the cause record, or names a record no item
 * holds that leads to it.
 */
function expectArrowsSound(m: TimelineModel, trace: Trace): void {
  expect(m.backwards).toBe(0);
  const byId = new Map<number, number>();
  for (let i = 0; i < trace.length; i++) byId.set(trace.id[i]!, i);
  const held = new Set(m.items.map((it) => it.rec));
  for (const ar of m.arrows) {
    let c: number | undefined = ar.effectRec;
    let hops = 0;
    do {
      c = byId.get(trace.cause[c]!);
      hops++;
    } while (c !== undefined && c !== ar.causeRec && !held.has(c) && hops < 10);
    expect(c, ar.why).toBe(ar.causeRec);
    expect(ar.t0).toBe(trace.time[ar.causeRec]);
    expect(ar.t1).toBeLessThanOrEqual(trace.time[ar.effectRec]!);
  }
  for (const ar of m.arrows) {
    const f = m.items[ar.from]!;
    const t = m.items[ar.to]!;
    expect(ar.t1).toBeGreaterThanOrEqual(ar.t0);
    expect(ar.t0).toBeGreaterThanOrEqual(f.start);
    expect(ar.t0).toBeLessThanOrEqual(f.end);
    expect(ar.t1).toBeGreaterThanOrEqual(t.start);
    expect(ar.t1).toBeLessThanOrEqual(t.end);
  }
}

describe.skipIf(!built)('the timeline on the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const run = (id: string, overrides = '{}') => {
    const out = JSON.parse(core!.run(scenarioById(id)!.text, overrides)) as RunOutput;
    const trace = decodeTrace(core!.traceBytes());
    const m = buildTimeline(trace, out.trace.start_ps, out.trace.end_ps, timelineSetup(out.system));
    return { out, trace, m };
  };

  it('anatomy of a send: its lanes, and the chain from the descriptor to the peer', () => {
    const { m, trace } = run('anatomy-of-a-send');
    expect(m.lanes.map((l) => l.label)).toEqual([
      'host CPU',
      'driver',
      'PCI bus',
      'NIC events',
      'DMA read',
      'DMA write',
      'MAC transmit',
      'wire (to peer)',
    ]);
    const post = find(m, { lane: 'driver', label: /^S1: send descriptor for packet 1/ });
    const send = [
      { lane: 'driver', label: /^S2: mailbox write, send producer = 1/ },
      { lane: 'NIC events', label: /^mailbox send producer = 1 reaches the NIC/ },
      { lane: 'DMA read', label: /^send descriptor fetch/, packet: 1 },
      { lane: 'PCI bus', label: /^send descriptor fetch · DMA read/, packet: 1 },
      { lane: 'DMA read', label: /^send descriptor fetch/, packet: 1 },
      { lane: 'DMA read', label: /^send data fetch · 1,514 B/, packet: 1 },
      { lane: 'PCI bus', label: /^send data fetch · DMA read · 1,514 B/, packet: 1 },
      { lane: 'DMA read', label: /^send data fetch/, packet: 1 },
      { lane: 'MAC transmit', label: /^S5: sends packet 1’s frame/, packet: 1 },
      { lane: 'wire (to peer)', label: /the peer has it$/, packet: 1 },
    ];
    const path = follow(m, post, send);
    // S6: the consumer index written back, the interrupt, its service routine.
    follow(m, path[8]!, [
      { lane: 'DMA write', label: /^send consumer index write/ },
      { lane: 'PCI bus', label: /^send consumer index write/ },
      { lane: 'DMA write', label: /^send consumer index write/ },
      { lane: 'NIC events', label: /^S6\/R4: interrupt \(send\)/ },
      { lane: 'host CPU', label: /^interrupt service/ },
    ]);
    // Its times run forward along the chain: each arrow reaches its effect no earlier than the
    // previous one.
    const times = path.slice(1).map((to, k) => {
      const ar = m.arrows.find((x) => x.from === path[k] && x.to === to)!;
      return ar.t1;
    });
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(6_000_000); // the 1514-B data fetch alone
    expectArrowsSound(m, trace);
    // The packet's journey holds the whole chain, and nothing of the receive buffers' fetch.
    const j = packetJourney(m, 1);
    for (const ix of path) expect(j.items.has(ix)).toBe(true);
    expect([...j.items].some((ix) => /receive descriptor fetch/.test(m.items[ix]!.label))).toBe(
      false,
    );
  });

  it('one packet through the Tigon: mailbox → Mailbox handler → SBDR → its DMA read → … → the wire', () => {
    const { m, trace } = run('tigon-one-packet');
    const labels = m.lanes.map((l) => l.label);
    expect(labels).toContain('Tigon CPU A');
    expect(labels).toContain('Tigon CPU B');
    expect(labels).toContain('MAC receive');
    const write = find(m, { lane: 'driver', label: /^S2: mailbox write, send producer = 1/ });
    const path = follow(m, write, [
      { lane: 'NIC events', label: /^mailbox send producer = 1 reaches/ },
      { lane: 'Tigon CPU A', label: /^MB: Mailbox · MailboxRead/ },
      { lane: 'Tigon CPU B', label: /^SBDR: Send Buffer Descriptor Ready · SendBdFetch/ },
      { lane: 'DMA read', label: /^send descriptor fetch/, packet: 2 },
      { lane: 'PCI bus', label: /^send descriptor fetch/, packet: 2 },
      { lane: 'DMA read', label: /^send descriptor fetch/, packet: 2 },
      { lane: 'Tigon CPU B', label: /^DRC: DMA Read Complete · ReadDoneSendBds/, packet: 2 },
      { lane: 'Tigon CPU B', label: /^SDR: Send Data Ready · SendData/, packet: 2 },
      { lane: 'DMA read', label: /^send data fetch/, packet: 2 },
      { lane: 'PCI bus', label: /^send data fetch/, packet: 2 },
      { lane: 'DMA read', label: /^send data fetch/, packet: 2 },
      { lane: 'Tigon CPU B', label: /^DRC: DMA Read Complete · ReadDoneSendData/, packet: 2 },
      { lane: 'Tigon CPU B', label: /^USC: Update Send Consumer/ },
      { lane: 'NIC events', label: /^S6\/R4: interrupt \(send\)/ },
      { lane: 'host CPU', label: /^interrupt service/ },
    ]);
    expect(path).toHaveLength(16);
    // Send Data Ready queues the frame for the MAC, which puts it on the wire.
    follow(m, path[8]!, [
      { lane: 'MAC transmit', label: /^S5: sends packet 2’s frame/, packet: 2 },
      { lane: 'wire (to peer)', label: /the peer has it$/, packet: 2 },
    ]);
    // The frame received meanwhile: wire → MAC receive queue → Receive Complete → its DMA writes.
    const rx = find(m, { lane: 'wire (from peer)', label: /^packet 1’s frame from the peer/ });
    follow(m, rx, [
      { lane: 'MAC receive', label: /^R1: packet 1’s frame waits/ },
      { lane: 'Tigon CPU A', label: /^RC: Receive Complete · Receive/, packet: 1 },
      { lane: 'DMA write', label: /^receive data write/, packet: 1 },
      { lane: 'PCI bus', label: /^receive data write/, packet: 1 },
      { lane: 'DMA write', label: /^receive data write/, packet: 1 },
      { lane: 'Tigon CPU A', label: /^DWC: DMA Write Complete · WriteDoneData/, packet: 1 },
    ]);
    expectArrowsSound(m, trace);
  });

  it('a web request: asked, received, served, segmented, with the disk and the server lanes', () => {
    const { m, trace } = run('web-anatomy-of-a-request');
    const labels = m.lanes.map((l) => l.label);
    for (const l of ['host CPU', 'web server', 'NIC 1 driver', 'PCI bus', 'NIC 1 DMA read'])
      expect(labels).toContain(l);
    expect(labels.indexOf('host CPU')).toBeLessThan(labels.indexOf('PCI bus'));
    expect(labels.indexOf('PCI bus')).toBeLessThan(labels.indexOf('NIC 1 DMA read'));
    // A request asked and served inside the window: its frame in, handed up, served, segmented.
    const served = m.items.filter((it) => m.lanes[it.lane]!.kind === 'server' && !it.open);
    const asked = served.find((s) => (m.inArrows.get(m.items.indexOf(s)) ?? []).length > 0);
    expect(asked).toBeDefined();
    const serverIx = m.items.indexOf(asked!);
    const deliver = m.arrows[m.inArrows.get(serverIx)![0]!]!.from;
    expect(m.items[deliver]!.label).toMatch(/^hands packet \d+ to the protocol stack/);
    const request = Number(/^request (\d+)/.exec(asked!.label)![1]);
    follow(m, serverIx, [
      {
        lane: m.lanes[m.items[deliver]!.lane]!.label,
        label: new RegExp(`a segment of request ${request}`),
      },
    ]);
    // The asking packet's journey runs from the client to the server process.
    const p = m.items[deliver]!.packet;
    const j = packetJourney(m, p);
    const lanesOnJourney = new Set([...j.items].map((ix) => m.lanes[m.items[ix]!.lane]!.kind));
    // (The core names no cause for the host CPU's serve task: the journey skips the host CPU.)
    for (const k of ['client', 'wireRx', 'macRx', 'dmaWrite', 'bus', 'driver', 'server'])
      expect(lanesOnJourney, k).toContain(k);
    expectArrowsSound(m, trace);
  });

  it('anatomy of a receive: the frame in → its DMA writes → the interrupt → its service', () => {
    const { m, trace } = run('anatomy-of-a-receive');
    const wire = find(m, { lane: 'wire (from peer)', label: /^packet 1’s frame from the peer/ });
    follow(m, wire, [
      { lane: 'MAC receive', label: /^R1: packet 1’s frame is in the NIC/ },
      { lane: 'DMA write', label: /^receive data write/, packet: 1 },
      { lane: 'DMA write', label: /^return descriptor write/, packet: 1 },
      { lane: 'PCI bus', label: /^return descriptor write/, packet: 1 },
      { lane: 'DMA write', label: /^return descriptor write/, packet: 1 },
      { lane: 'DMA write', label: /^return producer index write/ },
      { lane: 'PCI bus', label: /^return producer index write/ },
      { lane: 'DMA write', label: /^return producer index write/ },
      { lane: 'NIC events', label: /^S6\/R4: interrupt \(receive/ },
      { lane: 'host CPU', label: /^interrupt service/ },
    ]);
    expectArrowsSound(m, trace);
  });

  it('a SINIC packet: wire → NIC → copy engine', () => {
    const { m, trace } = run('sinic-anatomy');
    expect(m.lanes.map((l) => l.label)).toEqual(
      expect.arrayContaining(['host CPU', 'driver', 'copy engine (receive)', 'wire (from peer)']),
    );
    const wire = m.items.findIndex(
      (it) =>
        m.lanes[it.lane]!.kind === 'wireRx' &&
        !it.open &&
        (m.outArrows.get(m.items.indexOf(it)) ?? []).length,
    );
    const p = m.items[wire]!.packet;
    follow(m, wire, [
      { lane: 'MAC receive', label: /^R1:/, packet: p },
      { lane: 'copy engine (receive)', label: /^copies/, packet: p },
    ]);
    expectArrowsSound(m, trace);
  });

  it('draws every preset with a timeline without an arrow back in time', () => {
    for (const id of [
      'anatomy-of-a-receive',
      'pci-two-nics',
      'tigon-one-packet',
      'pci-dma-read',
      'tigon-udp-send',
      'tigon-overlap',
      'sinic-zero-copy',
      'sinic-on-die',
      'send-ring-full',
    ]) {
      const { m, trace } = run(id);
      expect(m.items.length, id).toBeGreaterThan(0);
      expect(m.arrows.length, id).toBeGreaterThan(0);
      expectArrowsSound(m, trace);
      // Lanes appear only with records; each laid out lane keeps its items inside the plot.
      const lay = layoutTimeline(m, m.start, m.end, 900);
      for (const l of lay.lanes) {
        expect(l.bars.length + l.ticks.length, `${id} ${m.lanes[l.lane]!.label}`).toBeGreaterThan(
          0,
        );
        for (const b of l.bars) expect(b.x1).toBeLessThanOrEqual(902);
      }
    }
  });
});
