// Every preset's trace, exported for Perfetto, is valid Trace Event Format: the wasm core runs
// each preset's main run (its sweep, reference checks and tour left out: the trace comes from
// the main run alone), the export is validated, and a preset whose records name their causes
// gets flows.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { perfettoTrace } from './exports';
import { buildIndex } from '../trace/traceIndex';
import { formatViolations, validateTraceEvents, type TraceEvent } from './traceEventFormat';

const wasm = fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url));
const scenarioDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const presets = readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.json') && !f.includes('.schema.'))
  .sort();

describe.skipIf(!existsSync(wasm))('the Perfetto export of every preset', async () => {
  const core = existsSync(wasm) ? await loadNodeCore() : null;
  // A preset that replays the user's access log gets a small one (as nativeVsWasm.test.ts).
  const log = { files: new Uint32Array(2000), bytes: new Uint32Array(2000) };
  for (let i = 0; i < log.files.length; i++) {
    log.files[i] = (i * 7919) % (1 + (i % 300));
    log.bytes[i] = 1000 + 37 * log.files[i]!;
  }

  it('finds the presets', () => expect(presets.length).toBeGreaterThanOrEqual(4));

  for (const file of presets) {
    it(`${file}: valid, with flows where causes are recorded`, () => {
      const doc = JSON.parse(readFileSync(`${scenarioDir}${file}`, 'utf8')) as Record<
        string,
        unknown
      > & { workload?: { trace?: string } };
      delete doc.sweep;
      delete doc.reference;
      delete doc.tour;
      const needsLog = doc.workload?.trace === 'log';
      core!.setAccessLog(
        needsLog ? log.files : new Uint32Array(),
        needsLog ? log.bytes : new Uint32Array(),
      );
      const o = JSON.parse(core!.run(JSON.stringify(doc), '{}')) as RunOutput;
      core!.setAccessLog(new Uint32Array(), new Uint32Array());
      expect((o as { errors?: unknown }).errors).toBeUndefined();
      const trace = decodeTrace(core!.traceBytes());
      const idx = buildIndex(trace, o.trace.start_ps, o.trace.end_ps);
      const json = perfettoTrace(trace, idx, {
        scenario: o.scenario,
        seed: o.seed,
        series: o.series,
      });
      const out = JSON.parse(json) as { traceEvents: TraceEvent[]; otherData: { flows: number } };
      const report = validateTraceEvents(out);
      expect(report.violations, formatViolations(report.violations)).toEqual([]);
      // Causes whose record is in the trace become flows, each bound at both ends.
      const ids = new Set(trace.id);
      let causes = 0;
      for (let i = 0; i < trace.length; i++) if (ids.has(trace.cause[i]!)) causes++;
      expect(out.otherData.flows).toBeLessThanOrEqual(causes);
      if (causes > 0) expect(report.flows.length).toBeGreaterThan(0);
      expect(report.flows.length).toBe(out.otherData.flows);
      expect(report.phases.X ?? 0).toBeGreaterThanOrEqual(trace.length);
    });
  }

  // Until the core names causes along every chain, real traces with made-up causes: each record
  // follows from one a few records before it (on any component, at the same time or earlier),
  // so flows join records, bus transactions, DMAs, frames, handlers and copies in every order.
  for (const file of ['anatomy-of-a-send.json', 'tigon-one-packet.json', 'sinic-anatomy.json']) {
    it(`${file} with a cause on every record: every cause a bound flow`, () => {
      const doc = JSON.parse(readFileSync(`${scenarioDir}${file}`, 'utf8')) as Record<
        string,
        unknown
      >;
      delete doc.sweep;
      delete doc.reference;
      delete doc.tour;
      const o = JSON.parse(core!.run(JSON.stringify(doc), '{}')) as RunOutput;
      const real = decodeTrace(core!.traceBytes());
      const cause = new Uint32Array(real.length);
      for (let i = 1; i < real.length; i++) cause[i] = real.id[Math.max(0, i - 1 - (i % 4))]!;
      const trace = { ...real, cause };
      const idx = buildIndex(trace, o.trace.start_ps, o.trace.end_ps);
      const out = JSON.parse(
        perfettoTrace(trace, idx, { scenario: o.scenario, seed: o.seed, series: o.series }),
      ) as { traceEvents: TraceEvent[]; otherData: { flows: number } };
      const report = validateTraceEvents(out);
      expect(report.violations, formatViolations(report.violations)).toEqual([]);
      expect(out.otherData.flows).toBe(real.length - 1);
      expect(report.flows.length).toBe(real.length - 1);
      // Each flow binds to the slices of its own cause and effect (the flow's id is the effect's).
      const ev = out.traceEvents;
      const causeOf = new Map(Array.from(real.id, (id, i) => [id, cause[i]!]));
      for (const f of report.flows) {
        const effect = Number(ev[f.toEvent]!.id);
        expect(ev[f.toSlice]!.args?.record).toBe(effect);
        expect(ev[f.fromSlice]!.args?.record).toBe(causeOf.get(effect));
      }
    });
  }
});
