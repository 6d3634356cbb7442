// Trace records of the cache-only web run, written by hand for the tests of the cache grid's
// model and view: request n at n µs, its block records after it.
import type { RawRecord } from '../trace/trace';
import { C, K } from '../trace/traceKinds';
import { WHAT } from './cacheGrid';

export const US = 1e6;

/** WebRequest: request n of `file`, `bytes` of content, to NIC `nic`, `found` blocks cached. */
export function requestRecord(
  n: number,
  file: number,
  bytes: number,
  found = 0,
  nic = 0,
): RawRecord {
  return {
    time: n * US,
    kind: K.WebRequest,
    component: C.HostCpu,
    a: n,
    b: file,
    c: bytes,
    d: nic,
    e: found,
  };
}

/** NicCacheBlock of request n: what (WHAT) happened to a slot of NIC `nic`'s cache. */
export function blockRecord(
  n: number,
  what: number,
  slot: number,
  file: number,
  block: number,
  nic = 0,
): RawRecord {
  return {
    time: n * US,
    kind: K.NicCacheBlock,
    component: C.Nic | (nic << 8),
    a: slot,
    b: file,
    c: block,
    d: what,
  };
}

/**
 * A 4-slot cache of 4 KB blocks: file 7 (3 blocks) and file 9 (1) fill it, 7 hits, then file 5
 * (2 blocks) evicts 9's block and 7's first.
 */
export const FOUR_SLOTS: readonly RawRecord[] = [
  requestRecord(0, 7, 10000),
  blockRecord(0, WHAT.insert, 0, 7, 0),
  blockRecord(0, WHAT.insert, 1, 7, 1),
  blockRecord(0, WHAT.insert, 2, 7, 2),
  requestRecord(1, 9, 4096),
  blockRecord(1, WHAT.insert, 3, 9, 0),
  requestRecord(2, 7, 10000, 3),
  blockRecord(2, WHAT.hit, 0, 7, 0),
  blockRecord(2, WHAT.hit, 1, 7, 1),
  blockRecord(2, WHAT.hit, 2, 7, 2),
  requestRecord(3, 5, 8192),
  blockRecord(3, WHAT.evict, 3, 9, 0),
  blockRecord(3, WHAT.insert, 3, 5, 0),
  blockRecord(3, WHAT.evict, 0, 7, 0),
  blockRecord(3, WHAT.insert, 0, 5, 1),
];
