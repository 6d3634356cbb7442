// Trace records of one send through the fixed-function NIC, written by hand after the real
// engine's anatomy-of-a-send (S1–S6 of the thesis's Fig 2.4), for the timeline's model and view
// tests: the receive buffers' start-up, then the send task, the descriptor, the mailbox write across the bus, the descriptor and data
// fetched by DMA, the frame on the wire, the consumer index written back, the interrupt and the
// descriptor recycled. Times in ns. Each record's id is its position + 1; its cause is the record
// the core names (core-cpp/README.md, "Causes"), given below by position.
import type { RawRecord } from '../trace/trace';
import { C, K, P } from '../trace/traceKinds';

export const NS = 1000;

const r = (
  ns: number,
  kind: number,
  component: number,
  a = 0,
  b = 0,
  c = 0,
  d = 0,
  e = 0,
): RawRecord => ({ time: Math.round(ns * NS), kind, component, a, b, c, d, e });

const BRIDGE = C.HostBridge;

const RECORDS: RawRecord[] = [
  // Start-up: the driver posts receive buffers; the NIC fetches their descriptors (no packet).
  r(0, K.MailboxWrite, C.Driver, 1, 8),
  r(0, K.BusTxnStart, C.Bus, 1, BRIDGE, 4, P.MailboxPio, 0),
  r(150, K.BusTxnEnd, C.Bus, 1, BRIDGE, 4, P.MailboxPio, 0),
  r(150, K.MailboxArrive, C.Nic, 1, 8),
  r(190, K.DmaQueued, C.DmaRead, 1, P.RecvBdFetch, 256, 0, 1),
  r(270, K.BusTxnStart, C.Bus, 2, C.DmaRead, 256, P.RecvBdFetch, 0),
  r(1680, K.BusTxnEnd, C.Bus, 2, C.DmaRead, 256, P.RecvBdFetch, 0),
  r(1680, K.DmaDone, C.DmaRead, 1, P.RecvBdFetch, 256, 0),
  // The send.
  r(3000, K.HostCpuBusy, C.HostCpu, 0, 300_000, 0, 0),
  r(3300, K.DriverPostSendBd, C.Driver, 1, 0, 1518),
  r(3300, K.MailboxWrite, C.Driver, 0, 1),
  r(3300, K.BusTxnStart, C.Bus, 3, BRIDGE, 4, P.MailboxPio, 0),
  r(3450, K.BusTxnEnd, C.Bus, 3, BRIDGE, 4, P.MailboxPio, 0),
  r(3450, K.MailboxArrive, C.Nic, 0, 1),
  r(3490, K.DmaQueued, C.DmaRead, 2, P.SendBdFetch, 16, 1, 1),
  r(3570, K.BusTxnStart, C.Bus, 4, C.DmaRead, 16, P.SendBdFetch, 1),
  r(4080, K.BusTxnEnd, C.Bus, 4, C.DmaRead, 16, P.SendBdFetch, 1),
  r(4080, K.DmaDone, C.DmaRead, 2, P.SendBdFetch, 16, 1),
  r(4120, K.DmaQueued, C.DmaRead, 3, P.SendDataFetch, 1514, 1, 1),
  r(4200, K.BusTxnStart, C.Bus, 5, C.DmaRead, 1514, P.SendDataFetch, 1),
  r(10350, K.BusTxnEnd, C.Bus, 5, C.DmaRead, 1514, P.SendDataFetch, 1),
  r(10350, K.DmaDone, C.DmaRead, 3, P.SendDataFetch, 1514, 1),
  r(10350, K.DmaQueued, C.DmaWrite, 4, P.SendConsumerWrite, 4, 0, 1),
  r(10390, K.MacTxStart, C.MacTx, 1, 1518),
  r(10410, K.BusTxnStart, C.Bus, 6, C.DmaWrite, 4, P.SendConsumerWrite, 0),
  r(10530, K.BusTxnEnd, C.Bus, 6, C.DmaWrite, 4, P.SendConsumerWrite, 0),
  r(10530, K.DmaDone, C.DmaWrite, 4, P.SendConsumerWrite, 4, 0),
  r(10570, K.InterruptRaise, C.Nic, 1, 0),
  r(10570, K.IsrStart, C.HostCpu, 1),
  r(10570, K.HostCpuBusy, C.HostCpu, 1, 1_050_000, 0, 0),
  r(11620, K.SendComplete, C.Driver, 1),
  r(11620, K.IsrEnd, C.HostCpu, 1, 0, 1),
  r(22598, K.MacTxEnd, C.MacTx, 1, 1518),
  r(22598, K.PeerRxDone, C.Peer, 1, 1518),
];

/** Effect position → cause position, as the real engine links them (no cause: left out). */
const CAUSES: Record<number, number> = {
  3: 0, // the receive producer's mailbox write → it reaches the NIC
  4: 3, // → the receive descriptor fetch
  5: 4, // → its bus transfer
  6: 5,
  7: 6, // the transfer ends → the DMA is done
  10: 9, // the send descriptor → the mailbox write
  12: 11,
  13: 10, // the mailbox write reaches the NIC
  14: 13, // → the send descriptor fetch
  15: 14,
  16: 15,
  17: 16,
  18: 17, // the descriptor is in → the data fetch
  19: 18,
  20: 19,
  21: 20,
  22: 21, // the data is in → the consumer index write
  23: 21, // → the frame on the wire
  24: 22,
  25: 24,
  26: 25,
  27: 26, // the index is in host memory → the interrupt
  28: 27, // → the interrupt service routine
  31: 28,
  32: 23, // the frame's start → its end
  33: 23, // → the peer has it
};

export const ONE_SEND: RawRecord[] = RECORDS.map((rec, i) =>
  CAUSES[i] === undefined ? { ...rec, id: i + 1 } : { ...rec, id: i + 1, cause: CAUSES[i]! + 1 },
);

/** The trace window of ONE_SEND (ps). */
export const ONE_SEND_WINDOW = { start: 0, end: 40_000 * NS };
