import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { fixtureSweep } from '../engine/fixture';
import { sweepChartModel } from './chart';
import { SweepChart } from './Chart';

describe('SweepChart (server-rendered SVG)', () => {
  const model = sweepChartModel(
    {
      sweep: fixtureSweep(),
      sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
    },
    { y: 'udp_total_throughput', limit: 'ethernet_limit' },
    { x: 'UDP datagram size (B)', y: 'UDP total throughput' },
  );
  const html = renderToStaticMarkup(<SweepChart model={model} xUnit="B" />);

  it('renders the three series, their points and the dashed limit curves', () => {
    expect(html.match(/class="series-line"/g)).toHaveLength(3);
    expect(html.match(/data-testid="limit-curve"/g)).toHaveLength(2);
    expect(html.match(/class="series-point[^"]*"/g)!.length).toBe(33 + 3); // 33 points + 3 legend marks
    for (const s of ['send', 'receive', 'bidirectional'])
      expect(html).toContain(`data-series="${s}"`);
  });

  it('renders axes with their labels and units, and a legend', () => {
    expect(html).toContain('UDP datagram size (B)');
    expect(html).toContain('UDP total throughput (Mb/s)');
    expect(html).toContain('Ethernet limit');
    expect(html).toContain('>1,000<');
    expect(html).toContain(
      'aria-label="UDP total throughput (Mb/s) against UDP datagram size (B); arrow keys read the values"',
    );
  });

  it('matches the stored markup', () => {
    expect(html).toMatchSnapshot();
  });
});

describe('SweepChart with the papers’ reference values', () => {
  const at = (d: number, s: string) => ({ 'workload.datagram_bytes': d, 'workload.direction': s });
  const base = {
    source: 'seed 000 §3.4.2',
    metric: 'udp_total_throughput',
    unit: 'Mb/s',
    kind: 'exact',
  };
  const model = sweepChartModel(
    {
      sweep: fixtureSweep(),
      sweep_spec: { parameter: 'workload.datagram_bytes', series_parameter: 'workload.direction' },
      checks: [
        {
          ...base,
          id: 'asic-1472',
          description: 'An ASIC NIC: 1882 Mb/s.',
          at: at(1472, 'bidirectional'),
          expected: 1882,
          simulated: 1885.5,
          tolerance: 0.05,
          comparison: 'within',
          pass: true,
        },
        {
          ...base,
          id: 'send-at-limit',
          description: 'Send at the limit from 1200 bytes.',
          at: at(1200, 'send'),
          expected: 919.4,
          simulated: 928,
          tolerance: 0,
          comparison: 'at_least',
          factor: 0.97,
          relative_to: { metric: 'ethernet_limit', at: at(1200, 'send'), value: 947.9 },
          pass: true,
        },
        {
          ...base,
          id: 'receive-below',
          description: 'Receive below 400 Mb/s at 400 bytes.',
          at: at(400, 'receive'),
          expected: 300,
          simulated: 378,
          tolerance: 0.02,
          comparison: 'at_most',
          kind: 'qualitative',
          pass: false,
        },
      ],
    },
    { y: 'udp_total_throughput', limit: 'ethernet_limit' },
    { x: 'UDP datagram size (B)', y: 'UDP total throughput' },
  );
  const html = renderToStaticMarkup(<SweepChart model={model} xUnit="B" />);

  it('draws one mark per check beside its line, with the check in a <title>', () => {
    expect(html.match(/data-testid="reference-mark"/g)).toHaveLength(3);
    expect(html).toContain('data-check="asic-1472" data-series="bidirectional" data-pass="true"');
    expect(html).toContain(
      '<title>thesis: 1,882 Mb/s ± 5% (seed 000 §3.4.2) — simulated 1,886 Mb/s ✓ (exact comparison)\nAn ASIC NIC: 1882 Mb/s.</title>',
    );
    expect(html).toContain('thesis: ≥ 0.97 × Ethernet limit = 919 Mb/s (seed 000 §3.4.2)');
    expect(html.match(/class="ref-bar"/g)).toHaveLength(2); // the floor has no tolerance
  });

  it('dashes a failing mark and puts a ✗ beside it', () => {
    expect(html.match(/ref-glyph-fail/g)).toHaveLength(2); // the mark and its legend entry
    expect(html).toContain('class="ref-fail-text">✗</text>');
  });

  it('names each glyph in the legend', () => {
    expect(html.match(/data-testid="reference-legend"/g)).toHaveLength(3);
    for (const t of ['published value ± tolerance', 'published floor', 'published ceiling'])
      expect(html).toContain(t);
  });

  it('matches the stored markup', () => {
    expect(html).toMatchSnapshot();
  });
});
