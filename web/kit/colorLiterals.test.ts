// A view's colours come from the token file (kit/palette.ts, whose scheme-following colours are
// theme.css custom properties), so that both colour schemes stay legible: a colour written
// straight into a view would keep its light-scheme value on the dark background. This fails on
// a colour literal (#rgb, #rrggbb, rgb(), hsl()) in any TS/TSX file of web/ but the token file
// and the few listed below, on a hex colour in a stylesheet outside theme.css (and app.css's
// token block), and on a token the token file names that theme.css does not define in both
// schemes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files that may hold colour literals, and why. */
const ALLOWED: Record<string, string> = {
  'kit/palette.ts': 'the token file',
  'kit/colorVision.ts': 'colour arithmetic; a #rrggbb example in its documentation',
  'webserver/cacheGrid.ts': 'a file’s pastel hue, generated from its id (the same in both schemes)',
};

const LITERAL = /#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?\b|\b(?:rgba?|hsla?)\(/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm' && name !== 'node_modules' && name !== 'docs') sources(p, out);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts'))
      out.push(path.relative(WEB, p).split(path.sep).join('/'));
  }
  return out;
}

/** The colour literals of a source text, with their line numbers (comments included). */
export function colourLiterals(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(LITERAL)) {
      // Not a colour: an anchor or a hash route ('#/s/…', '#top') has no hex digits only.
      const before = line.slice(0, m.index);
      if (m[0].startsWith('#') && /[&\w]$/.test(before)) continue;
      out.push(`${i + 1}: ${m[0]}`);
    }
  });
  return out;
}

describe('colours in the views', () => {
  it('no TS/TSX file of web/ but the token file writes a colour literal', () => {
    const found: string[] = [];
    for (const f of sources(WEB)) {
      if (f in ALLOWED) continue;
      for (const hit of colourLiterals(readFileSync(path.join(WEB, f), 'utf8')))
        found.push(`${f}:${hit}`);
    }
    expect(found, 'move these onto kit/palette.ts tokens (theme.css)').toEqual([]);
  });

  it('no stylesheet of web/ but theme.css and app.css’s token block writes a hex colour', () => {
    // Shadows and veils (rgba) are the same in both schemes; a var() fallback is never drawn.
    const CSS_ALLOWED: Record<string, string> = {
      'app/theme.css': 'the tokens, light and dark',
      'tour/presenter.css': 'presenter mode’s high-contrast light tokens',
    };
    const css = (dir: string, out: string[] = []): string[] => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) {
          if (name !== 'wasm' && name !== 'node_modules') css(p, out);
        } else if (name.endsWith('.css')) out.push(path.relative(WEB, p).split(path.sep).join('/'));
      }
      return out;
    };
    const found: string[] = [];
    for (const f of css(WEB)) {
      if (f in CSS_ALLOWED) continue;
      let text = readFileSync(path.join(WEB, f), 'utf8').replace(
        /var\(--[\w-]+,\s*#[0-9a-f]+\)/gi,
        '',
      );
      if (f === 'app/app.css') text = text.slice(text.indexOf('}'));
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/#[0-9a-fA-F]{3,8}\b/g)) found.push(`${f}:${i + 1}: ${m[0]}`);
      });
    }
    expect(found, 'use a theme.css token (var(--c-rrggbb))').toEqual([]);
  });

  it('finds a literal where there is one (the check can fail)', () => {
    expect(colourLiterals(`<rect fill="#233554" />\nstyle={{ stroke: 'rgba(0,0,0,.3)' }}`)).toEqual(
      ['1: #233554', '2: rgba('],
    );
    expect(colourLiterals(`href="#/s/anatomy-of-a-send" id={\`a#\${n}\`}`)).toEqual([]);
  });

  it('every token the token file names is defined by theme.css in both schemes', () => {
    const palette = readFileSync(path.join(WEB, 'kit/palette.ts'), 'utf8');
    const theme = readFileSync(path.join(WEB, 'app/theme.css'), 'utf8');
    const darkAt = theme.indexOf('@media (prefers-color-scheme: dark)');
    const [light, dark] = [theme.slice(0, darkAt), theme.slice(darkAt)];
    const named = new Set([...palette.matchAll(/var\((--c-[0-9a-f]{6})\)/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(10);
    for (const t of named) {
      expect(light, `${t} in the light block`).toMatch(new RegExp(`${t}:\\s*#`));
      expect(dark, `${t} in the dark block`).toMatch(new RegExp(`${t}:\\s*#`));
    }
  });
});
