// Checks the UI's reading of the real engine's output (skipped when the wasm is not built).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from './nodeCore';
import { decodeTrace } from '../trace/trace';
import { COMPONENT_NAMES, K, KIND_NAMES, TIGON_EVENTS, TIGON_PATHS } from '../trace/traceKinds';
import { isErrorOutput, type RunOutput } from './types';
import { SCENARIOS } from '../scenarios/eager';
import { buildIndex } from '../trace/traceIndex';
import { ringsAt } from '../rings/rings';
import { diagramStateAt } from '../diagram/diagramState';
import {
  CATEGORY_RESULT_KEYS,
  buildBusPhaseIndex,
  cyclesUpTo,
  describeTenure,
  signalsAt,
} from '../bus/busPhases';
import { waveModel } from '../bus/waveform';
import { needsAccessLog } from '../webserver/AccessLogPanel';

const built = existsSync(fileURLToPath(new URL('./wasm/nicsim_core.wasm', import.meta.url)));

describe.skipIf(!built)('the real engine, as the UI reads it', async () => {
  const core = built ? await loadNodeCore() : null;

  it('reports the same kind and component lists as traceKinds.ts', () => {
    expect(JSON.parse(core!.traceKindNames())).toEqual(KIND_NAMES);
    expect(JSON.parse(core!.componentNames())).toEqual(COMPONENT_NAMES);
  });

  it('reports the same Tigon events and handler paths as traceKinds.ts', () => {
    const info = JSON.parse(core!.tigonInfo()) as {
      events: { name: string; label: string }[];
      paths: { name: string }[];
    };
    expect(info.events.map((e) => [e.name, e.label])).toEqual(
      TIGON_EVENTS.map((e) => [e.name, e.label]),
    );
    expect(info.paths.map((p) => p.name)).toEqual(TIGON_PATHS);
  });

  for (const entry of SCENARIOS) {
    it(`runs ${entry.id} into output the views can read`, () => {
      // A preset that replays the user's access log runs on a small one.
      const needsLog = needsAccessLog(entry.scenario, {});
      const files = Uint32Array.from({ length: needsLog ? 2000 : 0 }, (_, i) => (i * 31) % 97);
      core!.setAccessLog(
        files,
        files.map((f) => 800 + 50 * f),
      );
      const out = JSON.parse(core!.run(entry.text, '{}')) as unknown;
      core!.setAccessLog(new Uint32Array(), new Uint32Array());
      expect(isErrorOutput(out), JSON.stringify(out).slice(0, 400)).toBe(false);
      const o = out as RunOutput;
      expect(o.format).toBe('nicsim-results/1');
      expect(o.scenario).toBe(entry.id);
      expect(typeof o.trace.start_ps).toBe('number');
      const trace = decodeTrace(core!.traceBytes());
      expect(trace.length).toBe(o.trace.records);
      for (let i = 1; i < trace.length; i++)
        expect(trace.time[i]! >= trace.time[i - 1]!).toBe(true);
      for (let i = 0; i < trace.length; i++) expect(trace.kind[i]!).toBeLessThan(KIND_NAMES.length);
      const idx = buildIndex(trace, o.trace.start_ps, o.trace.end_ps);
      // Every bus transaction inside the window has a positive duration.
      for (const s of idx.bus.spans)
        if (Number.isFinite(s.end)) expect(s.end).toBeGreaterThanOrEqual(s.start);
      const mid = (o.trace.start_ps + o.trace.end_ps) / 2;
      const rings = ringsAt(idx, o.trace.end_ps);
      expect(rings).toHaveLength(3);
      expect(() => diagramStateAt(idx, mid, 1e6)).not.toThrow();
      if (entry.scenario.chart && o.sweep.length) {
        for (const e of o.sweep)
          expect(e.results[entry.scenario.chart.y], `${e.series} ${e.value}`).toBeDefined();
      }
      if ((idx.byKind.get(K.IndexUpdate) ?? []).length)
        expect(rings.some((r) => r.host.known || r.nic.known)).toBe(true);
      // Every ring copy is recorded when the window opens: the rings are known from frame one.
      // (The cache-only web mode plays a trace through the NIC caches alone: no rings.)
      const webMode = (o.parameters as { workload?: { web_mode?: string } }).workload?.web_mode;
      if (webMode !== 'cache-only')
        for (const r of ringsAt(idx, o.trace.start_ps)) {
          expect(r.host.known, `${r.name} host copy`).toBe(true);
          expect(r.nic.known, `${r.name} NIC copy`).toBe(true);
        }
      // DmaDone names the id of its DmaQueued: same engine, purpose and packet.
      const queued = new Map<number, number>();
      for (const i of idx.byKind.get(K.DmaQueued) ?? []) queued.set(trace.a[i]!, i);
      for (const i of idx.byKind.get(K.DmaDone) ?? []) {
        const q = queued.get(trace.a[i]!);
        if (q === undefined) continue; // queued before the window
        expect(trace.component[q]).toBe(trace.component[i]);
        expect(trace.b[q]).toBe(trace.b[i]);
        expect(trace.d[q]).toBe(trace.d[i]);
      }
      // Host CPU tasks have a duration and a known task.
      for (const i of idx.byKind.get(K.HostCpuBusy) ?? []) {
        expect(trace.a[i]).toBeLessThanOrEqual(1);
        expect(trace.b[i]! + trace.c[i]! * 2 ** 32).toBeGreaterThan(0);
      }
      for (const s of o.series)
        if (s.start_ps !== undefined) expect(s.start_ps).toBeGreaterThanOrEqual(0);

      // The bus phases: in order, not overlapping; the cycle sums add up to the elapsed cycles.
      const end = Math.max(o.trace.end_ps, trace.length ? trace.time[trace.length - 1]! : 0);
      const bx = buildBusPhaseIndex(trace, o.trace.start_ps, end, o.parameters, o.system);
      for (let i = 0; i < bx.n; i++) {
        expect(bx.end[i]!).toBeGreaterThanOrEqual(bx.start[i]!);
        if (i > 0) expect(bx.start[i]!).toBeGreaterThanOrEqual(bx.end[i - 1]!);
      }
      const tot = cyclesUpTo(bx, end);
      expect(tot.cycles.reduce((a, v) => a + v, 0)).toBeCloseTo(tot.elapsed, 6);
      for (const ti of [0, Math.floor(bx.tenures.length / 2)])
        if (bx.tenures[ti])
          expect(describeTenure(bx, ti, mid, o.parameters)!.sentence).toMatch(/: /);
      expect(() => signalsAt(bx, mid)).not.toThrow();
      const m = waveModel(bx, o.trace.start_ps, end, 800, mid);
      expect(m.ad.every((c) => c.x1 >= c.x0)).toBe(true);
      // When the trace window is the measured window, the trace's cycles are the results' shares
      // (to a third of a cycle: the core counts whole elapsed cycles).
      const warm = (o.parameters.run as { warmup_us?: number }).warmup_us ?? 0;
      if (bx.n > 0 && warm === 0 && o.trace.start_ps === 0 && o.results.bus_cycles) {
        expect(tot.elapsed).toBeCloseTo(o.results.bus_cycles.value, 0);
        CATEGORY_RESULT_KEYS.forEach((key, k) =>
          expect(tot.cycles[k]! / tot.elapsed, key).toBeCloseTo(
            o.results[`bus_util_${key}`]!.value,
            3,
          ),
        );
      }
    });
  }

  it('returns {errors:[{path,message}]} for an invalid scenario', () => {
    const out = JSON.parse(core!.run('{"format": 1, "id": "x"}', '{}')) as unknown;
    expect(isErrorOutput(out)).toBe(true);
    if (isErrorOutput(out)) {
      expect(out.errors.length).toBeGreaterThan(0);
      expect(typeof out.errors[0]!.path).toBe('string');
      expect(typeof out.errors[0]!.message).toBe('string');
    }
  });
});
