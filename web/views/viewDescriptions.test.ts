// The screen-reader descriptions of the views, on real runs of short presets (skipped when the
// wasm core is not built): each sentence carries the numbers the view draws at the cursor.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { doneState, type DoneRun } from '../run/store';
import { ringsAt } from '../rings/rings';
import { cacheSetup, cachedCacheGridIndex, countsUpTo, requestAt } from '../webserver/cacheGrid';
import { cachedVnicIndex, stateCounts, vnicSetup, vnicsAt } from '../sinic/vnics';
import { cachedFirmwareIndex, cpuNow } from '../tigon/firmware';
import { describeView, REGISTRY } from './registry';

const DESCRIBED = REGISTRY.filter((v) => v.describe);
import { VNIC_STATE_NAMES } from '../trace/traceKinds';

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('view descriptions for screen readers', async () => {
  const core = built ? await loadNodeCore() : null;
  const runs = new Map<string, DoneRun>();
  function run(id: string): DoneRun {
    const hit = runs.get(id);
    if (hit) return hit;
    const entry = scenarioById(id)!;
    const out = JSON.parse(core!.run(entry.text, '{}')) as RunOutput;
    const r = doneState(out, decodeTrace(core!.traceBytes()));
    runs.set(id, r);
    return r;
  }
  const mid = (r: DoneRun) => (r.output.trace.start_ps + r.output.trace.end_ps) / 2;

  it('describes the rings with the host copy’s indices at the cursor', () => {
    const r = run('anatomy-of-a-send');
    const t = r.output.trace.end_ps;
    const text = describeView('rings', r, t, 1e6);
    const send = ringsAt(r.index, t)[0]!;
    expect(send.host.known).toBe(true);
    expect(text).toContain(
      `Send ring: ${send.host.occupied} of ${send.host.size} descriptors (packets to send), producer index ${send.host.producer}, consumer ${send.host.consumer}`,
    );
    // At the start nothing is posted yet; the words change with the cursor.
    expect(describeView('rings', r, r.output.trace.start_ps, 1e6)).not.toBe(text);
  });

  it('describes the system, the waveform and the bus of a DMA read', () => {
    const r = run('pci-dma-read');
    const t = mid(r);
    expect(describeView('diagram', r, t, 1e6)).toMatch(/^System at \d/);
    expect(describeView('waveform', r, t, 1e6)).toMatch(/^Bus at .*: .+\.$/);
    expect(describeView('bus', r, r.output.trace.end_ps, 1e6)).toMatch(
      /Up to the cursor: the bus was busy \d+% of [\d,]+ cycles; of the traffic \d+% overhead, \d+% content/,
    );
  });

  it('describes what each Tigon CPU runs', () => {
    const r = run('tigon-one-packet');
    const w = { start: r.output.trace.start_ps, end: r.output.trace.end_ps };
    const ix = cachedFirmwareIndex(r.trace, w.start, w.end);
    const busy = ix.runs[0]![Math.floor(ix.runs[0]!.length / 2)]!;
    const t = (busy.start + busy.end) / 2;
    const text = describeView('firmware', r, t, 1e6);
    expect(text).toContain(`CPU A: ${cpuNow(ix, 0, t).text}`);
  });

  it('describes the NIC cache and the request path of a web request', () => {
    const r = run('web-anatomy-of-a-request');
    const t = mid(r);
    expect(describeView('request', r, t, 1e6)).toMatch(/^Request \d+( for file \d+)? on NIC \d/);
    const setup = cacheSetup(r.output.parameters, r.output.results);
    const ix = cachedCacheGridIndex(r.trace, setup, r.output.trace.start_ps);
    const counts = countsUpTo(ix, requestAt(ix, t));
    const text = describeView('cache', r, t, 1e6);
    if (setup.web) expect(text).toContain(`So far ${counts.requests.toLocaleString('en-US')}`);
  });

  it('describes the receive path, the VNICs and the CPU of SINIC', () => {
    const r = run('sinic-anatomy');
    const t = mid(r);
    expect(describeView('rxpath', r, t, 1e6)).toMatch(/^Packet \d+: /);
    const setup = vnicSetup(r.output.parameters);
    const counts = stateCounts(vnicsAt(cachedVnicIndex(r.trace, setup.vnics), t));
    const text = describeView('vnics', r, t, 1e6);
    expect(text).toMatch(new RegExp(`^${setup.vnics} VNICs? at `));
    counts.forEach((n, i) => {
      if (n > 0) expect(text).toContain(`${n} ${VNIC_STATE_NAMES[i]}`);
    });
    expect(describeView('cpu', r, t, 1e6)).toMatch(/^CPU time by part\. .*(driver|copy) \d+%/);
    expect(describeView('chart', r, t, 1e6)).not.toBe('');
  });

  it('describes ETA+AIO’s two CPUs at the cursor: the PPE’s empty iterations at low load', () => {
    const r = run('eta-never-sleeps');
    const text = describeView('eta', r, r.output.trace.start_ps, 1e6);
    expect(text).toMatch(
      /^ETA\+AIO over 100 µs from 40 ms: the PPE \(CPU 0\) ran \d+ iterations? with work and [1-9]\d* empty iterations/,
    );
    expect(text).toContain('Cycles, request rate 1000: ');
  });

  it('has a describer for every main view and none throws on any of these runs', () => {
    expect(DESCRIBED.map((v) => v.id).sort()).toEqual(
      [
        'bus',
        'cache',
        'chart',
        'cpu',
        'diagram',
        'eta',
        'firmware',
        'ledger',
        'request',
        'rings',
        'rxpath',
        'sequence',
        'tables',
        'vnics',
        'waveform',
      ].sort(),
    );
    for (const id of [
      'anatomy-of-a-send',
      'pci-dma-read',
      'tigon-one-packet',
      'web-anatomy-of-a-request',
      'sinic-anatomy',
      'eta-never-sleeps',
    ]) {
      const r = run(id);
      for (const view of DESCRIBED)
        for (const t of [r.output.trace.start_ps, mid(r), r.output.trace.end_ps]) {
          const text = view.describe!(r, t, 1e6);
          expect(text, `${id} ${view.id}`).toMatch(/\S.*\.$/);
        }
    }
  });
});
