// Accessibility: axe-core finds no serious or critical violation on the gallery, on a scenario
// page of each family once its run is done and on an A/B page; every control is reached by Tab
// and shows a focus ring; each main view describes its state at the cursor for screen readers;
// and prefers-reduced-motion stops transitions, animations and smooth scrolling. In the dark
// scheme: npx playwright test -c e2e/dark.config.ts e2e/a11y.spec.ts
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** Runs axe on the page and fails, listing them, on serious or critical violations. */
export async function expectNoSeriousViolations(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const lines = bad.flatMap((v) => [
    `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? '' : 's'}; ${v.helpUrl})`,
    ...v.nodes
      .slice(0, 8)
      .map(
        (n) =>
          `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`,
      ),
  ]);
  expect(lines, `${name}: serious or critical accessibility violations`).toEqual([]);
}

async function runDone(page: Page): Promise<void> {
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
}

/** One scenario page of each family: the send path, the Tigon, PCI, the web server, SINIC. */
const FAMILY_PAGES = [
  'anatomy-of-a-send',
  'tigon-udp-send',
  'pci-dma-read',
  'web-nasa-cache',
  'web-anatomy-of-a-request',
  'sinic-anatomy',
  'sinic-zero-copy',
];

test('the gallery has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-testid^="card-"]').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'gallery');
});

for (const id of FAMILY_PAGES) {
  test(`${id}: no serious or critical accessibility violation after the run`, async ({ page }) => {
    // axe walks every node: the web presets' timeline draws thousands, slow on a busy machine.
    test.setTimeout(150_000);
    await page.goto(`./#/s/${id}`);
    await runDone(page);
    // A few events in, so the views draw moving parts, not only their empty start.
    for (let i = 0; i < 3; i++) await page.getByTestId('step-forward').click();
    await expectNoSeriousViolations(page, id);
  });
}

test('an A/B page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('./#/ab/tigon-one-or-two-cpus');
  for (const side of ['a', 'b'])
    await expect(page.getByTestId(`ab-side-${side}`)).toHaveAttribute('data-status', 'done', {
      timeout: 90_000,
    });
  await expectNoSeriousViolations(page, 'A/B page');
});

// Presenter mode (a tour running, at projector size) and embed mode (no gallery chrome).
const MODE_PAGES: Array<{ name: string; open: (page: Page) => Promise<void> }> = [
  {
    name: 'presenter mode',
    open: async (page) => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto('./#/s/anatomy-of-a-send');
      await runDone(page);
      await page.getByTestId('presenter-toggle').click();
      await expect(page.locator('html')).toHaveClass(/presenter-mode/);
    },
  },
  {
    name: 'embed mode',
    open: async (page) => {
      await page.goto('./?embed=1#/s/anatomy-of-a-send');
    },
  },
];

for (const mode of MODE_PAGES) {
  test(`${mode.name}: no serious or critical accessibility violation`, async ({ page }) => {
    await mode.open(page);
    await runDone(page);
    await expectNoSeriousViolations(page, mode.name);
  });
}

/** The element that has focus: a short name, and whether a focus indicator is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const cs = getComputedStyle(el);
    const shadow = cs.boxShadow;
    // A box-shadow counts only when focus changes it (some controls carry one anyway).
    el.blur();
    const shadowBlurred = getComputedStyle(el).boxShadow;
    el.focus();
    const ring =
      (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1) ||
      (shadow !== 'none' && shadow !== shadowBlurred);
    // A wrapper that draws the ring for its input (the knob boxes use :focus-within).
    const wrap = el.parentElement ? getComputedStyle(el.parentElement) : null;
    const wrapRing = !!wrap && wrap.outlineStyle !== 'none' && parseFloat(wrap.outlineWidth) >= 1;
    const name =
      el.getAttribute('data-testid') ??
      el.getAttribute('aria-label') ??
      (el.textContent ?? '').trim().slice(0, 40);
    return { tag: el.tagName.toLowerCase(), name, ring: ring || wrapRing };
  });
}

test('Tab reaches the controls in order, each with a visible focus ring', async ({ page }) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await runDone(page);
  const seen: Array<{ tag: string; name: string; ring: boolean }> = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f) seen.push(f);
  }
  const names = seen.map((f) => f.name);
  // The page's own controls come in reading order: brand, nav, tools, knobs, playback.
  const order = ['nicsim', 'open-file', 'step-back', 'play', 'step-forward', 'scrub', 'speed'];
  const at = order.map((n) => names.findIndex((x) => x.startsWith(n)));
  expect(
    at.every((i) => i >= 0),
    `focus order: ${names.join(' | ')}`,
  ).toBe(true);
  expect([...at].sort((p, q) => p - q)).toEqual(at);
  const noRing = seen.filter((f) => !f.ring);
  expect(noRing, 'focused elements without a visible focus ring').toEqual([]);
});

test('the playback runs from the keyboard alone', async ({ page }) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await runDone(page);
  const time = async () => Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
  const t0 = await time();
  await page.getByTestId('step-forward').focus();
  await page.keyboard.press('Enter');
  await expect.poll(time).toBeGreaterThan(t0);
  await page.getByTestId('play').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

test('a sweep chart is read from the keyboard: arrows move along the swept values', async ({
  page,
}) => {
  await page.goto('./#/s/tigon-one-or-two-cpus');
  await runDone(page);
  const svg = page.getByTestId('sweep-chart').locator('svg.chart-svg');
  await svg.focus();
  const tip = page.getByTestId('chart-tooltip');
  await expect(tip).toBeVisible();
  const first = await tip.locator('.tooltip-title').textContent();
  await page.keyboard.press('ArrowRight');
  await expect(tip.locator('.tooltip-title')).not.toHaveText(first ?? '');
  await page.keyboard.press('End');
  await expect(tip.locator('.tooltip-title')).toHaveText('1,472 B');
  await expect(tip).toContainText('938 Mb/s ± 5%');
  // The cursor did not move: the arrows belonged to the chart.
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
});

test('a request’s timeline steps are buttons: Enter moves the cursor to the step', async ({
  page,
}) => {
  await page.goto('./#/s/web-anatomy-of-a-request');
  await runDone(page);
  const time = async () => Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
  const steps = page.getByTestId('request-timeline').locator('[data-step][role="button"]');
  expect(await steps.count()).toBeGreaterThan(3);
  const last = steps.last();
  await expect(last).toHaveAttribute('aria-label', /; go to /);
  const t0 = await time();
  await last.focus();
  await page.keyboard.press('Enter');
  await expect.poll(time).not.toBe(t0);
});

test('each main view describes its state at the cursor for screen readers', async ({ page }) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await runDone(page);
  const rings = page.getByTestId('view-description-rings');
  await expect(rings).toHaveAttribute('aria-live', 'polite');
  await expect(rings).toContainText(
    /Descriptor rings: Send ring: \d+ of \d+ descriptors \(packets to send\), producer index \d+, consumer \d+/,
  );
  // Hidden from sight, not from assistive technology.
  expect(await rings.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
  const diagram = page.getByTestId('view-description-diagram');
  await expect(diagram).toContainText(/^System: System at /);
  const before = await rings.textContent();
  await page.getByTestId('scrub').fill(String(await page.getByTestId('scrub').getAttribute('max')));
  await expect(rings).not.toHaveText(before ?? '');

  await page.goto('./#/s/sinic-anatomy');
  await runDone(page);
  await expect(page.getByTestId('view-description-rxpath')).toContainText(/Packet \d+/);
  await expect(page.getByTestId('view-description-vnics')).toContainText(/VNICs?/);
  await expect(page.getByTestId('view-description-cpu')).toContainText(/driver \d+%/);
});

test.describe('prefers-reduced-motion', () => {
  /** Computed motion styles of an element of the class, added to the page for the check. */
  async function motion(page: Page, className: string) {
    return page.evaluate((cls) => {
      const el = document.createElement('div');
      el.className = cls;
      document.body.append(el);
      const cs = getComputedStyle(el);
      const out = {
        animationName: cs.animationName,
        animationDuration: cs.animationDuration,
        transitionDuration: cs.transitionDuration,
        scroll: getComputedStyle(document.documentElement).scrollBehavior,
      };
      el.remove();
      return out;
    }, className);
  }

  test('with reduce: no transition, no animation, no smooth scrolling, no autoplay', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('./');
    const card = page.locator('[data-testid^="card-"]').first();
    await expect(card).toBeVisible();
    expect(await card.evaluate((el) => getComputedStyle(el).transitionDuration)).toMatch(
      /^0s(, 0s)*$/,
    );
    const spinner = await motion(page, 'spinner');
    expect(spinner.animationName === 'none' || spinner.animationDuration === '0s').toBe(true);
    expect((await motion(page, 'placeholder-shape')).animationName).toBe('none');
    expect(spinner.scroll).toBe('auto');
    await page.goto('./#/s/anatomy-of-a-send');
    await runDone(page);
    const btn = page.getByTestId('step-forward');
    expect(await btn.evaluate((el) => getComputedStyle(el).transitionDuration)).toMatch(
      /^0s(, 0s)*$/,
    );
    await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  });

  test('without it the same elements do move (the check above can fail)', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('./');
    const card = page.locator('[data-testid^="card-"]').first();
    await expect(card).toBeVisible();
    expect(await card.evaluate((el) => getComputedStyle(el).transitionDuration)).not.toMatch(
      /^0s(, 0s)*$/,
    );
    expect((await motion(page, 'spinner')).animationName).toBe('spin');
  });
});
