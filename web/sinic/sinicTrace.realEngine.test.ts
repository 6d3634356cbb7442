// The SINIC views read the real engine's trace (skipped when the wasm is not built): every
// preset with a receive path view yields packets followed from the wire to the user's buffer.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import { decodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { buildRxPath, rxSetup } from './rxPath';
import { buildVnicIndex, registersAt, vnicSetup, vnicsAt, stateCounts } from './vnics';
import { cpuBreakdown } from './cpuBreakdown';

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('the SINIC views on the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const run = (id: string, overrides = '{}') => {
    const out = JSON.parse(core!.run(scenarioById(id)!.text, overrides)) as RunOutput;
    return { out, trace: decodeTrace(core!.traceBytes()) };
  };

  it('follows zero-copy packets: header to the sk_buff, payload from the FIFO to the user', () => {
    const { out, trace } = run('sinic-zero-copy');
    const ix = buildRxPath(trace, rxSetup(out.parameters));
    const full = ix.packets.filter(
      (p) => p.steps[0]!.kind === 'wire' && p.steps.some((s) => s.to === 'user'),
    );
    expect(full.length).toBeGreaterThan(5);
    for (const p of full) {
      const kinds = p.steps.map((s) => s.kind);
      expect(kinds.indexOf('arrive')).toBeLessThan(kinds.indexOf('engine'));
      expect(kinds.indexOf('stack')).toBeLessThan(kinds.lastIndexOf('engine'));
      expect(kinds).not.toContain('copy'); // no kernel copy with zero copy
      for (let i = 1; i < p.steps.length; i++)
        expect(p.steps[i]!.start).toBeGreaterThanOrEqual(p.steps[i - 1]!.start);
    }
    // Some VNICs hold deferred payloads at the window's start; registers fill in as it plays.
    const vs = vnicSetup(out.parameters);
    const vix = buildVnicIndex(trace, vs.vnics);
    expect(stateCounts(vnicsAt(vix, out.trace.start_ps))[3]).toBeGreaterThan(0);
    const regs = registersAt(vix, out.trace.end_ps);
    for (const name of [0, 1, 2, 3, 4, 5, 6, 7])
      expect(regs[name], `register ${name}`).not.toBeNull();
  });

  it('follows an off-chip packet through DMA into DRAM and a copy that misses', () => {
    const { out, trace } = run('sinic-on-die');
    const ix = buildRxPath(trace, rxSetup(out.parameters));
    const p = ix.packets.find(
      (x) => x.steps[0]!.kind === 'wire' && x.steps.some((s) => s.kind === 'copy'),
    );
    expect(p).toBeDefined();
    expect(p!.steps.map((s) => s.kind)).toContain('dma');
    const copy = p!.steps.find((s) => s.kind === 'copy')!;
    expect(copy.missed).toBe(copy.lines);
    // The CPU bars: one per NIC and L2 size, the run on screen (off chip, 8 MB) marked.
    const b = cpuBreakdown(out);
    expect(b.groups).toHaveLength(4);
    expect(b.groups.flatMap((g) => g.bars).filter((x) => x.selected)).toHaveLength(1);
  });

  it('follows a SINIC packet: RxData, the whole frame copied, RxWait, stack, kernel copy', () => {
    const { out, trace } = run('sinic-anatomy');
    const ix = buildRxPath(trace, rxSetup(out.parameters));
    const p = ix.packets.find(
      (x) => x.steps[0]!.kind === 'wire' && x.steps.some((s) => s.kind === 'copy'),
    )!;
    const kinds = p.steps.map((s) => s.kind).filter((k) => k !== 'interrupt');
    expect(kinds).toEqual([
      'wire',
      'arrive',
      'driver',
      'rxdata',
      'engine',
      'rxwait',
      'stack',
      'copy',
    ]);
  });
});
