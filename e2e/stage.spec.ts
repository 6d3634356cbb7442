// The stage and the page at every size, on every preset: (a) no label of the diagram, firmware,
// rings or A/B views overflows its box at 1440×900; (b) nor on the A/B pages at half width
// (720 px); (c) the stage (the main moving view) and the playback controls are in the window
// together while playing at 1440×900, 1280×720 and 1024×768; (d) in presenter mode at 1280×720
// every tour step shows the stage on at least half of the screen; (e) no page scrolls sideways
// at 390×844 or 800×600; (f) in presenter mode the view a tour step shows draws its labels at
// 18 px or more on screen. One page load per preset and page kind, resized in place, with the
// checks batched inside the page, so the whole file runs in a few minutes on two cores.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const IDS = readdirSync('scenarios')
  .filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json')
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

test.describe.configure({ mode: 'parallel' });

/** Whether the A/B page of a preset runs B: its compare block sets B apart from A (ab.ts). */
function runsB(id: string): boolean {
  const c = JSON.parse(readFileSync(`scenarios/${id}.json`, 'utf8')).compare;
  return !!c?.a && !!c?.b && JSON.stringify(c.a.set ?? {}) !== JSON.stringify(c.b.set ?? {});
}

/**
 * Opens a page and waits for its run (or, for the access-log preset, for its prompt); an A/B
 * page for A's run and, when B runs, B's, then the frames that draw them. Polled in the page.
 */
async function open(page: Page, route: string, bRuns = false) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`./${route}`);
  await page.waitForFunction(
    (bRuns) => {
      const s = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status');
      const ab = document.querySelector('[data-testid="ab-page"]');
      const drawn = '[data-testid^="ab-row-"], [data-testid="ab-results"], [data-testid="ab-diff"]';
      if (ab) {
        const side = (x: string) =>
          document.querySelector(`[data-testid="ab-side-${x}"]`)?.getAttribute('data-status');
        // Both runs in when B runs (the access-log preset's A waits for a log instead).
        if (bRuns && (side('a') !== 'done' || side('b') !== 'done')) return false;
        // Drawn, or (a scenario with no view to set side by side, B not run yet) A's run done.
        const runs = [...ab.querySelectorAll('[data-testid="run-status"]')];
        return (
          !!ab.querySelector(drawn) ||
          (runs.length > 0 && runs.every((r) => r.getAttribute('data-status') === 'done'))
        );
      }
      return s === 'done' || (s === 'idle' && !!document.querySelector('.panel-access-log'));
    },
    bRuns,
    { timeout: 50_000, polling: 100 },
  );
  // The views draw what the runs hand them within a few frames.
  await page.evaluate(frames);
}

/** Three frames: the views measure their width, the stage fits them, the page settles. */
const frames = () =>
  new Promise((r) =>
    requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))),
  );

async function resize(page: Page, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.evaluate(frames);
}

/**
 * The labels inside `selector` that overflow their box: an SVG text whose bounding box leaves
 * the smallest rect (a child of one of its groups) holding its anchor, or leaves its drawing;
 * an HTML element that clips its text (overflow hidden or an ellipsis). Screen-reader-only text
 * and the event log (whose cells shorten long field lists on purpose, with the whole list in
 * their tooltip) are not labels.
 */
function overflows(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    type Box = { x: number; y: number; width: number; height: number };
    const inside = (a: Box, b: Box) =>
      a.x >= b.x - 1 &&
      a.y >= b.y - 1 &&
      a.x + a.width <= b.x + b.width + 1 &&
      a.y + a.height <= b.y + b.height + 1;
    for (const root of document.querySelectorAll(sel)) {
      for (const svg of root.querySelectorAll('svg')) {
        const sr = svg.getBoundingClientRect();
        if (sr.width === 0) continue;
        for (const t of svg.querySelectorAll('text')) {
          const text = (t.textContent ?? '').trim();
          if (!text || getComputedStyle(t).visibility === 'hidden') continue;
          const bb = t.getBBox();
          if (!bb.width) continue;
          const ax = Number(t.getAttribute('x') ?? bb.x);
          const ay = bb.y + bb.height / 2;
          let box: Box | null = null;
          for (let g = t.parentElement; g && g !== svg.parentElement && !box; g = g.parentElement) {
            for (const r of g.children) {
              if (!(r instanceof SVGRectElement)) continue;
              // A box is drawn: an invisible hit area is not one.
              const rs = getComputedStyle(r);
              const seen = (c: string) => c !== 'none' && !/rgba\(.*, 0\)|transparent/.test(c);
              if (!seen(rs.fill) && !seen(rs.stroke)) continue;
              const rb = r.getBBox();
              if (rb.width < 4 || rb.height < 4) continue;
              const holds =
                ax >= rb.x - 0.5 &&
                ax <= rb.x + rb.width + 0.5 &&
                ay >= rb.y &&
                ay <= rb.y + rb.height;
              if (holds && (!box || rb.width * rb.height < box.width * box.height)) box = rb;
            }
          }
          if (box && !inside(bb, box)) out.push(`"${text.slice(0, 40)}" overflows its box`);
          const tr = t.getBoundingClientRect();
          if (tr.left < sr.left - 1 || tr.right > sr.right + 1)
            out.push(`"${text.slice(0, 40)}" leaves its drawing`);
        }
      }
      for (const el of root.querySelectorAll<HTMLElement>('*')) {
        if (el.closest('svg, .sr-only, .ab-sr-only, .panel-events')) continue;
        const cs = getComputedStyle(el);
        if (cs.overflowX === 'auto' || cs.overflowX === 'scroll') continue;
        if (cs.overflowX === 'visible' && cs.textOverflow !== 'ellipsis') continue;
        if (el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim())
          out.push(`<${el.tagName.toLowerCase()} class="${el.className}"> clips its text`);
      }
    }
    return [...new Set(out)];
  }, selector);
}

const VIEWS = '.panel-diagram, .panel-firmware, .panel-rings, .panel-profile';

/**
 * No sideways scroll at 390×844 and 800×600; on an A/B page the knob chips also stay inside
 * their row and their row inside its side (they wrap there, on a phone too). One evaluate per size.
 */
async function noSidewaysScroll(page: Page, route: string) {
  for (const [w, h] of [
    [390, 844],
    [800, 600],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    const m = await page.evaluate(async () => {
      await new Promise((r) =>
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))),
      );
      const out: string[] = [];
      const within = (a: Element, b: Element | null) => {
        if (!b) return true;
        const [x, y] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        return x.width === 0 || (x.left >= y.left - 1 && x.right <= y.right + 1);
      };
      for (const row of document.querySelectorAll('.ab-page [data-testid="override-chips"]')) {
        if (!within(row, row.closest('[data-testid="knob-panel"]')))
          out.push(`the knob chips' row leaves its panel`);
        for (const chip of row.querySelectorAll('[data-testid="override-chip"]'))
          if (!within(chip, row)) out.push(`chip "${chip.textContent}" leaves its row`);
      }
      return { sw: document.documentElement.scrollWidth, chips: out };
    });
    expect(m.sw, `${route} at ${w}×${h} scrolls sideways`).toBeLessThanOrEqual(w);
    expect(m.chips, `${route} at ${w}×${h}`).toEqual([]);
  }
}

/** The stage's view and the playback bar, both inside the window, while playing. */
async function stageInView(page: Page, id: string) {
  for (const [w, h] of [
    [1440, 900],
    [1280, 720],
    [1024, 768],
  ] as const) {
    await resize(page, w, h);
    // From the top of the page, press Play (pausing first if the clock still runs).
    const measure = (start: boolean) =>
      page.evaluate(async (start) => {
        const play = document.querySelector<HTMLButtonElement>('[data-testid="play"]')!;
        if (start) {
          window.scrollTo(0, 0);
          if (play.getAttribute('aria-pressed') === 'true') play.click();
          await new Promise((r) => requestAnimationFrame(r));
          play.click();
        }
        await new Promise((r) =>
          requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))),
        );
        const r = (s: string) => document.querySelector(s)?.getBoundingClientRect() ?? null;
        const bar = r('.stage .playback')!;
        const view = r('.stage-view');
        const fits = (b: DOMRect | null) => !b || (b.top >= -1 && b.bottom <= innerHeight + 1);
        return JSON.stringify({
          fits: fits(bar) && fits(view),
          bar: [bar.top, bar.bottom].map(Math.round),
          view: view && [view.top, view.bottom].map(Math.round),
        });
      }, start);
    let m = await measure(true);
    // The stage fits itself to the new size within a few frames.
    for (let i = 0; i < 10 && !m.includes('"fits":true'); i++) m = await measure(false);
    expect(m, `${id} at ${w}×${h}: the stage and the playback bar in the window`).toContain(
      '"fits":true',
    );
  }
  await page.evaluate(() => {
    const play = document.querySelector<HTMLButtonElement>('[data-testid="play"]')!;
    if (play.getAttribute('aria-pressed') === 'true') play.click();
  });
}

/**
 * Presenter mode at 1280×720, on every step of every tour: the playback bar and the view the
 * step shows (the part of it above the tour dock) cover at least half of the screen, and that
 * view's labels are drawn at 18 px or more: the median SVG label (its font size × the drawing's
 * scale on screen), or for a view drawn in HTML the median text (font size × zoom).
 */
async function presenterSteps(page: Page, id: string) {
  await resize(page, 1280, 720);
  await page.keyboard.press('p');
  await page.getByTestId('tour-start').click();
  const count = page.getByTestId('tour-count');
  await expect(count).toBeVisible();
  const steps = Number(/of (\d+)/.exec((await count.textContent()) ?? '')?.[1] ?? 1);
  const labels: string[] = [];
  for (let k = 1; k <= steps; k++) {
    const measure = (next: boolean) =>
      page.evaluate(
        async ([next, k]) => {
          if (next) document.querySelector<HTMLButtonElement>('[data-testid="tour-next"]')!.click();
          await new Promise((r) =>
            requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))),
          );
          await new Promise((r) =>
            requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))),
          );
          const W = innerWidth;
          const H = innerHeight;
          const step = document.querySelector('[data-testid="tour-count"]')?.textContent ?? '';
          const dock = document.querySelector('[data-testid="tour-dock"]')!.getBoundingClientRect();
          const bar = document.querySelector('.playback')!.getBoundingClientRect();
          const clip = (r: DOMRect, bottom: number) =>
            Math.max(0, Math.min(r.right, W) - Math.max(r.left, 0)) *
            Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, bar.bottom));
          // The view panel the step shows: the one with the most room on screen.
          let view = 0;
          let panel: Element | null = null;
          for (const p of document.querySelectorAll('.scenario .panel')) {
            const a = clip(p.getBoundingClientRect(), dock.top);
            // Results and checks are the stage only of a scenario without a moving view.
            const secondary = /panel-(results|checks)/.test(p.className);
            if (a > view && (!secondary || !document.querySelector('.stage-view')))
              [view, panel] = [a, p];
          }
          const barArea =
            Math.min(bar.width, W) * Math.max(0, Math.min(bar.bottom, H) - Math.max(bar.top, 0));
          const sizes: number[] = [];
          for (const t of panel?.querySelectorAll('svg text') ?? []) {
            const m = (t as SVGTextElement).getScreenCTM();
            if (m && t.textContent?.trim() && t.getClientRects().length)
              sizes.push(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
          }
          if (sizes.length === 0 && panel) {
            for (const el of panel.querySelectorAll('*')) {
              if (el.closest('svg, .sr-only')) continue;
              const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
              if (!own || el.getClientRects().length === 0) continue;
              // getComputedStyle gives the font size before zoom: multiply the zooms in.
              let z = 1;
              for (let a: Element | null = el; a; a = a.parentElement)
                z *= parseFloat(getComputedStyle(a).zoom) || 1;
              sizes.push(parseFloat(getComputedStyle(el).fontSize) * z);
            }
          }
          sizes.sort((x, y) => x - y);
          const label = sizes.length ? sizes[Math.floor(sizes.length / 2)]! : 0;
          const share = (view + barArea) / (W * H);
          return {
            ok: step.includes(`Step ${k} of`) && share >= 0.5 && label >= 18,
            step,
            share: Number(share.toFixed(3)),
            label: Number(label.toFixed(1)),
            name: panel?.className ?? '',
          };
        },
        [next, k] as const,
      );
    let m = await measure(k > 1);
    // The tour scrolls to the step's view and presenter mode magnifies it within a few frames.
    for (let i = 0; i < 8 && !m.ok; i++) m = await measure(false);
    expect(m.step, `${id} step ${k}`).toContain(`Step ${k} of`);
    expect(
      m.share,
      `${id} step ${k} (${m.name}): the stage's share of the screen`,
    ).toBeGreaterThanOrEqual(0.5);
    expect(m.label, `${id} step ${k} (${m.name}): median label size, px`).toBeGreaterThanOrEqual(
      18,
    );
    labels.push(`${m.label}`);
  }
  test.info().annotations.push({
    type: 'median label size per step (px)',
    description: labels.join(', '),
  });
}

for (const id of IDS) {
  test(`preset ${id}: labels fit, the stage is in view, no sideways scroll, presenter mode`, async ({
    page,
  }) => {
    // One page for five checks and a walk through the tour: more than one page's minute.
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, `#/s/${id}`);
    expect(await overflows(page, VIEWS), `${id} at 1440×900`).toEqual([]);
    // Nothing moves in a scenario without a trace view, nor before an access log is given.
    if ((await page.locator('.stage-view').count()) > 0 && id !== 'web-access-log')
      await stageInView(page, id);
    await noSidewaysScroll(page, `#/s/${id}`);
    // A page still waiting for its input (an access log to replay) has nothing to present yet.
    const ran = (await page.getByTestId('run-status').getAttribute('data-status')) === 'done';
    if (ran && (await page.getByTestId('tour-start').count()) > 0) await presenterSteps(page, id);
  });

  test(`A/B ${id}: labels fit at full and half width, no sideways scroll`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, `#/ab/${id}`, runsB(id));
    const ab = '[data-testid="ab-page"]';
    expect(await overflows(page, ab), `A/B ${id} at 1440×900`).toEqual([]);
    await resize(page, 720, 900);
    expect(await overflows(page, ab), `A/B ${id} at 720×900`).toEqual([]);
    await noSidewaysScroll(page, `#/ab/${id}`);
  });
}

test('the gallery does not scroll sideways', async ({ page }) => {
  await page.goto('./#/');
  await expect(page.locator('.card').first()).toBeVisible();
  await noSidewaysScroll(page, '#/');
});

test('a view that lays itself out to its width settles at one zoom while playing', async ({
  page,
}) => {
  // The NIC cache's grid widens when the stage zooms it out, and so gets shorter: the stage
  // once zoomed it in and out on alternate frames, repainting every slot each time.
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, '#/s/web-replacement-and-blocks');
  await page.waitForTimeout(2500); // the view settles from its first fits
  await page.getByTestId('play').click();
  const zooms = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const seen: string[] = [];
        const tick = () => {
          seen.push(document.querySelector<HTMLElement>('.stage-view')?.style.zoom ?? '');
          if (seen.length < 40) requestAnimationFrame(tick);
          else resolve(seen);
        };
        requestAnimationFrame(tick);
      }),
  );
  expect(new Set(zooms).size).toBe(1);
});
