import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { fixtureDmaReadRecords, fixtureSystem } from '../engine/fixture';
import { BC, BP, C, K, P } from '../trace/traceKinds';
import {
  buildBusPhaseIndex,
  busCyclePs,
  cyclesBetween,
  cyclesUpTo,
  describeTenure,
  dominantCategory,
  lowTimeBetween,
  mergeIntervals,
  signalsAt,
  tenureNear,
  trafficShares,
} from './busPhases';

const CYC = 30000; // 33 MHz
const NIC = C.Nic;
const NIC2 = C.Nic | (1 << 8);
const params = { system: { bus: { clock_mhz: 33 }, nics: 1 } };

const oneDmaRead = fixtureDmaReadRecords;

const at = (cycle: number) => 210000 + cycle * CYC + CYC / 2; // middle of a cycle counted from the grant

describe('bus phase index: one DMA read', () => {
  const ix = buildBusPhaseIndex(
    decodeTrace(encodeTrace(oneDmaRead())),
    0,
    1_000_000,
    params,
    fixtureSystem({ busCyclePs: 30000 }),
  );

  it('indexes the phases with their real ends', () => {
    expect(ix.n).toBe(6);
    expect(Array.from(ix.phase)).toEqual([
      BP.Arbitration,
      BP.Address,
      BP.Turnaround,
      BP.Wait,
      BP.Data,
      BP.Idle,
    ]);
    expect(ix.end[3]! - ix.start[3]!).toBe(10 * CYC);
    expect(ix.tenures).toHaveLength(1);
    expect(ix.tenures[0]!.end).toBe(210000 + 19 * CYC);
    expect(ix.ports.map((p) => p.label)).toEqual(['NIC', 'Host bridge']);
  });

  it('derives the signal levels cycle by cycle', () => {
    const before = signalsAt(ix, 200000);
    expect(before.req.get(NIC)).toBe('low');
    expect(before.gnt.get(NIC)).toBe('high');
    expect(before.ad).toBe('idle');
    expect(before.frame).toBe('high');

    const arb = signalsAt(ix, at(1));
    expect(arb.ad).toBe('arbitration');
    expect([arb.req.get(NIC), arb.gnt.get(NIC), arb.frame]).toEqual(['low', 'low', 'high']);

    const addr = signalsAt(ix, at(2));
    expect(addr.ad).toBe('address');
    expect([addr.frame, addr.irdy, addr.trdy, addr.stop]).toEqual(['low', 'high', 'high', 'high']);
    expect(addr.req.get(NIC)).toBe('high'); // REQ# released with FRAME#
    expect(addr.gnt.get(NIC)).toBe('low');

    const turn = signalsAt(ix, at(3));
    expect(turn.ad).toBe('turnaround');
    expect([turn.frame, turn.irdy, turn.trdy]).toEqual(['low', 'low', 'high']);

    for (const c of [4, 9, 13]) {
      const w = signalsAt(ix, at(c));
      expect(w.ad).toBe('wait');
      expect([w.frame, w.irdy, w.trdy]).toEqual(['low', 'low', 'high']);
    }

    const d1 = signalsAt(ix, at(14));
    expect(d1.ad).toBe('data');
    expect([d1.frame, d1.irdy, d1.trdy, d1.stop]).toEqual(['low', 'low', 'low', 'high']);
    // The final data phase: FRAME# is already released.
    const d4 = signalsAt(ix, at(17));
    expect([d4.frame, d4.irdy, d4.trdy]).toEqual(['high', 'low', 'low']);

    const idle = signalsAt(ix, at(18));
    expect(idle.ad).toBe('idle');
    expect([idle.frame, idle.irdy, idle.trdy, idle.stop]).toEqual(['high', 'high', 'high', 'high']);
    expect(idle.gnt.get(NIC)).toBe('low');

    const after = signalsAt(ix, at(20));
    expect(after.phaseIndex).toBe(-1);
    expect(after.gnt.get(NIC)).toBe('high');
    expect(after.req.get(NIC)).toBe('high');
  });

  it('sums cycles by category, and the sums equal the elapsed cycles', () => {
    const all = cyclesUpTo(ix, 1_000_000);
    const c = all.cycles;
    expect(c[BC.Arbitration]).toBeCloseTo(2);
    expect(c[BC.Address]).toBeCloseTo(1);
    expect(c[BC.Turnaround]).toBeCloseTo(2);
    expect(c[BC.Wait]).toBeCloseTo(10);
    expect(c[BC.Content]).toBeCloseTo(4);
    expect(all.busy).toBeCloseTo(19);
    expect(all.elapsed).toBeCloseTo(1_000_000 / CYC);
    expect(c.reduce((s, v) => s + v, 0)).toBeCloseTo(all.elapsed);
    // Clipped at the cursor: 2⅓ cycles into the wait.
    const mid = cyclesUpTo(ix, 210000 + 4 * CYC + 70000);
    expect(mid.cycles[BC.Wait]).toBeCloseTo(70000 / CYC);
    expect(mid.busy).toBeCloseTo(4 + 70000 / CYC);
    expect(mid.cycles.reduce((s, v) => s + v, 0)).toBeCloseTo(mid.elapsed);
    // Any range: the parts add up to the whole.
    const a = cyclesBetween(ix, 0, 500000).cycles;
    const b = cyclesBetween(ix, 500000, 1_000_000).cycles;
    c.forEach((v, k) => expect(a[k]! + b[k]!).toBeCloseTo(v));
    expect(dominantCategory(ix, at(5), at(12))).toBe(BC.Wait);
    expect(lowTimeBetween(ix, 0, 0, 1_000_000)).toBe(16 * CYC); // FRAME#: address … data
    const shares = trafficShares(c);
    expect(shares.overhead).toBeCloseTo(15 / 19);
    expect(shares.content).toBeCloseTo(4 / 19);
  });

  it('says the tenure in words and marks the phase at the cursor', () => {
    const words = describeTenure(ix, 0, at(6), params)!;
    expect(words.sentence).toBe(
      'NIC DMA read: arbitration 2, address 1, turnaround 1, wait 10 (memory stall), data 4, idle 1',
    );
    expect(words.what).toBe('send data fetch · packet 5 · 32 B');
    const cur = words.phases.find((w) => w.current)!;
    expect(cur.name).toBe('wait');
    expect(cur.at).toBe(3);
    expect(tenureNear(ix, 900000)).toEqual({ ti: 0, when: 'last' });
    expect(tenureNear(ix, 100000)).toEqual({ ti: 0, when: 'next' });
  });

  it('takes the bus clock period from the core', () => {
    expect(busCyclePs(fixtureSystem({ busCyclePs: 7500 }))).toBe(7500);
    expect(busCyclePs(fixtureSystem({ busCyclePs: 30000 }))).toBe(30000);
  });
});

describe('bus phase index: two NICs, a latency-timer cut, a window opening mid-tenure', () => {
  // NIC 2's tenure is under way when the window opens at 100000; NIC 1 asks at 150000 (bus
  // busy); NIC 2's burst moves 160 of 714 B and it keeps requesting; NIC 1 gets the bus next.
  const recs: RawRecord[] = [
    {
      time: 120000,
      kind: K.BusPhase,
      component: C.Bus,
      a: NIC2,
      b: BP.Data,
      c: 20,
      d: BC.Content,
      e: 7,
    },
    { time: 150000, kind: K.BusRequest, component: NIC, a: 3 },
    { time: 150000, kind: K.BusRefused, component: C.Bus, a: NIC },
    {
      time: 720000,
      kind: K.BusPhase,
      component: C.Bus,
      a: NIC2,
      b: BP.Idle,
      c: 1,
      d: BC.Turnaround,
      e: 7,
    },
    {
      time: 750000,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 7,
      b: C.DmaRead | (1 << 8),
      c: 160,
      d: P.SendDataFetch,
      e: 9,
    },
    ...oneDmaRead(750000, 8, NIC, 3).filter((r) => r.kind !== K.BusRequest),
    // NIC 2's next burst of the same transfer (hidden arbitration: no arbitration phase).
    { time: 1320000, kind: K.BusGrant, component: C.Bus, a: NIC2, b: 9 },
    {
      time: 1320000,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 9,
      b: C.DmaRead | (1 << 8),
      c: 554,
      d: P.SendDataFetch,
      e: 9,
    },
    {
      time: 1320000,
      kind: K.BusPhase,
      component: C.Bus,
      a: NIC2,
      b: BP.Address,
      c: 1,
      d: BC.Address,
      e: 9,
    },
    {
      time: 1350000,
      kind: K.BusPhase,
      component: C.Bus,
      a: NIC2,
      b: BP.Idle,
      c: 1,
      d: BC.Turnaround,
      e: 9,
    },
    {
      time: 1380000,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 9,
      b: C.DmaRead | (1 << 8),
      c: 0,
      d: P.SendDataFetch,
      e: 9,
    },
  ];
  recs.sort((x, y) => x.time - y.time);
  const ix = buildBusPhaseIndex(
    decodeTrace(encodeTrace(recs)),
    100000,
    2_000_000,
    { system: { bus: { clock_mhz: 33 }, nics: 2 } },
    fixtureSystem({ busCyclePs: 30000 }),
  );

  it('starts counting where the bus becomes known', () => {
    expect(ix.knownFrom).toBe(120000);
    expect(signalsAt(ix, 110000).ad).toBe('unknown');
    expect(signalsAt(ix, 130000).gnt.get(NIC2)).toBe('low');
    const sum = cyclesUpTo(ix, 2_000_000);
    expect(sum.cycles.reduce((s, v) => s + v, 0)).toBeCloseTo((2_000_000 - 120000) / CYC);
  });

  it('holds REQ# of the waiting NIC while the other owns the bus', () => {
    expect(ix.ports.map((p) => p.label)).toEqual(['NIC 1', 'NIC 2', 'Host bridge']);
    const s = signalsAt(ix, 400000);
    expect(s.req.get(NIC)).toBe('low');
    expect(s.gnt.get(NIC)).toBe('high');
    expect(s.gnt.get(NIC2)).toBe('low');
    expect(ix.ports[0]!.refused).toEqual([150000]);
    // NIC 2 moved 160 of its transfer: it requests again from the end of its tenure.
    expect(signalsAt(ix, 760000).req.get(NIC2)).toBe('low');
    expect(signalsAt(ix, 760000).gnt.get(NIC)).toBe('low');
    expect(signalsAt(ix, 1330000).req.get(NIC2)).toBe('high');
    expect(signalsAt(ix, 1330000).gnt.get(NIC2)).toBe('low');
  });

  it('merges intervals, known over unknown', () => {
    expect(
      mergeIntervals([
        { start: 0, end: 10, state: 3 },
        { start: 5, end: 10, state: 1 },
        { start: 10, end: 12, state: 1 },
      ]),
    ).toEqual([
      { start: 0, end: 5, state: 3 },
      { start: 5, end: 12, state: 1 },
    ]);
  });
});

describe('bus phase index: a PIO register read', () => {
  // The host bridge reads a NIC register: address, turnaround, the NIC's wait states, data.
  const recs: RawRecord[] = [
    { time: 0, kind: K.BusRequest, component: C.HostBridge, a: 0 },
    { time: 0, kind: K.BusGrant, component: C.Bus, a: C.HostBridge, b: 4 },
    {
      time: 0,
      kind: K.BusTxnStart,
      component: C.Bus,
      a: 4,
      b: C.HostBridge,
      c: 4,
      d: P.RegisterRead,
    },
    {
      time: 0,
      kind: K.BusPhase,
      component: C.Bus,
      a: C.HostBridge,
      b: BP.Address,
      c: 1,
      d: BC.Address,
      e: 4,
    },
    {
      time: 30000,
      kind: K.BusPhase,
      component: C.Bus,
      a: C.HostBridge,
      b: BP.Turnaround,
      c: 1,
      d: BC.Turnaround,
      e: 4,
    },
    {
      time: 60000,
      kind: K.BusPhase,
      component: C.Bus,
      a: C.HostBridge,
      b: BP.Wait,
      c: 2,
      d: BC.Wait,
      e: 4,
    },
    {
      time: 120000,
      kind: K.BusPhase,
      component: C.Bus,
      a: C.HostBridge,
      b: BP.Data,
      c: 1,
      d: BC.Descriptors,
      e: 4,
    },
    {
      time: 150000,
      kind: K.BusPhase,
      component: C.Bus,
      a: C.HostBridge,
      b: BP.Idle,
      c: 1,
      d: BC.Turnaround,
      e: 4,
    },
    {
      time: 180000,
      kind: K.BusTxnEnd,
      component: C.Bus,
      a: 4,
      b: C.HostBridge,
      c: 4,
      d: P.RegisterRead,
    },
  ];
  const ix = buildBusPhaseIndex(
    decodeTrace(encodeTrace(recs)),
    0,
    300000,
    params,
    fixtureSystem({ busCyclePs: 30000 }),
  );
  it('says who waits for whom', () => {
    expect(describeTenure(ix, 0, 70000, params)!.sentence).toBe(
      'Host bridge PIO read of a NIC register (the CPU waits): address 1, turnaround 1, wait 2 (the NIC answers), data 1, idle 1',
    );
  });
});
