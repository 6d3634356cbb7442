import { describe, expect, it } from 'vitest';
import { formatLogTime } from './format';

describe('formatLogTime', () => {
  it('tells apart events 30 ns apart at 20 ms (once all "20 ms")', () => {
    const at = [20e9, 20e9 + 30e3, 20e9 + 60e3].map(formatLogTime);
    expect(at).toEqual(['20.000000 ms', '20.000030 ms', '20.000060 ms']);
    expect(new Set(at).size).toBe(3);
  });

  it('keeps the nanosecond in every unit, and ps under 1 ns', () => {
    expect(formatLogTime(10_570_000)).toBe('10.570 µs');
    expect(formatLogTime(1_234_567_891_000)).toBe('1.234567891 s');
    expect(formatLogTime(12_000)).toBe('12 ns');
    expect(formatLogTime(850)).toBe('850 ps');
    expect(formatLogTime(0)).toBe('0 ps');
  });
});
