import { describe, expect, it } from 'vitest';
import { PRESETS, PRESET_TAGS } from '../scenarios';
import { SCENARIOS } from '../scenarios/eager';
import {
  GROUPS,
  allTags,
  filterFromHash,
  groupOf,
  hashForFilter,
  matches,
  paperOf,
  papersUsed,
  startStepOf,
} from './galleryPath';
import { parseHash } from './route';

describe('the gallery path, read from the presets', () => {
  it('puts every preset in a group and cites a paper for each', () => {
    for (const s of SCENARIOS) {
      expect(groupOf(s.scenario), `${s.id}: no tag names a group`).toBeDefined();
      expect(paperOf(s.scenario), `${s.id}: its sources cite no seed`).toBeDefined();
    }
    for (const g of GROUPS) {
      expect(SCENARIOS.some((s) => groupOf(s.scenario)?.id === g.id)).toBe(true);
    }
  });

  it('numbers the start-here steps 1..n, from the anatomy of a send', () => {
    const steps = SCENARIOS.map((s) => [startStepOf(s.scenario), s.id] as const)
      .filter(([n]) => n !== undefined)
      .sort((a, b) => a[0]! - b[0]!);
    expect(steps.map(([n]) => n)).toEqual(steps.map((_, i) => i + 1));
    expect(steps[0]![1]).toBe('anatomy-of-a-send');
    expect(steps.length).toBeGreaterThanOrEqual(5);
  });

  it('follows the seed a preset cites most: each of the five papers', () => {
    const by = (id: string) => paperOf(SCENARIOS.find((s) => s.id === id)!.scenario)?.seed;
    expect(by('sinic-vnics')).toBe('003');
    expect(by('pci-cost-model')).toBe('004');
    expect(by('anatomy-of-a-send')).toBe('000');
    expect(by('eta-efficiency-against-load')).toBe('001');
    expect(by('protocol-one-packet')).toBe('002');
    expect(papersUsed(PRESETS).map((p) => p.seed)).toEqual(['000', '001', '002', '003', '004']);
  });
});

describe('the tag list', () => {
  it("is the presets' tags in the collation's order, as the build sorted them", () => {
    const collated = allTags(PRESETS);
    expect(PRESET_TAGS).toEqual(collated);
    expect(collated.length).toBeGreaterThan(10);
    // Case does not count ("NIC cache" among the lower-case tags), as en collation has it.
    const lower = collated.map((t) => t.toLowerCase());
    expect(lower).toEqual([...lower].sort());
  });

  it('takes the known order only when it holds every tag', () => {
    const card = (tags: string[]) => ({ scenario: { ...PRESETS[0]!.scenario, tags } });
    const cards = [card(['b', 'a']), card(['c'])];
    expect(allTags(cards, ['c', 'b', 'a', 'z'])).toEqual(['c', 'b', 'a']);
    // "d" is not known: every tag collated.
    expect(allTags([...cards, card(['D'])], ['c', 'b', 'a'])).toEqual(['a', 'b', 'c', 'D']);
  });
});

describe('the gallery filter', () => {
  it('round-trips through the address, which the router takes for the gallery', () => {
    const f = { tag: 'PCI', q: 'two nics' };
    const h = hashForFilter(f);
    expect(filterFromHash(h)).toEqual(f);
    expect(parseHash(h, ['a'])).toEqual({ view: 'gallery' });
    expect(hashForFilter({ tag: '', q: ' ' })).toBe('#/');
  });

  it('matches every word in the title, summary or tags, and the tag exactly', () => {
    const s = SCENARIOS.find((e) => e.id === 'pci-two-nics')!.scenario;
    expect(matches(s, { tag: 'PCI', q: '' })).toBe(true);
    expect(matches(s, { tag: 'Tigon', q: '' })).toBe(false);
    expect(matches(s, { tag: '', q: 'arbitration two' })).toBe(true);
    expect(matches(s, { tag: '', q: 'arbitration sinic' })).toBe(false);
    expect(matches(s, { tag: 'start here 1', q: '' })).toBe(false);
  });
});
