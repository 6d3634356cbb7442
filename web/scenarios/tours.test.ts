// Every preset carries a guided tour whose steps are valid against that preset: cursor times in
// its trace window, parts the diagram can highlight (and a diagram to highlight them in), views
// it opens, variants made of known parameters, metrics the core reports. The core validates the
// same block (core-cpp/scenario/tour.cpp); this test also holds the tours to the classroom rules.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './eager';
import type { TourMetric, TourStep } from './types';
import { HIGHLIGHTING_VIEWS, TOUR_PARTS } from '../tour/tour';

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  default?: unknown;
  items?: SchemaNode & { oneOf?: Array<{ enum?: string[] }> };
}

const schema = JSON.parse(
  readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
) as { properties: Record<string, SchemaNode> };

/** Parameter path → its schema leaf (the registry, as `nicsim --schema` writes it). */
function leaves(node: SchemaNode, prefix: string, out: Map<string, SchemaNode>) {
  for (const [k, child] of Object.entries(node.properties ?? {})) {
    const path = `${prefix}.${k}`;
    if (child.type === 'object' && child.properties) leaves(child, path, out);
    else out.set(path, child);
  }
  return out;
}
const PARAMS = new Map<string, SchemaNode>();
for (const section of ['system', 'workload', 'run'])
  leaves(schema.properties[section]!, section, PARAMS);
const METRICS = new Set(
  schema.properties.tour!.items!.properties!.metrics!.items!.oneOf![0]!.enum ?? [],
);
const DEFAULT_VIEWS = ['diagram', 'rings', 'chart', 'events'];

const metricName = (m: TourMetric) => (typeof m === 'string' ? m : m.metric);

function own(s: Record<string, unknown>, path: string): unknown {
  let cur: unknown = s;
  for (const k of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return PARAMS.get(path)?.default;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur ?? PARAMS.get(path)?.default;
}

/**
 * Sentences of a text that state a throughput, share or rate without naming where it comes from
 * (the paper). Inputs are fine: the link's rate (1 or 10 Gb/s) and a CPU "17% faster".
 */
function unattributedNumbers(text: string): string[] {
  const attributed = /thesis|paper|Fig|Table|§|measured|reports|Abstract|Afterburner/i;
  return text.split(/(?<=[.!?])\s+/).filter((s) => {
    const rest = s.replace(/\b10? ?Gb\/s\b/g, '').replace(/\d+% faster/g, '');
    return /\d\s*(%|[MG]b\/s|req\/s|misses per KB)/.test(rest) && !attributed.test(s);
  });
}

describe('preset tours', () => {
  it('covers every preset', () => {
    const without = SCENARIOS.filter((e) => !Array.isArray(e.scenario.tour)).map((e) => e.id);
    expect(without).toEqual([]);
  });

  for (const entry of SCENARIOS) {
    const s = entry.scenario;
    const steps = (s.tour ?? []) as TourStep[];
    const views = s.views && s.views.length ? s.views : DEFAULT_VIEWS;
    const start = Number(own(s, 'run.trace.start_us'));
    const end = Number(own(s, 'run.trace.end_us'));

    it(`${entry.id}: 3 to 6 valid steps, one of them asking the class`, () => {
      expect(steps.length).toBeGreaterThanOrEqual(3);
      expect(steps.length).toBeLessThanOrEqual(6);
      expect(steps.some((t) => t.predict)).toBe(true);
      for (const [i, t] of steps.entries()) {
        const where = `${entry.id} tour[${i}]`;
        expect(t.title, where).toBeTruthy();
        expect(t.text, where).toBeTruthy();
        if (t.at_us !== undefined) {
          expect(t.at_us, `${where}.at_us in ${start}–${end} µs`).toBeGreaterThanOrEqual(start);
          expect(t.at_us, `${where}.at_us in ${start}–${end} µs`).toBeLessThanOrEqual(end);
        }
        for (const h of t.highlight ?? []) expect(TOUR_PARTS, where).toContain(h);
        if ((t.highlight ?? []).length > 0) {
          // A highlight must be seen: the scenario opens a view that draws it.
          expect(
            views.some((v) => HIGHLIGHTING_VIEWS.includes(v)),
            where,
          ).toBe(true);
        }
        if (t.view !== undefined) expect(views, `${where}.view`).toContain(t.view);
        const metrics = [...(t.metrics ?? []), ...(t.predict?.metrics ?? [])];
        for (const m of metrics) {
          expect(METRICS.has(metricName(m)), `${where}: metric ${metricName(m)}`).toBe(true);
          if (typeof m !== 'string' && m.at) {
            const sweep = s.sweep;
            expect(sweep, where).toBeTruthy();
            for (const [k, v] of Object.entries(m.at)) {
              const values = k === sweep!.parameter ? sweep!.values : sweep!.series?.values;
              expect(values, `${where}: ${k} is swept`).toBeDefined();
              expect(values, `${where}: ${k}=${String(v)} is a sweep point`).toContainEqual(v);
            }
          }
        }
        if (t.predict) {
          expect(t.predict.question, where).toBeTruthy();
          expect(t.predict.reveal, where).toBeTruthy();
          for (const path of Object.keys(t.predict.set ?? {}))
            expect(PARAMS.has(path), `${where}.predict.set: ${path} is a parameter`).toBe(true);
        }
      }
    });

    it(`${entry.id}: states no computed number as if it were fixed`, () => {
      // Rates and shares in the narration name their source (the paper); the run's own values
      // appear only as live metrics.
      const texts = steps.flatMap((t) => [
        t.text,
        t.predict?.question ?? '',
        t.predict?.reveal ?? '',
      ]);
      expect(texts.flatMap(unattributedNumbers)).toEqual([]);
    });
  }
});
