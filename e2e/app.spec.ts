import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

const SCENARIO = 'udp-throughput';

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
}

/** Steps forward until the locator is present (at most `max` events). */
async function stepUntil(page: Page, selector: string, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await page.locator(selector).count()) > 0) return;
    await page.getByTestId('step-forward').click();
  }
  throw new Error(`no ${selector} within ${max} events`);
}

test('the gallery lists the scenarios and opens one from the keyboard', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const card = page.getByTestId(`card-${SCENARIO}`);
  await expect(card).toBeVisible();
  await expect(card).toContainText('descriptor rings');
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/s/${SCENARIO}$`));
  await expect(page.getByTestId('scenario-page')).toBeVisible();
});

test('a scenario runs, plays, and packets move', async ({ page }) => {
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  await expect(page.getByTestId('system-diagram')).toBeVisible();
  const t0 = await simTime(page);

  // Find a frame on the wire, then play: the frame moves along the wire.
  await stepUntil(page, '[data-testid^="frame-"]');
  const frame = page.locator('[data-testid^="frame-"]').first();
  const frameId = await frame.getAttribute('data-testid');
  const x1 = Number(await frame.getAttribute('data-x'));
  await page.getByTestId('speed').fill('700'); // ~16 µs/s: a 1518-byte frame crosses in under a second
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(250);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  expect(await simTime(page)).toBeGreaterThan(t0);
  const same = page.locator(`[data-testid="${frameId}"]`).first();
  if ((await same.count()) > 0) {
    expect(Number(await same.getAttribute('data-x'))).not.toBe(x1);
  }

  // A bus transaction token moves along the bus as time advances.
  await page.getByTestId('speed').fill('500'); // 1 µs/s
  await stepUntil(page, '[data-testid="bus-token"]');
  const tok = page.getByTestId('bus-token').first();
  const b1 = await tok.getAttribute('data-x');
  const key1 = await page.getByTestId('system-diagram').getAttribute('data-events');
  await page.getByTestId('play').click();
  await page.waitForTimeout(300);
  await page.getByTestId('play').click();
  const moved =
    (await page.getByTestId('bus-token').count()) === 0 ||
    (await page.getByTestId('bus-token').first().getAttribute('data-x')) !== b1 ||
    (await page.getByTestId('system-diagram').getAttribute('data-events')) !== key1;
  expect(moved).toBe(true);
});

test('step forward and back move the cursor between events', async ({ page }) => {
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  const t0 = await simTime(page);
  await page.getByTestId('step-forward').click();
  const t1 = await simTime(page);
  expect(t1).toBeGreaterThan(t0);
  await page.getByTestId('step-forward').click();
  const t2 = await simTime(page);
  expect(t2).toBeGreaterThan(t1);
  await page.getByTestId('step-back').click();
  expect(await simTime(page)).toBe(t1);
  // The event log highlights the current event, and a click on a row moves the cursor there.
  await expect(page.locator('[data-testid="log-row"][aria-current="true"]').first()).toBeVisible();
  await page.locator('[data-testid="log-row"]').nth(12).click();
  const t3 = await simTime(page);
  expect(t3).toBeGreaterThan(t1);
  // Keyboard: ← steps back.
  await page.locator('body').press('ArrowLeft');
  expect(await simTime(page)).toBeLessThan(t3);
});

test('the speed control is logarithmic and shows units', async ({ page }) => {
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  const speed = page.getByTestId('speed-value');
  await expect(speed).toHaveText('1 µs/s');
  await page.getByTestId('speed').fill('0');
  await expect(speed).toHaveText('1 ns/s');
  await page.getByTestId('speed').fill('1000');
  await expect(speed).toHaveText('1 ms/s');
  await page.getByTestId('speed').fill('333');
  await expect(speed).toHaveText(/^\d+(\.\d+)? ns\/s$/);
});

test('the sweep chart shows each series beside the Ethernet limit', async ({ page }) => {
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  const chart = page.getByTestId('sweep-chart');
  await expect(chart).toBeVisible();
  await expect(chart.locator('.series-line')).toHaveCount(3);
  expect(await chart.getByTestId('limit-curve').count()).toBeGreaterThanOrEqual(1);
  await expect(chart).toContainText('Ethernet limit');
  await expect(chart).toContainText('UDP datagram size (B)');
  // Hover shows a tooltip with the values.
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.locator('svg.chart-svg').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.85, box.y + box.height * 0.5);
  await expect(page.getByTestId('chart-tooltip')).toBeVisible();
  await expect(page.getByTestId('chart-tooltip')).toContainText('Mb/s');
});

test('checks, results and rings are shown', async ({ page }) => {
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  await expect(page.getByTestId('checks')).toContainText(/pass|fail/);
  await expect(page.getByTestId('results')).toContainText('Mb/s');
  await expect(page.getByTestId('rings-view')).toBeVisible();
  await expect(page.getByTestId('ring-send')).toBeVisible();
  await expect(page.getByTestId('ring-receive')).toBeVisible();
  await expect(page.getByTestId('ring-return')).toBeVisible();
});

test('an unknown scenario id shows a message and the gallery still works', async ({ page }) => {
  await page.goto('./#/s/no-such-scenario');
  const problem = page.getByTestId('route-problem');
  await expect(problem).toBeVisible();
  await expect(problem).toContainText('no-such-scenario');
  await expect(problem).toContainText(SCENARIO);
  await page.getByTestId(`card-${SCENARIO}`).click();
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('route-problem')).toHaveCount(0);

  await page.goto('./#/nonsense/path');
  await expect(page.getByTestId('route-problem')).toContainText('#/nonsense/path');
});

test('full-page screenshot of the scenario page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openScenario(page, SCENARIO, 45_000, { viewport: null });
  // Step into the window so that traffic is in flight (the rings are known from the first frame).
  for (let i = 0; i < 20; i++) await page.getByTestId('step-forward').click();
  await stepUntil(page, '[data-testid="bus-token"]', 100).catch(() => undefined);
  await page.screenshot({ path: 'e2e/artifacts/scenario.png', fullPage: true });
});
