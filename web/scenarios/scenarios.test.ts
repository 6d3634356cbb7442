import { describe, expect, it } from 'vitest';
import { SCENARIOS, parseScenarioFiles, scenarioById } from './index';
import { normalizeNote } from './types';

describe('bundled scenarios', () => {
  it('loads every preset with an id, title and summary, and no schema file', () => {
    expect(SCENARIOS.length).toBeGreaterThan(0);
    for (const s of SCENARIOS) {
      expect(s.id).toBeTruthy();
      expect(s.scenario.title).toBeTruthy();
      expect(s.scenario.summary).toBeTruthy();
      expect(s.file.endsWith('.schema.json')).toBe(false);
      expect(JSON.parse(s.text)).toEqual(s.scenario);
    }
    expect(scenarioById('udp-throughput')?.scenario.chart?.y).toBe('udp_total_throughput');
  });

  it('skips schema files and reports unreadable ones', () => {
    const r = parseScenarioFiles({
      '../../scenarios/a.json': '{"id":"a","title":"A","summary":"s"}',
      '../../scenarios/scenario.schema.json': '{"$id":"x"}',
      '../../scenarios/bad.json': '{',
      '../../scenarios/noid.json': '{"title":"t"}',
    });
    expect(r.entries.map((e) => e.id)).toEqual(['a']);
    expect(r.problems).toHaveLength(2);
  });
});

describe('normalizeNote', () => {
  it('reads strings, "chosen" prefixes and objects', () => {
    expect(normalizeNote('seed 000 §2.3')).toEqual({ text: 'seed 000 §2.3', chosen: false });
    expect(normalizeNote('chosen: a short cable')).toEqual({ text: 'a short cable', chosen: true });
    expect(normalizeNote({ note: 'why', chosen: true })).toEqual({ text: 'why', chosen: true });
    expect(normalizeNote(undefined)).toBeNull();
  });
});
