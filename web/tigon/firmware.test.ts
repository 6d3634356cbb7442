import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K } from '../trace/traceKinds';
import { fixtureSystem } from '../engine/fixture';
import type { EventCpu } from '../engine/types';
import {
  cpuNow,
  firmwareFamily,
  firmwareIndex,
  lanesModel,
  nextHandlerStart,
  prevHandlerStart,
  priPick,
  queuesAt,
  registerAt,
  runningAt,
  spinningAt,
  sramAt,
  sramNote,
  tigonSetup,
} from './firmware';

// Event ids (bit numbers): SDR 0, RC 1, SBDR 2, RBDR 3, MB 4, USC 5, URRP 6, DRC 7, DWC 8.
const MB = 4;
const URRP = 6;
const RC = 1;
const DRC = 7;
const SBDR = 2;
const MASK_A = (1 << RC) | (1 << MB) | (1 << URRP) | (1 << 8); // 338, Table 3.4
const MASK_B = 0b010101101; // 173

const reg = (time: number, cpu: number, bits: number, mask: number): RawRecord => ({
  time,
  kind: K.TigonRegister,
  component: C.TigonCpu,
  a: cpu,
  b: bits,
  c: mask,
});
const start = (
  time: number,
  cpu: number,
  event: number,
  dur: number,
  path = 0,
  packet = 0,
): RawRecord => ({
  time,
  kind: K.TigonHandler,
  component: C.TigonCpu,
  a: event,
  b: cpu,
  c: path,
  d: dur,
  e: packet,
});
const end = (time: number, cpu: number, event: number, path = 0): RawRecord => ({
  time,
  kind: K.TigonHandlerEnd,
  component: C.TigonCpu,
  a: event,
  b: cpu,
  c: path,
});
const sem = (time: number, cpu: number, op: number, event: number): RawRecord => ({
  time,
  kind: K.TigonSemaphore,
  component: C.TigonCpu,
  a: cpu,
  b: op,
  c: event,
});

function ixOf(records: RawRecord[], w0 = 0, w1 = 10_000) {
  return firmwareIndex(decodeTrace(encodeTrace(records)), w0, w1);
}

// Table 3.4 (PARALLEL), index = event id: SDR RC SBDR RBDR MB USC URRP DRC DWC.
const TABLE: EventCpu[] = ['B', 'A', 'B', 'B', 'A', 'B', 'A', 'B', 'A'];

describe('the firmware and its partition', () => {
  it('names the family from what the core says the firmware does', () => {
    expect(firmwareFamily('release', false, false)).toBe('single');
    expect(firmwareFamily('bsd', false, false)).toBe('single');
    expect(firmwareFamily('parallel', true, false)).toBe('parallel');
    expect(firmwareFamily('custom', true, false)).toBe('custom');
    expect(firmwareFamily('dynamic', true, true)).toBe('dynamic');
    expect(firmwareFamily(null, false, false)).toBe('unknown');
  });

  it("takes each event's CPU and each CPU's mask from the run's system block", () => {
    const par = tigonSetup(fixtureSystem({ tigon: { firmware: 'parallel', places: TABLE } }));
    expect(par.tigon).toBe(true);
    expect(par.family).toBe('parallel');
    expect(par.eventCpu).toEqual(TABLE);
    expect(par.masks).toEqual([MASK_A, MASK_B]);
    const rel = tigonSetup(
      fixtureSystem({ tigon: { firmware: 'release', places: TABLE.map(() => 'A'), cpuB: false } }),
    );
    expect(rel.cpuB).toBe(false);
    expect(rel.family).toBe('single');
    expect(rel.masks).toEqual([0x1ff, 0]);
    const places: EventCpu[] = ['A', 'both', 'B', 'B', 'none', 'B', 'A', 'B', 'A'];
    const custom = tigonSetup(fixtureSystem({ tigon: { firmware: 'custom', places } }));
    expect(custom.cpuB).toBe(true);
    expect(custom.eventCpu.slice(0, 5)).toEqual(['A', 'both', 'B', 'B', 'none']);
    const dyn = tigonSetup(
      fixtureSystem({
        tigon: { firmware: 'dynamic', places: TABLE.map(() => 'either'), dynamic: true },
      }),
    );
    expect(dyn.family).toBe('dynamic');
    expect(tigonSetup(fixtureSystem()).tigon).toBe(false);
    expect(tigonSetup(undefined).tigon).toBe(false);
  });
});

describe('the event register', () => {
  it('PRI picks the highest set bit', () => {
    expect(priPick(0)).toBeNull();
    expect(priPick(1 << MB)).toBe(MB);
    expect(priPick((1 << MB) | (1 << URRP))).toBe(URRP);
    expect(priPick(0b111111111)).toBe(8);
  });

  const ix = ixOf([
    reg(100, 0, 1 << MB, MASK_A),
    reg(100, 1, 0, MASK_B),
    reg(200, 0, 0, MASK_A), // the handler starts: its bit is cleared
    reg(300, 0, (1 << MB) | (1 << URRP), MASK_A),
    reg(300, 1, 1 << DRC, MASK_B),
  ]);

  it('is empty before the first record, with the mask of the first record', () => {
    const r = registerAt(ix, 0, 50);
    expect(r.known).toBe(false);
    expect(r.bits).toBe(0);
    expect(r.mask).toBe(MASK_A);
    expect(r.pick).toBeNull();
    expect(r.cells.every((c) => !c.pending && !c.pick)).toBe(true);
  });

  it('takes the last record at or before the cursor', () => {
    expect(registerAt(ix, 0, 100).bits).toBe(1 << MB);
    expect(registerAt(ix, 0, 199).pick).toBe(MB);
    expect(registerAt(ix, 0, 200).bits).toBe(0);
    expect(registerAt(ix, 0, 250).since).toBe(200);
  });

  it('draws 9 cells from the highest bit, lit, greyed out of the mask, PRI outlined', () => {
    const r = registerAt(ix, 0, 300);
    expect(r.cells.map((c) => c.short)).toEqual([
      'DWC',
      'DRC',
      'URRP',
      'USC',
      'MB',
      'RBDR',
      'SBDR',
      'RC',
      'SDR',
    ]);
    expect(r.cells.filter((c) => c.pending).map((c) => c.short)).toEqual(['URRP', 'MB']);
    expect(r.cells.filter((c) => c.pick).map((c) => c.short)).toEqual(['URRP']);
    expect(r.cells.filter((c) => c.masked).map((c) => c.short)).toEqual([
      'DRC',
      'USC',
      'RBDR',
      'SBDR',
      'SDR',
    ]);
    const b = registerAt(ix, 1, 300);
    expect(b.pick).toBe(DRC);
    expect(b.cells.find((c) => c.short === 'MB')!.masked).toBe(true);
  });

  it('falls back to a given mask for a CPU without records', () => {
    const empty = ixOf([]);
    expect(registerAt(empty, 1, 5, MASK_B).mask).toBe(MASK_B);
    expect(registerAt(empty, 1, 5).known).toBe(false);
    expect(registerAt(empty, 1, 5).unknown).toBe(false); // the run's start: nothing pending
  });

  it('is unknown before its first record when the window opens mid-run', () => {
    const mid = ixOf([reg(300, 0, 1 << MB, MASK_A)], 200, 1000);
    expect(registerAt(mid, 0, 250).unknown).toBe(true);
    expect(registerAt(mid, 0, 300).unknown).toBe(false);
  });
});

describe('handler runs and semaphore spins', () => {
  const ix = ixOf(
    [
      end(150, 1, DRC, 6), // started before the window
      start(200, 0, MB, 500, 0, 0),
      start(300, 1, SBDR, 1000, 1, 3),
      end(700, 0, MB),
      sem(800, 0, 0, RC), // A spins while B holds the semaphore
      end(1300, 1, SBDR, 1),
      sem(1400, 0, 1, RC),
      start(1400, 0, RC, 5000, 12, 1), // runs past the window's end: no end record
    ],
    100,
    4000,
  );

  it('closes runs at their end record, by duration when the window closes first', () => {
    expect(ix.runs[0].map((r) => [r.event, r.start, r.end])).toEqual([
      [MB, 200, 700],
      [RC, 1400, 6400],
    ]);
    expect(ix.runs[1].map((r) => [r.event, r.start, r.end])).toEqual([
      [DRC, 100, 150],
      [SBDR, 300, 1300],
    ]);
  });

  it('names the handler running at the cursor', () => {
    expect(runningAt(ix, 0, 199)).toBeNull();
    expect(runningAt(ix, 0, 200)!.event).toBe(MB);
    expect(runningAt(ix, 0, 700)).toBeNull();
    expect(runningAt(ix, 1, 120)!.event).toBe(DRC);
    const now = cpuNow(ix, 1, 800);
    expect(now.state).toBe('running');
    expect(now.text).toContain('Send Buffer Descriptor Ready');
    expect(now.text).toContain('path SendBdFetch');
    expect(now.text).toContain('packet 3');
    expect(cpuNow(ix, 0, 750).state).toBe('idle');
  });

  it('finds spins from "spinning" to "acquired"', () => {
    expect(ix.spins[0].map((s) => [s.start, s.end, s.event])).toEqual([[800, 1400, RC]]);
    expect(spinningAt(ix, 0, 1000)!.event).toBe(RC);
    expect(spinningAt(ix, 0, 1400)).toBeNull();
    expect(cpuNow(ix, 0, 900).state).toBe('spinning');
    expect(cpuNow(ix, 0, 900).text).toContain('Receive Complete');
  });

  it('steps from handler start to handler start across both CPUs', () => {
    expect(nextHandlerStart(ix, 0)).toBe(100);
    expect(nextHandlerStart(ix, 200)).toBe(300);
    expect(nextHandlerStart(ix, 1400)).toBeNull();
    expect(prevHandlerStart(ix, 1400)).toBe(300);
    expect(prevHandlerStart(ix, 300)).toBe(200);
    expect(prevHandlerStart(ix, 100)).toBeNull();
  });

  it('ignores the records of another NIC', () => {
    const other = ixOf([{ ...start(200, 0, MB, 500), component: C.TigonCpu | (1 << 8) }]);
    expect(other.runs[0]).toHaveLength(0);
    expect(other.cpuSeen).toEqual([false, false]);
  });
});

describe('the SRAM note beside the CPUs', () => {
  it('does not say no handler started while a CPU runs one begun before the window', () => {
    // The window opens at 100 mid-handler: CPU A runs Receive Complete until 500.
    const mid = ixOf(
      [{ time: 500, kind: K.TigonHandlerEnd, component: C.TigonCpu, a: RC, b: 0, c: 12 }],
      100,
      1000,
    );
    const now = cpuNow(mid, 0, 300);
    expect(now.state).toBe('running');
    // Its start is not known: what is left, never "0 ps of …" at the window's start.
    expect(now.text).toMatch(/began before the trace window, 200 ps left$/);
    expect(cpuNow(mid, 0, 100).text).not.toMatch(/0 ps of/);
    const note = sramNote(sramAt(mid, 300), [now]);
    expect(note).not.toMatch(/no handler has started/i);
    expect(note).toMatch(/CPU A started its handler before the trace window opened/);
    expect(sramNote(sramAt(mid, 600), [cpuNow(mid, 0, 600)])).toBe(
      'No handler has started in the trace window yet.',
    );
  });
});

describe('queues and the SRAM', () => {
  const ix = ixOf([
    { time: 100, kind: K.DmaQueued, component: C.DmaRead, a: 1, b: 1, c: 16, d: 1, e: 1 },
    { time: 110, kind: K.DmaQueued, component: C.DmaRead, a: 2, b: 1, c: 16, d: 1, e: 2 },
    { time: 120, kind: K.DmaQueued, component: C.DmaWrite, a: 3, b: 3, c: 64, d: 1, e: 1 },
    { time: 200, kind: K.DmaDone, component: C.DmaRead, a: 1, b: 1, c: 16, d: 1 },
    { time: 300, kind: K.MacTxQueued, component: C.MacTx, a: 1, b: 1 },
    { time: 400, kind: K.MacTxStart, component: C.MacTx, a: 1, b: 1518, c: 0 },
    { time: 500, kind: K.MacRxDone, component: C.MacRx, a: 9, b: 1518, c: 1 },
    { time: 600, kind: K.MacRxTaken, component: C.MacRx, a: 9, b: 0 },
    { time: 700, kind: K.SramLoad, component: C.Sram, a: 464, b: 44411, c: 0 },
    { time: 800, kind: K.SramLoad, component: C.Sram, a: 681, b: 66633, c: 1 },
  ]);
  const depths = (t: number) => Object.fromEntries(queuesAt(ix, t).map((q) => [q.name, q.depth]));

  it('follows each queue: DMA depth from DmaQueued, one less at each DmaDone', () => {
    expect(depths(50)).toEqual({ dmaRead: 0, dmaWrite: 0, macTx: 0, macRx: 0 });
    expect(depths(150)).toEqual({ dmaRead: 2, dmaWrite: 1, macTx: 0, macRx: 0 });
    expect(depths(250)).toEqual({ dmaRead: 1, dmaWrite: 1, macTx: 0, macRx: 0 });
    expect(depths(350).macTx).toBe(1);
    expect(depths(450).macTx).toBe(0);
    expect(depths(550).macRx).toBe(1);
    expect(depths(650).macRx).toBe(0);
    expect(queuesAt(ix, 0).find((q) => q.name === 'dmaRead')!.max).toBe(2);
  });

  it('does not know a queue before its first record when the window opens mid-run', () => {
    const mid = ixOf(
      [
        { time: 200, kind: K.DmaDone, component: C.DmaRead, a: 1, b: 1, c: 16, d: 1 },
        { time: 300, kind: K.DmaQueued, component: C.DmaRead, a: 2, b: 1, c: 16, d: 1, e: 3 },
        { time: 400, kind: K.DmaDone, component: C.DmaRead, a: 2, b: 1, c: 16, d: 1 },
      ],
      100,
      1000,
    );
    expect(mid.midRun).toBe(true);
    const read = (t: number) => queuesAt(mid, t).find((q) => q.name === 'dmaRead')!.depth;
    expect(read(250)).toBeNull(); // the done request's queue depth is not known
    expect(read(350)).toBe(3);
    expect(read(450)).toBe(2);
    expect(queuesAt(mid, 450).find((q) => q.name === 'macTx')!.depth).toBeNull();
  });

  it("knows every queue from the core's snapshot as a mid-run window opens", () => {
    const mid = ixOf(
      [
        { time: 100, kind: K.TigonSnapshot, component: C.Nic, a: 2, b: 1, c: 3, d: 0 },
        { time: 200, kind: K.DmaDone, component: C.DmaRead, a: 1, b: 1, c: 16, d: 1 },
      ],
      100,
      1000,
    );
    const at = (t: number, name: string) => queuesAt(mid, t).find((q) => q.name === name)!.depth;
    expect(at(150, 'dmaRead')).toBe(2);
    expect(at(250, 'dmaRead')).toBe(1);
    expect(at(150, 'dmaWrite')).toBe(1);
    expect(at(150, 'macTx')).toBe(3);
    expect(at(150, 'macRx')).toBe(0);
  });

  it('reads the SRAM load of the last handler start', () => {
    expect(sramAt(ix, 699)).toBeNull();
    expect(sramAt(ix, 750)).toEqual({ time: 700, utilization: 0.464, waitPs: 44411, cpu: 0 });
    expect(sramAt(ix, 900)!.cpu).toBe(1);
  });
});

describe('lanesModel', () => {
  const ix = ixOf([
    start(0, 0, MB, 1000),
    end(1000, 0, MB),
    start(1000, 0, MB, 1), // a short run of the same event right after: merged
    end(1001, 0, MB),
    start(5000, 0, URRP, 4000),
    end(9000, 0, URRP),
    sem(2000, 1, 0, RC),
    sem(3000, 1, 1, RC),
  ]);
  const m = lanesModel(ix, [0, 1], 0, 10_000, 1000);

  it('places runs on the time axis, merging sub-pixel neighbours of one event', () => {
    const a = m.lanes[0]!;
    expect(a.bars).toHaveLength(2);
    expect(a.bars[0]).toMatchObject({ x0: 0, event: MB, count: 2, labelled: true });
    expect(a.bars[0]!.x1).toBeCloseTo(101.5, 5); // the short run is drawn 1.5 px wide
    expect(a.bars[1]).toMatchObject({ x0: 500, x1: 900, event: URRP, count: 1 });
    expect(m.lanes[1]!.spins.map((s) => [s.x0, s.x1])).toEqual([[200, 300]]);
  });

  it('gives ticks with labels in one unit and inverts x to time', () => {
    expect(m.unit).toBe('ns');
    expect(m.ticks[0]).toEqual({ x: 0, label: '0', anchor: 'start' });
    expect(m.ticks[m.ticks.length - 1]).toEqual({ x: 1000, label: '10', anchor: 'end' });
    expect(m.ticks.some((t) => t.label === '5')).toBe(true);
    expect(m.invert(250)).toBe(2500);
  });

  it('keeps very short runs visible', () => {
    const tiny = lanesModel(ixOf([start(10, 0, MB, 1), end(11, 0, MB)]), [0], 0, 1e9, 500);
    const bar = tiny.lanes[0]!.bars[0]!;
    expect(bar.x1 - bar.x0).toBeGreaterThanOrEqual(1.5);
    expect(bar.labelled).toBe(false);
  });
});
