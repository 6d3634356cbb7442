// Ring state at the cursor, reconstructed from IndexUpdate records
// (a=ring, b=copy, c=producer, d=consumer, e=size).
import { occupancy } from '../kit/format';
import type { TraceIndex } from '../trace/traceIndex';
import { RING_NAMES } from '../trace/traceKinds';
import { IndexUpdate } from '../trace/records.gen';

export interface RingCopyState {
  ring: number;
  copy: number;
  /** False until the first IndexUpdate for this copy at or before the cursor. */
  known: boolean;
  producer: number;
  consumer: number;
  size: number;
  /** Descriptors between consumer and producer (produced, not yet consumed). */
  occupied: number;
  /** Occupied slot numbers, in ring order from the consumer. */
  slots: number[];
  /** Time of the update this state comes from. */
  since: number;
  /** Record index of that update, or -1. */
  rec: number;
}

export interface RingState {
  ring: number;
  name: string;
  host: RingCopyState;
  nic: RingCopyState;
  /** The copies disagree on producer or consumer: notification is in flight. */
  lagging: boolean;
}

export function ringCopyAt(
  idx: TraceIndex,
  ring: number,
  copy: number,
  t: number,
  nic = 0,
): RingCopyState {
  // IndexUpdate records of the second NIC's rings carry instance 1 (driver#1, nic#1).
  const list = (idx.ringUpdatesByNic[nic] ?? [])[ring * 2 + copy] ?? [];
  const times = idx.trace.time;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[list[mid]!]! <= t) lo = mid + 1;
    else hi = mid;
  }
  const rec = lo > 0 ? list[lo - 1]! : -1;
  if (rec < 0) {
    return {
      ring,
      copy,
      known: false,
      producer: 0,
      consumer: 0,
      size: 0,
      occupied: 0,
      slots: [],
      since: NaN,
      rec: -1,
    };
  }
  const producer = IndexUpdate.producer(idx.trace, rec);
  const consumer = IndexUpdate.consumer(idx.trace, rec);
  const size = IndexUpdate.size(idx.trace, rec);
  const occupied = occupancy(producer, consumer, size);
  const slots: number[] = [];
  for (let i = 0; i < occupied; i++) slots.push((consumer + i) % size);
  return {
    ring,
    copy,
    known: true,
    producer,
    consumer,
    size,
    occupied,
    slots,
    since: times[rec]!,
    rec,
  };
}

export function ringsAt(idx: TraceIndex, t: number, nicInstance = 0): RingState[] {
  return [0, 1, 2].map((ring) => {
    const host = ringCopyAt(idx, ring, 0, t, nicInstance);
    const nic = ringCopyAt(idx, ring, 1, t, nicInstance);
    const lagging =
      host.known && nic.known && (host.producer !== nic.producer || host.consumer !== nic.consumer);
    return { ring, name: RING_NAMES[ring]!, host, nic, lagging };
  });
}
