// Trace records of the full-system web server, written by hand for the tests of the request-path
// model and view: request 7 (file 42, 2,000 B, two segments) through a NIC with a cache, the
// first segment's block cached before, the second's inserted (Fig 4.12); request 8 taken by the
// server before the window opened; request 9 asked at the end. Times in µs. A record's id is its
// position + 1; the causes are the real engine's (a bus transfer follows from its DMA, a data
// DMA from the descriptor fetch, the fetch from the batch of descriptors posted).
import type { RawRecord } from '../trace/trace';
import { C, K, P } from '../trace/traceKinds';

export const US = 1e6;

const r = (
  us: number,
  kind: number,
  component: number,
  a = 0,
  b = 0,
  c = 0,
  d = 0,
  e = 0,
): RawRecord => ({ time: us * US, kind, component, a, b, c, d, e });

const RECORDS: RawRecord[] = [
  r(0, K.WebAsk, C.Peer, 7, 100, 0, 3),
  r(0, K.PeerTxStart, C.Peer, 100, 370),
  r(3, K.MacRxDone, C.MacRx, 100, 370),
  r(3, K.DmaQueued, C.DmaWrite, 1, P.RecvDataWrite, 366, 100, 1),
  r(3.2, K.BusTxnStart, C.Bus, 11, C.Nic, 366, P.RecvDataWrite, 100),
  r(4, K.BusTxnEnd, C.Bus, 11, C.Nic, 366, P.RecvDataWrite, 100),
  r(4, K.DmaDone, C.DmaWrite, 1, P.RecvDataWrite, 366, 100),
  r(20, K.HostDeliver, C.Driver, 100, 0),
  r(30, K.WebServe, C.HostCpu, 7, 42, 2000, 0, 1),
  r(50, K.WebServe, C.HostCpu, 8, 43, 500, 0, 1),
  r(70, K.WebSend, C.HostCpu, 7, 0, 2, 0, 0),
  r(90, K.WebSend, C.HostCpu, 8, 0, 1, 0, 0),
  r(100, K.WebSegment, C.Driver, 200, 7, 0, 306, 1208),
  r(100, K.CacheCommand, C.Driver, 200, 0, 306, 0, 10),
  r(100, K.CacheCommand, C.Driver, 200, 1, 1208, 4096, 11),
  r(100, K.WebSegment, C.Driver, 201, 7, 0, 66, 792),
  r(100, K.CacheCommand, C.Driver, 201, 0, 66, 0, 12),
  r(100, K.CacheCommand, C.Driver, 201, 2, 792, 8192, 13),
  r(100, K.CacheCommand, C.Driver, 201, 1, 792, 8192, 14),
  r(101, K.DmaQueued, C.DmaRead, 2, P.SendBdFetch, 80, 200, 1),
  r(102, K.DmaDone, C.DmaRead, 2, P.SendBdFetch, 80, 200),
  r(102, K.DmaQueued, C.DmaRead, 3, P.SendDataFetch, 306, 200, 1),
  r(102.1, K.NicCacheAppend, C.Nic, 200, 1208),
  r(102.2, K.DmaQueued, C.DmaRead, 4, P.SendDataFetch, 66, 201, 2),
  r(102.3, K.DmaQueued, C.DmaRead, 5, P.SendDataFetch, 792, 201, 3),
  r(102.4, K.NicCacheAppend, C.Nic, 201, 792),
  r(103, K.BusTxnStart, C.Bus, 12, C.Nic, 306, P.SendDataFetch, 200),
  r(104, K.BusTxnEnd, C.Bus, 12, C.Nic, 306, P.SendDataFetch, 200),
  r(104, K.DmaDone, C.DmaRead, 3, P.SendDataFetch, 306, 200),
  r(104, K.BusTxnStart, C.Bus, 13, C.Nic, 66, P.SendDataFetch, 201),
  r(105, K.BusTxnEnd, C.Bus, 13, C.Nic, 66, P.SendDataFetch, 201),
  r(105, K.DmaDone, C.DmaRead, 4, P.SendDataFetch, 66, 201),
  r(105, K.BusTxnStart, C.Bus, 14, C.Nic, 792, P.SendDataFetch, 201),
  r(106, K.MacTxStart, C.MacTx, 200, 1518),
  r(108, K.BusTxnEnd, C.Bus, 14, C.Nic, 792, P.SendDataFetch, 201),
  r(108, K.DmaDone, C.DmaRead, 5, P.SendDataFetch, 792, 201),
  r(118, K.PeerRxDone, C.Peer, 200, 1518),
  r(118, K.MacTxStart, C.MacTx, 201, 862),
  r(126, K.PeerRxDone, C.Peer, 201, 862),
  r(126, K.WebResponseDone, C.Peer, 7, 0, 2000, 3),
  r(126, K.WebAsk, C.Peer, 9, 300, 0, 3),
];

/** Effect position → cause position. */
const CAUSES: Record<number, number> = {
  19: 18,
  20: 19,
  21: 20,
  23: 20,
  24: 20,
  26: 21,
  29: 23,
  32: 24,
};

export const ONE_REQUEST: RawRecord[] = RECORDS.map((rec, i) => ({
  ...rec,
  id: i + 1,
  cause: CAUSES[i] === undefined ? 0 : CAUSES[i]! + 1,
}));
