import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace } from '../engine/trace';
import { KIND_NAMES } from '../engine/traceKinds';
import type { RunOutput } from '../engine/types';
import {
  csvField,
  exportFileName,
  perfettoTrace,
  resultsCsv,
  scenarioWithOverrides,
  seriesCsv,
  sweepCsv,
} from './exports';
import { buildIndex } from './traceIndex';

describe('CSV', () => {
  it('quotes only the fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(csvField(0.25)).toBe('0.25');
  });

  it('writes a sweep with its series column and every metric with its unit', () => {
    const csv = sweepCsv({
      sweep_spec: { parameter: 'system.nic_cache.kbytes', series_parameter: 'workload.trace' },
      sweep: [
        { value: 64, series: 'nasa', results: { reduction: { value: 0.1, unit: 'fraction' } } },
        {
          value: 128,
          series: 'rice',
          results: {
            reduction: { value: 0.2, unit: 'fraction' },
            requests: { value: 5, unit: '' },
          },
        },
      ],
    });
    expect(csv.trimEnd().split('\n')).toEqual([
      'system.nic_cache.kbytes,workload.trace,reduction (fraction),requests',
      '64,nasa,0.1,',
      '128,rice,0.2,5',
    ]);
  });

  it('writes a time series in µs and the main run’s metrics', () => {
    expect(
      seriesCsv({ name: 'tx', unit: 'Mb/s', interval_ps: 2e6, start_ps: 1e6, values: [1, 2] }),
    ).toBe('time_us,tx (Mb/s)\n1,1\n3,2\n');
    expect(resultsCsv({ a: { value: 3, unit: 'x, y' } })).toBe('metric,value,unit\na,3,"x, y"\n');
  });

  it('names files after the scenario', () => {
    expect(exportFileName('udp-throughput', 'sweep', 'csv')).toBe('udp-throughput-sweep.csv');
    expect(exportFileName('A b/c', 'Trace (Perfetto)', 'json')).toBe('a-b-c-trace-perfetto.json');
  });
});

describe('scenario with overrides', () => {
  it('writes dotted paths into the nested document', () => {
    const text = JSON.stringify({ id: 's', system: { bus: { clock_mhz: 33 } } });
    const out = JSON.parse(
      scenarioWithOverrides(text, { 'system.bus.clock_mhz': 66, 'workload.direction': 'send' }),
    );
    expect(out).toEqual({
      id: 's',
      system: { bus: { clock_mhz: 66 } },
      workload: { direction: 'send' },
    });
  });

  it('refuses text that is not a scenario object', () => {
    expect(() => scenarioWithOverrides('[1]', {})).toThrow(/not a JSON object/);
  });
});

const wasm = fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url));
const scenarios = fileURLToPath(new URL('../../scenarios/', import.meta.url));

describe.skipIf(!existsSync(wasm))('exports of a real run', async () => {
  const core = existsSync(wasm) ? await loadNodeCore() : null;

  it('the downloaded scenario runs to the same results as the page’s run with overrides', () => {
    const text = readFileSync(`${scenarios}udp-throughput.json`, 'utf8');
    const overrides = { 'workload.datagram_bytes': 512, 'system.bus.clock_mhz': 66 };
    const page = JSON.parse(core!.run(text, JSON.stringify(overrides))) as RunOutput;
    const file = JSON.parse(core!.run(scenarioWithOverrides(text, overrides), '{}')) as RunOutput;
    expect(file.results).toEqual(page.results);
    expect(file.sweep).toEqual(page.sweep);
  });

  it('the trace becomes Chrome trace-event JSON: named lanes, spans and one instant per record', () => {
    const text = readFileSync(`${scenarios}anatomy-of-a-send.json`, 'utf8');
    const o = JSON.parse(core!.run(text, '{}')) as RunOutput;
    const trace = decodeTrace(core!.traceBytes());
    const idx = buildIndex(trace, o.trace.start_ps, o.trace.end_ps);
    const json = JSON.parse(perfettoTrace(trace, idx, { scenario: o.scenario, seed: o.seed })) as {
      traceEvents: {
        ph: string;
        name: string;
        ts?: number;
        dur?: number;
        tid: number;
        args?: { name?: string };
      }[];
    };
    const ev = json.traceEvents;
    const instants = ev.filter((e) => e.ph === 'i');
    expect(instants).toHaveLength(trace.length);
    expect(new Set(instants.map((e) => e.name))).toContain(KIND_NAMES[trace.kind[0]!]);
    const complete = ev.filter((e) => e.ph === 'X');
    expect(complete.length).toBe(
      idx.bus.spans.length + idx.dma.spans.length + idx.frames.spans.length + idx.cpu.spans.length,
    );
    for (const e of complete) expect(e.dur!).toBeGreaterThanOrEqual(0);
    const lanes = ev.filter((e) => e.name === 'thread_name').map((e) => e.args!.name);
    expect(lanes).toContain('I/O bus');
    expect(lanes).toContain('host CPU');
    // Timestamps are in µs and in order.
    const ts = ev.filter((e) => e.ph !== 'M').map((e) => e.ts!);
    for (let i = 1; i < ts.length; i++) expect(ts[i]!).toBeGreaterThanOrEqual(ts[i - 1]!);
    expect(ts[ts.length - 1]!).toBeLessThanOrEqual(o.trace.end_ps / 1e6 + 1e-9);
  });
});
