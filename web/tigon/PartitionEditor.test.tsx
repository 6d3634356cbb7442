import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { TIGON_EVENTS } from '../trace/traceKinds';
import type { Metrics, ValidationError } from '../engine/types';
import { fixtureTigonShares } from '../engine/fixture';
import type { PartitionState, Place } from './partition';

// Table 3.4 as places (the run's system block carries it), index = event id.
const TABLE_3_4_PLACES: Place[] = ['B', 'A', 'B', 'B', 'A', 'B', 'A', 'B', 'A'];
import { PartitionEditor, type PartitionEditorProps } from './PartitionEditor';
import { tigonEventColor } from './tigonPalette';

const SHORT = TIGON_EVENTS.map((e) => e.short);
const withPlace = (short: string, place: Place): Place[] =>
  TABLE_3_4_PLACES.map((p, e) => (SHORT[e] === short ? place : p));
const custom = (places: readonly Place[]): PartitionState => ({
  firmware: 'custom',
  family: 'custom',
  places: [...places],
  paths: [],
});

const RESULTS: Metrics = {
  tigon_cpu_a_share: { value: 0.827, unit: 'fraction' },
  tigon_cpu_a_utilization: { value: 1, unit: 'fraction' },
  tigon_cpu_b_utilization: { value: 0.273, unit: 'fraction' },
  tigon_semaphore_spin: { value: 0.066, unit: 'fraction' },
  tigon_share_SendDataReady: { value: 0.34, unit: 'fraction' },
};

function render(props: Partial<PartitionEditorProps>): string {
  return renderToStaticMarkup(
    <PartitionEditor
      state={custom(TABLE_3_4_PLACES)}
      table34={TABLE_3_4_PLACES}
      shares={fixtureTigonShares()}
      results={null}
      resultsAre="current"
      errors={[]}
      onMove={() => {}}
      onPlaces={() => {}}
      {...props}
    />,
  );
}

/** The markup of one zone (from its data-testid to the next zone). */
function zone(html: string, place: Place): string {
  const start = html.indexOf(`data-testid="pt-zone-${place}"`);
  expect(start, place).toBeGreaterThan(-1);
  const next = html.indexOf('<section class="pt-zone ', start);
  return html.slice(start, next < 0 ? undefined : next);
}

describe('PartitionEditor (server-rendered)', () => {
  it('draws Table 3.4 as chips in CPU A and CPU B, in the events’ colours, no semaphore', () => {
    const html = render({});
    expect(html).toContain('data-testid="pt-zone-A" data-events="RC MB URRP DWC"');
    expect(html).toContain('data-testid="pt-zone-B" data-events="SDR SBDR RBDR USC DRC"');
    expect(html).toContain('data-testid="pt-zone-both" data-events=""');
    expect(html.match(/data-testid="pt-chip"/g)).toHaveLength(9);
    expect(html).toContain(`background:${tigonEventColor(0)}`); // Send Data Ready
    expect(html).toContain('No handler needs the semaphore');
    // Table 3.4's remaining sharing is single-writer data only (§3.2.2).
    expect(html.match(/data-testid="pt-pair"/g)).toHaveLength(3);
    expect(html).toContain('MB (CPU A) ↔ SBDR (CPU B)');
    expect(html).not.toContain('class="lock"');
    // The Table 3.4 button has nothing to do.
    expect(html).toMatch(
      /<button type="button" class="btn btn-small" disabled=""[^>]*pt-table-3-4/,
    );
  });

  it('offers a click and the keys for every move, labelled for screen readers', () => {
    const html = render({});
    const a = zone(html, 'A');
    expect(a).toContain('aria-label="Move Receive Complete to CPU B"');
    expect(a).toContain('>→ B</button>');
    expect(zone(html, 'B')).toContain('>← A</button>');
    expect(a).toContain('aria-keyshortcuts="A B 2 0"');
    expect(a).toContain('tabindex="0"');
  });

  it('Send Data Ready on CPU A: the read channel is shared, four handlers take the semaphore', () => {
    const html = render({ state: custom(withPlace('SDR', 'A')), results: RESULTS });
    expect(html).toContain('data-testid="pt-semaphore" data-events="SDR SBDR RBDR DRC"');
    expect(html).toContain(
      'The semaphore will be taken for: <b>Send Data Ready, Send Buffer Descriptor Ready, Receive Buffer Descriptor Ready, DMA Read Complete</b>',
    );
    expect(html.match(/class="pt-chip locked"/g)).toHaveLength(4);
    expect(html).toContain('SDR (CPU A) ↔ DRC (CPU B)</b>: the DMA read channel (Table 3.3)');
    // The run's figures: the CPU split beside the thesis, the utilisations and the spin.
    expect(html).toContain('data-testid="pt-split-bar" data-a="0.8270"');
    expect(html).toContain('CPU A 83%');
    expect(html).toContain('thesis, Table 3.4: A 47% / B 53%');
    expect(html).toContain('data-testid="pt-util-B" data-value="27.3"');
    expect(html).toContain('data-testid="pt-spin"');
    expect(zone(html, 'A')).toContain('>34%</span>'); // SDR's share of the handler time
    expect(zone(html, 'B')).toContain('27% busy');
  });

  it('a handler on no CPU: a warning, then the core’s own message once it refuses', () => {
    const places = withPlace('MB', 'none');
    const before = render({ state: custom(places), resultsAre: 'running', results: RESULTS });
    expect(zone(before, 'none')).toContain('data-event="MB"');
    expect(before).toContain('data-testid="pt-unplaced"');
    expect(before).toContain('the previous run, while this one runs');
    const errors: ValidationError[] = [
      {
        path: 'system.tigon.partition.mailbox',
        message:
          'Mailbox is handled by no CPU, so it would never be served; allowed "A", "B" or "both"',
      },
    ];
    const after = render({ state: custom(places), resultsAre: 'previous', errors });
    expect(after).toContain('data-testid="pt-errors"');
    expect(after).toContain('Mailbox is handled by no CPU, so it would never be served');
    expect(after).not.toContain('data-testid="pt-unplaced"');
  });

  it('says what moving a handler does under RELEASE firmware', () => {
    const html = render({
      state: { firmware: 'release', family: 'single', places: SHORT.map(() => 'A'), paths: [] },
    });
    expect(html).toContain(
      'RELEASE firmware: every handler runs on CPU A. Moving a handler switches to custom firmware',
    );
    expect(zone(html, 'B')).toContain('drop a handler here');
    expect(html).not.toContain('data-testid="pt-split"'); // no results yet
  });
});
