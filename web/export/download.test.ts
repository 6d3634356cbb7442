import { describe, expect, it } from 'vitest';
import { TITLE_CHAR_PX, wrapTitle } from './download';

describe('exported chart title', () => {
  it('fits the chart width in at most three lines', () => {
    const t =
      'How much can a NIC cache save? (Figure 4.3): Content traffic reduction across the sweep';
    const lines = wrapTitle(t, 640);
    expect(lines.length).toBe(2);
    for (const l of lines)
      expect(l.length).toBeLessThanOrEqual(Math.floor((640 - 24) / TITLE_CHAR_PX));
    expect(lines.join(' ')).toBe(t);
    expect(wrapTitle('short', 640)).toEqual(['short']);
    expect(wrapTitle('word '.repeat(200), 300)).toHaveLength(3);
  });
});
