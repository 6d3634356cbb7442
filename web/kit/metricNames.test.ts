import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMES, metricLabel, unitLabel } from './metricNames';

// Every metric the core can report: the scenario schema's metric names (nicsim --schema, from
// core-cpp/scenario/scenario.cpp's catalogue; a core test keeps the file in step).
const schema = JSON.parse(
  readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
) as { properties: { reference: { items: { properties: { metric: { enum: string[] } } } } } };
const coreMetrics = schema.properties.reference.items.properties.metric.enum;

describe('the metric display names', () => {
  it('name every metric the core can report', () => {
    expect(coreMetrics.length).toBeGreaterThan(100);
    expect(coreMetrics.filter((m) => !METRIC_NAMES[m])).toEqual([]);
  });

  it('read as words, not identifiers (once "Bench mips a")', () => {
    expect(metricLabel('bench_mips_a')).toBe('CPU A instruction rate');
    expect(metricLabel('tigon_share_SendDataReady')).toBe('Handler time: Send Data Ready');
    for (const m of coreMetrics) {
      const label = metricLabel(m);
      expect(label, m).not.toMatch(/_/);
      expect(label, m).not.toBe(m);
    }
  });

  it('are each used once, so two metrics never read alike', () => {
    const labels = coreMetrics.map(metricLabel);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
  });

  it('state binary units: the core’s KB are 1024 bytes', () => {
    expect(unitLabel('KB')).toBe('KiB');
    expect(unitLabel('Mb/s')).toBe('Mb/s');
  });
});
