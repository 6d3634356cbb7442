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
// Text colours must reach WCAG's 4.5:1 against the backgrounds they are drawn on.
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
  textInk,
} from './palette';
import { TIGON_EVENT_COLORS } from '../tigon/tigonPalette';
import { FLASH_COLORS } from '../webserver/CacheView';

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

describe('the categorical palettes under simulated colour-vision deficiency', () => {
  for (const p of PALETTES) {
    for (const vision of VISIONS) {
      it(`${p.name}: every pair ≥ ΔE00 ${p.min} (${vision ?? 'normal vision'})`, () => {
        expect(new Set(p.colors.map((c) => c.toLowerCase())).size).toBe(p.colors.length);
        const worst = closestPair(p.colors, vision);
        expect(
          worst.deltaE,
          `${worst.a} and ${worst.b} are ΔE00 ${worst.deltaE.toFixed(1)} apart`,
        ).toBeGreaterThanOrEqual(p.min);
      });
    }
  }

  it('the old palette would have failed (the test can fail)', () => {
    const old = ['#4c78a8', '#e8871e', '#3f9b5a', '#9467bd', '#2a9d9a', '#8c6d4f', '#6b6f7a'];
    expect(closestPair(old, 'deuteranopia').deltaE).toBeLessThan(10);
  });
});

/** The custom properties of app.css's :root block. */
function cssVars(): Record<string, string> {
  const css = readFileSync(new URL('../app/app.css', import.meta.url), 'utf8');
  const root = /:root\s*\{([^}]*)\}/.exec(css)![1]!;
  const out: Record<string, string> = {};
  for (const m of root.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)) out[m[1]!] = m[2]!;
  return out;
}

describe('text colours against their backgrounds (WCAG AA, 4.5:1)', () => {
  const v = cssVars();
  const WHITE = '#ffffff';
  const pairs: Array<[string, string, string]> = [
    ['ink on the page', v.ink!, v.bg!],
    ['secondary ink on the page', v['ink-2']!, v.bg!],
    ['muted text on the page', v.muted!, v.bg!],
    ['muted text on a panel', v.muted!, v.panel!],
    ['muted text on the current log row', v.muted!, '#e9f0fb'],
    ['muted text in a code span', v.muted!, '#ecedf0'],
    ['the accent (links) on a panel', v.accent!, v.panel!],
    ['ok text on its tint', v.ok!, v['ok-bg']!],
    ['bad text on its tint', v.bad!, v['bad-bg']!],
    ['warning text on its tint', v.warn!, v['warn-bg']!],
    ['alert text in the diagrams', ALERT_INK, WHITE],
    ['alert text on the bad tint', ALERT_INK, v['bad-bg']!],
  ];
  for (const [what, fg, bg] of pairs) {
    it(`${what}: ${fg} on ${bg}`, () => {
      expect(fg, what).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrastRatio(hexToRgb(fg), hexToRgb(bg))).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('a palette colour used for text is darkened to 4.5:1 on white, keeping dark ones', () => {
    for (const c of [...Object.values(GROUP_COLORS), ...NIC_COLORS, ...SERIES_FALLBACK]) {
      const t = textInk(c);
      expect(contrastRatio(hexToRgb(t), hexToRgb(WHITE)), `${c} → ${t}`).toBeGreaterThanOrEqual(
        4.5,
      );
      if (contrastRatio(hexToRgb(c), hexToRgb(WHITE)) >= 4.5) expect(t).toBe(c.toLowerCase());
    }
  });

  it('labels drawn on categorical fills take the ink with the better contrast', () => {
    const fills = [
      ...Object.values(GROUP_COLORS),
      ...BUS_CATEGORY_COLORS,
      ...TIGON_EVENT_COLORS,
      ...Object.values(CPU_PART_COLORS),
      ...VNIC_STATE_COLORS,
    ];
    for (const f of fills) {
      const ink = inkOn(f);
      const other = ink === INK ? '#ffffff' : INK;
      const c = contrastRatio(hexToRgb(ink), hexToRgb(f));
      expect(c, `${ink} on ${f}`).toBeGreaterThanOrEqual(
        contrastRatio(hexToRgb(other), hexToRgb(f)),
      );
      // Bold labels of 10-12 px: at least 4:1 on every fill of the palettes.
      expect(c, `${ink} on ${f}`).toBeGreaterThanOrEqual(4);
    }
  });
});
