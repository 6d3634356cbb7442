import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace } from '../trace/trace';
import { fixtureDmaReadRecords, fixtureSystem } from '../engine/fixture';
import { buildBusPhaseIndex } from './busPhases';
import { waveModel } from './waveform';
import { LABEL_W, WaveformSvg } from './Waveform';

// One DMA read (arbitration 2, address 1, turnaround 1, wait 10, data 4, idle 1) at 33 MHz,
// drawn 24 cycles wide around the middle of the wait.
const ix = buildBusPhaseIndex(
  decodeTrace(encodeTrace(fixtureDmaReadRecords())),
  0,
  1_000_000,
  { system: { bus: { clock_mhz: 33 }, nics: 1 } },
  fixtureSystem({ busCyclePs: 30000 }),
);
const cursor = 210000 + 8 * 30000;
const span = 24 * 30000;
const width = 480;
const model = waveModel(ix, cursor - span / 2, cursor + span / 2, width, cursor);
const html = renderToStaticMarkup(
  <WaveformSvg model={model} cursor={cursor} width={width + LABEL_W} />,
);

describe('WaveformSvg (server-rendered)', () => {
  it('draws a row per signal, the masters’ REQ#/GNT# included', () => {
    for (const label of [
      'CLK',
      'bus owner',
      'NIC REQ#',
      'NIC GNT#',
      'Bridge REQ#',
      'FRAME#',
      'IRDY#',
      'TRDY#',
      'STOP#',
      'AD',
    ])
      expect(html).toContain(`>${label}</text>`);
  });

  it('names the phases in the AD row and the owner in its row', () => {
    expect(model.detailed).toBe(true);
    // 20 px per cycle: long phases named with their cycles, single cycles by a letter.
    expect(model.ad.map((c) => c.label)).toEqual([
      'bus idle 4',
      'arb',
      'A',
      'TA',
      'wait 10',
      'data 4',
      'I',
      '',
    ]);
    expect(model.ad.map((c) => c.kind)).toEqual([
      'idle',
      'phase',
      'phase',
      'phase',
      'phase',
      'phase',
      'phase',
      'idle',
    ]);
    expect(html).toContain('>wait 10</text>');
    expect(html).toContain('>data 4</text>');
    expect(html).toContain('NIC · send data fetch');
    expect(model.cycleTicks.length).toBeGreaterThanOrEqual(24);
  });

  it('puts the cursor in the middle', () => {
    expect(html).toMatch(new RegExp(`<line x1="${width / 2}" x2="${width / 2}"`));
  });

  it('matches the stored markup', () => {
    expect(html).toMatchSnapshot();
  });
});
