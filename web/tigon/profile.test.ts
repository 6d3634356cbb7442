import { describe, expect, it } from 'vitest';
import type { Check, EventCpu, Metrics, SystemInfo } from '../engine/types';
import { fixtureSystem } from '../engine/fixture';
import { TIGON_EVENTS } from '../trace/traceKinds';
import {
  THESIS_CPU_A_SHARE,
  cpuWords,
  isProfile,
  profileLayout,
  profileModel,
  referencesFor,
  sharePct,
  type ProfileModel,
} from './profile';

// Shares in TIGON_EVENTS order (SDR RC SBDR RBDR MB USC URRP DRC DWC).
const SHARES = [0.3, 0.28, 0.03, 0.05, 0.06, 0.006, 0.05, 0.14, 0.084];
const RUNS = [1, 1, 0.5, 0.25, 2.5, 0.06, 0.5, 2, 2];

function tigonResults(shares = SHARES, cpuA = 0.47): Metrics {
  const m: Metrics = { tigon_cpu_a_share: { value: cpuA, unit: 'fraction' } };
  TIGON_EVENTS.forEach((e, i) => {
    m[`tigon_share_${e.name}`] = { value: shares[i]!, unit: 'fraction' };
    m[`tigon_runs_${e.name}`] = { value: RUNS[i]!, unit: 'runs/packet' };
  });
  return m;
}

// The system block the core reports for each firmware (Table 3.4 for PARALLEL).
const TABLE: EventCpu[] = ['B', 'A', 'B', 'B', 'A', 'B', 'A', 'B', 'A'];
function tigonSystem(firmware: string, partition: Record<string, EventCpu> = {}): SystemInfo {
  const single = firmware.startsWith('release') || firmware === 'bsd';
  const places: EventCpu[] = single
    ? TABLE.map(() => 'A')
    : firmware === 'parallel'
      ? TABLE
      : firmware === 'dynamic'
        ? TABLE.map(() => 'either')
        : TIGON_EVENTS.map(
            (e) => partition[e.name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()] ?? 'none',
          );
  return fixtureSystem({
    tigon: { firmware, places, cpuB: !single, dynamic: firmware === 'dynamic' },
  });
}

const check = (metric: string, expected: unknown, extra: Partial<Check> = {}): Check => ({
  id: metric,
  source: 'seed 000 §3.2.2 (Fig 3.5)',
  description: 'about',
  metric,
  expected: expected as number,
  simulated: 0,
  unit: 'fraction',
  kind: 'approximate',
  pass: true,
  ...extra,
});

describe('profileModel', () => {
  it('sorts the events largest share first, as Fig 3.5', () => {
    const m = profileModel({
      system: tigonSystem('parallel'),
      results: tigonResults(),
      checks: [],
    });
    expect(isProfile(m)).toBe(true);
    const p = m as ProfileModel;
    expect(p.rows.map((r) => r.short)).toEqual([
      'SDR',
      'RC',
      'DRC',
      'DWC',
      'MB',
      'RBDR',
      'URRP',
      'SBDR',
      'USC',
    ]);
    expect(p.rows[0]).toMatchObject({ share: 0.3, runs: 1, cpu: 'B' });
    expect(p.rows.find((r) => r.short === 'MB')!.cpu).toBe('A');
    expect(p.cpuAShare).toBe(0.47);
    expect(p.total).toBeCloseTo(1, 2);
  });

  it('puts every event on CPU A for release and BSD, either for dynamic', () => {
    for (const fw of ['release', 'bsd', 'release-sram-both']) {
      const p = profileModel({ system: tigonSystem(fw), results: tigonResults(), checks: [] });
      expect((p as ProfileModel).rows.every((r) => r.cpu === 'A')).toBe(true);
    }
    const d = profileModel({
      system: tigonSystem('dynamic'),
      results: tigonResults(),
      checks: [],
    });
    expect((d as ProfileModel).rows.every((r) => r.cpu === 'either')).toBe(true);
  });

  it('takes the partition parameters for custom firmware', () => {
    const p = profileModel({
      system: tigonSystem('custom', { send_data_ready: 'A', mailbox: 'both' }),
      results: tigonResults(),
      checks: [],
    }) as ProfileModel;
    expect(p.rows.find((r) => r.short === 'SDR')!.cpu).toBe('A');
    expect(p.rows.find((r) => r.short === 'MB')!.cpu).toBe('both');
    expect(p.rows.find((r) => r.short === 'RC')!.cpu).toBe('none');
  });

  it('says why there is no profile', () => {
    const fixed = fixtureSystem();
    expect(profileModel({ system: fixed, results: tigonResults(), checks: [] })).toBe('not-tigon');
    expect(profileModel({ system: tigonSystem('parallel'), results: {}, checks: [] })).toBe(
      'no-profile',
    );
    expect(
      profileModel({
        system: tigonSystem('parallel'),
        results: tigonResults(SHARES.map(() => 0)),
        checks: [],
      }),
    ).toBe('no-handlers');
  });

  it('keeps the absolute reference values of the shares, not relative ones', () => {
    const checks = [
      check('tigon_share_SendDataReady', 0.3),
      check('tigon_share_DmaReadComplete', 14, { unit: '%' }),
      check('tigon_share_DmaReadComplete', 0.119, {
        unit: '×',
        factor: 2,
        relative_to: { metric: 'tigon_share_DmaWriteComplete', value: 0.06 },
      }),
      check('tigon_share_UpdateSendConsumer', 0.006, { at: { 'workload.datagram_bytes': 18 } }),
      check('tigon_cpu_a_share', 0.47, { pass: false }),
    ];
    const p = profileModel({
      system: tigonSystem('parallel'),
      results: tigonResults(),
      checks,
    }) as ProfileModel;
    expect(p.rows.find((r) => r.short === 'SDR')!.references.map((r) => r.expected)).toEqual([0.3]);
    expect(p.rows.find((r) => r.short === 'DRC')!.references.map((r) => r.expected)).toEqual([
      0.14,
    ]);
    expect(p.rows.find((r) => r.short === 'USC')!.references).toEqual([]);
    expect(p.cpuReferences).toHaveLength(1);
    expect(p.cpuReferences[0]!.pass).toBe(false);
    expect(referencesFor(undefined, 'x')).toEqual([]);
  });
});

describe('profileLayout', () => {
  const p = profileModel({
    system: tigonSystem('parallel'),
    results: tigonResults(undefined, 0.5),
    checks: [check('tigon_share_ReceiveComplete', 0.35)],
  }) as ProfileModel;
  const l = profileLayout(p, { width: 900, labelW: 250, valueW: 250 });

  it('lays bars on one share axis from the label column, largest on top', () => {
    expect(l.rows).toHaveLength(9);
    expect(l.rows[0]!.x0).toBe(250);
    expect(l.rows[0]!.y).toBeLessThan(l.rows[1]!.y);
    // Bar lengths are proportional to the shares.
    const w = (i: number) => l.rows[i]!.x1 - l.rows[i]!.x0;
    expect(w(0) / w(1)).toBeCloseTo(0.3 / 0.28, 5);
    expect(l.axis[0]).toEqual({ x: 250, label: '0%' });
  });

  it('draws a reference tick at the expected share and keeps the label clear of it', () => {
    const rc = l.rows.find((r) => r.short === 'RC')!;
    expect(rc.ticks).toHaveLength(1);
    expect(rc.ticks[0]!.x).toBeGreaterThan(rc.x1);
    expect(rc.labelX).toBeGreaterThan(rc.ticks[0]!.x);
  });

  it('splits the CPU bar at CPU A’s share with the thesis’s mark at 47%', () => {
    const c = l.cpuBar!;
    expect((c.xSplit - c.x0) / (c.x1 - c.x0)).toBeCloseTo(0.5, 5);
    expect((c.refX - c.x0) / (c.x1 - c.x0)).toBeCloseTo(THESIS_CPU_A_SHARE, 5);
    expect(l.height).toBeGreaterThan(c.y + c.h);
  });
});

describe('words', () => {
  it('formats shares and CPUs', () => {
    expect(sharePct(0.2369)).toBe('24%');
    expect(sharePct(0.0254)).toBe('2.5%');
    expect(sharePct(0.006)).toBe('0.6%');
    expect(sharePct(0)).toBe('0%');
    expect(cpuWords('A')).toBe('CPU A');
    expect(cpuWords('both')).toBe('both CPUs');
    expect(cpuWords('either')).toBe('either CPU');
  });
});
