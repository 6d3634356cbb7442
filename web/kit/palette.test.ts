// The palette stays usable for viewers with a colour-vision deficiency, and text stays readable.
//
// Each categorical palette is seen through Machado et al.'s protanopia, deuteranopia and
// tritanopia simulations; every pair of its colours must stay at least a CIEDE2000 distance
// apart. About 2 is just noticeable and 10 is clearly different at a glance; the thresholds:
// - 10 for the palettes a legend maps colour to meaning (purposes, CPU parts, VNIC states …):
//   Okabe and Ito's set reaches 11 in every vision,
// - 7 for the bus masters (also named in the waveform's owner row),
// - 5 for the eleven bus-cycle categories, which are also told apart by their order in the
//   stack, their labels, and the hatching of turnaround.
// Text colours must reach WCAG's 4.5:1 against the backgrounds they are drawn on. Every check
// runs in both colour schemes: a `var(--…)` token of the palette is resolved to its light value
// (app.css, theme.css's :root) or its dark one (theme.css's prefers-color-scheme: dark blocks).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  closestPair,
  contrastRatio,
  deltaE2000Lab,
  hexToRgb,
  simulateCvd,
  type Deficiency,
} from './colorVision';
import {
  ALERT,
  ALERT_INK,
  BRIDGE_COLOR,
  BUS_CATEGORY_COLORS,
  COMPLETER_COLOR,
  CPU_PART_COLORS,
  CPU_TASK_COLORS,
  DISK_COLOR,
  GROUP_COLORS,
  INK,
  NIC_COLORS,
  SERIES_FALLBACK,
  VNIC_STATE_COLORS,
  WARN,
  inkOn,
  lightHex,
  ON_FILL,
  textInk,
  textInkOnWhite,
} from './palette';
import { TIGON_EVENT_COLORS } from '../tigon/tigonPalette';
import { FLASH_COLORS } from '../webserver/CacheView';

type Scheme = 'light' | 'dark';
const SCHEMES: Scheme[] = ['light', 'dark'];

/** Every `--name: #rrggbb` of a CSS text (the last definition wins). */
function hexVars(css: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of css.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b/g))
    out[m[1]!] = m[2]!.toLowerCase();
  return out;
}
const THEME = readFileSync(new URL('../app/theme.css', import.meta.url), 'utf8');
const APP_CSS = readFileSync(new URL('../app/app.css', import.meta.url), 'utf8');
const DARK_AT = THEME.indexOf('@media (prefers-color-scheme: dark)');
const TOKENS: Record<Scheme, Record<string, string>> = {
  light: {
    ...hexVars(THEME.slice(0, DARK_AT)),
    ...hexVars(/:root\s*\{([^}]*)\}/.exec(APP_CSS)![1]!),
  },
  dark: {
    ...hexVars(THEME.slice(0, DARK_AT)),
    ...hexVars(APP_CSS.split('}')[0]!),
    ...hexVars(THEME.slice(DARK_AT)),
  },
};

/** A palette colour as drawn in the scheme: #rrggbb as it is, var(--x[, fallback]) resolved. */
function resolve(color: string, scheme: Scheme): string {
  const m = /^var\((--[\w-]+)(?:,\s*(#[0-9a-f]{6}))?\)$/i.exec(color);
  if (!m) return color.toLowerCase();
  const v = TOKENS[scheme][m[1]!] ?? m[2];
  if (!v) throw new Error(`${m[1]} is not defined in the ${scheme} scheme`);
  return v;
}

const VISIONS: Array<Deficiency | null> = [null, 'protanopia', 'deuteranopia', 'tritanopia'];

const PALETTES: Array<{ name: string; colors: readonly string[]; min: number }> = [
  { name: 'purposes and alert', colors: [...Object.values(GROUP_COLORS), ALERT], min: 10 },
  { name: 'Tigon events', colors: TIGON_EVENT_COLORS, min: 10 },
  { name: 'chart series', colors: SERIES_FALLBACK, min: 10 },
  { name: 'CPU parts', colors: Object.values(CPU_PART_COLORS), min: 10 },
  { name: 'VNIC states', colors: VNIC_STATE_COLORS, min: 10 },
  { name: 'cache outlines', colors: Object.values(FLASH_COLORS), min: 10 },
  { name: 'host CPU tasks', colors: CPU_TASK_COLORS, min: 10 },
  { name: 'alert, wait, ok', colors: [ALERT, WARN, '#1e7a4a'], min: 10 },
  {
    name: 'bus masters',
    colors: [...NIC_COLORS, BRIDGE_COLOR, COMPLETER_COLOR, DISK_COLOR],
    min: 7,
  },
  { name: 'bus-cycle categories', colors: BUS_CATEGORY_COLORS, min: 5 },
];

describe('the colour arithmetic', () => {
  it('computes CIEDE2000 as Sharma, Wu and Dalal’s test data', () => {
    expect(deltaE2000Lab([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000Lab([50, -1.1848, -84.8006], [50, 0, -82.7485])).toBeCloseTo(1.0, 4);
    expect(deltaE2000Lab([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387])).toBeCloseTo(
      1.2644,
      4,
    );
    expect(deltaE2000Lab([2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514])).toBeCloseTo(
      0.9082,
      4,
    );
  });

  it('makes red and green alike for protanopes and deuteranopes, not for normal vision', () => {
    const red = hexToRgb('#d62728');
    const seen = (d: Deficiency | null) => closestPair(['#d62728', '#2ca02c'], d).deltaE;
    expect(seen(null)).toBeGreaterThan(50);
    expect(seen('deuteranopia')).toBeLessThan(10);
    expect(seen('protanopia')).toBeLessThan(seen(null) / 2);
    // Greys are unchanged by the simulation.
    expect(simulateCvd([128, 128, 128], 'deuteranopia')).toEqual([128, 128, 128]);
    expect(simulateCvd(red, 'protanopia')).not.toEqual(red);
  });

  it('gives WCAG contrast ratios: 21 for black on white, 1 for a colour on itself', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([90, 100, 119], [90, 100, 119])).toBe(1);
    expect(contrastRatio(hexToRgb('#767676'), [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  it('rejects a colour that is not #rrggbb', () => {
    expect(() => hexToRgb('red')).toThrow(/not a #rrggbb colour/);
  });
});

describe.each(SCHEMES)(
  'the categorical palettes under simulated colour-vision deficiency (%s scheme)',
  (scheme) => {
    for (const p of PALETTES) {
      for (const vision of VISIONS) {
        it(`${p.name}: every pair ≥ ΔE00 ${p.min} (${vision ?? 'normal vision'})`, () => {
          const colors = p.colors.map((c) => resolve(c, scheme));
          expect(new Set(colors).size).toBe(p.colors.length);
          const worst = closestPair(colors, vision);
          expect(
            worst.deltaE,
            `${worst.a} and ${worst.b} are ΔE00 ${worst.deltaE.toFixed(1)} apart`,
          ).toBeGreaterThanOrEqual(p.min);
        });
      }
    }
  },
);

describe('the old palette', () => {
  it('would have failed (the test can fail)', () => {
    const old = ['#4c78a8', '#e8871e', '#3f9b5a', '#9467bd', '#2a9d9a', '#8c6d4f', '#6b6f7a'];
    expect(closestPair(old, 'deuteranopia').deltaE).toBeLessThan(10);
  });
});

describe.each(SCHEMES)(
  'text colours against their backgrounds (WCAG AA, 4.5:1, %s scheme)',
  (scheme) => {
    const c = (color: string) => hexToRgb(resolve(color, scheme));
    const pairs: Array<[string, string, string]> = [
      ['ink on the page', 'var(--ink)', 'var(--bg)'],
      ['secondary ink on the page', 'var(--ink-2)', 'var(--bg)'],
      ['muted text on the page', 'var(--muted)', 'var(--bg)'],
      ['muted text on a panel', 'var(--muted)', 'var(--panel)'],
      ['muted text on the current log row', 'var(--muted)', 'var(--c-e9f0fb)'],
      [
        'muted text in a code span',
        'var(--muted)',
        scheme === 'light' ? '#ecedf0' : 'var(--panel)',
      ],
      ['the accent (links) on a panel', 'var(--accent)', 'var(--panel)'],
      ['ok text on its tint', 'var(--ok)', 'var(--ok-bg)'],
      ['bad text on its tint', 'var(--bad)', 'var(--bad-bg)'],
      ['warning text on its tint', 'var(--warn)', 'var(--warn-bg)'],
      ['alert text in the diagrams', ALERT_INK, 'var(--panel)'],
      ['alert text on the bad tint', ALERT_INK, 'var(--bad-bg)'],
      ['secondary ink (legend glyphs) on a panel', 'var(--ink-2)', 'var(--panel)'],
    ];
    for (const [what, fg, bg] of pairs) {
      it(`${what}: ${fg} on ${bg}`, () => {
        expect(contrastRatio(c(fg), c(bg)), what).toBeGreaterThanOrEqual(4.5);
      });
    }

    it('a palette colour used for text reaches 4.5:1 on the panels, in its own hue', () => {
      const hues = [
        ...Object.values(GROUP_COLORS),
        ...NIC_COLORS,
        ...SERIES_FALLBACK,
        ALERT,
        WARN,
        BRIDGE_COLOR,
        COMPLETER_COLOR,
        DISK_COLOR,
      ];
      for (const h of hues) {
        const t = textInk(h);
        expect(t, `${h}: a theme.css token`).toMatch(
          /^var\(--(text|c)-[0-9a-f]{6}(, #[0-9a-f]{6})?\)$/,
        );
        // On panels and the unit boxes' tints (the dark page is darker still than its panels).
        for (const bg of ['var(--panel)', 'var(--bg)', 'var(--c-eef1f5)', 'var(--c-f6f8fb)'])
          expect(
            contrastRatio(c(t), c(bg)),
            `${h} → ${resolve(t, scheme)} on ${bg}`,
          ).toBeGreaterThanOrEqual(4.5);
        // Light: never lighter than darkened to 4.5:1 on white (dark colours keep their value).
        if (scheme === 'light')
          expect(contrastRatio(c(t), [255, 255, 255])).toBeGreaterThanOrEqual(
            contrastRatio(hexToRgb(textInkOnWhite(lightHex(h))), [255, 255, 255]),
          );
      }
    });

    it('a scheme-following colour used for text is itself, or the secondary ink', () => {
      for (const t of [textInk('var(--c-7a8494)'), textInk('var(--c-233554)')])
        expect(contrastRatio(c(t), c('var(--panel)')), t).toBeGreaterThanOrEqual(4.5);
    });

    it('labels drawn on the palettes’ fills take an ink of 4:1 or more, the better one in light', () => {
      const fills = [
        ...Object.values(GROUP_COLORS),
        ...BUS_CATEGORY_COLORS,
        ...TIGON_EVENT_COLORS,
        ...Object.values(CPU_PART_COLORS),
        ...VNIC_STATE_COLORS,
        'var(--c-233554)',
        'var(--c-3b4d7a)',
        'var(--c-f0b7c0)',
      ];
      for (const f of fills) {
        const ink = inkOn(f);
        const ratio = contrastRatio(c(ink), c(f));
        if (scheme === 'light') {
          // The other choice: white or INK on a categorical fill, the panel's or the page's
          // ink on a scheme-following one.
          const other = f.startsWith('var(')
            ? ink === 'var(--ink)'
              ? 'var(--panel)'
              : 'var(--ink)'
            : ink === INK
              ? ON_FILL
              : INK;
          expect(ratio, `${ink} on ${f}`).toBeGreaterThanOrEqual(contrastRatio(c(other), c(f)));
        }
        // Bold labels of 10-12 px: at least 4:1 on every fill of the palettes.
        expect(
          ratio,
          `${resolve(ink, scheme)} on ${resolve(f, scheme)} (${f})`,
        ).toBeGreaterThanOrEqual(4);
      }
    });
  },
);
