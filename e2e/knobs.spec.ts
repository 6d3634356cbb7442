import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

// "Change a knob": a moved knob runs by itself (no Run button pressed), the previous run stays on
// screen until the new one arrives, and a value the core refuses shows its message at the field
// and runs nothing. Timing is measured by web/scripts/bench-knobs.mjs, not here.

// udp-throughput runs a 33-point sweep with each change: generous on a shared 2-core machine.
test.describe.configure({ timeout: 150_000 });
const RUN = { timeout: 60_000 };

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
}

/** axe-core on the open knob panel: no serious or critical violation. */
async function expectAccessiblePanel(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include('[data-testid="knob-panel"]').analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** Counts the runs the page starts from now on (the run status turning to "running"). */
async function countRuns(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __runs: number };
    w.__runs = 0;
    const status = document.querySelector('[data-testid="run-status"]')!;
    new MutationObserver(() => {
      if (status.getAttribute('data-status') === 'running') w.__runs++;
    }).observe(status, { attributes: true, attributeFilter: ['data-status'] });
  });
  return () => page.evaluate(() => (window as unknown as { __runs: number }).__runs);
}

test('an out-of-range value shows the core’s message at its field, runs nothing and keeps the views', async ({
  page,
}) => {
  await openScenario(page, 'udp-throughput', 90_000, { viewport: null });
  for (let i = 0; i < 6; i++) await page.getByTestId('step-forward').click();
  const cursor = await simTime(page);
  const chart = page.getByTestId('sweep-chart');
  await expect(chart).toBeVisible();
  const diagram = page.getByTestId('system-diagram');
  const events = await diagram.getAttribute('data-events');
  const metrics = page.getByTestId('results').locator('.metrics');
  const before = await metrics.textContent();

  // Collapsed by default; open it and type a datagram size the core refuses.
  await expect(page.getByTestId('knobs-toggle')).toHaveAttribute('aria-expanded', 'false');
  await page.getByTestId('knobs-toggle').click();
  const field = page.getByTestId('knob-workload.datagram_bytes');
  const text = field.getByRole('textbox');
  // Typing alone runs nothing; the field says Enter runs it.
  const runs = await countRuns(page);
  await text.fill('5000');
  await expect(field).toContainText('Enter runs it');
  await page.waitForTimeout(600);
  expect(await runs()).toBe(0);
  await text.press('Enter');

  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'invalid', RUN);
  // The refused value never showed "running": the core checks it before the run starts.
  expect(await runs()).toBe(0);
  await expect(field.getByTestId('knob-error')).toContainText('allowed 18 to 1472 bytes');
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  await expect(field.getByRole('slider')).toHaveAttribute('aria-invalid', 'true');
  const panel = page.getByTestId('run-errors');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('workload.datagram_bytes');
  await expect(panel).toContainText('allowed 18 to 1472 bytes');
  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'workload.datagram_bytes',
  );

  // Nothing ran: the previous run is still on screen, at the same cursor.
  await expect(chart).toBeVisible();
  await expect(chart.locator('.series-line')).toHaveCount(3);
  await expect(diagram).toBeVisible();
  await expect(diagram).toHaveAttribute('data-events', events ?? '');
  await expect(metrics).toHaveText(before ?? '');
  await expect(page.getByTestId('rings-view')).toBeVisible();
  expect(await simTime(page)).toBe(cursor);
  await page.getByTestId('step-forward').click();
  expect(await simTime(page)).toBeGreaterThan(cursor);
  // Leaving the field as it is runs nothing more.
  const rejected = await runs();
  await text.focus();
  await text.blur();
  await page.waitForTimeout(400);
  expect(await runs()).toBe(rejected);
  await page.screenshot({ path: 'e2e/artifacts/knob-rejected.png' });
  await expectAccessiblePanel(page);

  // Removing the chip runs the scenario as written again.
  await page
    .getByRole('button', { name: 'Remove the change to workload.datagram_bytes and run' })
    .click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(page.getByTestId('knob-error')).toHaveCount(0);
});

test('a picked choice runs by itself; the old result stays until the new one arrives', async ({
  page,
}) => {
  await openScenario(page, 'udp-throughput', 90_000, { viewport: null });
  const results = page.getByTestId('results');
  const before = (await results.locator('.metrics').textContent()) ?? '';
  await expect(page.getByTestId('unit-bus')).toContainText('66 MHz');
  const line = page.getByTestId('sweep-chart').locator('.series-line').first();
  const sweepBefore = await line.getAttribute('d');

  await page.getByTestId('knobs-toggle').click();
  const clock = page.getByTestId('knob-system.bus.clock_mhz');
  await expect(clock.getByRole('button', { name: '66', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // What the page shows at the instant the new run starts (a run may finish before a polling
  // assertion would look, so an observer takes the snapshot).
  await page.evaluate(() => {
    const w = window as unknown as { atRunning?: Record<string, string | null> };
    new MutationObserver((_, observer) => {
      const status = document.querySelector('[data-testid="run-status"]');
      if (w.atRunning || status?.getAttribute('data-status') !== 'running') return;
      w.atRunning = {
        shown: document.querySelector('.grid')?.getAttribute('data-shown') ?? null,
        metrics: document.querySelector('[data-testid="results"] .metrics')?.textContent ?? null,
        bus: document.querySelector('[data-testid="unit-bus"]')?.textContent ?? null,
        line:
          document.querySelector('[data-testid="sweep-chart"] .series-line')?.getAttribute('d') ??
          null,
      };
      observer.disconnect();
    }).observe(document.body, {
      attributes: true,
      subtree: true,
      attributeFilter: ['data-status'],
    });
  });
  await clock.getByRole('button', { name: '33', exact: true }).click();
  await expect(clock.getByRole('button', { name: '33', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // While it runs, the previous views stay: same chart, same numbers.
  const atRunning = await page.waitForFunction(
    () => (window as unknown as { atRunning?: Record<string, string | null> }).atRunning,
  );
  const seen = (await atRunning.jsonValue()) as Record<string, string | null>;
  expect(seen.shown).toBe('yes');
  expect(seen.line).toBe(sweepBefore);
  expect(seen.metrics).toBe(before);
  expect(seen.bus).toContain('66 MHz');

  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'system.bus.clock_mhz',
  );
  await expect(page.getByTestId('unit-bus')).toContainText('33 MHz', RUN);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await expect(results.locator('.metrics')).not.toHaveText(before);
  expect(await line.getAttribute('d')).not.toBe(sweepBefore);
  await expect(clock).toContainText('scenario: 66 MHz');
  await page.screenshot({ path: 'e2e/artifacts/knob-changed.png' });

  // Reset all goes back to the scenario as written.
  await page.getByTestId('reset-all').click();
  await expect(page.getByTestId('unit-bus')).toContainText('66 MHz', RUN);
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(results.locator('.metrics')).toHaveText(before);
});

test('a slider moved with the keyboard runs by itself and the views update', async ({ page }) => {
  await openScenario(page, 'anatomy-of-a-send', 90_000, { viewport: null });
  await page.getByTestId('knobs-toggle').click();
  const field = page.getByTestId('knob-system.driver.send_ring_size');
  const slider = field.getByRole('slider', { name: 'Send ring size' });
  const text = field.getByRole('textbox');
  const before = await text.inputValue();
  await expect(slider).toHaveAttribute('aria-valuetext', `${before} descriptors`);
  await expect(slider).toHaveAttribute('data-scale', 'log');

  // One step down: the ring halves (the slider doubles between powers of two) and it runs.
  const runs = await countRuns(page);
  await slider.focus();
  await slider.press('ArrowLeft');
  const half = String(Number(before) / 2);
  await expect(text).toHaveValue(half);
  await expect(slider).toHaveAttribute('aria-valuetext', `${half} descriptors`);
  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'system.driver.send_ring_size',
  );
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  expect(await runs()).toBeGreaterThanOrEqual(1);
  // The knob differs from the scenario's value, which it names.
  await expect(field).toContainText(`scenario: ${Number(before).toLocaleString('en-US')}`);

  // Home goes to the start of the range, Page Up jumps several steps.
  await slider.press('Home');
  await expect(text).toHaveValue('4');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await slider.press('PageUp');
  await expect.poll(async () => Number(await text.inputValue())).toBeGreaterThanOrEqual(16);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);

  // An exact value typed beside it runs on Enter.
  await text.fill('100');
  await text.press('Enter');
  await expect(page.getByTestId('override-chip')).toContainText('100');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await expect(slider).toHaveAttribute('aria-valuetext', '100 descriptors');
  await page.getByTestId('knob-panel').screenshot({ path: 'e2e/artifacts/knob-slider.png' });
});

test('a dragged slider runs while it moves, and its last position when let go', async ({
  page,
}) => {
  await openScenario(page, 'anatomy-of-a-send', 90_000, { viewport: null });
  await page.getByTestId('knobs-toggle').click();
  const field = page.getByTestId('knob-system.driver.send_ring_size');
  const slider = field.getByRole('slider');
  const text = field.getByRole('textbox');
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  const runs = await countRuns(page);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) {
    await page.mouse.move(box.x + box.width / 2 - (i * box.width) / 50, y);
    await page.waitForTimeout(40);
  }
  await page.mouse.up();
  const last = await text.inputValue();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  // Fewer runs than moves, and the one on screen is the last position.
  const n = await runs();
  expect(n).toBeGreaterThanOrEqual(1);
  expect(n).toBeLessThan(20);
  await expect(page.getByTestId('override-chip')).toContainText(
    Number(last).toLocaleString('en-US'),
  );
  await expect(text).toHaveValue(last);
});

test('search narrows the parameters and a new change cancels the one in progress', async ({
  page,
}) => {
  await openScenario(page, 'udp-throughput', 90_000, { viewport: null });
  await page.getByTestId('knobs-toggle').click();
  await page.getByTestId('knobs-search').fill('coalesce timer');
  await expect(page.getByTestId('knob-system.nic.coalesce.send_timer_us')).toBeVisible();
  await expect(page.getByTestId('knob-system.nic.coalesce.receive_timer_us')).toBeVisible();
  await expect(page.getByTestId('knob-system.bus.clock_mhz')).toHaveCount(0);
  await page.getByTestId('knobs-search').fill('');

  // Two changes in quick succession: the second wins, the page never blanks.
  await page
    .getByTestId('knob-system.bus.clock_mhz')
    .getByRole('button', { name: '33', exact: true })
    .click();
  await page
    .getByTestId('knob-system.bus.width_bits')
    .getByRole('button', { name: '32', exact: true })
    .click();
  await expect(page.getByTestId('system-diagram')).toBeVisible();
  await expect(page.getByTestId('unit-bus')).toContainText('32-bit · 33 MHz', RUN);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await expect(page.getByTestId('override-chip')).toHaveCount(2);
});

test('the knobs stay at hand in presenter mode and at a narrow width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openScenario(page, 'anatomy-of-a-send', 90_000, { viewport: null });
  await page.getByTestId('presenter-toggle').click();
  await expect(page.locator('html')).toHaveClass(/presenter-mode/);
  await page.getByTestId('knobs-toggle').click();
  const field = page.getByTestId('knob-system.driver.send_ring_size');
  await field.scrollIntoViewIfNeeded();
  const slider = field.getByRole('slider');
  await expect(slider).toBeVisible();
  const box = (await field.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await slider.focus();
  await slider.press('ArrowRight');
  await expect(page.getByTestId('override-chip')).toHaveCount(1);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', RUN);
  await page
    .getByTestId('knob-panel')
    .screenshot({ path: 'e2e/artifacts/knobs-presenter-390.png' });
  await expectAccessiblePanel(page);
});
