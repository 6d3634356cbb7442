// ETA+AIO's causal chain on the real engine (skipped when the wasm is not built): a doorbell →
// the PPE's iteration that carries the send → its segments → the ACK → the send completion
// (Brecht et al., EuroSys 2006 §5: a send completes only when its data is acknowledged), drawn
// as arrows in the timeline and exported to Perfetto as flows, all from the records' causes.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { buildTimeline, timelineSetup, type TimelineModel } from '../timeline/lanes';
import { perfettoTrace } from '../export/exports';
import { buildIndex } from '../trace/traceIndex';
import { K, KIND_NAMES } from '../trace/traceKinds';
import { validateTraceEvents, type TraceEvent } from '../export/traceEventFormat';
import { etaQueuesAt } from './etaView';

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

/** The item's single cause, by the arrow reaching it (the core names one cause a record). */
function causeOf(m: TimelineModel, ix: number): number {
  const ins = m.inArrows.get(ix) ?? [];
  expect(ins.length, m.items[ix]!.label).toBe(1);
  return m.arrows[ins[0]!]!.from;
}

const laneOf = (m: TimelineModel, ix: number) => m.lanes[m.items[ix]!.lane]!.label;

describe.skipIf(!built)('ETA+AIO’s causes on the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const out = JSON.parse(core!.run(scenarioById('eta-never-sleeps')!.text, '{}')) as RunOutput;
  const trace = decodeTrace(core!.traceBytes());

  it('the timeline: doorbell → send → segment → ACK → completion, as arrows', () => {
    const m = buildTimeline(
      trace,
      out.trace.start_ps,
      out.trace.end_ps,
      timelineSetup(out.system, out.parameters),
    );
    expect(m.backwards).toBe(0);
    expect(m.lanes.slice(0, 3).map((l) => l.label)).toEqual([
      'CPU 0: PPE',
      'CPU 1: application',
      'doorbell, event queues',
    ]);
    // Slices last their cycles at the run's 2.8 GHz: 152-cycle empty iterations, ~54 ns each.
    const idle = m.items.find((it) => /empty iterations/.test(it.label))!;
    expect(idle.end - idle.start).toBeGreaterThan(0);
    // From a send's completion back to the doorbell that asked for it.
    const done = m.items.findIndex((it) => /^send completion for request/.test(it.label));
    expect(done).toBeGreaterThanOrEqual(0);
    const ack = causeOf(m, done);
    expect(m.items[ack]!.label).toMatch(/^ACK for request \d+: .*, 0 left$/);
    expect(laneOf(m, ack)).toMatch(/^NIC \d wire \(from peer\)$/);
    const segment = causeOf(m, ack);
    expect(m.items[segment]!.label).toMatch(/^segment of request \d+/);
    expect(laneOf(m, segment)).toMatch(/^NIC \d wire \(to peer\)$/);
    const iteration = causeOf(m, segment);
    expect(m.items[iteration]!.label).toMatch(/^polls NIC \d: .*, a send \(request \d+\)$/);
    expect(laneOf(m, iteration)).toBe('CPU 0: PPE');
    const doorbell = causeOf(m, iteration);
    expect(m.items[doorbell]!.label).toMatch(/^doorbell: a send for request \d+/);
    const request = /request (\d+)/.exec(m.items[done]!.label)![1];
    for (const ix of [ack, segment, iteration, doorbell])
      expect(m.items[ix]!.label).toContain(`request ${request}`);
  });

  it('the Perfetto export: the same chain as flows', () => {
    const idx = buildIndex(trace, out.trace.start_ps, out.trace.end_ps);
    const doc = JSON.parse(
      perfettoTrace(trace, idx, { scenario: out.scenario, seed: out.seed, series: out.series }),
    ) as { traceEvents: TraceEvent[] };
    expect(validateTraceEvents(doc).violations).toEqual([]);
    // A flow's id is its effect's record id: each link of the chain is one flow.
    const flowIds = new Set(doc.traceEvents.filter((e) => e.ph === 'f').map((e) => e.id));
    const byId = new Map<number, number>();
    for (let i = 0; i < trace.length; i++) byId.set(trace.id[i]!, i);
    const links = [
      [K.EtaDoorbell, K.EtaIteration],
      [K.EtaIteration, K.EtaSegment],
      [K.EtaSegment, K.EtaAck],
      [K.EtaAck, K.EtaEvent],
    ] as const;
    for (const [cause, effect] of links) {
      let flows = 0;
      for (let i = 0; i < trace.length; i++) {
        const c = byId.get(trace.cause[i]!);
        if (c === undefined || trace.kind[i] !== effect || trace.kind[c] !== cause) continue;
        expect(flowIds.has(trace.id[i]!)).toBe(true);
        flows++;
      }
      expect(flows, `${KIND_NAMES[cause]} → ${KIND_NAMES[effect]}`).toBeGreaterThan(0);
    }
  });

  it('the descriptor queues and the NICs’ rings fill and drain in the records', () => {
    // 200 cursors across the window: each queue is seen holding something and seen empty.
    const seen = {
      tx: new Set<number>(),
      rx: new Set<number>(),
      ring: new Set<number>(),
      wire: new Set<number>(),
    };
    const { start_ps: a, end_ps: b } = out.trace;
    for (let k = 0; k <= 200; k++) {
      const q = etaQueuesAt(trace, a + ((b - a) * k) / 200);
      if (q.txDescriptors !== null) seen.tx.add(Math.min(1, q.txDescriptors));
      if (q.rxDescriptors !== null) seen.rx.add(Math.min(1, q.rxDescriptors));
      for (const n of q.nics) {
        seen.ring.add(Math.min(1, n.rx));
        seen.wire.add(Math.min(1, n.tx));
      }
    }
    for (const [name, s] of Object.entries(seen)) expect([...s].sort(), name).toEqual([0, 1]);
  });
});
