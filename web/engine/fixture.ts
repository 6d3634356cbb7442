// A small hand-made run (results JSON + synthetic trace) in the core's output format. Used by
// the unit tests, and by the dev server only when the wasm engine has not been built yet (the
// page then says so). It is a script of plausible events, not a model.
import { BC, BP, C, K, P, TIGON_EVENTS, TIGON_PATHS } from '../trace/traceKinds';
import { encodeTrace, type RawRecord } from '../trace/trace';
import type { EventCpu, RunOutput, SweepEntry, SystemInfo, SystemTigonShare } from './types';

const NS = 1000;
const US = 1_000_000;

export interface FixtureRun {
  output: RunOutput;
  trace: ArrayBuffer;
  records: RawRecord[];
}

function ethernetLimit(d: number, bidi: boolean): number {
  return ((1000 * d) / (d + 66)) * (bidi ? 2 : 1);
}

export interface FixtureSystemOptions {
  nicModel?: string;
  nics?: number;
  /** Bus clock period, ps (null: no bus, as in the SINIC and cache-only web runs). */
  busCyclePs?: number | null;
  retryGapCycles?: number;
  /** A Tigon: the firmware's name and where each event runs (the caller's, e.g. Table 3.4). */
  tigon?: { firmware: string; places: EventCpu[]; cpuB?: boolean; dynamic?: boolean };
  /** Frame layout overrides (defaults: the UDP frames of the thesis §3.3.2). */
  frame?: Partial<SystemInfo['frame']>;
  rings?: Partial<NonNullable<SystemInfo['rings']>>;
}

/**
 * The output's "system" block for runs built by hand (tests and this fixture), in the core's
 * shape. Real runs take it from the core; the values here are a test's own choices.
 */
export function fixtureSystem(o: FixtureSystemOptions = {}): SystemInfo {
  const cyc = o.busCyclePs === undefined ? 15000 : o.busCyclePs;
  const gap = o.retryGapCycles ?? 2;
  const t = o.tigon;
  const mask = (cpu: 'A' | 'B') =>
    t
      ? t.places.reduce(
          (m, p, e) => (p === cpu || p === 'both' || p === 'either' ? m | (1 << e) : m),
          0,
        )
      : 0;
  const cpuB = t ? (t.cpuB ?? true) : false;
  return {
    nic_model: o.nicModel ?? (t ? 'tigon' : 'fixed'),
    nics: o.nics ?? 1,
    clocks_ps: { bus: cyc, tigon_cpu: t ? 11363 : null, host_cpu: null },
    bus:
      cyc === null
        ? null
        : {
            model: 'pci',
            protocol: 'pci',
            width_bits: 64,
            clock_mhz: Math.round(1e6 / cyc),
            cycle_ps: cyc,
            retry_gap_cycles: gap,
            retry_gap_ps: Math.max(0, gap - 1) * cyc,
          },
    frame: {
      ethernet_header_bytes: 14,
      ip_header_bytes: 20,
      udp_header_bytes: 8,
      tcp_header_bytes: null,
      segment_header_bytes: null,
      crc_bytes: 4,
      crc_in_frame: true,
      min_frame_bytes: 64,
      mtu_bytes: 1500,
      preamble_bytes: 8,
      ifg_bytes: 12,
      ...o.frame,
    },
    rings: {
      send: 8,
      receive: 8,
      return: 8,
      send_bd_bytes: 16,
      receive_bd_bytes: 32,
      return_bd_bytes: 32,
      index_bytes: 4,
      dma_queue_depth: 16,
      ...o.rings,
    },
    tigon: t
      ? {
          firmware: t.firmware,
          dispatch: t.dynamic ? 'dynamic' : 'static',
          code_in_sram: false,
          data_in_sram: false,
          clock_ps: 11363,
          events: TIGON_EVENTS.map((e, i) => ({
            name: e.name,
            label: e.label,
            hardware: false,
            code_bytes: 0,
            parameter: `system.tigon.partition.${e.name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`,
            cpu: t.places[i] ?? 'none',
            semaphore: false,
          })),
          paths: TIGON_PATHS.map((name) => ({ name, event: 0, label: name })),
          cpus: [
            { name: 'A', runs: true, mask: mask('A') },
            { name: 'B', runs: cpuB, mask: cpuB ? mask('B') : 0 },
          ],
          priority: 'highest set bit',
          alternate: ['SendDataReady', 'ReceiveComplete'],
          table_3_4: t.places,
          send_consumer_by_dma: false,
          // A fixture's own: tests that need what handlers share ask the core for it.
          shares: [],
          firmware_choices: {
            [t.firmware]: { firmware: t.firmware, cpu_b: cpuB, partition: t.places },
          },
        }
      : null,
  };
}

export function fixtureSweep(): SweepEntry[] {
  const sizes = [18, 64, 100, 200, 300, 400, 600, 800, 1000, 1200, 1472];
  const out: SweepEntry[] = [];
  for (const series of ['send', 'receive', 'bidirectional']) {
    for (const d of sizes) {
      const limit = ethernetLimit(d, series === 'bidirectional');
      const pps = series === 'bidirectional' ? 210e3 : series === 'send' ? 130e3 : 118e3;
      const cpuBound = (pps * d * 8) / 1e6;
      const value = Math.min(limit * 0.985, cpuBound);
      out.push({
        value: d,
        series,
        results: {
          udp_total_throughput: { value: Math.round(value * 10) / 10, unit: 'Mb/s' },
          ethernet_limit: { value: Math.round(limit * 10) / 10, unit: 'Mb/s' },
        },
      });
    }
  }
  return out;
}

/** Builds the synthetic trace: a few sends and receives with bus traffic, a drop and a ring-full. */
export function fixtureRecords(startPs = 500 * US, packets = 6): RawRecord[] {
  const recs: RawRecord[] = [];
  const add = (time: number, kind: number, component: number, a = 0, b = 0, c = 0, d = 0, e = 0) =>
    recs.push({ time: Math.round(time), kind, component, a, b, c, d, e });
  const RING = 8;
  let busFree = startPs;
  let txn = 0;
  let dma = 0;
  const bus = (
    t: number,
    master: number,
    bytes: number,
    purpose: number,
    packet: number,
  ): number => {
    const start = Math.max(t, busFree);
    if (start > t) add(t, K.BusRefused, C.Bus, master);
    const dur = (4 + Math.ceil(bytes / 8)) * 15.15 * NS;
    add(start, K.BusTxnStart, C.Bus, txn, master, bytes, purpose, packet);
    add(start + dur, K.BusTxnEnd, C.Bus, txn, master, bytes, purpose, packet);
    txn++;
    busFree = start + dur + 30 * NS;
    return start + dur;
  };
  const dmaOp = (
    t: number,
    engine: number,
    purpose: number,
    bytes: number,
    packet: number,
  ): number => {
    const id = dma++;
    add(t, K.DmaQueued, engine, id, purpose, bytes, packet, 1);
    const end = bus(t + 10 * NS, engine, bytes, purpose, packet);
    add(end, K.DmaDone, engine, id, purpose, bytes, packet);
    return end;
  };

  add(startPs, K.RunStart, C.Nic, 2, 1472);
  for (const ring of [0, 1, 2]) {
    for (const copy of [0, 1]) {
      const prod = ring === 1 ? RING - 1 : 0;
      add(startPs, K.IndexUpdate, copy ? C.Nic : C.Driver, ring, copy, prod, 0, RING);
    }
  }
  let sendProdHost = 0;
  let sendProdNic = 0;
  let sendConsNic = 0;
  let retProd = 0;
  let recvCons = 0;
  for (let p = 0; p < packets; p++) {
    const t0 = startPs + 200 * NS + p * 9 * US;
    // Send S1..S6
    add(t0, K.HostCpuBusy, C.HostCpu, 0, 1500 * NS, 0);
    add(t0 + 1500 * NS, K.DriverPostSendBd, C.Driver, p, sendProdHost % RING, 1518);
    sendProdHost++;
    add(
      t0 + 1500 * NS,
      K.IndexUpdate,
      C.Driver,
      0,
      0,
      sendProdHost % RING,
      sendConsNic % RING,
      RING,
    );
    add(t0 + 1520 * NS, K.MailboxWrite, C.Driver, 0, sendProdHost % RING);
    let t = bus(t0 + 1520 * NS, C.HostCpu, 4, P.MailboxPio, p);
    add(t, K.MailboxArrive, C.Nic, 0, sendProdHost % RING);
    sendProdNic = sendProdHost;
    add(t, K.IndexUpdate, C.Nic, 0, 1, sendProdNic % RING, sendConsNic % RING, RING);
    t = dmaOp(t + 40 * NS, C.DmaRead, P.SendBdFetch, 32, p);
    if (p === 3) add(t, K.TxBufferFull, C.DmaRead, p);
    t = dmaOp(t + (p === 3 ? 800 * NS : 40 * NS), C.DmaRead, P.SendDataFetch, 1514, p);
    add(t + 50 * NS, K.MacTxStart, C.MacTx, p, 1518);
    add(t + 50 * NS + 12_304 * NS, K.MacTxEnd, C.MacTx, p, 1518);
    add(t + 50 * NS + 12_400 * NS, K.PeerRxDone, C.Peer, p, 1518);
    sendConsNic++;
    add(t + 60 * NS, K.IndexUpdate, C.Nic, 0, 1, sendProdNic % RING, sendConsNic % RING, RING);
    t = dmaOp(t + 100 * NS, C.DmaWrite, P.SendConsumerWrite, 4, p);
    add(t, K.IndexUpdate, C.Driver, 0, 0, sendProdHost % RING, sendConsNic % RING, RING);
    add(t + 20 * NS, K.InterruptRaise, C.Nic, 1, 0);
    add(t + 300 * NS, K.IsrStart, C.HostCpu, p);
    add(t + 300 * NS, K.HostCpuBusy, C.HostCpu, 1, 900 * NS, 0);
    add(t + 1200 * NS, K.SendComplete, C.Driver, p);
    add(t + 1200 * NS, K.IsrEnd, C.HostCpu, p, 0, 1);

    // Receive R1..R4
    const r0 = t0 + 3 * US;
    const rp = 1000 + p;
    add(r0, K.PeerTxStart, C.Peer, rp, 1518);
    const rDone = r0 + 12_304 * NS;
    if (p === 4) {
      add(rDone, K.RxDrop, C.MacRx, rp, 0);
      add(rDone, K.RingFull, C.Nic, 1);
      continue;
    }
    add(rDone, K.MacRxDone, C.MacRx, rp, 1518);
    let u = dmaOp(rDone + 50 * NS, C.DmaWrite, P.RecvDataWrite, 1514, rp);
    recvCons++;
    add(u, K.IndexUpdate, C.Nic, 1, 1, RING - 1, recvCons % RING, RING);
    u = dmaOp(u + 20 * NS, C.DmaWrite, P.ReturnBdWrite, 32, rp);
    retProd++;
    add(u, K.IndexUpdate, C.Nic, 2, 1, retProd % RING, 0, RING);
    u = dmaOp(u + 20 * NS, C.DmaWrite, P.ReturnProducerWrite, 4, rp);
    add(u, K.IndexUpdate, C.Driver, 2, 0, retProd % RING, 0, RING);
    add(u + 20 * NS, K.InterruptRaise, C.Nic, 2, 1);
    add(u + 400 * NS, K.IsrStart, C.HostCpu, rp);
    add(u + 400 * NS, K.HostCpuBusy, C.HostCpu, 1, 1200 * NS, 0);
    add(u + 1000 * NS, K.HostDeliver, C.Driver, rp, 1472);
    add(u + 1600 * NS, K.IsrEnd, C.HostCpu, rp, 1, 0);
    if (p === 2) {
      add(u + 1700 * NS, K.DriverStall, C.Driver, 0);
      add(u + 2600 * NS, K.DriverResume, C.Driver, 0);
    }
  }
  recs.sort((x, y) => x.time - y.time);
  return recs;
}

export function fixtureRun(scenarioId = 'udp-throughput'): FixtureRun {
  const records = fixtureRecords();
  const start = records[0]!.time;
  const end = 560 * US;
  const occupancy = Array.from({ length: 60 }, (_, i) =>
    Math.round(3 + 2 * Math.sin(i / 5) + (i % 7 === 0 ? 2 : 0)),
  );
  const output: RunOutput = {
    format: 'nicsim-results/1',
    scenario: scenarioId,
    seed: 1,
    parameters: {
      system: { bus: { width_bits: 64, clock_mhz: 66 }, nic: { send_ring_size: 8 } },
      workload: { direction: 'bidirectional', datagram_bytes: 1472 },
      run: { duration_us: 2000, warmup_us: 500, trace: { start_us: 500, end_us: 560 } },
    },
    system: fixtureSystem({ busCyclePs: 15000 }),
    results: {
      udp_tx_throughput: { value: 941.2, unit: 'Mb/s' },
      udp_rx_throughput: { value: 940.8, unit: 'Mb/s' },
      udp_total_throughput: { value: 1882.0, unit: 'Mb/s' },
      ethernet_limit: { value: 1914.2, unit: 'Mb/s' },
      bus_utilization: { value: 0.62, unit: '' },
    },
    series: [
      { name: 'send_ring_occupancy', unit: 'descriptors', interval_ps: 1 * US, values: occupancy },
    ],
    histograms: [],
    sweep: fixtureSweep(),
    sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
    checks: [
      {
        id: 'asic-bidirectional-1472',
        source: 'seed 000, Abstract and Ch.3 intro (digest §3.1)',
        description:
          'A modern ASIC NIC (Intel PRO/1000) reaches 1882 Mb/s bidirectional UDP with 1472-byte datagrams.',
        expected: 1882,
        simulated: 1885.5,
        unit: 'Mb/s',
        tolerance: 0.05,
        comparison: 'within',
        kind: 'exact',
        pass: true,
      },
    ],
    trace: { records: records.length, dropped: 0, start_ps: start, end_ps: end },
  };
  return { output, trace: encodeTrace(records), records };
}

/**
 * One DMA read on 33 MHz PCI (30 ns cycles), phase by phase: REQ# at t0 − 20 ns, then
 * arbitration 2, address 1, turnaround 1, wait 10, data 4, idle 1 cycles from the grant at t0.
 */
export function fixtureDmaReadRecords(
  t0 = 210000,
  txn = 1,
  master: number = C.Nic,
  packet = 5,
): RawRecord[] {
  const CYC = 30000;
  const recs: RawRecord[] = [];
  const phase = (t: number, b: number, c: number, d: number) =>
    recs.push({ time: t, kind: K.BusPhase, component: C.Bus, a: master, b, c, d, e: txn });
  const chan = C.DmaRead | (master & 0xff00);
  recs.push({ time: t0 - 20000, kind: K.BusRequest, component: master, a: packet });
  recs.push({ time: t0, kind: K.BusGrant, component: C.Bus, a: master, b: txn });
  phase(t0, BP.Arbitration, 2, BC.Arbitration);
  recs.push({
    time: t0 + 2 * CYC,
    kind: K.BusTxnStart,
    component: C.Bus,
    a: txn,
    b: chan,
    c: 32,
    d: P.SendDataFetch,
    e: packet,
  });
  phase(t0 + 2 * CYC, BP.Address, 1, BC.Address);
  phase(t0 + 3 * CYC, BP.Turnaround, 1, BC.Turnaround);
  phase(t0 + 4 * CYC, BP.Wait, 10, BC.Wait);
  phase(t0 + 14 * CYC, BP.Data, 4, BC.Content);
  phase(t0 + 18 * CYC, BP.Idle, 1, BC.Turnaround);
  recs.push({
    time: t0 + 19 * CYC,
    kind: K.BusTxnEnd,
    component: C.Bus,
    a: txn,
    b: chan,
    c: 32,
    d: P.SendDataFetch,
    e: packet,
  });
  return recs;
}

/**
 * What the Tigon's handlers share by the thesis's Tables 3.2 and 3.3, as the core's system block
 * gives it (tigon.shares), for tests that render without the core; partition.test.ts checks it
 * against the core's own table, so it cannot drift.
 */
export function fixtureTigonShares(sendConsumerByDma = false): SystemTigonShare[] {
  const ev = (name: string) => TIGON_EVENTS.findIndex((e) => e.name === name);
  const read = ['SendDataReady', 'SendBdReady', 'ReceiveBdReady', 'DmaReadComplete'].map(ev);
  const write = ['ReceiveComplete', 'UpdateReturnProducer', 'DmaWriteComplete']
    .concat(sendConsumerByDma ? ['UpdateSendConsumer'] : [])
    .map(ev);
  const data: Array<[string, string, string, boolean]> = [
    ['Mailbox', 'SendBdReady', "the producer index of the driver's send BD ring", false],
    ['DmaReadComplete', 'SendDataReady', "the producer index of the firmware's send BD ring", true],
    [
      'DmaReadComplete',
      'UpdateSendConsumer',
      "the consumer index of the firmware's send BD ring",
      true,
    ],
    ['Mailbox', 'ReceiveBdReady', "the producer index of the driver's receive BD ring", false],
    [
      'DmaReadComplete',
      'ReceiveComplete',
      "the producer index of the firmware's receive BD ring",
      false,
    ],
    [
      'ReceiveComplete',
      'UpdateReturnProducer',
      "the producer index of the firmware's receive return BD ring",
      true,
    ],
  ];
  const out: SystemTigonShare[] = [];
  for (let a = 0; a < TIGON_EVENTS.length; a++)
    for (let b = a + 1; b < TIGON_EVENTS.length; b++) {
      if (read.includes(a) && read.includes(b))
        out.push({
          a,
          b,
          kind: 'read channel',
          what: 'the DMA read channel',
          source: 'Table 3.3',
          lock: true,
        });
      if (write.includes(a) && write.includes(b))
        out.push({
          a,
          b,
          kind: 'write channel',
          what: 'the DMA write channel',
          source: 'Table 3.3',
          lock: true,
        });
      for (const [x, y, what, lock] of data)
        if ((ev(x) === a && ev(y) === b) || (ev(x) === b && ev(y) === a))
          out.push({ a, b, kind: 'data', what, source: 'Table 3.2', lock });
    }
  return out;
}
