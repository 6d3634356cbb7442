import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace } from '../trace/trace';
import {
  buildRxPath,
  neighbours,
  packetAt,
  packetNow,
  pathWords,
  rxDoneWords,
  rxSetup,
  stepArrow,
  stepToken,
  type RxSetup,
} from './rxPath';
import { formatUs } from '../kit/format';
import { pointAlong, polylinePath } from '../kit/geometry';
import { NS, OFF_CHIP, RX_DONE_MORE, US, ZERO_COPY, halves } from './rxPath.example';

const T0 = 1000 * US;
const vsinic: RxSetup = rxSetup({
  system: {
    nic: { model: 'v-sinic' },
    sinic: { zero_copy: 'aggressive' },
    link: { rate_mbps: 10000 },
  },
});
const offChip: RxSetup = rxSetup({ system: { nic: { model: 'cnic-off-chip' } } });

describe('rxSetup', () => {
  it('reads the NIC, its zero-copy policy and where the kernel buffers are', () => {
    expect(vsinic).toEqual({
      nic: 'v-sinic',
      zeroCopy: 'aggressive',
      kernelIn: 'l2',
      rateMbps: 10000,
    });
    expect(offChip.kernelIn).toBe('dram');
    // Zero copy is V-SINIC's only (§3.3).
    expect(
      rxSetup({ system: { nic: { model: 'sinic' }, sinic: { zero_copy: 'aggressive' } } }).zeroCopy,
    ).toBe('off');
    expect(rxSetup({ system: { nic: { model: 'tigon' } } }).nic).toBeNull();
  });
});

describe('the zero-copy receive path of one packet', () => {
  const ix = buildRxPath(decodeTrace(encodeTrace(ZERO_COPY)), vsinic);

  it('finds the received packet and leaves out the ACK the host sent', () => {
    expect(ix.packets.map((p) => p.id)).toEqual([7]);
    expect(ix.byId.get(8)).toBeUndefined();
  });

  it('lists its steps in order: wire, FIFO, interrupt, driver, RxData, header copy, RxWait, stack, read(), RxData, payload copy, RxWait', () => {
    const p = ix.byId.get(7)!;
    expect(p.before).toBe(false);
    expect(p.steps.map((s) => s.kind)).toEqual([
      'wire',
      'arrive',
      'interrupt',
      'driver',
      'rxdata',
      'engine',
      'rxwait',
      'stack',
      'zcsetup',
      'rxdata',
      'engine',
      'rxwait',
    ]);
    const [header, payload] = p.steps.filter((s) => s.kind === 'engine');
    expect(header).toMatchObject({ to: 'kernel', bytes: 64, vnic: 3 });
    expect(header!.holds).toEqual([
      { place: 'kernel', part: 'header' },
      { place: 'fifo', part: 'payload' },
    ]);
    expect(payload).toMatchObject({
      to: 'user',
      bytes: 1450,
      start: T0 + 20075 * NS,
      end: T0 + 20090 * NS,
    });
    expect(payload!.text).toContain('the one copy left');
    // The driver's unit before the RxData write is this packet's, with the RxDone count.
    const driver = p.steps.find((s) => s.kind === 'driver')!;
    expect(driver.text).toContain('9 packets waiting');
    expect(driver.text).toContain('VNIC, 3');
    expect(p.steps.find((s) => s.kind === 'interrupt')!.text).toContain('5 ns');
    const rxdata = p.steps.filter((s) => s.kind === 'rxdata').map((s) => s.text);
    expect(rxdata[0]).toContain("an sk_buff's address and size, 2,048 B");
    expect(rxdata[1]).toContain('1,450 B, NoDelay');
    expect(p.steps.find((s) => s.kind === 'rxwait')!.text).toContain('More: 1,450 B left');
    expect(p.steps.find((s) => s.kind === 'arrive')!.text).toContain('14.8 KB in the FIFO');
  });

  it('says where the packet is at a time', () => {
    const p = ix.byId.get(7)!;
    const before = packetNow(p, T0 - 1);
    expect(before.pending).toBe(true);
    const wire = packetNow(p, T0 + 615 * NS);
    expect(wire).toMatchObject({ step: 0, moving: true, holds: [] });
    expect(wire.progress).toBeCloseTo(0.5, 5);
    expect(packetNow(p, T0 + 1500 * NS).holds).toEqual([{ place: 'fifo', part: 'frame' }]);
    const deferred = packetNow(p, T0 + 10000 * NS);
    expect(deferred.holds.map((h) => `${h.place}:${h.part}`)).toEqual([
      'kernel:header',
      'fifo:payload',
    ]);
    const copying = packetNow(p, T0 + 20080 * NS);
    expect(p.steps[copying.step]!.kind).toBe('engine');
    expect(copying.moving).toBe(true);
    const done = packetNow(p, T0 + 30000 * NS);
    expect(done.finished).toBe(true);
    expect(done.holds).toEqual([{ place: 'user', part: 'payload' }]);
  });

  it('picks the packet of the latest step', () => {
    expect(packetAt(ix, 0)!.id).toBe(7);
    expect(packetAt(ix, T0 + 25000 * NS)!.id).toBe(7);
    expect(neighbours(ix, ix.packets[0]!)).toEqual({ prev: null, next: null });
  });
});

describe('the off-chip conventional NIC', () => {
  const ix = buildRxPath(decodeTrace(encodeTrace(OFF_CHIP)), offChip);
  const p = ix.byId.get(11)!;

  it('moves the frame by DMA into DRAM, then the driver, TCP/IP and a copy that misses', () => {
    expect(p.steps.map((s) => s.kind)).toEqual([
      'wire',
      'arrive',
      'dma',
      'interrupt',
      'driver',
      'stack',
      'copy',
    ]);
    const dma = p.steps[2]!;
    expect(dma).toMatchObject({ to: 'kernel', start: T0 + 1230 * NS, end: T0 + 1967 * NS });
    expect(dma.text).toContain('in DRAM, across the I/O bridge');
    expect(p.steps[3]!.text).toContain('an uncached read across the I/O bridge');
    const copy = p.steps[6]!;
    expect(copy).toMatchObject({ missed: 23, lines: 23, bytes: 1448, to: 'user' });
    expect(copy.text).toContain('all 23 lines missed, read from DRAM');
    expect(copy.end - copy.start).toBe(1090 * NS);
  });

  it('draws each step on its arrow with what moves', () => {
    expect(p.steps.map(stepArrow)).toEqual([
      'wire',
      'none',
      'toKernel',
      'irq',
      'desc',
      'header',
      'copy',
    ]);
    expect(p.steps.map(stepToken)).toEqual([
      'frame',
      '',
      'frame',
      'IRQ',
      'descriptor',
      'header',
      'payload',
    ]);
  });
});

describe('words', () => {
  it('reads RxDone', () => {
    const v = halves(RX_DONE_MORE);
    expect(rxDoneWords(v.c, v.d)).toBe('More: 1,450 B left in the FIFO');
    expect(rxDoneWords(0x40000000 | 1514, 0)).toBe('Complete: 1,514 B copied');
  });
  it('names each path and formats trace times', () => {
    expect(pathWords(vsinic)).toContain('once');
    expect(pathWords(offChip)).toContain('DRAM');
    expect(formatUs(T0 + 135 * NS)).toBe('1,000.135 µs');
  });
});

describe('geometry of the arrows', () => {
  it('finds the point along a polyline', () => {
    const pts = [
      [0, 0],
      [10, 0],
      [10, 10],
    ] as const;
    expect(pointAlong(pts, 0)).toEqual([0, 0]);
    expect(pointAlong(pts, 0.25)).toEqual([5, 0]);
    expect(pointAlong(pts, 0.75)).toEqual([10, 5]);
    expect(pointAlong(pts, 2)).toEqual([10, 10]);
    expect(polylinePath(pts)).toBe('M0 0 L10 0 L10 10');
  });
});
