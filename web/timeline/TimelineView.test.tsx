// The timeline, server-rendered from hand-written records (model/lanes.example.ts): the lanes'
// SVG as a snapshot, and the view in a store (the followed packet, the highlighted parts).
import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { Store, StoreContext, doneState } from '../run/store';
import { buildTimeline, layoutTimeline, packetJourney } from './lanes';
import { NS, ONE_SEND, ONE_SEND_WINDOW } from './lanes.example';
import { TimelineLanesSvg, TimelineView, toneColor } from './TimelineView';
import { GROUP_COLORS, purposeColor } from '../kit/palette';
import { P } from '../trace/traceKinds';

const trace = decodeTrace(encodeTrace(ONE_SEND));
const model = buildTimeline(trace, 0, ONE_SEND_WINDOW.end, { busLabel: 'PCI bus', tigon: false });

function output(): RunOutput {
  return {
    format: 'nicsim-results/1',
    system: fixtureSystem(),
    scenario: 'anatomy-of-a-send',
    seed: 1,
    parameters: { system: { bus: { protocol: 'pci', model: 'pci' }, nic: { model: 'fixed' } } },
    results: {},
    series: [],
    histograms: [],
    sweep: [],
    sweep_spec: null,
    checks: [],
    trace: { records: trace.length, dropped: 0, start_ps: 0, end_ps: ONE_SEND_WINDOW.end },
  };
}

function render(setup?: (s: Store) => void): string {
  const store = new Store();
  store.setRun(doneState(output(), trace));
  setup?.(store);
  return renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <TimelineView />
    </StoreContext.Provider>,
  );
}

describe('TimelineLanesSvg (server-rendered)', () => {
  it('draws lanes, bars, instants and arrows (snapshot)', () => {
    const layout = layoutTimeline(model, 3000 * NS, 12000 * NS, 800);
    const html = renderToStaticMarkup(
      <svg>
        <TimelineLanesSvg model={model} layout={layout} journey={null} highlight={[]} />
      </svg>,
    );
    expect(html).toMatchSnapshot();
    expect(html.match(/data-testid="tl-lane"/g)).toHaveLength(8);
    expect(html).toContain('data-label="DMA read"');
    // One per cause the fixture's records name (14 in this range).
    expect(html.match(/data-testid="tl-arrow"/g)!.length).toBe(14);
    // The data fetch: its purpose's colour, named in the bar where it fits.
    expect(html).toContain(`fill="${purposeColor(P.SendDataFetch)}"`);
    expect(html).toContain('>send data fetch · 1,514 B · packet 1</text>');
    // The mailbox instants are ticks in the mailbox colour.
    expect(html).toContain(`stroke="${GROUP_COLORS.mailbox}"`);
  });

  it('draws the followed packet’s arrows on top and dims the rest', () => {
    const j = packetJourney(model, 1);
    const layout = layoutTimeline(model, 0, ONE_SEND_WINDOW.end, 800, { keepArrows: j.arrows });
    const html = renderToStaticMarkup(
      <svg>
        <TimelineLanesSvg model={model} layout={layout} journey={j} highlight={['dma_read']} />
      </svg>,
    );
    expect(html.match(/class="tl-arrow on"/g)!.length).toBe(
      layout.arrows.filter((ai) => j.arrows.has(ai)).length,
    );
    expect(html).toContain('data-lane="dmaRead:0" data-label="DMA read" class="tl-lane lit"');
    expect(html.match(/class="tl-lane lit"/g)).toHaveLength(1);
    expect(html).toContain('class="tl-bar dim"');
  });

  it('colours tones from the one palette', () => {
    expect(toneColor(`purpose:${P.SendBdFetch}`)).toBe(purposeColor(P.SendBdFetch));
    expect(toneColor('mailbox')).toBe(GROUP_COLORS.mailbox);
    expect(toneColor('nonsense')).toBe('var(--c-9aa3b2)');
  });
});

describe('TimelineView (server-rendered in a store)', () => {
  it('shows the whole window with its axis, lanes and the cursor', () => {
    const html = render((s) => s.setCursor(10_390 * NS));
    expect(html).toContain('data-testid="timeline-view"');
    expect(html).toContain(`data-t0="0" data-t1="${ONE_SEND_WINDOW.end}"`);
    expect(html).toContain('data-testid="tl-unit">µs</text>');
    expect(html).toContain('data-testid="tl-cursor" data-t="10390000"');
    expect(html).toMatch(
      /aria-label="Timeline from 0 ps to 40 µs, lanes: host CPU, driver, PCI bus,/,
    );
    expect(html).not.toContain('data-testid="tl-follow"');
  });

  it('follows the packet the inspector shows', () => {
    const html = render((s) => s.setUi({ packet: 1 }));
    expect(html).toContain('data-testid="tl-follow" data-packet="1"');
    expect(html).toContain('Following <b>packet 1</b>');
    expect(html).toContain('class="tl-arrow on"');
  });

  it('says so when the window holds nothing to draw', () => {
    const store = new Store();
    store.setRun(doneState(output(), decodeTrace(encodeTrace([]))));
    const html = renderToStaticMarkup(
      <StoreContext.Provider value={store}>
        <TimelineView />
      </StoreContext.Provider>,
    );
    expect(html).toContain('data-testid="timeline-empty"');
  });
});
