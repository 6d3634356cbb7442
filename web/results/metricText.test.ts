import { describe, expect, it } from 'vitest';
import { metricText } from './ResultsPanel';

describe('metricText', () => {
  it('names a code by its unit ("Bottleneck: CPU", not "1 0 bus, 1 CPU, 2 disk")', () => {
    expect(metricText({ value: 1, unit: '0 bus, 1 CPU, 2 disk' })).toEqual({
      value: 'CPU',
      unit: '',
    });
  });

  it('reads the core’s KB as KiB and shares in %', () => {
    expect(metricText({ value: 14.8, unit: 'KB' })).toEqual({ value: '14.8', unit: 'KiB' });
    expect(metricText({ value: 0.351, unit: 'fraction' })).toEqual({ value: '35.1', unit: '%' });
  });
});
