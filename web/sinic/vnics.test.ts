import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace } from '../trace/trace';
import {
  REG,
  VNIC_STATE,
  buildVnicIndex,
  changeAround,
  decodeRegister,
  fifoAt,
  hex64,
  lastChangeAt,
  regField,
  registersAt,
  stateCounts,
  vnicGrid,
  vnicSetup,
  vnicsAt,
} from './vnics';
import { NS, RX_DONE_MORE, US, ZERO_COPY, halves } from './rxPath.example';

const T0 = 1000 * US;
const trace = decodeTrace(encodeTrace(ZERO_COPY));
const ix = buildVnicIndex(trace, 8);

describe('register values', () => {
  it('reads fields of a 64-bit value given as two halves', () => {
    const v = halves((9n << 32n) | (1n << 31n) | 1234n);
    expect(regField(v.c, v.d, 32, 16)).toBe(9);
    expect(regField(v.c, v.d, 31, 1)).toBe(1);
    expect(regField(v.c, v.d, 0, 20)).toBe(1234);
    expect(hex64(v.c, v.d)).toBe('0x00000009_800004d2');
  });

  it('decodes RxWait into the bits of sinicreg.hh', () => {
    const v = halves(RX_DONE_MORE);
    const f = Object.fromEntries(
      decodeRegister(REG.RxWait!, v.c, v.d).map((x) => [x.name, x.value]),
    );
    expect(f).toMatchObject({
      Complete: 1,
      More: 1,
      Busy: 0,
      NotHigh: 1,
      TcpPacket: 1,
      IpPacket: 1,
      TcpError: 0,
      CopyLen: 1450,
    });
    const data = halves((1n << 61n) | (1450n << 40n));
    expect(decodeRegister(REG.RxData!, data.c, data.d).map((x) => [x.name, x.value])).toEqual([
      ['NoDelay', 1],
      ['Len', 1450],
    ]);
    const tx = halves((1n << 63n) | (1n << 62n) | (66n << 40n));
    expect(decodeRegister(REG.TxData!, tx.c, tx.d).map((x) => x.value)).toEqual([1, 1, 66]);
    expect(
      decodeRegister(REG.IntrMask!, 0x189, 0)
        .filter((x) => x.value)
        .map((x) => x.name),
    ).toEqual(['Soft', 'TxLow', 'RxHigh', 'RxPacket']);
  });
});

describe('VNICs at the cursor', () => {
  it('are free until a record says otherwise, then follow their states', () => {
    expect(vnicsAt(ix, T0).every((c) => c.state === VNIC_STATE.free)).toBe(true);
    const deferred = vnicsAt(ix, T0 + 10000 * NS);
    expect(deferred[3]).toMatchObject({ state: VNIC_STATE.deferred, packet: 7, bytes: 1450 });
    expect(stateCounts(deferred)).toEqual([7, 0, 0, 1, 0]);
    expect(vnicsAt(ix, T0 + 20080 * NS)[3]!.state).toBe(VNIC_STATE.copying);
    expect(vnicsAt(ix, T0 + 30000 * NS)[3]).toMatchObject({ state: VNIC_STATE.done, packet: 7 });
  });

  it('steps from change to change and marks the last one', () => {
    expect(lastChangeAt(ix, T0 + 10000 * NS)).toBe(T0 + 2600 * NS);
    expect(changeAround(ix, T0 + 2600 * NS)).toEqual({
      prev: T0 + 2590 * NS,
      next: T0 + 20075 * NS,
    });
    expect(changeAround(ix, T0)).toEqual({ prev: null, next: T0 + 2590 * NS });
  });

  it('keeps each register’s last access, decoded', () => {
    const regs = registersAt(ix, T0 + 10000 * NS);
    expect(regs[REG.RxData!]).toMatchObject({ vnic: 3, write: true, ns: 5 });
    expect(regs[REG.RxWait!]!.fields.find((f) => f.name === 'More')!.value).toBe(1);
    expect(regs[REG.RxDone!]).toMatchObject({ vnic: null, write: false });
    expect(regs[REG.IntrMask!]!.lo).toBe(0);
    expect(regs[REG.TxWait!]).toBeNull();
    // Later the payload's RxData carries NoDelay, and the mask is set again.
    const later = registersAt(ix, T0 + 30000 * NS);
    expect(later[REG.RxData!]!.fields[0]).toMatchObject({ name: 'NoDelay', value: 1 });
    expect(later[REG.IntrMask!]!.lo).toBe(0x189);
  });

  it('reads the FIFO level from arrivals and copies', () => {
    expect(fifoAt(ix, T0)).toBeNull();
    expect(fifoAt(ix, T0 + 1500 * NS)).toBe(15140);
    expect(fifoAt(ix, T0 + 20080 * NS)).toBe(1514);
    expect(fifoAt(ix, T0 + 30000 * NS)).toBe(0);
  });
});

describe('setup and grid', () => {
  it('knows how many register sets and how big the FIFO is', () => {
    expect(
      vnicSetup({
        system: { nic: { model: 'sinic' }, sinic: { vnics: 256, rx_fifo_kbytes: 512 } },
      }),
    ).toMatchObject({ vnics: 1, fifoBytes: 512 * 1024, marks: null });
    const v = vnicSetup({
      system: {
        nic: { model: 'v-sinic' },
        sinic: {
          vnics: 64,
          fifo_bytes_per_vnic: 1536,
          zero_copy: 'conservative',
          high_mark_kbytes: 28,
          low_mark_kbytes: 8,
        },
      },
    });
    expect(v).toMatchObject({ vnics: 64, fifoBytes: 64 * 1536, zeroCopy: 'conservative' });
    expect(v.marks).toEqual({ high: 28 * 1024, low: 8 * 1024 });
    expect(vnicSetup({ system: { nic: { model: 'cnic-on-chip' } } }).vnics).toBe(0);
  });

  it('lays the VNICs out 16 or 32 to a row', () => {
    expect(vnicGrid(1, 500)).toMatchObject({ cols: 1, rows: 1, cell: 22 });
    expect(vnicGrid(64, 500)).toMatchObject({ cols: 16, rows: 4 });
    const g = vnicGrid(256, 520);
    expect(g).toMatchObject({ cols: 32, rows: 8 });
    expect(g.width).toBeLessThanOrEqual(520);
  });
});
