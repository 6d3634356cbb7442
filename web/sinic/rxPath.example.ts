// Trace records of the SINIC paper's receive paths, written by hand for the tests of the receive
// path, VNIC and register views: one zero-copy V-SINIC packet, one off-chip CNIC packet, each in
// the order the core records them (core-cpp/sinic/stream_host.cpp, sinic_device.cpp, cnic.cpp).
import type { RawRecord } from '../trace/trace';
import { C, K, P } from '../trace/traceKinds';

export const NS = 1000;
export const US = 1e6;
const T0 = 1000 * US;

const at = (ns: number) => T0 + ns * NS;

/** A 64-bit register value as the trace's two halves. */
export function halves(v: bigint): { c: number; d: number } {
  return { c: Number(v & 0xffffffffn), d: Number(v >> 32n) };
}
const bit = (b: number) => 1n << BigInt(b);
const len = (n: number) => BigInt(n) << 40n;

function reg(ns: number, r: number, vnic: number, v: bigint, took: number): RawRecord {
  return {
    time: at(ns),
    kind: K.NicRegister,
    component: C.Driver,
    a: r,
    b: vnic,
    ...halves(v),
    e: took,
  };
}
function vnic(ns: number, v: number, state: number, packet: number, bytes: number, fifo: number) {
  return {
    time: at(ns),
    kind: K.VnicState,
    component: C.Nic,
    a: v,
    b: state,
    c: packet,
    d: bytes,
    e: fifo,
  };
}
function cpu(ns: number, part: number, dur: number, packet: number): RawRecord {
  return { time: at(ns), kind: K.CpuPart, component: C.HostCpu, a: part, b: dur, c: packet };
}

/** RxWait/RxDone values: Complete | TcpPacket | IpPacket, More when bytes are left. */
export const RX_DONE_MORE = bit(30) | bit(29) | bit(26) | bit(22) | bit(20) | 1450n;
export const RX_DONE_COMPLETE = bit(30) | bit(26) | bit(22) | bit(20) | 1450n;

/** Packet 7 on V-SINIC with zero copy: VNIC 3 takes its header, read() its payload. */
export const ZERO_COPY: RawRecord[] = [
  { time: at(0), kind: K.PeerTxStart, component: C.Peer, a: 7, b: 1514 },
  { time: at(1230), kind: K.MacRxDone, component: C.Nic, a: 7, b: 1514 },
  { time: at(1230), kind: K.FifoLevel, component: C.Nic, a: 15140, b: 1 },
  { time: at(2000), kind: K.InterruptRaise, component: C.Nic, a: 3, b: 1 },
  reg(2000, 6, 0xffff, 1n, 5),
  { time: at(2000), kind: K.IsrStart, component: C.Driver, a: 1 },
  cpu(2000, 0, 380, 0), // the handler
  reg(2380, 7, 0xffff, 0n, 0), // IntrMask: masked while polling
  reg(2380, 1, 0xffff, 9n << 32n, 5), // RxDone: 9 packets waiting
  cpu(2380, 0, 210, 0), // the driver's receive unit
  reg(2590, 0, 3, len(2048), 5), // RxData on VNIC 3
  vnic(2590, 3, 1, 0, 2048, 15140), // posted
  vnic(2590, 3, 2, 7, 64, 15140), // copying the header
  vnic(2600, 3, 3, 7, 1450, 15140), // payload deferred
  reg(2600, 2, 3, RX_DONE_MORE, 10), // RxWait: More
  { time: at(2600), kind: K.SinicCopy, component: C.Nic, a: 0, b: 3, c: 7, d: 64, e: 1 },
  cpu(2600, 1, 475, 7), // TCP/IP
  // An ACK the host sends: not on the receive path.
  cpu(3100, 1, 125, 8),
  { time: at(3300), kind: K.SinicCopy, component: C.Nic, a: 1, b: 0, c: 8, d: 66, e: 0 },
  reg(3300, 3, 0, len(66) | bit(62), 5),
  cpu(20000, 2, 75, 7), // read(): set up the payload copy
  reg(20075, 0, 3, len(1450) | bit(61), 5), // RxData, NoDelay
  vnic(20075, 3, 1, 7, 1450, 1514),
  vnic(20075, 3, 2, 7, 1450, 1514),
  vnic(20090, 3, 4, 7, 1450, 0), // done
  reg(20090, 2, 3, RX_DONE_COMPLETE, 15),
  { time: at(20090), kind: K.SinicCopy, component: C.Nic, a: 0, b: 3, c: 7, d: 1450, e: 2 },
  reg(20100, 7, 0xffff, 0x189n, 0), // IntrMask: unmasked
];

/** Packet 11 on the off-chip CNIC: DMA into DRAM, driver, stack, a copy that misses. */
export const OFF_CHIP: RawRecord[] = [
  { time: at(0), kind: K.PeerTxStart, component: C.Peer, a: 11, b: 1514 },
  { time: at(1230), kind: K.MacRxDone, component: C.Nic, a: 11, b: 1514 },
  {
    time: at(1230),
    kind: K.DmaQueued,
    component: C.DmaWrite,
    a: 5,
    b: P.RecvDataWrite,
    c: 1514,
    d: 11,
    e: 1,
  },
  {
    time: at(1967),
    kind: K.DmaDone,
    component: C.DmaWrite,
    a: 5,
    b: P.RecvDataWrite,
    c: 1514,
    d: 11,
  },
  { time: at(9000), kind: K.InterruptRaise, component: C.Nic, a: 3, b: 1 },
  reg(9000, 6, 0xffff, 0n, 250),
  cpu(9000, 0, 630, 0),
  cpu(9630, 0, 320, 11),
  cpu(9950, 1, 520, 11),
  { time: at(50000), kind: K.L2Copy, component: C.HostCpu, a: 11, b: 1448, c: 23, d: 23 },
  cpu(50000, 2, 1090, 11),
];
