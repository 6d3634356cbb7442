import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K } from '../trace/traceKinds';
import { buildIndex } from '../trace/traceIndex';
import { ringsAt } from './rings';
import { occupancy } from '../kit/format';

const upd = (
  time: number,
  ring: number,
  copy: number,
  p: number,
  c: number,
  size = 8,
): RawRecord => ({
  time,
  kind: K.IndexUpdate,
  component: copy ? C.Nic : C.Driver,
  a: ring,
  b: copy,
  c: p,
  d: c,
  e: size,
});

function indexOf(records: RawRecord[]) {
  return buildIndex(decodeTrace(encodeTrace(records)), 0, 1000);
}

describe('occupancy', () => {
  it('counts descriptors between consumer and producer, modulo the size', () => {
    expect(occupancy(5, 2, 8)).toBe(3);
    expect(occupancy(1, 6, 8)).toBe(3);
    expect(occupancy(4, 4, 8)).toBe(0);
  });
  it('works with free-running counters', () => {
    expect(occupancy(20, 12, 8)).toBe(8);
    expect(occupancy(21, 15, 8)).toBe(6);
  });
});

describe('ringsAt', () => {
  const idx = indexOf([
    upd(100, 0, 0, 0, 0),
    upd(100, 0, 1, 0, 0),
    upd(200, 0, 0, 3, 0), // driver posts 3
    upd(300, 0, 1, 3, 0), // NIC learns (mailbox)
    upd(400, 0, 1, 3, 2), // NIC consumes 2
    upd(500, 0, 0, 3, 2), // host learns the consumer index
    upd(600, 0, 0, 1, 2), // producer wraps: slots 2..7, 0 occupied
  ]);

  it('is unknown before the first update', () => {
    const [send] = ringsAt(idx, 50);
    expect(send!.host.known).toBe(false);
    expect(send!.nic.known).toBe(false);
    expect(send!.lagging).toBe(false);
  });

  it('takes the last update at or before the cursor', () => {
    const [send] = ringsAt(idx, 200);
    expect(send!.host).toMatchObject({
      known: true,
      producer: 3,
      consumer: 0,
      size: 8,
      occupied: 3,
      slots: [0, 1, 2],
    });
    expect(send!.nic).toMatchObject({ producer: 0, consumer: 0, occupied: 0 });
  });

  it('shows notification lag when the copies differ', () => {
    expect(ringsAt(idx, 250)[0]!.lagging).toBe(true); // host produced, NIC not told
    expect(ringsAt(idx, 350)[0]!.lagging).toBe(false);
    expect(ringsAt(idx, 450)[0]!.lagging).toBe(true); // NIC consumed, host not told
    expect(ringsAt(idx, 550)[0]!.lagging).toBe(false);
  });

  it('wraps occupied slots around the end of the ring', () => {
    const host = ringsAt(idx, 700)[0]!.host;
    expect(host.occupied).toBe(7);
    expect(host.slots).toEqual([2, 3, 4, 5, 6, 7, 0]);
  });

  it('goes back in time: stepping back restores an earlier state', () => {
    expect(ringsAt(idx, 700)[0]!.host.producer).toBe(1);
    expect(ringsAt(idx, 450)[0]!.host.producer).toBe(3);
  });

  it('keeps the three rings apart', () => {
    const idx2 = indexOf([upd(10, 2, 1, 4, 1, 16), upd(10, 1, 0, 7, 0, 16)]);
    const [send, recv, ret] = ringsAt(idx2, 10);
    expect(send!.host.known).toBe(false);
    expect(recv!.host).toMatchObject({ producer: 7, occupied: 7, size: 16 });
    expect(ret!.nic).toMatchObject({ producer: 4, consumer: 1, occupied: 3 });
    expect(ret!.host.known).toBe(false);
  });
});
