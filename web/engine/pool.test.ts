// The worker pool's path (main run, sweep points spread over instances, finish) against the core's
// run() in one instance: the same document byte for byte, and the same trace. Runs with cores
// loaded in Node (nodeCore.ts), one per pool slot; skipped when the wasm is not built.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { NicsimCoreModule } from './core';
import { EngineError } from './client';
import { newHandlerState, respond, type HandlerState } from './handler';
import { loadNodeCore } from './nodeCore';
import { EnginePool, type EngineSlot } from './pool';
import type { Request, Response } from './protocol';
import { SCENARIOS } from '../scenarios/eager';
import { needsAccessLog } from '../webserver/AccessLogPanel';

const built = existsSync(fileURLToPath(new URL('./wasm/nicsim_core.wasm', import.meta.url)));

/** A core in this process answering as a worker would, after a turn of the event loop. */
function coreSlot(
  core: NicsimCoreModule,
  calls: Request['type'][],
  logsSent: number[] = [],
  states: HandlerState[] = [],
): EngineSlot {
  const state = newHandlerState();
  states.push(state);
  let dead = false;
  return {
    async request(req) {
      await new Promise((r) => setTimeout(r, Math.random() * 3));
      if (dead) throw new EngineError('cancelled', 'cancelled');
      calls.push(req.type);
      if ('log' in req && req.log && 'requests' in req.log && req.log.requests) logsSent.push(1);
      return respond(core, { ...req, id: 0 } as Request, state).msg as Response;
    },
    terminate() {
      dead = true;
    },
  };
}

describe.skipIf(!built)('the engine pool', async () => {
  const serial = built ? await loadNodeCore() : null;
  const cores = built ? await Promise.all([0, 1, 2].map(() => loadNodeCore())) : [];
  const calls: Request['type'][] = [];
  const logsSent: number[] = [];
  let k = 0;
  const pool = new EnginePool(3, () => coreSlot(cores[k++ % cores.length]!, calls, logsSent));
  const files = Uint32Array.from({ length: 2000 }, (_, i) => (i * 31) % 97);
  const log = { files, bytes: files.map((f) => 800 + 50 * f) };

  // Every preset is proven natively (core-cpp/tests/run_split_test.cpp); here a representative
  // set: no sweep, a sweep without and with series, and a replayed access log.
  const ids = [
    'anatomy-of-a-send',
    'sinic-vnics',
    'pci-two-nics',
    'tigon-cpu-benchmark',
    'udp-throughput',
    'web-access-log',
  ];
  it('leaves a core to the page while the main run computes: 2 instances guess no point', async () => {
    for (const size of [2, 3]) {
      const sent: Request['type'][] = [];
      let j = 0;
      const p = new EnginePool(size, () => coreSlot(cores[j++ % cores.length]!, sent));
      const entry = SCENARIOS.find((e) => e.id === 'udp-throughput')!;
      let beforeMain: Request['type'][] = [];
      const r = await p.run(entry.text, {}, undefined, {
        onMain: () => {
          beforeMain = [...sent];
        },
      });
      expect(r.ok && r.text).toBe(serial!.run(entry.text, '{}'));
      // 3 instances: one runs the main run, one guesses, one stays free.
      expect(beforeMain.filter((t) => t === 'run-point').length).toBeLessThanOrEqual(size - 2);
      p.dispose();
    }
  });

  it("does not run again the sweep point that is the main run's own", async () => {
    // One instance: it runs the main run, so nothing guesses points beside it.
    const one: Request['type'][] = [];
    const single = new EnginePool(1, () => coreSlot(cores[0]!, one));
    const entry = SCENARIOS.find((e) => e.id === 'pci-two-nics')!;
    let own = -1;
    const seen: number[] = [];
    const r = await single.run(entry.text, {}, undefined, {
      onMain: (main) => {
        own = main.output.pending?.main_point?.index ?? -1;
      },
      onPoint: (i) => seen.push(i),
    });
    expect(r.ok && r.text).toBe(serial!.run(entry.text, '{}'));
    expect(own).toBeGreaterThanOrEqual(0);
    expect(seen[0]).toBe(own); // reported with the main run, before any point is computed
    const total = r.ok ? r.output.sweep.length : 0;
    expect(one.filter((t) => t === 'run-point')).toHaveLength(total - 1);
    single.dispose();
  });

  for (const entry of SCENARIOS.filter((e) => ids.includes(e.id))) {
    it(`gives run()'s document and trace for ${entry.id}`, async () => {
      const withLog = needsAccessLog(entry.scenario, {});
      serial!.setAccessLog(
        withLog ? log.files : new Uint32Array(),
        withLog ? log.bytes : new Uint32Array(),
      );
      const expected = serial!.run(entry.text, '{}');
      const trace = serial!.traceBytes();
      const points: number[] = [];
      let total = -1;
      const r = await pool.run(entry.text, {}, withLog ? log : undefined, {
        onMain: (_main, n) => {
          total = n;
        },
        onPoint: (i, e, done, n) => {
          expect(n).toBe(total);
          expect(done).toBe(points.length + 1);
          expect(e.results).toBeTypeOf('object');
          points.push(i);
        },
      });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.text).toBe(expected);
      expect(new Uint8Array(r.trace)).toEqual(trace);
      expect(points.sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
      expect(r.output.pending).toBeUndefined();
    });
  }

  it("asks another instance for the engine's info while the first main run computes", async () => {
    const entry = SCENARIOS.find((e) => e.id === 'anatomy-of-a-send')!;
    const expected = {
      kindNames: JSON.parse(serial!.traceKindNames()) as unknown,
      componentNames: JSON.parse(serial!.componentNames()) as unknown,
      parameterInfo: JSON.parse(serial!.parameterInfo()) as unknown,
    };
    for (const size of [1, 2]) {
      const bySlot: Request[][] = [];
      let j = 0;
      const p = new EnginePool(size, () => {
        const sent: Request[] = [];
        bySlot.push(sent);
        const inner = coreSlot(cores[j++ % cores.length]!, []);
        return {
          request: (req, transfer) => {
            sent.push({ ...req, id: 0 } as Request);
            return inner.request(req, transfer);
          },
          terminate: () => inner.terminate(),
        };
      });
      for (const seed of [1, 2]) {
        const r = await p.run(entry.text, { 'run.seed': seed });
        expect(r.ok && r.info).toEqual(expected);
      }
      const mains = bySlot.flat().filter((q) => q.type === 'run-main');
      const infos = bySlot.map((sent) => sent.filter((q) => q.type === 'info').length);
      if (size === 1) {
        // The only instance: its first main run brings the info, and no one asks for it again.
        expect(mains.map((q) => q.type === 'run-main' && q.withInfo)).toEqual([true, false]);
        expect(infos).toEqual([0]);
      } else {
        // Asked once, of the instance that is not running the main run.
        expect(mains.every((q) => q.type === 'run-main' && q.withInfo === false)).toBe(true);
        expect(infos).toEqual([0, 1]);
      }
      p.dispose();
    }
  });

  it("keeps a trace's sweep points on the instance that generated it, with run()'s document", async () => {
    // web-cpu-bound-traces: 4 NIC cache sizes within each of 3 traces (a short window: the
    // traces' generation is what is shared).
    const entry = SCENARIOS.find((e) => e.id === 'web-cpu-bound-traces')!;
    const ov = { 'run.duration_us': 20000 };
    const expected = serial!.run(entry.text, JSON.stringify(ov));
    const points: number[][] = [];
    let j = 0;
    const two = new EnginePool(2, () => {
      const mine: number[] = [];
      points.push(mine);
      const inner = coreSlot(cores[j++ % cores.length]!, []);
      return {
        request: (req, transfer) => {
          if (req.type === 'run-point') mine.push(req.index);
          return inner.request(req, transfer);
        },
        terminate: () => inner.terminate(),
      };
    });
    let setups: string[] = [];
    let mainSetup = '';
    const r = await two.run(entry.text, ov, undefined, {
      onMain: (main) => {
        setups = main.output.pending?.setups ?? [];
        mainSetup = main.output.pending?.main_setup ?? '';
      },
    });
    expect(r.ok && r.text).toBe(expected);
    expect(new Set(setups).size).toBe(3);
    // The main run's instance goes on with its trace; the other starts another trace.
    expect(setups[points[0]![0]!]).toBe(mainSetup);
    expect(setups[points[1]![0]!]).not.toBe(mainSetup);
    two.dispose();
  });

  it('a new run cancels the one in flight, which rejects as cancelled', async () => {
    const sweep = SCENARIOS.find((e) => e.id === 'udp-throughput')!;
    const first = pool.run(sweep.text, {});
    const second = pool.run(sweep.text, { 'run.seed': 7 });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    const r = await second;
    expect(r.ok && r.text).toBe(serial!.run(sweep.text, '{"run.seed":7}'));
  });

  it('a prestarted main run is taken by the run of the same scenario, not run again', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'pci-two-nics')!;
    serial!.setAccessLog(new Uint32Array(), new Uint32Array());
    const expected = serial!.run(entry.text, '{}');
    calls.length = 0;
    pool.prestart(entry.text);
    const r = await pool.run(entry.text, {});
    expect(r.ok && r.text).toBe(expected);
    expect(calls.filter((c) => c === 'run-main')).toHaveLength(1);
  });

  it('a prestarted main run of another scenario or with overrides is dropped', async () => {
    const a = SCENARIOS.find((e) => e.id === 'pci-two-nics')!;
    const b = SCENARIOS.find((e) => e.id === 'anatomy-of-a-send')!;
    pool.prestart(a.text);
    const r = await pool.run(b.text, {});
    expect(r.ok && r.text).toBe(serial!.run(b.text, '{}'));
    pool.prestart(a.text);
    const o = await pool.run(a.text, { 'run.seed': 7 });
    expect(o.ok && o.text).toBe(serial!.run(a.text, '{"run.seed":7}'));
  });

  it('warm() starts the instances without running anything', async () => {
    let made = 0;
    const own = new EnginePool(2, () => {
      made++;
      return coreSlot(cores[0]!, []);
    });
    own.warm();
    expect(made).toBe(2);
    expect(own.busy).toBe(false);
    const entry = SCENARIOS.find((e) => e.id === 'anatomy-of-a-send')!;
    const running = own.run(entry.text, {});
    expect(made).toBe(2); // the run starts on the warm instances
    const r = await running;
    expect(r.ok && r.text).toBe(serial!.run(entry.text, '{}'));
  });

  it('warmUp() runs a replay once on the instance the next run takes, which then sends its log', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'web-access-log')!;
    const bySlot: { req: Request; reply: Promise<Response> }[][] = [];
    let j = 0;
    const own = new EnginePool(2, () => {
      const sent: { req: Request; reply: Promise<Response> }[] = [];
      bySlot.push(sent);
      const inner = coreSlot(cores[j++ % cores.length]!, []);
      return {
        request: (req, transfer) => {
          const reply = inner.request(req, transfer);
          sent.push({ req: { ...req, id: 0 } as Request, reply });
          return reply;
        },
        terminate: () => inner.terminate(),
      };
    });
    own.warmUp(entry.text, {});
    expect(own.busy).toBe(false);
    const [home, other] = bySlot;
    expect(home!.map((x) => x.req.type)).toEqual(['validate', 'run-main']);
    expect(other!.map((x) => x.req.type)).toEqual(['info']);
    // The made-up log is one the core runs (a refused one would warm little of the replay).
    expect((await home![1]!.reply).type).toBe('main');
    const r = await own.run(entry.text, {}, log);
    serial!.setAccessLog(log.files, log.bytes);
    expect(r.ok && r.text).toBe(serial!.run(entry.text, '{}'));
    serial!.setAccessLog(new Uint32Array(), new Uint32Array());
    // The run went to the warmed instance, sent it its own log, and asked for no info again.
    const [check, main] = home!.slice(2).map((x) => x.req);
    expect(check?.type === 'validate' && check.log?.requests?.files).toBe(log.files);
    expect(main?.type === 'run-main' && main.withInfo).toBe(false);
    expect(bySlot.flat().filter((x) => x.req.type === 'info')).toHaveLength(1);
    own.dispose();
  });

  it('a prestarted main run that no run takes is stopped when the viewer leaves', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'udp-throughput')!;
    const stopped: number[] = [];
    let n = 0;
    const own = new EnginePool(2, () => {
      const i = n++;
      const slot = coreSlot(cores[i % cores.length]!, []);
      return {
        request: (req) => slot.request(req),
        terminate: () => {
          stopped.push(i);
          slot.terminate();
        },
      };
    });
    own.prestart(entry.text);
    expect(own.prestarted).toBe(true);
    own.dropEarly();
    expect(own.prestarted).toBe(false);
    expect(stopped).toEqual([0]); // the instance that ran it, not the idle one
    // The pool goes on with a fresh instance in its place.
    const r = await own.run(entry.text, { 'run.seed': 7 });
    expect(r.ok).toBe(true);
    expect(n).toBe(3);
    own.dispose();
  });

  it('answers a main run asked again from memory, the same document', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'pci-two-nics')!;
    serial!.setAccessLog(new Uint32Array(), new Uint32Array());
    const a = await pool.run(entry.text, { 'run.seed': 11 });
    await pool.run(entry.text, { 'run.seed': 12 });
    calls.length = 0;
    const marks: unknown[] = [];
    const again = await pool.run(entry.text, { 'run.seed': 11 }, undefined, {
      onMain: () => marks.push(performance.getEntriesByName('nicsim:answer').at(-1)),
    });
    expect(again.ok && again.text).toBe(a.ok && a.text);
    expect(again.ok && again.text).toBe(serial!.run(entry.text, '{"run.seed":11}'));
    expect(calls).not.toContain('run-main');
    expect((marks[0] as PerformanceMark).detail).toBe('remembered');
  });

  it('a main run asked for ahead of time is taken by the run that asks for it', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'anatomy-of-a-send')!;
    serial!.setAccessLog(new Uint32Array(), new Uint32Array());
    await pool.run(entry.text, {});
    calls.length = 0;
    pool.prefetch(entry.text, [{ 'run.seed': 21 }, { 'run.seed': 22 }]);
    await expect.poll(() => calls.filter((c) => c === 'run-main').length).toBe(2);
    const r = await pool.run(entry.text, { 'run.seed': 22 });
    expect(r.ok && r.text).toBe(serial!.run(entry.text, '{"run.seed":22}'));
    expect(calls.filter((c) => c === 'run-main')).toHaveLength(2);
    expect((performance.getEntriesByName('nicsim:answer').at(-1) as PerformanceMark).detail).toBe(
      'prefetched',
    );
    // A value the core refuses, asked ahead, still ends as refused.
    pool.prefetch(entry.text, [{ 'system.bus.width_bits': -1 }]);
    const bad = await pool.run(entry.text, { 'system.bus.width_bits': -1 });
    expect(bad.ok).toBe(false);
  });

  it('leaving the page stops the main runs asked for ahead of time', async () => {
    const entry = SCENARIOS.find((e) => e.id === 'udp-throughput')!;
    const stopped: number[] = [];
    let n = 0;
    const own = new EnginePool(2, () => {
      const i = n++;
      const slot = coreSlot(cores[i % cores.length]!, []);
      return {
        request: (req) => slot.request(req),
        terminate: () => {
          stopped.push(i);
          slot.terminate();
        },
      };
    });
    await own.run(entry.text, {}).catch(() => {});
    const before = stopped.length;
    own.prefetch(entry.text, [{ 'run.seed': 31 }]);
    own.stopAhead();
    expect(stopped.length).toBe(before + 1);
    own.dispose();
  });

  it('reports the core rejecting a value, naming the field', async () => {
    const sweep = SCENARIOS.find((e) => e.id === 'udp-throughput')!;
    const r = await pool.run(sweep.text, { 'system.bus.width_bits': -1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.path)).toContain('system.bus.width_bits');
  });

  it('refuses a replay the core will not run before it says the run started', async () => {
    const entry = SCENARIOS.find((e) => needsAccessLog(e.scenario, {}))!;
    // 600 responses of 1 GB in 512-byte blocks: more blocks than a replay may reference.
    const files = Uint32Array.from({ length: 600 }, (_, i) => i % 50);
    const huge = { files, bytes: files.map(() => 1_000_000_000) };
    let accepted = false;
    const r = await pool.run(entry.text, { 'system.nic_cache.block_bytes': 512 }, huge, {
      onAccepted: () => {
        accepted = true;
      },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.message).toContain('more cache blocks than the limit');
    expect(accepted).toBe(false);
  });

  it('sends an access log to an instance once, and again to one that dropped it', async () => {
    const entry = SCENARIOS.find((e) => needsAccessLog(e.scenario, {}))!;
    const other = SCENARIOS.find((e) => e.id === 'anatomy-of-a-send')!;
    const seed = (n: number) => ({ 'run.seed': n });
    const first = await pool.run(entry.text, seed(11), log);
    expect(first.ok).toBe(true);
    logsSent.length = 0;
    // The same log with other values: the instance holds it, only its key travels.
    const again = await pool.run(entry.text, seed(12), log);
    expect(again.ok).toBe(true);
    expect(logsSent).toHaveLength(0);
    // A run without a log clears it in the instance; the next replay is told, and resends it.
    expect((await pool.run(other.text, {})).ok).toBe(true);
    const replay = await pool.run(entry.text, seed(13), log);
    expect(replay.ok).toBe(true);
    if (replay.ok && again.ok) expect(replay.output.results).toBeTypeOf('object');
  });

  it('resends the log to an instance that dropped it without the pool knowing', async () => {
    const entry = SCENARIOS.find((e) => needsAccessLog(e.scenario, {}))!;
    const states: HandlerState[] = [];
    const sent: number[] = [];
    const one = new EnginePool(1, () => coreSlot(cores[0]!, [], sent, states));
    expect((await one.run(entry.text, { 'run.seed': 21 }, log)).ok).toBe(true);
    expect(sent.length).toBeGreaterThan(0);
    // The worker forgets its log (as a restarted core would); the pool still thinks it holds it.
    cores[0]!.setAccessLog(new Uint32Array(), new Uint32Array());
    states[0]!.logKey = null;
    sent.length = 0;
    const r = await one.run(entry.text, { 'run.seed': 22 }, log);
    expect(r.ok).toBe(true);
    expect(sent.length).toBeGreaterThan(0); // told need-log, it sent the requests again
  });
});
