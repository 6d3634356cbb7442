import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { fixtureSweep } from '../engine/fixture';
import { sweepChartModel } from '../model/chart';
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
      'aria-label="UDP total throughput (Mb/s) against UDP datagram size (B)"',
    );
  });

  it('matches the stored markup', () => {
    expect(html).toMatchSnapshot();
  });
});
