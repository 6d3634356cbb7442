import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  dropRejected,
  linkBase,
  linkUi,
  restoreLink,
  scenarioBase,
  type OpenedLink,
} from './linkRestore';
import type { LinkProblem, LinkState } from './link';
import { Store, doneState, type DoneRun } from '../run/store';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { loadNodeCore } from '../engine/nodeCore';
import { isErrorOutput, type ParameterSpec, type RunOutput } from '../engine/types';
import { parameterMap, type Overrides } from '../run/overrides';
import { scenarioById } from '../scenarios/eager';

const opened = (state: Partial<LinkState>): OpenedLink => ({
  state: {
    scenario: 'udp-throughput',
    overrides: {},
    cursor: null,
    views: null,
    tourStep: null,
    ...state,
  },
  problems: [],
  serial: 1,
});

describe('dropRejected: what the core refuses leaves, the rest stays', () => {
  it('drops the overrides the errors name, with the core’s message', () => {
    const { kept, problems } = dropRejected(
      { 'workload.datagram_bytes': 99999, 'system.bus.clock_mhz': 33, 'foo.bar': 1 },
      [
        {
          path: 'workload.datagram_bytes',
          message: 'is out of range: 99999; allowed 18 to 1472 bytes',
        },
        { path: 'foo.bar', message: "unknown parameter 'foo.bar'" },
      ],
    );
    expect(kept).toEqual({ 'system.bus.clock_mhz': 33 });
    expect(problems.map((p) => p.field)).toEqual([
      'overrides.workload.datagram_bytes',
      'overrides.foo.bar',
    ]);
    expect(problems[0]!.message).toContain('allowed 18 to 1472 bytes');
    expect(problems[0]!.message).toContain('99999 was dropped');
  });

  it('drops every override when an error names none of them (settings that clash)', () => {
    const { kept, problems } = dropRejected({ 'run.duration_us': 1, 'system.bus.clock_mhz': 33 }, [
      { path: 'run.warmup_us', message: 'must be less than run.duration_us' },
    ]);
    expect(kept).toEqual({});
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain('run.warmup_us: must be less than run.duration_us');
  });
});

describe('restoreLink on a store', () => {
  const f = fixtureRun();
  const trace = decodeTrace(f.trace);
  const start = f.output.trace.start_ps;
  const inside = start + 10_000_000;

  function setup(state: Partial<LinkState>) {
    const store = new Store({ ui: linkUi(opened(state)) });
    const runs: Overrides[] = [];
    const reported: LinkProblem[] = [];
    const firsts: DoneRun[] = [];
    const stop = restoreLink(
      store,
      opened(state),
      (o) => runs.push(o),
      (p) => reported.push(...p),
      (r) => firsts.push(r),
    );
    return { store, runs, reported, firsts, stop };
  }

  it('starts with the link’s views and tour step', () => {
    const { store } = setup({ views: ['chart'], tourStep: 2 });
    expect(store.getState().ui).toMatchObject({ views: ['chart'], tourStep: 2, presenter: false });
  });

  it('re-runs without a rejected override, then puts the cursor where the link had it', () => {
    const { store, runs, reported, firsts } = setup({
      overrides: { 'workload.datagram_bytes': 99999, 'system.bus.clock_mhz': 33 },
      cursor: inside,
    });
    store.setRun({ status: 'running', startedAt: 0 });
    store.setRun({
      status: 'invalid',
      errors: [{ path: 'workload.datagram_bytes', message: 'allowed 18 to 1472 bytes' }],
    });
    expect(runs).toEqual([{ 'system.bus.clock_mhz': 33 }]);
    expect(reported.map((p) => p.field)).toEqual(['overrides.workload.datagram_bytes']);
    store.setRun({ status: 'running', startedAt: 0 });
    const first = doneState(f.output, trace, { overrides: { 'system.bus.clock_mhz': 33 } });
    store.setRun(first);
    expect(store.getState().playback.cursor).toBe(inside);
    // Later runs are the user's: the cursor is no longer the link's business.
    store.setCursor(start);
    store.setRun(doneState(f.output, trace));
    expect(store.getState().playback.cursor).toBe(start);
    expect(runs).toHaveLength(1);
    expect(firsts).toEqual([first]);
  });

  it('a second refusal naming nothing drops the rest; a refused scenario stops there', () => {
    const { store, runs, reported } = setup({ overrides: { 'a.b': 1, 'c.d': 2 } });
    store.setRun({ status: 'invalid', errors: [{ path: 'a.b', message: 'no' }] });
    store.setRun({ status: 'invalid', errors: [{ path: 'x.y', message: 'clash' }] });
    expect(runs).toEqual([{ 'c.d': 2 }, {}]);
    store.setRun({ status: 'invalid', errors: [{ path: 'x.y', message: 'clash' }] });
    expect(runs).toHaveLength(2);
    expect(reported).toHaveLength(2);
  });

  it('a cursor outside the run lands at the nearest end and says so', () => {
    const { store, reported } = setup({ cursor: 1e14 });
    store.setRun(doneState(f.output, trace));
    expect(store.getState().playback.cursor).toBe(store.window()!.end);
    expect(reported[0]!.field).toBe('cursor');
    expect(reported[0]!.message).toMatch(/outside this run's trace, \d+ to \d+ ps/);
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('linkBase with the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const run = (text: string, o: Overrides) => {
    const out = JSON.parse(core!.run(text, JSON.stringify(o))) as unknown;
    if (isErrorOutput(out)) throw new Error(JSON.stringify(out.errors));
    return out as RunOutput;
  };

  it('gives the scenario’s own values, near enough at once and exactly from a run without overrides', async () => {
    const entry = scenarioById('tigon-udp-send')!;
    const specs = JSON.parse(core!.parameterInfo()) as ParameterSpec[];
    const overrides = { 'workload.datagram_bytes': 800, 'system.tigon.firmware': 'release' };
    const own = parameterMap(run(entry.text, {}).parameters);
    const linked = run(entry.text, overrides);
    expect(parameterMap(linked.parameters).get('system.tigon.firmware')).toBe('release');
    const base = linkBase(entry.scenario, linked.parameters, specs, overrides);
    const diff = [...own].filter(([k, v]) => base.get(k) !== v).map(([k]) => k);
    // The overridden paths take the scenario's values; a default that follows the firmware
    // (PARALLEL's consumer index by PIO) is what only a run without overrides gets right.
    expect(diff).toEqual(['system.driver.send_consumer_by_pio']);
    expect(base.size).toBe(own.size);
    let disposed = false;
    const client = {
      run: async (text: string, o: Record<string, unknown>) => ({
        ok: true as const,
        output: run(text, o as Overrides),
        trace: new ArrayBuffer(0),
        info: { kindNames: [], componentNames: [], parameterInfo: [] },
        elapsedMs: 0,
      }),
      dispose: () => {
        disposed = true;
      },
    };
    expect(await scenarioBase(entry.text, client)).toEqual(own);
    expect(disposed).toBe(true);
    const refused = { ...client, run: async () => ({ ok: false as const, errors: [] }) };
    expect(await scenarioBase(entry.text, refused)).toBeNull();
  });
});
