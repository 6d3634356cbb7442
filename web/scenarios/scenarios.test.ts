import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cardOf } from './catalogPlugin';
import { SCENARIOS, scenarioById } from './eager';
import { PRESETS, PRESET_PROBLEMS, loadPreset, presetCard, presetEntry } from './index';
import { parseScenarioFiles } from './parse';
import { normalizeNote } from './types';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

describe('the preset catalogue', () => {
  it('has a card for every preset, made from its file, in the same order', () => {
    expect(PRESET_PROBLEMS).toEqual([]);
    expect(PRESETS).toEqual(SCENARIOS.map(cardOf));
    const tigon = presetCard('tigon-one-or-two-cpus')!;
    expect(tigon.scenario.compare).toEqual(scenarioById('tigon-one-or-two-cpus')!.scenario.compare);
    expect(tigon.paper).toBe('000');
    expect(presetCard('anatomy-of-a-send')!.tour).toBe(
      scenarioById('anatomy-of-a-send')!.scenario.tour!.length,
    );
    expect(presetCard('no-such-preset')).toBeUndefined();
  });

  it('keeps only what a card shows: no parameters, references or tour text', () => {
    const keys = new Set(PRESETS.flatMap((c) => Object.keys(c.scenario)));
    expect([...keys].sort()).toEqual(['compare', 'id', 'summary', 'tags', 'title', 'views']);
  });

  it('loads a preset’s file on demand, once, as the file is', async () => {
    const id = 'pci-two-nics';
    expect(presetEntry(id)).toBeUndefined();
    const first = loadPreset(id);
    expect(loadPreset(id)).toBe(first);
    const entry = await first;
    expect(entry).toEqual(scenarioById(id));
    expect(presetEntry(id)).toBe(entry);
    expect(await loadPreset(id)).toBe(entry);
    expect(await loadPreset('no-such-preset')).toBeUndefined();
  });

  it('is what the app reads: no module of the app imports every text (eager.ts)', () => {
    const offenders: string[] = [];
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) {
          if (name !== 'node_modules' && name !== 'wasm') visit(p);
        } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          if (/from\s+['"][^'"]*\/eager['"]/.test(readFileSync(p, 'utf8')))
            offenders.push(path.relative(WEB, p));
        }
      }
    };
    visit(WEB);
    expect(offenders).toEqual([]);
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
