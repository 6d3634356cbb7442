// The timeline and the request path draw cause and effect from the core's cause ids only: they
// keep no copy of the firmware's dispatch (which DMAs a handler path queues, which completion
// follows), no assumed queue order, and read no positional trace field.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../${name}`, import.meta.url)), 'utf8');

describe.each(['timeline/lanes.ts', 'webserver/requestPath.ts'])('%s', (name) => {
  const text = source(name);

  it('holds no firmware tables nor order-based pairing', () => {
    for (const banned of [
      /PATH_DMAS|PATH_DONE/,
      /\bTIGON_PATHS\[[^\]]*\]\s*===/,
      /dmaQueue|dmaDoneFifo|bdFetches|pendingMailbox|pendingRaise|indexDone/,
      /n-th|nth DMA/i,
    ])
      expect(text, String(banned)).not.toMatch(banned);
  });

  it('reads no positional trace field', () => {
    expect(text).not.toMatch(/\.(a|b|c|d|e)\[/);
    expect(text).not.toMatch(/\{[^}]*\b(a|b|c|d|e)\b[^}]*\}\s*=\s*trace\b/);
  });
});
