import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ParameterSpec } from '../engine/types';
import { loadNodeCore } from '../engine/nodeCore';
import { niceStep, positionOf, sliderScale, valueAt } from './scale';

describe('sliderScale', () => {
  it('gives no slider to choices, text, or a parameter without a range', () => {
    expect(sliderScale({ type: 'choice', choices: [33, 66] })).toBeNull();
    expect(sliderScale({ type: 'integer', min: 1, max: 64, choices: [1, 2] })).toBeNull();
    expect(sliderScale({ type: 'string' })).toBeNull();
    expect(sliderScale({ type: 'integer' })).toBeNull();
    expect(sliderScale({ type: 'number', min: 5, max: 5 })).toBeNull();
  });

  it('steps an integer range of under two decades by whole numbers', () => {
    const s = sliderScale({ type: 'integer', min: 18, max: 1472 })!;
    expect(s.kind).toBe('linear');
    expect(s.values[0]).toBe(18);
    expect(s.values[s.values.length - 1]).toBe(1472);
    expect(s.values.every((v) => Number.isInteger(v))).toBe(true);
    const small = sliderScale({ type: 'integer', min: 0, max: 16 })!;
    expect(small.values).toEqual([...Array(17).keys()]);
  });

  it('doubles between powers of two', () => {
    const s = sliderScale({ type: 'integer', min: 4, max: 65536 })!;
    expect(s.kind).toBe('log');
    expect(s.values).toEqual([
      4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
    ]);
    const kb = sliderScale({ type: 'integer', min: 0, max: 1024 })!;
    expect(kb.values.slice(0, 4)).toEqual([0, 1, 2, 4]);
  });

  it('keeps to powers of two, or to whole steps, where the core asks for them', () => {
    const lines = sliderScale({ type: 'integer', min: 4, max: 256, power_of_two: true })!;
    expect(lines.values).toEqual([4, 8, 16, 32, 64, 128, 256]);
    expect(lines.kind).toBe('log');
    const ways = sliderScale({ type: 'integer', min: 1, max: 64, power_of_two: true })!;
    expect(ways.values).toEqual([1, 2, 4, 8, 16, 32, 64]);
    const words = sliderScale({ type: 'integer', min: 4, max: 4352, step: 4 })!;
    expect(words.values[0]).toBe(4);
    expect(words.values[words.values.length - 1]).toBe(4352);
    expect(words.values.every((v) => v % 4 === 0)).toBe(true);
    expect(words.values.length).toBeGreaterThan(40);
  });

  it("keeps to the multiples another parameter's value sets", () => {
    const spec = {
      type: 'integer',
      min: 0,
      max: 1024,
      multiple_of: { path: 'system.nic_cache.block_bytes', factor: 1024 },
    };
    expect(sliderScale(spec, 4096)!.values.slice(0, 4)).toEqual([0, 4, 8, 16]);
    expect(sliderScale(spec, 65536)!.values.slice(0, 3)).toEqual([0, 64, 128]);
    expect(sliderScale(spec, 512)!.values.slice(0, 3)).toEqual([0, 1, 2]);
    // No value known for the other parameter: the whole range.
    expect(sliderScale(spec)!.values.slice(0, 3)).toEqual([0, 1, 2]);
    expect(sliderScale(spec, 'lots')!.values.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('is logarithmic from two decades on, with both ends exact', () => {
    const s = sliderScale({ type: 'integer', min: 4, max: 100000 })!;
    expect(s.kind).toBe('log');
    expect(s.values[0]).toBe(4);
    expect(s.values[s.values.length - 1]).toBe(100000);
    expect(s.values.every((v, i) => i === 0 || v > s.values[i - 1]!)).toBe(true);
    expect(s.values.every((v) => Number.isInteger(v))).toBe(true);
    // About as many positions between 4 and 40 as between 4000 and 40000.
    const count = (a: number, b: number) => s.values.filter((v) => v >= a && v < b).length;
    expect(Math.abs(count(40, 400) - count(4000, 40000))).toBeLessThanOrEqual(2);
  });

  it('starts a range from 0 at 0, then logarithmically', () => {
    const s = sliderScale({ type: 'number', min: 0, max: 1_000_000, default: 500 })!;
    expect(s.kind).toBe('log');
    expect(s.values.slice(0, 2)).toEqual([0, 1]);
    expect(s.values[s.values.length - 1]).toBe(1_000_000);
    const frac = sliderScale({ type: 'number', min: 0, max: 1000, default: 0.25 })!;
    expect(frac.values[1]).toBe(0.1);
  });

  it('steps a fractional range by a round step without binary noise', () => {
    const s = sliderScale({ type: 'number', min: 0, max: 1 })!;
    expect(s.kind).toBe('linear');
    expect(s.values).toContain(0.3);
    expect(s.values.every((v) => String(v).length <= 6)).toBe(true);
  });
});

describe('positions', () => {
  it('puts a value on the nearest position, in ratio on a log slider', () => {
    const s = sliderScale({ type: 'integer', min: 4, max: 65536 })!;
    expect(valueAt(s, positionOf(s, 256))).toBe(256);
    expect(valueAt(s, positionOf(s, 300))).toBe(256);
    expect(valueAt(s, positionOf(s, 400))).toBe(512);
    expect(positionOf(s, 1)).toBe(0);
    expect(positionOf(s, 1e9)).toBe(s.values.length - 1);
    expect(positionOf(s, 'lots')).toBe(0);
    const lin = sliderScale({ type: 'integer', min: 18, max: 1472 })!;
    expect(valueAt(lin, positionOf(lin, 1472))).toBe(1472);
    expect(valueAt(lin, 1e6)).toBe(1472);
  });

  it('niceStep rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(3.6)).toBe(5);
    expect(niceStep(0.0025)).toBe(0.005);
    expect(niceStep(10)).toBe(10);
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('the sliders of every parameter of the core', async () => {
  const core = built ? await loadNodeCore() : null;
  const specs = built ? (JSON.parse(core!.parameterInfo()) as ParameterSpec[]) : [];

  it('run from min to max in distinct steps, whole numbers for integers', () => {
    let sliders = 0;
    for (const spec of specs) {
      const s = sliderScale(spec);
      if (!s) continue;
      sliders++;
      const vs = s.values;
      expect(vs[0], spec.path).toBe(spec.min);
      expect(vs[vs.length - 1], spec.path).toBe(spec.max);
      expect(vs.length, spec.path).toBeLessThanOrEqual(500);
      expect(vs.length, spec.path).toBeGreaterThanOrEqual(2);
      expect(
        vs.every((v, i) => i === 0 || v > vs[i - 1]!),
        spec.path,
      ).toBe(true);
      if (spec.type === 'integer') expect(vs.every(Number.isInteger), spec.path).toBe(true);
      // The scenario's default sits on the slider or between two of its positions.
      if (typeof spec.default === 'number') {
        const v = valueAt(s, positionOf(s, spec.default));
        expect(v >= spec.min! && v <= spec.max!, spec.path).toBe(true);
      }
    }
    expect(sliders).toBeGreaterThan(100);
  });
  const preset = (id: string) =>
    readFileSync(fileURLToPath(new URL(`../../scenarios/${id}.json`, import.meta.url)), 'utf8');
  const errorsAt = (scenario: string, overrides: Record<string, unknown>, path: string) =>
    (JSON.parse(core!.validate(scenario, JSON.stringify(overrides))) as { path: string }[]).filter(
      (e) => e.path === path,
    );

  it('offer only values the core accepts where it accepts powers of two or whole steps', () => {
    // Scenarios that read the rules: a protocol-cache run, and a NIC data cache.
    const readers: [string, Record<string, unknown>][] = [
      [preset('cache-l1-size'), {}],
      [preset('web-sendfile-vs-write'), { 'system.nic_cache.kbytes': 1024 }],
    ];
    const ruled = specs.filter((s) => s.power_of_two || s.step);
    expect(ruled.length).toBeGreaterThanOrEqual(7);
    for (const spec of ruled) {
      for (const v of sliderScale(spec)!.values) {
        for (const [scenario, base] of readers) {
          const overrides = { ...base, [spec.path]: v };
          expect(errorsAt(scenario, overrides, spec.path), JSON.stringify(overrides)).toEqual([]);
        }
      }
    }
  });

  it('offer only values the core accepts where the step is another parameter', () => {
    const scenario = preset('web-sendfile-vs-write');
    const stepped = specs.filter((s) => s.multiple_of);
    expect(stepped.map((s) => s.path)).toContain('system.nic_cache.kbytes');
    for (const spec of stepped) {
      const unitSpec = specs.find((s) => s.path === spec.multiple_of!.path)!;
      for (const unit of sliderScale(unitSpec)!.values) {
        const values = sliderScale(spec, unit)!.values;
        expect(values.length, `${spec.path} at ${unit}`).toBeGreaterThan(10);
        for (const v of values) {
          const overrides = { [spec.path]: v, [unitSpec.path]: unit };
          expect(errorsAt(scenario, overrides, spec.path), JSON.stringify(overrides)).toEqual([]);
        }
      }
    }
  });
});
