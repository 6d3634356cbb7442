import { describe, expect, it } from 'vitest';
import { sweepBarLabel } from './busUtil';

describe('sweepBarLabel', () => {
  it('names a cache size with its binary unit, never "16380" without one', () => {
    expect(sweepBarLabel('system.nic_cache.kbytes', 16384)).toBe('16 MiB');
    expect(sweepBarLabel('system.nic_cache.kbytes', 0)).toBe('0 KiB');
    expect(sweepBarLabel('system.bus.clock_mhz', 66)).toBe('66');
    expect(sweepBarLabel('workload.trace', 'nasa')).toBe('nasa');
  });
});
