// Step back restores exactly what every view shows: each view's derivation at the
// cursor is computed, the store steps forward and back, and the derivations must be equal again,
// from a cursor on an event and from one between events (after playing or scrubbing).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace, countUpTo } from '../trace/trace';
import { fixtureRun } from '../engine/fixture';
import { loadNodeCore } from '../engine/nodeCore';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { Store, doneState, holdFor, type DoneRun } from './store';
import { cpuTimeline, diagramStateAt } from '../diagram/diagramState';
import { ringsAt } from '../rings/rings';
import { narrate } from '../diagram/narrate';
import { busPhaseIndex, cyclesUpTo, describeTenure, signalsAt } from '../bus/busPhases';
import { waveModel } from '../bus/waveform';
import { cachedFirmwareIndex, cpuNow, lanesModel, queuesAt, sramAt } from '../tigon/firmware';
import {
  CacheReplay,
  cacheGridIndex,
  countsUpTo,
  requestAt as cacheRequestAt,
  requestNow,
} from '../webserver/cacheGrid';
import { FOUR_SLOTS } from '../webserver/cacheGrid.example';
import { cachedRxPath, packetAt, packetNow, rxSetup } from '../sinic/rxPath';
import { cachedVnicIndex, fifoAt, registersAt, vnicSetup, vnicsAt } from '../sinic/vnics';
import {
  cachedRequestPathIndex,
  crossedUpTo,
  currentSteps,
  litParts,
  requestAt,
} from '../webserver/requestPath';
import { timeSeriesModel } from '../charts/chart';
import { packetAtCursor } from '../inspector/packetJourney';

/** Functions (scales) are not state: compare what serialises. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null));

function windowOf(run: DoneRun) {
  const start = run.output.trace.start_ps;
  let end = run.output.trace.end_ps;
  const tr = run.trace;
  if (tr.length && tr.time[tr.length - 1]! > end) end = tr.time[tr.length - 1]!;
  return { start, end: Math.max(start, end) };
}

/** What each view that follows the cursor derives from the run at t (their model functions). */
function viewsAt(run: DoneRun, t: number, speed: number): Record<string, unknown> {
  const idx = run.index;
  const hold = holdFor(speed);
  const params = run.output.parameters;
  const w = windowOf(run);
  const out: Record<string, unknown> = {};
  const diagram = diagramStateAt(idx, t, hold);
  out.diagram = diagram;
  out.narration = narrate(idx, diagram, t, hold);
  out.cpuStrip = cpuTimeline(idx, t, 5 * speed);
  out.rings = ringsAt(idx, t);
  out.rings2 = idx.nicCount > 1 ? ringsAt(idx, t, 1) : null;
  const current = countUpTo(run.trace.time, t) - 1;
  out.eventLog = { current, time: current >= 0 ? run.trace.time[current] : null };
  out.packetAtCursor = packetAtCursor(run.trace, t);
  const bus = busPhaseIndex(run.trace, w.start, w.end, params, run.output.system);
  if (bus.n > 0) {
    const sig = signalsAt(bus, t);
    out.busSignals = sig;
    out.busCycles = cyclesUpTo(bus, t);
    out.tenure = describeTenure(bus, sig.tenure, t, params);
    const span = 60 * bus.cyclePs;
    out.waveform = waveModel(bus, t - span / 2, t + span / 2, 800, t);
  }
  const fw = cachedFirmwareIndex(run.trace, w.start, w.end);
  if (fw.tigonRecords > 0) {
    out.firmware = {
      cpus: [0, 1].map((c) => cpuNow(fw, c, t)),
      queues: queuesAt(fw, t),
      sram: sramAt(fw, t),
      lanes: lanesModel(fw, [0, 1], Math.max(w.start, t - 5e6), t + 5e6, 800),
    };
  }
  const rp = cachedRequestPathIndex(run.trace);
  const path = requestAt(rp, t);
  if (path) {
    out.request = {
      request: path.request,
      crossed: crossedUpTo(path, t),
      steps: currentSteps(path, t),
      lit: [...litParts(path, t)],
    };
  }
  const rx = cachedRxPath(run.trace, rxSetup(params));
  const p = packetAt(rx, t);
  if (p) out.rxPath = { packet: p.id, now: packetNow(p, t) };
  const vs = vnicSetup(params);
  if (vs.vnics > 0) {
    const vix = cachedVnicIndex(run.trace, vs.vnics);
    out.vnics = { cells: vnicsAt(vix, t), regs: registersAt(vix, t), fifo: fifoAt(vix, t) };
  }
  out.series = run.output.series.map((s) => timeSeriesModel(s, t, { scale: 1e6, unit: 'µs' }).nowX);
  return plain(out) as Record<string, unknown>;
}

/** Cursors to step from: on events and between them, spread over the window. */
function cursors(run: DoneRun, n = 12): number[] {
  const tr = run.trace;
  const out: number[] = [];
  for (let k = 1; k <= n; k++) {
    const i = Math.floor((k / (n + 1)) * (tr.length - 1));
    out.push(tr.time[i]!);
    const next = tr.time[Math.min(tr.length - 1, i + 1)]!;
    // A cursor between two events, as playing or scrubbing leaves it.
    if (next > tr.time[i]!) out.push(tr.time[i]! + Math.floor((next - tr.time[i]!) / 3));
  }
  return out;
}

function checkStepBack(run: DoneRun): number {
  const store = new Store();
  store.setRun(run);
  const speed = store.getState().playback.speed;
  let checked = 0;
  for (const t of cursors(run)) {
    store.setCursor(t);
    const before = viewsAt(run, t, speed);
    store.stepForward();
    const after = store.getState().playback.cursor;
    if (after === t) continue; // the last event: nothing to step over
    expect(after).toBeGreaterThan(t);
    store.stepBack();
    expect(store.getState().playback.cursor).toBe(t);
    expect(viewsAt(run, t, speed)).toEqual(before);
    checked++;
  }
  return checked;
}

describe('step back restores what every view shows', () => {
  it('on the built-in run (diagram, rings, bus, event log, series)', () => {
    const f = fixtureRun();
    const run = doneState(f.output, decodeTrace(f.trace));
    expect(checkStepBack(run)).toBeGreaterThan(10);
  });

  it('Back from a step taken between events returns between events, not to the event before', () => {
    const f = fixtureRun();
    const run = doneState(f.output, decodeTrace(f.trace));
    const store = new Store();
    store.setRun(run);
    const tr = run.trace;
    let i = 10;
    while (tr.time[i + 1]! - tr.time[i]! < 3) i++;
    const mid = tr.time[i]! + 1;
    store.setCursor(mid);
    store.stepForward();
    expect(store.getState().playback.cursor).toBe(tr.time[i + 1]);
    store.stepBack();
    expect(store.getState().playback.cursor).toBe(mid);
    // A second Back has no step to undo: the previous event.
    store.stepBack();
    expect(store.getState().playback.cursor).toBe(tr.time[i]);
    // Moving the cursor elsewhere forgets the steps: Back is the previous event again.
    store.stepForward();
    store.setCursor(mid);
    store.stepBack();
    expect(store.getState().playback.cursor).toBe(tr.time[i]);
  });

  it("the cache grid's replay, which applies and undoes block records, comes back the same", () => {
    const trace = decodeTrace(encodeTrace(FOUR_SLOTS));
    const ix = cacheGridIndex(trace, { nics: 1, slots: 4, blockBytes: 4096 });
    const replay = new CacheReplay(ix);
    const state = (t: number) => {
      replay.seek(t);
      const r = cacheRequestAt(ix, t);
      return plain({
        files: [...replay.file],
        blocks: [...replay.block],
        used: replay.used,
        unknown: replay.unknown,
        now: requestNow(ix, r),
        counts: countsUpTo(ix, r),
      });
    };
    const times = [...new Set(Array.from(trace.time))];
    let changed = 0;
    for (let k = 0; k + 1 < times.length; k++) {
      const before = state(times[k]!);
      if (JSON.stringify(state(times[k + 1]!)) !== JSON.stringify(before)) changed++;
      expect(state(times[k]!)).toEqual(before);
    }
    // The steps did change the grid, so coming back is a real undo.
    expect(changed).toBeGreaterThan(1);
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('step back restores every view on the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const runOf = (id: string): DoneRun => {
    const out = JSON.parse(core!.run(scenarioById(id)!.text, '{}')) as RunOutput;
    return doneState(out, decodeTrace(core!.traceBytes()));
  };
  for (const id of [
    'anatomy-of-a-send',
    'anatomy-of-a-receive',
    'send-ring-full',
    'pci-dma-read',
    'pci-two-nics',
    'tigon-one-packet',
    'web-anatomy-of-a-request',
    'sinic-anatomy',
  ]) {
    it(id, () => {
      const run = runOf(id);
      expect(checkStepBack(run)).toBeGreaterThan(8);
    });
  }
});
