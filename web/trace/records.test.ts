import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeTrace, decodeTrace } from './trace';
import {
  DmaQueued,
  HostCpuBusy,
  K,
  KINDS,
  NicRegister,
  ROLE_COLUMN,
  TABLES,
  kindHasRole,
  roleValue,
} from './records.gen';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the generated trace decoder', () => {
  it('is what core-cpp/trace/trace_kinds.json gives now', () => {
    const r = spawnSync(process.execPath, ['core-cpp/scripts/gen-trace.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    // The message names the stale file and how to regenerate it.
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('has every kind of the definition, in its order', () => {
    const def = JSON.parse(
      readFileSync(new URL('../../core-cpp/trace/trace_kinds.json', import.meta.url), 'utf8'),
    ) as { kinds: { name: string }[] };
    expect(KINDS.map((k) => k.name)).toEqual(def.kinds.map((k) => k.name));
    KINDS.forEach((k, i) => expect(K[k.name as keyof typeof K]).toBe(i));
  });

  it('reads fields by name, 64-bit ones joined', () => {
    const t = decodeTrace(
      encodeTrace([
        { time: 1, kind: K.DmaQueued, component: 4, a: 7, b: 1, c: 1514, d: 3, e: 2 },
        { time: 2, kind: K.HostCpuBusy, component: 0, a: 1, b: 5, c: 1, d: 1 },
        { time: 3, kind: K.NicRegister, component: 1, a: 1, b: 2, c: 0xffffffff, d: 3, e: 40 },
      ]),
    );
    expect(DmaQueued.is(t, 0)).toBe(true);
    expect(DmaQueued.dma(t, 0)).toBe(7);
    expect(TABLES.purpose.names[DmaQueued.purpose(t, 0)]).toBe('send data fetch');
    expect(DmaQueued.bytes(t, 0)).toBe(1514);
    expect(DmaQueued.packet(t, 0)).toBe(3);
    expect(DmaQueued.queueDepth(t, 0)).toBe(2);
    expect(HostCpuBusy.durationPs(t, 1)).toBe(2 ** 32 + 5);
    expect(HostCpuBusy.nic(t, 1)).toBe(1);
    expect(NicRegister.value(t, 2)).toBe(3 * 2 ** 32 + 0xffffffff);
    expect(NicRegister.accessNs(t, 2)).toBe(40);
  });

  it('says which field names a packet, a DMA, a transaction, without a switch on kinds', () => {
    const t = decodeTrace(
      encodeTrace([
        { time: 1, kind: K.DmaQueued, component: 4, a: 7, d: 3 },
        { time: 2, kind: K.BusTxnStart, component: 2, a: 9, e: 3 },
        { time: 3, kind: K.IndexUpdate, component: 1, a: 0 },
      ]),
    );
    expect(roleValue(t, 0, 'packet')).toBe(3);
    expect(roleValue(t, 0, 'dma')).toBe(7);
    expect(roleValue(t, 1, 'packet')).toBe(3);
    expect(roleValue(t, 1, 'txn')).toBe(9);
    expect(roleValue(t, 2, 'packet')).toBe(-1);
    expect(kindHasRole(K.DriverPostSendBd, 'descriptor')).toBe(true);
    expect(KINDS[K.DriverPostSendBd]!.descriptorRing).toBe('send');
    expect(ROLE_COLUMN.request[K.WebSegment]).toBe(1);
  });

  it('lays every field on the five columns without overlap', () => {
    for (const k of KINDS) {
      const used = new Set<number>();
      for (const f of k.fields) {
        for (let w = 0; w < f.words; w++) {
          expect(used.has(f.column + w), `${k.name}.${f.name}`).toBe(false);
          used.add(f.column + w);
        }
      }
      expect(Math.max(-1, ...used)).toBeLessThan(5);
    }
  });
});
