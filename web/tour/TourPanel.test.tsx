import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { TourPanel } from './TourPanel';
import { HighlightLayer } from '../diagram/DiagramHighlight';
import { Store, StoreContext } from '../run/store';
import { scenarioById } from '../scenarios/eager';
import type { Scenario } from '../scenarios/types';

const scenario: Scenario = {
  id: 't',
  title: 'T',
  summary: 's',
  tour: [
    {
      title: 'S1: the descriptor',
      text: 'The driver posts it.',
      highlight: ['driver', 'send_ring'],
    },
    {
      title: 'S4: the data',
      text: 'A DMA read.',
      metrics: ['bus_utilization'],
      predict: {
        question: 'At 66 MHz?',
        choices: ['Faster', 'The same'],
        set: { 'system.bus.clock_mhz': 66 },
        reveal: 'Live below.',
      },
    },
  ],
};

function render(s: Scenario, tourStep: number | null): string {
  const store = new Store();
  store.setUi({ tourStep });
  return renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <TourPanel scenario={s} requested={{}} onRun={() => {}} />
    </StoreContext.Provider>,
  );
}

describe('TourPanel', () => {
  it('offers the tour with its steps before it starts', () => {
    const html = render(scenario, null);
    expect(html).toContain('data-testid="tour-launch"');
    expect(html).toContain('2 steps · 1 ask the class to predict');
    expect(html).toContain('Start the tour');
    expect(html).toContain('1. S1: the descriptor');
  });

  it('shows the current step, what to look at, and the dots to jump', () => {
    const html = render(scenario, 0);
    expect(html).toContain('data-testid="tour-dock"');
    expect(html).toContain('Step 1 of 2');
    expect(html).toContain('S1: the descriptor');
    expect(html).toContain('Look at: driver (host CPU), send ring');
    expect(html).toMatch(/aria-current="step"[^>]*>1</);
    expect(html).toMatch(
      /data-testid="tour-back"[^>]*disabled|disabled=""[^>]*data-testid="tour-back"/,
    );
  });

  it('asks before it reveals, and shows no value it does not have', () => {
    const html = render(scenario, 1);
    expect(html).toContain('Predict: At 66 MHz?');
    expect(html).toContain('data-testid="tour-choice-1"');
    expect(html).toContain('system.bus.clock_mhz = 66');
    expect(html).toContain('Run it');
    expect(html).not.toContain('Live below.');
    // No run yet: the live value is a placeholder, never a number from elsewhere.
    expect(html).toMatch(/data-testid="tour-live">…</);
    expect(html).toContain('Finish');
  });

  it('renders nothing for a scenario without a tour, and survives a malformed one', () => {
    expect(render({ ...scenario, tour: undefined }, null)).toBe('');
    expect(render({ ...scenario, tour: [{ nope: 1 }] as never }, 0)).toBe('');
    // A step index from a link that the tour does not have shows the launcher.
    expect(render(scenario, 7)).toContain('tour-launch');
  });

  it('renders every preset tour at every step', () => {
    const entry = scenarioById('anatomy-of-a-send')!;
    for (let i = 0; i < entry.scenario.tour!.length; i++) {
      expect(render(entry.scenario, i)).toContain(`Step ${i + 1} of `);
    }
  });
});

describe('HighlightLayer', () => {
  const shapes = {
    mailbox: [{ x: 10, y: 20, w: 100, h: 30 }],
    interrupt: [{ d: 'M0 0 H50' }],
    dma_read: [
      { x: 200, y: 20, w: 50, h: 30 },
      { x: 200, y: 120, w: 50, h: 30 },
    ],
  };

  it('rings each shape of each named part and veils the rest', () => {
    const html = renderToStaticMarkup(
      <svg>
        <HighlightLayer
          parts={['mailbox', 'dma_read', 'interrupt']}
          shapes={shapes}
          width={400}
          height={200}
        />
      </svg>,
    );
    expect(html.match(/data-testid="highlight-ring"/g)).toHaveLength(4);
    expect(html).toContain('data-part="dma_read"');
    expect(html).toContain('class="hl-veil"');
    expect(html).toContain('fill-rule="evenodd"');
  });

  it('draws nothing for no parts or parts this diagram does not show', () => {
    const none = (parts: string[]) =>
      renderToStaticMarkup(
        <svg>
          <HighlightLayer parts={parts} shapes={shapes} width={400} height={200} />
        </svg>,
      );
    expect(none([])).toBe('<svg></svg>');
    expect(none(['sram'])).toBe('<svg></svg>');
  });
});
