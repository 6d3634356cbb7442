import { describe, expect, it } from 'vitest';
import {
  SIGNIFICANT,
  categoryLabel,
  changedParameters,
  comparisonOf,
  describeSet,
  diffResults,
  isCategorical,
  overlayModel,
  scenarioValues,
  sharedSeries,
  relativeText,
  signedPercent,
  variantText,
} from './ab';
import { DEFAULT_BOX } from '../charts/chart';
import { SCENARIOS } from '../scenarios/eager';
import type { Scenario } from '../scenarios/types';

const base: Scenario = { id: 't', title: 't', summary: 's' };

describe('comparisonOf: the scenario’s compare block', () => {
  it('reads labels, settings, metrics and the note', () => {
    const c = comparisonOf({
      ...base,
      compare: {
        note: 'n',
        metrics: ['udp_total_throughput'],
        a: { label: 'RELEASE', set: { 'system.tigon.firmware': 'release' } },
        b: { label: 'PARALLEL' },
      },
    });
    expect(c).toEqual({
      note: 'n',
      metrics: ['udp_total_throughput'],
      a: { label: 'RELEASE', set: { 'system.tigon.firmware': 'release' } },
      b: { label: 'PARALLEL', set: {} },
    });
  });

  it('counts a block it cannot read as none (the core names what is wrong)', () => {
    expect(comparisonOf(base)).toBeNull();
    expect(comparisonOf({ ...base, compare: 'x' })).toBeNull();
    expect(comparisonOf({ ...base, compare: { a: { label: 'A' } } })).toBeNull();
    expect(comparisonOf({ ...base, compare: { a: { label: '' }, b: { label: 'B' } } })).toBeNull();
    expect(
      comparisonOf({ ...base, compare: { a: { label: 'A', set: { x: [1] } }, b: { label: 'B' } } }),
    ).toBeNull();
  });

  it('the presets the issue names carry one', () => {
    for (const id of ['tigon-one-or-two-cpus', 'web-nasa-cache', 'sinic-zero-copy']) {
      const e = SCENARIOS.find((s) => s.id === id)!;
      const c = comparisonOf(e.scenario);
      expect(c, id).not.toBeNull();
      expect(c!.metrics.length, id).toBeGreaterThan(0);
    }
  });
});

describe('describeSet', () => {
  it('names what a side the viewer built sets', () => {
    const text = (p: string, v: unknown) => `${p}=${String(v)}`;
    expect(describeSet({}, text)).toBe('as written');
    expect(describeSet({ x: 1 }, text)).toBe('x=1');
    expect(describeSet({ x: 1, y: 2, z: 3 }, text)).toBe('x=1 + 2 more');
  });
});

describe('variantText', () => {
  it('keeps the main run and drops the sweep and the references', () => {
    const text = JSON.stringify({ ...base, sweep: { parameter: 'p', values: [1] }, reference: [] });
    const doc = JSON.parse(variantText(text)) as Record<string, unknown>;
    expect(doc.sweep).toBeUndefined();
    expect(doc.reference).toBeUndefined();
    expect(doc.title).toBe('t');
  });
});

describe('scenarioValues', () => {
  it('is the default overlaid with the file’s values', () => {
    const v = scenarioValues({ ...base, system: { bus: { clock_mhz: 66 } } }, [
      { path: 'system.bus.clock_mhz', type: 'choice', default: 33 },
      { path: 'system.bus.width_bits', type: 'choice', default: 64 },
    ]);
    expect(v.get('system.bus.clock_mhz')).toBe(66);
    expect(v.get('system.bus.width_bits')).toBe(64);
  });
});

describe('diffResults', () => {
  const a = {
    tput: { value: 914, unit: 'Mb/s' },
    cpu_b: { value: 0, unit: 'fraction' },
    small: { value: 100, unit: 'x' },
    same: { value: 5, unit: 'x' },
    bottleneck: { value: 0, unit: '0 bus, 1 CPU, 2 disk' },
    drop: { value: 50, unit: 'x' },
  };
  const b = {
    tput: { value: 1556, unit: 'Mb/s' },
    cpu_b: { value: 0.63, unit: 'fraction' },
    small: { value: 105, unit: 'x' },
    same: { value: 5, unit: 'x' },
    bottleneck: { value: 1, unit: '0 bus, 1 CPU, 2 disk' },
    drop: { value: 20, unit: 'x' },
  };
  const rows = diffResults(a, b, ['tput']);
  const row = (n: string) => rows.find((r) => r.name === n)!;

  it('computes B − A and its share of A', () => {
    expect(row('tput').delta).toBe(642);
    expect(row('tput').pct).toBeCloseTo(642 / 914, 12);
    expect(row('drop').pct).toBeCloseTo(-0.6, 12);
  });

  it(`marks a difference of ${SIGNIFICANT * 100}% or more as significant`, () => {
    expect(row('tput').significant).toBe(true);
    expect(row('drop').significant).toBe(true);
    expect(row('small').significant).toBe(false);
    expect(row('small').changed).toBe(true);
    expect(row('same').changed).toBe(false);
    expect(row('same').significant).toBe(false);
    // From zero: no percentage, but significant.
    expect(row('cpu_b').pct).toBeNull();
    expect(row('cpu_b').significant).toBe(true);
  });

  it('compares codes without subtracting them', () => {
    expect(isCategorical('0 bus, 1 CPU, 2 disk')).toBe(true);
    expect(categoryLabel('0 bus, 1 CPU, 2 disk', 1)).toBe('CPU');
    expect(categoryLabel('0 bus, 1 CPU, 2 disk', 7)).toBe('7');
    expect(isCategorical('Mb/s')).toBe(false);
    expect(row('bottleneck').delta).toBeNull();
    expect(row('bottleneck').significant).toBe(true);
  });

  it('orders the headline metrics, then significant by size (ties by name), then small changes, then equal', () => {
    expect(rows.map((r) => r.name)).toEqual([
      'tput',
      'bottleneck',
      'cpu_b',
      'drop',
      'small',
      'same',
    ]);
  });
});

describe('changedParameters and signedPercent', () => {
  it('lists the parameters whose values differ', () => {
    const d = changedParameters(
      { system: { tigon: { firmware: 'release' }, bus: { clock_mhz: 66 } } },
      { system: { tigon: { firmware: 'parallel' }, bus: { clock_mhz: 66 } } },
    );
    expect(d).toEqual([{ path: 'system.tigon.firmware', a: 'release', b: 'parallel' }]);
  });

  it('writes a signed percentage with a real minus sign', () => {
    expect(signedPercent(0.7024)).toBe('+70.2%');
    expect(signedPercent(-0.6)).toBe('−60.0%');
    expect(signedPercent(0.00001)).toBe('0%');
  });
});

describe('sharedSeries and overlayModel', () => {
  const s = (name: string, values: number[], unit = 'Mb/s') => ({
    name,
    unit,
    interval_ps: 1000,
    start_ps: 0,
    values,
  });

  it('lists the series both runs have, the preferred first', () => {
    expect(
      sharedSeries([s('x', []), s('y', []), s('z', [])], [s('z', []), s('y', [])], ['z']),
    ).toEqual(['z', 'y']);
  });

  it('draws both on one value axis that holds the larger', () => {
    const m = overlayModel(
      { a: s('t', [1, 2, 3]), b: s('t', [2, 4, 8]) },
      1000,
      { scale: 1000, unit: 'ns' },
      DEFAULT_BOX,
    );
    expect(m.lines.map((l) => l.side)).toEqual(['a', 'b']);
    expect(m.y.domain()[1]).toBeGreaterThanOrEqual(8);
    expect(m.nowX).toBeCloseTo(m.x(1), 9);
    expect(m.band).toBeNull();
    const banded = overlayModel(
      { a: s('t', [1, 2, 3]), b: s('t', [2, 4, 8]) },
      null,
      { scale: 1000, unit: 'ns' },
      DEFAULT_BOX,
      { start: 500, end: 1500 },
    );
    expect(banded.band!.x0).toBeCloseTo(banded.x(0.5), 9);
    expect(banded.band!.x1).toBeCloseTo(banded.x(1.5), 9);
    const pct = overlayModel(
      { a: s('u', [0.5], 'fraction'), b: s('u', [0.25], 'fraction') },
      null,
      { scale: 1000, unit: 'ns' },
      DEFAULT_BOX,
    );
    expect(pct.percent).toBe(true);
    expect(pct.yLabel).toBe('u (%)');
    expect(pct.y.domain()[1]).toBeGreaterThanOrEqual(50);
  });
});

describe('relativeText', () => {
  it('gives a share no "% of A": 50% → 100% once read "+100.1%", a utilisation above 100%', () => {
    const rows = diffResults(
      {
        tigon_sram_utilization: { value: 0.4995, unit: 'fraction' },
        udp_total_throughput: { value: 500, unit: 'Mb/s' },
      },
      {
        tigon_sram_utilization: { value: 1, unit: 'fraction' },
        udp_total_throughput: { value: 600, unit: 'Mb/s' },
      },
    );
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(relativeText(byName.tigon_sram_utilization!)).toBe('');
    expect(relativeText(byName.udp_total_throughput!)).toBe('+20.0%');
    expect(byName.tigon_sram_utilization!.significant).toBe(true);
  });
});
