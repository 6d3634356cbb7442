import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kindsIn, viewHasData } from './viewData';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';
import { loadNodeCore } from '../engine/nodeCore';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';

describe('which views have data', () => {
  const f = fixtureRun();
  const run = { output: f.output, trace: decodeTrace(f.trace) };

  it('reads the kinds in the trace', () => {
    const kinds = kindsIn(run);
    expect(kinds.has('DriverPostSendBd')).toBe(true);
    expect(kinds.has('TigonHandler')).toBe(false);
  });

  it('offers views by what the run holds, never "results"', () => {
    expect(viewHasData('events', run)).toBe(true);
    expect(viewHasData('rings', run)).toBe(true);
    expect(viewHasData('firmware', run)).toBe(false);
    expect(viewHasData('results', run)).toBe(false);
    const empty = {
      output: { ...f.output, sweep: [], series: [] },
      trace: decodeTrace(new ArrayBuffer(0)),
    };
    expect(viewHasData('chart', empty)).toBe(false);
    expect(viewHasData('events', empty)).toBe(false);
    expect(viewHasData('timeline', empty)).toBe(false);
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('views with data in real runs', async () => {
  const core = built ? await loadNodeCore() : null;
  const offered = (id: string) => {
    const output = JSON.parse(core!.run(scenarioById(id)!.text, '{}')) as RunOutput;
    const r = { output, trace: decodeTrace(core!.traceBytes()) };
    return ['diagram', 'rings', 'waveform', 'bus', 'firmware', 'profile', 'cache', 'cpu'].filter(
      (v) => viewHasData(v, r),
    );
  };

  it('a PCI read offers the bus views, not the Tigon’s', () => {
    const v = offered('pci-dma-read');
    expect(v).toEqual(expect.arrayContaining(['waveform', 'bus', 'diagram']));
    expect(v).not.toContain('firmware');
  });

  it('one packet through the Tigon offers its firmware views', () => {
    const v = offered('tigon-one-packet');
    expect(v).toEqual(expect.arrayContaining(['firmware', 'profile']));
    expect(v).not.toContain('cache');
  });
});
