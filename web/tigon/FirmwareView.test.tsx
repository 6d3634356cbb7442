import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace, type RawRecord } from '../trace/trace';
import { C, K } from '../trace/traceKinds';
import { cpuNow, firmwareIndex, lanesModel, queuesAt, registerAt } from './firmware';
import { FirmwareLanesSvg, QueueMeters, RegisterRow, shownCpus } from './FirmwareView';
import { GROUP_COLORS } from '../kit/palette';

// Mailbox on CPU A, then Send BD Ready on CPU B while A has Mailbox and URRP pending.
const rec = (time: number, kind: number, a = 0, b = 0, c = 0, d = 0, e = 0): RawRecord => ({
  time,
  kind,
  component: C.TigonCpu,
  a,
  b,
  c,
  d,
  e,
});
const trace = decodeTrace(
  encodeTrace([
    rec(0, K.TigonRegister, 0, 16, 338),
    rec(0, K.TigonRegister, 1, 0, 173),
    rec(100_000, K.TigonRegister, 0, 0, 338),
    rec(100_000, K.TigonHandler, 4, 0, 0, 500_000),
    rec(600_000, K.TigonHandlerEnd, 4, 0, 0),
    rec(600_000, K.TigonRegister, 1, 4, 173),
    rec(650_000, K.TigonRegister, 1, 0, 173),
    rec(650_000, K.TigonHandler, 2, 1, 1, 4_000_000, 7),
    rec(700_000, K.TigonRegister, 0, 80, 338),
    rec(4_650_000, K.TigonHandlerEnd, 2, 1, 1),
  ]),
);
const ix = firmwareIndex(trace, 0, 5_000_000);

describe('FirmwareLanesSvg (server-rendered)', () => {
  const model = lanesModel(ix, [0, 1], 0, 5_000_000, 800);
  const html = renderToStaticMarkup(
    <svg>
      <FirmwareLanesSvg model={model} sub={['19% busy', '18% busy']} />
    </svg>,
  );

  it('draws a lane per CPU with its handler bars in the events’ colours', () => {
    expect(html).toContain('data-testid="fw-lane-A" data-runs="1"');
    expect(html).toContain('data-testid="fw-lane-B" data-runs="1"');
    expect(html).toContain('data-testid="fw-bar" data-event="MB"');
    expect(html).toContain(`fill="${GROUP_COLORS.mailbox}"`); // Mailbox: the mailbox colour of the palette
    expect(html).toContain('>SBDR</text>'); // wide enough to be named
    expect(html).toContain('>CPU A</text>');
    expect(html).toContain('>19% busy</text>');
  });

  it('names each run in its tooltip', () => {
    expect(html).toContain(
      'CPU B: Send Buffer Descriptor Ready (SBDR), path SendBdFetch, 650 ns → 4.65 µs (4 µs)',
    );
  });
});

describe('RegisterRow (server-rendered)', () => {
  const t = 800_000;
  const html = renderToStaticMarkup(
    <RegisterRow reg={registerAt(ix, 0, t)} now={cpuNow(ix, 0, t)} />,
  );

  it('lights the pending bits, greys the others’ events and outlines PRI’s pick', () => {
    expect(html).toContain('data-testid="fw-reg-A" data-bits="80" data-pick="URRP"');
    expect(html.match(/data-state="pending"/g)).toHaveLength(2);
    expect(html.match(/data-state="masked"/g)).toHaveLength(5);
    expect(html).toMatch(/class="fw-cell pending pick"[^>]*data-event="URRP"/);
    expect(html).toContain('PRI picks Update Receive Return Producer');
    expect(html).toContain('Idle: in the dispatch loop');
  });

  it('names the handler a CPU runs', () => {
    const b = renderToStaticMarkup(
      <RegisterRow reg={registerAt(ix, 1, t)} now={cpuNow(ix, 1, t)} />,
    );
    expect(b).toContain('Running <b>SBDR</b>');
    expect(b).toContain('path SendBdFetch, packet 7');
  });
});

describe('QueueMeters and the lanes shown', () => {
  it('reads the queues as meters', () => {
    const html = renderToStaticMarkup(<QueueMeters queues={queuesAt(ix, 0)} dmaCapacity={16} />);
    expect(html).toContain('role="meter" aria-label="DMA read queue"');
    expect(html).toContain('>0 / 16<');
  });

  it('hides CPU B for the single-CPU firmware', () => {
    const setup = (firmware: string) => ({
      tigon: true,
      firmware,
      family: firmware === 'release' ? ('single' as const) : ('parallel' as const),
      cpuB: firmware !== 'release',
      eventCpu: [],
      masks: [0, 0] as [number, number],
    });
    expect(shownCpus(setup('release'), ix)).toEqual([0]);
    expect(shownCpus(setup('parallel'), ix)).toEqual([0, 1]);
  });
});
