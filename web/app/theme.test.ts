// The dark palette's text tokens reach WCAG's 4.5:1 on the dark backgrounds, as the light ones
// do on theirs (axe checks the rendered pages: e2e/dark.config.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contrastRatio, hexToRgb } from '../kit/colorVision';

const APP = path.dirname(fileURLToPath(import.meta.url));

function tokens(css: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of css.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)) out[m[1]!] = m[2]!;
  return out;
}

const theme = readFileSync(path.join(APP, 'theme.css'), 'utf8');
const dark = tokens(theme.slice(theme.indexOf('/* The named tokens')));
const light = tokens(readFileSync(path.join(APP, 'app.css'), 'utf8').split('}')[0]!);

describe.each([
  ['light', light],
  ['dark', dark],
])('%s scheme', (_name, t) => {
  for (const fg of ['--ink', '--ink-2', '--muted', '--accent'])
    for (const bg of ['--bg', '--panel'])
      it(`${fg} on ${bg}`, () => {
        expect(contrastRatio(hexToRgb(t[fg]!), hexToRgb(t[bg]!))).toBeGreaterThanOrEqual(4.5);
      });
  it('--on-navy on --navy, --bad on --bad-bg, --warn on --warn-bg', () => {
    for (const [fg, bg] of [
      ['--on-navy', '--navy'],
      ['--bad', '--bad-bg'],
      ['--warn', '--warn-bg'],
      ['--ok', '--ok-bg'],
    ])
      expect(
        contrastRatio(hexToRgb(t[fg]!), hexToRgb(t[bg]!)),
        `${fg} on ${bg}`,
      ).toBeGreaterThanOrEqual(4.5);
  });
});
