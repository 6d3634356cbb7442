import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { KnobPanel, type KnobPanelProps } from './KnobPanel';
import type { ParameterSpec } from '../engine/types';
import { loadNodeCore } from '../engine/nodeCore';
import { scenarioById } from '../scenarios/eager';
import { buildOverrides, mapErrors, parameterMap, type Overrides } from '../run/overrides';

const SPECS: ParameterSpec[] = [
  { path: 'system.bus.clock_mhz', type: 'choice', choices: [33, 66, 100, 133], unit: 'MHz' },
  { path: 'workload.datagram_bytes', type: 'integer', unit: 'bytes', min: 18, max: 1472 },
  { path: 'run.seed', type: 'integer', description: 'Seed of the run' },
];

function render(props: Partial<KnobPanelProps>): string {
  return renderToStaticMarkup(
    <KnobPanel
      specs={SPECS}
      effective={
        new Map<string, unknown>([
          ['system.bus.clock_mhz', 66],
          ['workload.datagram_bytes', 1472],
          ['run.seed', 1],
        ])
      }
      base={
        new Map<string, unknown>([
          ['system.bus.clock_mhz', 66],
          ['workload.datagram_bytes', 1472],
          ['run.seed', 1],
        ])
      }
      overrides={{}}
      errors={[]}
      running={false}
      onRun={() => {}}
      {...props}
    />,
  );
}

/** The markup of one field (from its data-testid to the next field). */
function field(html: string, path: string): string {
  const start = html.indexOf(`data-testid="knob-${path}"`);
  expect(start, path).toBeGreaterThan(-1);
  const next = html.indexOf('<div class="knob ', start);
  return html.slice(start, next < 0 ? undefined : next);
}

describe('KnobPanel', () => {
  it('is collapsed by default and says the scenario runs as written', () => {
    const html = render({});
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('The scenario as written');
    expect(html).not.toContain('knob-input-');
  });

  it('shows the last run’s values, the most relevant knobs first', () => {
    const html = render({ defaultOpen: true });
    const clock = html.indexOf('knob-system.bus.clock_mhz');
    const seed = html.indexOf('knob-run.seed');
    expect(clock).toBeGreaterThan(-1);
    expect(html.indexOf('knob-workload.datagram_bytes')).toBeGreaterThan(clock);
    // run.seed is in a collapsed section: its field is not rendered until opened.
    expect(seed).toBe(-1);
    expect(field(html, 'workload.datagram_bytes')).toContain('value="1472"');
    // Four short choices: segmented buttons, the chosen one pressed, the unit once.
    const clockField = field(html, 'system.bus.clock_mhz');
    expect(clockField).toMatch(/aria-pressed="true"[^>]*>66</);
    expect(clockField.match(/aria-pressed="false"/g)).toHaveLength(3);
    expect(clockField).toContain('MHz');
  });

  it('gives a number with a range a slider, labelled, with the value and unit spoken', () => {
    const html = render({ defaultOpen: true });
    const f = field(html, 'workload.datagram_bytes');
    expect(f).toContain('type="range"');
    expect(f).toContain('aria-labelledby="knob-input-workload.datagram_bytes-name"');
    expect(f).toContain('aria-valuetext="1,472 bytes"');
    expect(f).toContain('data-scale="linear"');
    // The exact value stays editable beside it.
    expect(f).toContain('type="text"');
  });

  it('makes a range over decades logarithmic and many choices a select', () => {
    const specs: ParameterSpec[] = [
      ...SPECS,
      {
        path: 'system.driver.send_ring_size',
        type: 'integer',
        unit: 'descriptors',
        min: 4,
        max: 65536,
      },
      {
        path: 'workload.direction',
        type: 'choice',
        choices: ['send', 'receive', 'bidirectional'],
      },
      {
        path: 'workload.trace',
        type: 'choice',
        choices: ['berkeley', 'ibm', 'nasa', 'rice', 'worldcup', 'log'],
      },
    ];
    const html = render({
      defaultOpen: true,
      specs,
      effective: new Map<string, unknown>([
        ['system.driver.send_ring_size', 256],
        ['workload.direction', 'send'],
        ['workload.trace', 'nasa'],
      ]),
    });
    const ring = field(html, 'system.driver.send_ring_size');
    expect(ring).toContain('data-scale="log"');
    expect(ring).toContain('aria-valuetext="256 descriptors"');
    expect(field(html, 'workload.direction')).toContain('aria-pressed="true">send<');
    // workload.trace is outside the key group; search brings it out.
    expect(html).not.toContain('knob-workload.trace');
  });

  it('puts the core’s message next to its field, and lists the override as a chip', () => {
    const overrides: Overrides = { 'workload.datagram_bytes': 5000 };
    const errors = [
      {
        path: 'workload.datagram_bytes',
        message: 'is out of range: 5000; allowed 18 to 1472 bytes',
      },
      { path: 'nope.x', message: "unknown parameter 'nope.x'" },
    ];
    const html = render({ defaultOpen: true, overrides, errors });
    const f = field(html, 'workload.datagram_bytes');
    expect(f).toContain('allowed 18 to 1472 bytes');
    expect(f).toContain('aria-invalid="true"');
    expect(f).toContain('value="5000"');
    expect(f).toContain('scenario: <span class="mono">1,472 bytes');
    expect(field(html, 'system.bus.clock_mhz')).not.toContain('knob-error');
    // The message without a field goes to the panel's own error list.
    expect(html).toContain('unknown parameter');
    expect(html).toContain('data-testid="override-chip"');
    expect(html).toContain('Reset all');
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('overrides against the real core', async () => {
  const core = built ? await loadNodeCore() : null;
  const specs = built ? (JSON.parse(core!.parameterInfo()) as ParameterSpec[]) : [];
  const specMap = new Map(specs.map((s) => [s.path, s]));
  const entry = scenarioById('udp-throughput')!;

  it('an out-of-range datagram size comes back as the core’s message on that field', () => {
    const base = new Map<string, unknown>();
    const o = buildOverrides({}, { 'workload.datagram_bytes': '5000' }, specMap, base);
    expect(o).toEqual({ 'workload.datagram_bytes': 5000 });
    const out = JSON.parse(core!.run(entry.text, JSON.stringify(o))) as {
      errors: Array<{ path: string; message: string }>;
    };
    const m = mapErrors(out.errors, specMap.keys());
    expect(m.byPath.get('workload.datagram_bytes')?.join(' ')).toContain(
      'allowed 18 to 1472 bytes',
    );
    expect(m.other).toEqual([]);
  });

  it('text that is not a number gets the core’s message, naming the range', () => {
    const o = buildOverrides({}, { 'workload.datagram_bytes': 'lots' }, specMap, new Map());
    const errors = JSON.parse(core!.validate(entry.text, JSON.stringify(o))) as Array<{
      path: string;
      message: string;
    }>;
    const m = mapErrors(errors, specMap.keys());
    expect(m.byPath.get('workload.datagram_bytes')?.join(' ')).toMatch(/18 to 1472 bytes/);
  });

  it('a valid change runs and shows up in the effective parameters', () => {
    const o = buildOverrides({}, { 'system.bus.clock_mhz': 33 }, specMap, new Map());
    const out = JSON.parse(core!.run(entry.text, JSON.stringify(o))) as {
      parameters: Parameters<typeof parameterMap>[0];
    };
    expect(parameterMap(out.parameters).get('system.bus.clock_mhz')).toBe(33);
  });
});
