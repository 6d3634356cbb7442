import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Check, Metrics } from '../engine/types';
import { TIGON_EVENTS } from '../trace/traceKinds';
import { profileModel, type ProfileModel } from './profile';
import { ProfileSvg } from './ProfileView';

// A PARALLEL run shaped like Fig 3.5 (shares in TIGON_EVENTS order: SDR RC SBDR RBDR MB USC URRP
// DRC DWC), CPU A at 49%, and two reference values of the scenario: one met, one missed.
const SHARES = [0.3, 0.28, 0.03, 0.05, 0.06, 0.006, 0.05, 0.14, 0.084];
const RUNS = [1, 1, 0.5, 0.25, 2.5, 0.06, 0.5, 2, 2];
const results: Metrics = { tigon_cpu_a_share: { value: 0.49, unit: 'fraction' } };
TIGON_EVENTS.forEach((e, i) => {
  results[`tigon_share_${e.name}`] = { value: SHARES[i]!, unit: 'fraction' };
  results[`tigon_runs_${e.name}`] = { value: RUNS[i]!, unit: 'runs/packet' };
});
const system = fixtureSystem({
  tigon: { firmware: 'parallel', places: ['B', 'A', 'B', 'B', 'A', 'B', 'A', 'B', 'A'] },
});
const check = (metric: string, expected: number, pass: boolean): Check => ({
  id: metric,
  source: 'seed 000 §3.2.2 (Fig 3.5)',
  description: '',
  metric,
  expected,
  simulated: 0,
  unit: 'fraction',
  tolerance: 0.15,
  kind: 'approximate',
  pass,
});
const model = profileModel({
  system,
  results,
  checks: [
    check('tigon_share_SendDataReady', 0.3, true),
    check('tigon_share_DmaReadComplete', 0.2, false),
  ],
}) as ProfileModel;
const html = renderToStaticMarkup(<ProfileSvg model={model} width={960} />);

describe('ProfileSvg (server-rendered SVG)', () => {
  it('draws the nine events largest first, each with its share, runs per packet and CPU', () => {
    const order = [...html.matchAll(/data-testid="profile-row" data-event="(\w+)"/g)].map(
      (m) => m[1],
    );
    expect(order).toEqual(['SDR', 'RC', 'DRC', 'DWC', 'MB', 'RBDR', 'URRP', 'SBDR', 'USC']);
    expect(html).toContain('<tspan class="prof-pct">30%</tspan>');
    expect(html).toContain(' · 1 run/packet · CPU B');
    expect(html).toContain(' · 2.5 runs/packet · CPU A');
    expect(html).toContain('data-cpu="A"');
  });

  it('draws the reference values as ticks, the missed one marked', () => {
    expect(html.match(/data-testid="profile-ref"/g)).toHaveLength(2);
    expect(html).toContain('class="prof-ref fail"');
    expect(html).toContain('expected 20% ± 15% (seed 000 §3.2.2 (Fig 3.5))');
  });

  it('splits CPU A and CPU B with the thesis’s 47% marked', () => {
    expect(html).toContain('data-testid="profile-cpu-bar" data-a="0.4900"');
    expect(html).toContain('>CPU A 49%<');
    expect(html).toContain('data-testid="profile-thesis-mark"');
    expect(html).toContain('>thesis: A 47% / B 53%<');
  });

  it('is labelled for screen readers', () => {
    expect(html).toMatch(
      /role="img" aria-label="Share of handler time by event, largest first: Send Data Ready 30% on CPU B;/,
    );
  });

  it('matches the stored markup', () => {
    expect(html).toMatchSnapshot();
  });
});
