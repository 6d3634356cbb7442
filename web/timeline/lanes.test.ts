import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K, P } from '../trace/traceKinds';
import {
  axisTicks,
  buildTimeline,
  itemAt,
  itemWhen,
  layoutTimeline,
  packetJourney,
  timelineSetup,
  type TimelineModel,
} from './lanes';
import { NS, ONE_SEND, ONE_SEND_WINDOW } from './lanes.example';

const SETUP = { busLabel: 'PCI bus', tigon: false };

function model(records: RawRecord[], end = ONE_SEND_WINDOW.end): TimelineModel {
  return buildTimeline(decodeTrace(encodeTrace(records)), 0, end, SETUP);
}

const label = (m: TimelineModel, ix: number) =>
  `[${m.lanes[m.items[ix]!.lane]!.label}] ${m.items[ix]!.label}`;

describe('buildTimeline', () => {
  const m = model(ONE_SEND);

  it('makes a lane for each part with records, in the machine’s order', () => {
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
    expect(m.lanes.map((l) => l.component)).toEqual([
      'host_cpu',
      'driver',
      'bus',
      'nic',
      'dma_read',
      'dma_write',
      'mac_tx',
      'wire_tx',
    ]);
  });

  it('turns paired records into slices and single ones into instants', () => {
    const bus = m.items.filter((it) => m.lanes[it.lane]!.kind === 'bus');
    expect(bus.map((b) => [b.start / NS, b.end / NS])).toEqual([
      [0, 150],
      [270, 1680],
      [3300, 3450],
      [3570, 4080],
      [4200, 10350],
      [10410, 10530],
    ]);
    const data = m.items.find((it) => it.label.startsWith('send data fetch · 1,514 B'))!;
    // Queued at 4.12 µs, on the bus from 4.2 µs: the wait before the bar.
    expect([data.start, data.busy, data.end]).toEqual([4120 * NS, 4200 * NS, 10350 * NS]);
    expect(itemWhen(data)).toBe('4.12 µs → 10.35 µs (6.23 µs, queued 80 ns)');
    const isr = m.items.find((it) => it.tone === 'cpuTask:1')!;
    expect([isr.start, isr.end]).toEqual([10570 * NS, 11620 * NS]);
    const post = m.items.find((it) => it.label.startsWith('S1:'))!;
    expect(post.instant).toBe(true);
    expect(post.packet).toBe(1);
  });

  it('draws an arrow for each cause the core recorded: the send from the descriptor to the peer', () => {
    // From the descriptor, along arrows to the next expected step each time.
    const steps: Array<[string, string]> = [
      ['driver', 'S2: mailbox write, send producer = 1'],
      ['NIC events', 'mailbox send producer = 1 reaches the NIC'],
      ['DMA read', 'send descriptor fetch · 16 B · packet 1'],
      ['PCI bus', 'send descriptor fetch · DMA read · 16 B · packet 1'],
      ['DMA read', 'send descriptor fetch · 16 B · packet 1'],
      ['DMA read', 'send data fetch · 1,514 B · packet 1'],
      ['PCI bus', 'send data fetch · DMA read · 1,514 B · packet 1'],
      ['DMA read', 'send data fetch · 1,514 B · packet 1'],
      ['MAC transmit', 'S5: sends packet 1’s frame, 1,518 B'],
      ['wire (to peer)', 'packet 1’s frame to the peer, 1,518 B · the peer has it'],
    ];
    let at = m.items.findIndex((it) => it.label.startsWith('S1:'));
    const chain = [label(m, at)];
    for (const [lane, text] of steps) {
      const next = (m.outArrows.get(at) ?? [])
        .map((ai) => m.arrows[ai]!.to)
        .find((to) => label(m, to) === `[${lane}] ${text}`);
      if (next === undefined) break;
      chain.push(label(m, next));
      at = next;
    }
    expect(chain).toEqual([
      '[driver] S1: send descriptor for packet 1 in slot 0 (1,518 B frame)',
      ...steps.map(([lane, text]) => `[${lane}] ${text}`),
    ]);
    for (const ar of m.arrows) expect(ar.t1).toBeGreaterThanOrEqual(ar.t0);
    expect(m.backwards).toBe(0);
    // Labelled by the kinds of the two records.
    const why = new Set(m.arrows.map((ar) => ar.why));
    expect(why).toContain('mailbox write → mailbox reaches the NIC');
    expect(why).toContain('send descriptor fetch done → send data fetch');
    expect(why).toContain('send data fetch done → frame on the wire');
  });

  it('links S6: the index written back, the interrupt, its service routine', () => {
    const why = m.arrows.map((ar) => `${label(m, ar.from)} → ${label(m, ar.to)}`);
    expect(why).toContain(
      '[DMA read] send data fetch · 1,514 B · packet 1 → [DMA write] send consumer index write · 4 B',
    );
    expect(why).toContain(
      '[DMA write] send consumer index write · 4 B → [NIC events] S6/R4: interrupt (send)',
    );
    expect(why).toContain('[NIC events] S6/R4: interrupt (send) → [host CPU] interrupt service');
    // The core names no cause for the descriptor recycled nor for the send task: no arrow.
    expect(why.some((w) => w.endsWith('recycles packet 1’s send descriptor'))).toBe(false);
    expect(why.some((w) => w.startsWith('[host CPU] send:'))).toBe(false);
  });

  it('draws every arrow from one recorded cause, and none the records do not name', () => {
    const tr = decodeTrace(encodeTrace(ONE_SEND));
    const byId = new Map(Array.from(tr.id, (id, i) => [id, i]));
    for (const ar of m.arrows) {
      // The effect's cause is the cause record, or leads to it through records no item holds.
      let c: number | undefined = ar.effectRec;
      do c = byId.get(tr.cause[c]!);
      while (c !== undefined && c !== ar.causeRec);
      expect(c).toBe(ar.causeRec);
      expect(ar.t0).toBe(tr.time[ar.causeRec]);
      expect(ar.t1).toBe(Math.max(m.items[ar.to]!.start, ar.t0));
    }
    // The same records without causes: no arrow at all, whatever packet ids they share.
    const none = model(ONE_SEND.map((r) => ({ ...r, cause: 0 })));
    expect(none.items.length).toBe(m.items.length);
    expect(none.arrows).toHaveLength(0);
    // Without packet ids on the DMAs the arrows are the same: they come from causes alone.
    const anon = model(
      ONE_SEND.map((r) => (r.kind === K.DmaQueued || r.kind === K.DmaDone ? { ...r, d: 0 } : r)),
    );
    expect(anon.arrows.map((ar) => ar.why)).toEqual(m.arrows.map((ar) => ar.why));
  });

  it('draws none from a cause before the window, and none back in time (counted)', () => {
    // The trace starts at the descriptor fetch: the mailbox that caused it is not in it.
    const late = model(ONE_SEND.slice(14));
    expect(
      late.arrows.some((ar) => ar.why === 'mailbox reaches the NIC → send descriptor fetch'),
    ).toBe(false);
    expect(late.arrows.length).toBeGreaterThan(0);
    // A cause recorded after its effect: no arrow, counted.
    const back = ONE_SEND.map((r, i) => (i === 0 ? { ...r, cause: 34 } : r));
    expect(model(back).backwards).toBe(1);
  });

  it('ends a slice still running as the window closes at its edge, marked open', () => {
    const cut = model(ONE_SEND.filter((r) => r.kind !== K.MacTxEnd && r.kind !== K.PeerRxDone));
    const mac = cut.items.find((it) => cut.lanes[it.lane]!.kind === 'macTx')!;
    expect(mac.open).toBe(true);
    expect(mac.end).toBe(ONE_SEND_WINDOW.end);
    expect(itemWhen(mac)).toContain('(and on)');
  });

  it('names the second NIC’s lanes and the bus of the run', () => {
    const two = buildTimeline(
      decodeTrace(
        encodeTrace([
          { time: 0, kind: K.MacTxStart, component: C.MacTx, a: 1, b: 64 },
          { time: 10, kind: K.MacTxStart, component: C.MacTx | (1 << 8), a: 2, b: 64 },
        ]),
      ),
      0,
      100,
      timelineSetup({ nic_model: 'fixed', bus: { ...fixtureSystem().bus!, protocol: 'pci-x' } }),
    );
    expect(two.lanes.map((l) => l.label)).toEqual([
      'NIC 1 MAC transmit',
      'NIC 1 wire (to peer)',
      'NIC 2 MAC transmit',
      'NIC 2 wire (to peer)',
    ]);
    expect(
      timelineSetup({ nic_model: 'fixed', bus: { ...fixtureSystem().bus!, protocol: 'pci-x' } })
        .busLabel,
    ).toBe('PCI-X bus');
  });
});

describe('packetJourney', () => {
  it('walks from a packet’s items through unnamed ones, and stops at another packet', () => {
    const other: RawRecord[] = [
      { time: 11620 * NS, kind: K.HostDeliver, component: C.Driver, a: 9, b: 100 },
    ];
    const m = model([...ONE_SEND, ...other].sort((x, y) => x.time - y.time));
    const j = packetJourney(m, 1);
    const labels = [...j.items].map((ix) => m.items[ix]!.label);
    expect(labels).toContain('S2: mailbox write, send producer = 1');
    expect(labels).toContain('send consumer index write · 4 B');
    expect(labels).toContain('interrupt service');
    expect(labels.some((l) => l.includes('packet 9'))).toBe(false);
    expect(j.start).toBe(3300 * NS);
    expect(j.end).toBe(22598 * NS);
  });
});

describe('layoutTimeline', () => {
  const m = model(ONE_SEND);

  it('places items on the plot and culls those outside the range', () => {
    const lay = layoutTimeline(m, 4000 * NS, 5000 * NS, 1000);
    const bus = lay.lanes[m.lanes.findIndex((l) => l.kind === 'bus')]!;
    // The descriptor fetch (3.57–4.08 µs) reaches in, the data fetch (4.2–10.35) runs out.
    expect(bus.bars.map((b) => [Math.round(b.x0), Math.round(b.x1)])).toEqual([
      [-2, 80],
      [200, 1002],
    ]);
    const wire = lay.lanes[m.lanes.findIndex((l) => l.kind === 'wireTx')]!;
    expect(wire.bars).toHaveLength(0);
    // Arrows in range only: none from the 3.3 µs mailbox write.
    for (const ai of lay.arrows) {
      const ar = m.arrows[ai]!;
      expect(ar.t1).toBeGreaterThanOrEqual(4000 * NS);
      expect(ar.t0).toBeLessThanOrEqual(5000 * NS);
    }
    expect(
      itemAt(
        lay,
        m.lanes.findIndex((l) => l.kind === 'bus'),
        500,
      ),
    ).toBe(bus.bars[1]!.item);
    expect(
      itemAt(
        lay,
        m.lanes.findIndex((l) => l.kind === 'bus'),
        150,
      ),
    ).toBeNull();
  });

  it('merges slices narrower than a pixel into one bar that counts them', () => {
    const many: RawRecord[] = [];
    for (let i = 0; i < 1000; i++) {
      many.push({
        time: i * 10 * NS,
        kind: K.BusTxnStart,
        component: C.Bus,
        a: i,
        b: C.DmaRead,
        c: 8,
        d: P.SendBdFetch,
      });
      many.push({
        time: i * 10 * NS + 2 * NS,
        kind: K.BusTxnEnd,
        component: C.Bus,
        a: i,
        b: C.DmaRead,
        c: 8,
        d: P.SendBdFetch,
      });
    }
    const dense = model(many, 10_000 * NS);
    const whole = layoutTimeline(dense, 0, 10_000 * NS, 200);
    const bars = whole.lanes[0]!.bars;
    expect(bars.reduce((s, b) => s + b.count, 0)).toBe(1000);
    expect(bars.length).toBeLessThan(250);
    const close = layoutTimeline(dense, 0, 95 * NS, 1000);
    expect(close.lanes[0]!.bars.map((b) => b.count)).toEqual(Array(10).fill(1));
  });

  it('draws at most so many arrows, except the followed packet’s', () => {
    const lay = layoutTimeline(m, 0, ONE_SEND_WINDOW.end, 1000, { maxArrows: 3 });
    expect(lay.arrows).toHaveLength(0);
    expect(lay.arrowsHidden).toBeGreaterThan(3);
    const j = packetJourney(m, 1);
    const kept = layoutTimeline(m, 0, ONE_SEND_WINDOW.end, 1000, {
      maxArrows: 3,
      keepArrows: j.arrows,
    });
    expect(kept.arrows.length).toBeGreaterThan(10);
    for (const ai of kept.arrows) expect(j.arrows.has(ai)).toBe(true);
  });
});

describe('axisTicks', () => {
  it('labels in the unit of the span, with as many decimals as the step needs', () => {
    const whole = axisTicks(0, 40_000 * NS, 1100);
    expect(whole.unit).toBe('µs');
    expect(whole.ticks.map((t) => t.label)).toEqual([
      '0',
      '5',
      '10',
      '15',
      '20',
      '25',
      '30',
      '35',
      '40',
    ]);
    const close = axisTicks(3450 * NS, 3500 * NS, 1000);
    expect(close.unit).toBe('ns');
    expect(close.ticks[0]!.label).toBe('3450');
    const mid = axisTicks(3_450 * NS, 7_080 * NS, 1100);
    expect(mid.unit).toBe('µs');
    expect(mid.ticks.map((t) => t.label)).toContain('4.0');
  });
});
