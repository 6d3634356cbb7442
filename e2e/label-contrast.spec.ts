// Every label of the SVG views reaches WCAG's 4.5:1 against what it is drawn on, in the colour
// scheme the run uses: light with the main config, dark with e2e/dark.config.ts
// (npx playwright test -c e2e/dark.config.ts e2e/label-contrast.spec.ts). axe does not measure
// SVG text, and a label inked for white stays dark on the dark panels; this does, on a preset of
// each family (send path, Tigon, PCI, web server, SINIC), an A/B page and the gallery. A label's
// background is the topmost filled shape or HTML background under its centre (patterns, i.e.
// hatching, are skipped), translucent layers blended; a label under the sticky playback bar is out
// of sight and skipped.
import { expect, test, type Page } from '@playwright/test';

const PAGES = [
  '#/',
  '#/s/anatomy-of-a-send',
  '#/s/tigon-udp-send',
  '#/s/tigon-one-or-two-cpus',
  '#/s/pci-two-nics',
  '#/s/web-anatomy-of-a-request',
  '#/s/sinic-anatomy',
  '#/ab/tigon-one-or-two-cpus',
];

/** The SVG labels in the viewport under 4.5:1, as "ratio 'text' fg on bg in view". */
function lowContrastLabels(): string[] {
  type Rgba = [number, number, number, number];
  const parse = (s: string): Rgba | null => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(s);
    return m ? [+m[1]!, +m[2]!, +m[3]!, m[4] === undefined ? 1 : +m[4]] : null;
  };
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const lum = (c: Rgba) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a: Rgba, b: Rgba) => {
    const [x, y] = [lum(a), lum(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const over = (top: Rgba, below: Rgba): Rgba => [
    top[0] * top[3] + below[0] * (1 - top[3]),
    top[1] * top[3] + below[1] * (1 - top[3]),
    top[2] * top[3] + below[2] * (1 - top[3]),
    1,
  ];
  const SHAPES = new Set(['rect', 'path', 'circle', 'ellipse', 'polygon']);
  const page = parse(getComputedStyle(document.documentElement).backgroundColor);
  const paper: Rgba = page && page[3] > 0 ? page : [255, 255, 255, 1];

  /** Under a sticky or fixed part of the page (the playback bar) that covers the label. */
  function covers(el: Element, label: Element): boolean {
    if (el.contains(label)) return false;
    for (let a: Element | null = el; a; a = a.parentElement) {
      const p = getComputedStyle(a).position;
      if (p === 'sticky' || p === 'fixed') return true;
    }
    return false;
  }

  /** What the label sits on, or null on a pattern (hatching) or where it is out of sight. */
  function background(x: number, y: number, label: Element): Rgba | null {
    const layers: Rgba[] = [];
    let first = true;
    for (const el of document.elementsFromPoint(x, y)) {
      if (el === label || label.contains(el)) continue;
      if (first && covers(el, label)) return null;
      first = false;
      const cs = getComputedStyle(el);
      let c: Rgba | null = null;
      if (el instanceof SVGElement) {
        if (!SHAPES.has(el.tagName)) continue;
        if (cs.fill.startsWith('url(')) return null;
        c = parse(cs.fill);
        if (c) c[3] *= Number(cs.fillOpacity) * Number(cs.opacity);
      } else c = parse(cs.backgroundColor);
      if (!c || c[3] <= 0) continue;
      layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reduceRight<Rgba>((below, top) => over(top, below), paper);
  }

  const out: string[] = [];
  for (const t of document.querySelectorAll('svg text')) {
    const r = t.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom < 0 || r.top > innerHeight) continue;
    if (r.right < 0 || r.left > innerWidth) continue;
    const cs = getComputedStyle(t);
    if (cs.visibility === 'hidden' || Number(cs.opacity) === 0) continue;
    // Hidden from sight by an ancestor (a collapsed group, a zero-opacity layer).
    if (t.closest('[opacity="0"], [visibility="hidden"]')) continue;
    const fg = parse(cs.fill);
    if (!fg) continue;
    const bg = background(r.left + r.width / 2, r.top + r.height / 2, t);
    if (!bg) continue;
    const ink = fg[3] < 1 ? over(fg, bg) : fg;
    const k = ratio(ink, bg);
    if (k < 4.5) {
      const view = t.closest('[data-testid]')?.getAttribute('data-testid') ?? '?';
      const rgb = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(',')})`;
      out.push(
        `${k.toFixed(2)} '${(t.textContent ?? '').slice(0, 30)}' ${rgb(ink)} on ${rgb(bg)} in ${view}`,
      );
    }
  }
  return out;
}

async function settle(page: Page, route: string): Promise<void> {
  if (route.startsWith('#/ab/')) {
    for (const side of ['a', 'b'])
      await expect(page.getByTestId(`ab-side-${side}`)).toHaveAttribute('data-status', 'done', {
        timeout: 90_000,
      });
  } else if (route.startsWith('#/s/')) {
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
      timeout: 90_000,
    });
  } else {
    await expect(page.locator('[data-testid^="card-"]').first()).toBeVisible();
    return;
  }
  // A dozen events in, so tokens, frames and busy units are drawn.
  for (let i = 0; i < 12; i++) await page.getByTestId('step-forward').click();
}

for (const route of PAGES) {
  test(`${route}: every SVG label reaches 4.5:1 on what it is drawn on`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`./${route}`);
    await settle(page, route);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const found = new Set<string>();
    let labels = 0;
    for (let y = 0; y < height; y += 800) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      labels += await page.locator('svg text').count();
      for (const line of await page.evaluate(lowContrastLabels)) found.add(line);
    }
    expect(labels, 'the page draws SVG labels').toBeGreaterThan(route === '#/' ? -1 : 20);
    expect([...found], `labels under 4.5:1 on ${route}`).toEqual([]);
  });
}

test('the check finds a dark label on a dark panel (it can fail)', async ({ page }) => {
  await page.setContent(
    `<div style="background:#1b1f29;padding:20px"><svg width="200" height="40">` +
      `<text x="10" y="25" fill="#3c4658" font-size="16">inked for white</text>` +
      `<rect x="100" y="5" width="90" height="30" fill="#F0E442"></rect>` +
      `<text x="110" y="25" fill="#000000" font-size="16">fine</text></svg></div>`,
  );
  const found = await page.evaluate(lowContrastLabels);
  expect(found).toHaveLength(1);
  expect(found[0]).toContain("'inked for white'");
});
