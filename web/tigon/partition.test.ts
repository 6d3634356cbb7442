import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TIGON_EVENTS } from '../trace/traceKinds';
import { loadNodeCore } from '../engine/nodeCore';
import type { EventCpu, Metrics, SystemInfo, ValidationError } from '../engine/types';
import { fixtureSystem, fixtureTigonShares } from '../engine/fixture';
import { scenarioById } from '../scenarios/eager';
import {
  FIRMWARE_PATH,
  crossPairs,
  eventId,
  eventsConflict,
  moveEvent,
  partitionResults,
  partitionState,
  requestedValue,
  semaphoreEvents,
  sharedBetween,
  unplacedEvents,
  type Place,
} from './partition';

const SHORT = TIGON_EVENTS.map((e) => e.short);
const id = (short: string) => SHORT.indexOf(short);
const names = (events: number[]) => events.map((e) => SHORT[e]).sort();
const pairNames = (a: number, b: number) => [SHORT[a], SHORT[b]].sort().join('-');

// Table 3.4 as the nine partition parameters' defaults (what the core reports for any scenario).
const TABLE_3_4: Record<string, Place> = {
  SDR: 'B',
  RC: 'A',
  SBDR: 'B',
  RBDR: 'B',
  MB: 'A',
  USC: 'B',
  URRP: 'A',
  DRC: 'B',
  DWC: 'A',
};
// The run's system block as the core gives it for a Tigon run: what each firmware choice runs.
const TABLE: EventCpu[] = SHORT.map((s) => TABLE_3_4[s]!);
const SYSTEM = fixtureSystem({ tigon: { firmware: 'parallel', places: TABLE } });
const allOn = (c: EventCpu): EventCpu[] => SHORT.map(() => c);
SYSTEM.tigon!.firmware_choices = {
  release: { firmware: 'release', cpu_b: false, partition: allOn('A') },
  'release-sram-both': { firmware: 'release', cpu_b: false, partition: allOn('A') },
  parallel: { firmware: 'parallel', cpu_b: true, partition: TABLE },
  custom: { firmware: 'custom', cpu_b: true, partition: null },
  dynamic: { firmware: 'dynamic', cpu_b: true, partition: allOn('either') },
};
const partitionPath = (e: number) => SYSTEM.tigon!.events[e]!.parameter;

function baseWith(firmware: string, extra: Record<string, unknown> = {}) {
  const m = new Map<string, unknown>([[FIRMWARE_PATH, firmware]]);
  TIGON_EVENTS.forEach((e, i) => m.set(partitionPath(i), TABLE_3_4[e.short]));
  for (const [k, v] of Object.entries(extra)) m.set(k, v);
  return m;
}
const get = (m: ReadonlyMap<string, unknown>) => requestedValue({}, m, new Map());

describe('the partition the user asked for', () => {
  it('reads RELEASE as all on A, PARALLEL as Table 3.4, custom from its parameters', () => {
    expect(partitionState(get(baseWith('release-sram-both')), SYSTEM).places).toEqual(
      SHORT.map(() => 'A'),
    );
    const parallel = partitionState(get(baseWith('parallel')), SYSTEM);
    expect(parallel.family).toBe('parallel');
    expect(parallel.places).toEqual(SHORT.map((s) => TABLE_3_4[s]));
    const custom = partitionState(
      requestedValue({ [partitionPath(id('MB'))]: 'none' }, baseWith('custom'), new Map()),
      SYSTEM,
    );
    expect(custom.places[id('MB')]).toBe('none');
    expect(partitionState(get(baseWith('dynamic')), SYSTEM).places).toEqual(
      SHORT.map(() => 'both'),
    );
  });

  it('reads the latest overrides first, then the scenario, then the run on screen', () => {
    const g = requestedValue(
      { a: 1 },
      new Map([['b', 2]]),
      new Map([
        ['a', 9],
        ['b', 9],
        ['c', 3],
      ]),
    );
    expect([g('a'), g('b'), g('c')]).toEqual([1, 2, 3]);
  });
});

describe('moving a handler', () => {
  it('in custom firmware sets that one override, and moving it back removes it', () => {
    const base = baseWith('custom');
    const state = partitionState(get(base), SYSTEM);
    const sdr = partitionPath(id('SDR'));
    const moved = moveEvent({}, base, state, id('SDR'), 'A', get(base));
    expect(moved).toEqual({ [sdr]: 'A' });
    const after = partitionState(requestedValue(moved, base, new Map()), SYSTEM);
    expect(moveEvent(moved, base, after, id('SDR'), 'B', get(base))).toEqual({});
  });

  it('from PARALLEL switches to custom; the other eight stay as Table 3.4', () => {
    const base = baseWith('parallel');
    const o = moveEvent({}, base, partitionState(get(base), SYSTEM), id('MB'), 'B', get(base));
    expect(o).toEqual({ [FIRMWARE_PATH]: 'custom', 'system.tigon.partition.mailbox': 'B' });
  });

  it('from RELEASE switches to custom with the other eight on CPU A, keeping its SRAM placement', () => {
    const base = baseWith('release', {
      'system.tigon.code_in_sram': true,
      'system.tigon.data_in_sram': true,
    });
    const o = moveEvent(
      { 'workload.datagram_bytes': 64 },
      base,
      partitionState(get(base), SYSTEM),
      id('SDR'),
      'B',
      get(base),
    );
    expect(o).toEqual({
      'workload.datagram_bytes': 64,
      [FIRMWARE_PATH]: 'custom',
      'system.tigon.code_in_sram': true,
      'system.tigon.data_in_sram': true,
      // Table 3.4's B events move to A; SDR itself goes to B (its default, so no override).
      'system.tigon.partition.send_bd_ready': 'A',
      'system.tigon.partition.receive_bd_ready': 'A',
      'system.tigon.partition.update_send_consumer': 'A',
      'system.tigon.partition.dma_read_complete': 'A',
    });
    expect(partitionState(requestedValue(o, base, new Map()), SYSTEM).places).toEqual(
      SHORT.map((s) => (s === 'SDR' ? 'B' : 'A')),
    );
  });
});

// Tables 3.2 and 3.3 of the thesis, written out pair by pair: the handlers that must take the
// semaphore when they run on different CPUs, with Update Send Consumer's index published for the
// driver to read (PARALLEL and custom firmware) and DMA'd to the host (RELEASE).
const LOCK_PAIRS = [
  // the read channel (Table 3.3)
  'DRC-SBDR',
  'DRC-SDR',
  'DRC-RBDR',
  'SBDR-SDR',
  'RBDR-SBDR',
  'RBDR-SDR',
  // the write channel (Table 3.3)
  'DWC-RC',
  'DWC-URRP',
  'RC-URRP',
  // data both update (Table 3.2): the firmware's send consumer index
  'DRC-USC',
].sort();
const LOCK_PAIRS_USC_DMA = [...LOCK_PAIRS, 'DWC-USC', 'RC-USC', 'URRP-USC'].sort();

// What the core's system block says handlers share (PARALLEL-style firmware: the send consumer
// index is read by PIO); the last describe checks this fixture against the core itself.
const SHARES = fixtureTigonShares(false);

function conflictPairs(byDma: boolean): string[] {
  const out: string[] = [];
  for (let a = 0; a < SHORT.length; a++)
    for (let b = a + 1; b < SHORT.length; b++)
      if (eventsConflict(a, b, fixtureTigonShares(byDma))) out.push(pairNames(a, b));
  return out.sort();
}

describe('what two CPUs share (Tables 3.2 and 3.3)', () => {
  it('the conflict table matches the thesis pair by pair', () => {
    expect(conflictPairs(false)).toEqual(LOCK_PAIRS);
    expect(conflictPairs(true)).toEqual(LOCK_PAIRS_USC_DMA);
    for (let e = 0; e < SHORT.length; e++) expect(eventsConflict(e, e, [])).toBe(true);
  });

  it('names the shared channel and data, and which need no lock (one writer)', () => {
    expect(sharedBetween(id('DRC'), id('SDR'), SHARES)).toEqual([
      { kind: 'read channel', what: 'the DMA read channel', source: 'Table 3.3', lock: true },
      {
        kind: 'data',
        what: "the producer index of the firmware's send BD ring",
        source: 'Table 3.2',
        lock: true,
      },
    ]);
    expect(sharedBetween(id('MB'), id('SBDR'), SHARES)).toEqual([
      {
        kind: 'data',
        what: "the producer index of the driver's send BD ring",
        source: 'Table 3.2',
        lock: false,
      },
    ]);
    expect(sharedBetween(id('MB'), id('DWC'), SHARES)).toEqual([]);
  });

  it('Table 3.4 leaves only single-writer data across the CPUs: no semaphore', () => {
    const places = SHORT.map((s) => TABLE_3_4[s]!);
    const pairs = crossPairs(places, SHARES);
    expect(pairs.map((p) => pairNames(p.a, p.b)).sort()).toEqual(['DRC-RC', 'MB-RBDR', 'MB-SBDR']);
    expect(pairs.every((p) => !p.lock)).toBe(true);
    expect(semaphoreEvents(places, SHARES)).toEqual([]);
    expect(unplacedEvents(places)).toEqual([]);
  });

  it('Send Data Ready on CPU A: the read channel is shared, four handlers take the semaphore', () => {
    const places = SHORT.map((s) => (s === 'SDR' ? 'A' : TABLE_3_4[s]!));
    expect(names(semaphoreEvents(places, SHARES))).toEqual(['DRC', 'RBDR', 'SBDR', 'SDR']);
    const locked = crossPairs(places, SHARES).filter((p) => p.lock);
    expect(locked.map((p) => pairNames(p.a, p.b)).sort()).toEqual([
      'DRC-SDR',
      'RBDR-SDR',
      'SBDR-SDR',
    ]);
  });

  it('a handler on both CPUs takes the semaphore; one on no CPU is listed', () => {
    const places = SHORT.map((s): Place => (s === 'MB' ? 'both' : s === 'USC' ? 'none' : 'A'));
    expect(names(semaphoreEvents(places, SHARES))).toEqual(['MB']);
    expect(names(unplacedEvents(places))).toEqual(['USC']);
    // Mailbox on both CPUs runs beside the A-only handlers it shares data with (no lock needed).
    expect(crossPairs(places, SHARES).map((p) => pairNames(p.a, p.b))).toEqual([
      'MB-SBDR',
      'MB-RBDR',
    ]);
  });
});

describe('the run’s results', () => {
  it('reads the CPU split, utilisations, spin and per-event shares', () => {
    const results: Metrics = {
      tigon_cpu_a_share: { value: 0.83, unit: 'fraction' },
      tigon_cpu_a_utilization: { value: 1, unit: 'fraction' },
      tigon_semaphore_spin: { value: 0.066, unit: 'fraction' },
      tigon_share_SendDataReady: { value: 0.3, unit: 'fraction' },
    };
    const r = partitionResults(results);
    expect(r.aShare).toBe(0.83);
    expect(r.utilization).toEqual([1, null]);
    expect(r.spin).toBe(0.066);
    expect(r.eventShares[eventId('SendDataReady')]).toBe(0.3);
    expect(r.eventShares[eventId('Mailbox')]).toBeNull();
    expect(partitionResults(undefined).aShare).toBeNull();
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('the mirror against the core’s refusals', async () => {
  const core = built ? await loadNodeCore() : null;
  // The preset without its notes and references: only the partition is under test here.
  const preset = JSON.parse(scenarioById('tigon-partition')!.text) as Record<string, unknown>;
  delete preset.parameter_notes;
  delete preset.reference;
  const text = JSON.stringify(preset);
  const label = new Map(TIGON_EVENTS.map((e, i) => [e.label, i]));
  const refused = (places: Place[]): ValidationError[] => {
    const o: Record<string, string> = { 'system.tigon.semaphore': 'never' };
    places.forEach((p, e) => (o[partitionPath(e)] = p));
    return JSON.parse(core!.validate(text, JSON.stringify(o))) as ValidationError[];
  };

  it('refuses, without the semaphore, exactly the pairs eventsConflict names', () => {
    // One handler alone on CPU B at a time: the core names every CPU A handler it conflicts with
    // (so each pair comes up twice, once from each side).
    const fromCore = new Set<string>();
    for (let b = 0; b < SHORT.length; b++) {
      const errors = refused(SHORT.map((_, e) => (e === b ? 'B' : 'A')));
      for (const err of errors) {
        const m = /^(.+) on CPU B shares a DMA channel or data with (.+) on CPU A/.exec(
          err.message,
        );
        expect(m, err.message).not.toBeNull();
        expect(label.get(m![1]!)).toBe(b);
        expect(err.path).toBe(partitionPath(b));
        fromCore.add(pairNames(b, label.get(m![2]!)!));
      }
    }
    expect([...fromCore].sort()).toEqual(conflictPairs(false));
  });

  it('reports in its system block exactly the shares of Tables 3.2 and 3.3 the fixture holds', () => {
    // The main run only, and a short one: only its system block is read.
    const main = { ...preset };
    for (const k of ['sweep', 'tour', 'compare']) delete main[k];
    const shares = (overrides: Record<string, unknown>) => {
      const out = JSON.parse(
        core!.run(
          JSON.stringify(main),
          JSON.stringify({ 'run.warmup_us': 0, 'run.duration_us': 200, ...overrides }),
        ),
      ) as { system: SystemInfo };
      return out.system.tigon!;
    };
    const parallel = shares({ 'system.tigon.firmware': 'parallel' });
    expect(parallel.send_consumer_by_dma).toBe(false);
    expect(parallel.shares).toEqual(fixtureTigonShares(false));
    const release = shares({ 'system.tigon.firmware': 'release' });
    expect(release.send_consumer_by_dma).toBe(true);
    expect(release.shares).toEqual(fixtureTigonShares(true));
  });

  it('refuses a handler on both CPUs without the semaphore, and one on no CPU always', () => {
    const both = refused(SHORT.map((s) => (s === 'USC' ? 'both' : 'B')));
    expect(both.map((e) => e.path)).toEqual([partitionPath(id('USC'))]);
    const errors = JSON.parse(
      core!.validate(text, JSON.stringify({ [partitionPath(id('MB'))]: 'none' })),
    ) as ValidationError[];
    expect(errors).toHaveLength(1);
    // The core lists only the places it accepts: no CPU is not among them.
    expect(errors[0]!.message).toContain('must be one of "A", "B", "both"');
  });
});
