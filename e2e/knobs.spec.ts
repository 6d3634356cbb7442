import { expect, test, type Page } from '@playwright/test';

// "Change a knob": overrides go to the core, whose messages appear next to the fields, and the
// previous run's views stay on screen when a change is rejected.

async function openScenario(page: Page, id = 'udp-throughput'): Promise<void> {
  await page.goto(`./#/s/${id}`);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
}

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
}

test('an out-of-range value shows the core’s message at its field and keeps the views', async ({
  page,
}) => {
  await openScenario(page);
  for (let i = 0; i < 6; i++) await page.getByTestId('step-forward').click();
  const cursor = await simTime(page);
  const chart = page.getByTestId('sweep-chart');
  await expect(chart).toBeVisible();
  const diagram = page.getByTestId('system-diagram');
  const events = await diagram.getAttribute('data-events');

  // Collapsed by default; open it and change the datagram size.
  await expect(page.getByTestId('knobs-toggle')).toHaveAttribute('aria-expanded', 'false');
  await page.getByTestId('knobs-toggle').click();
  const field = page.getByTestId('knob-workload.datagram_bytes');
  await field.getByRole('textbox').fill('5000');
  await field.getByRole('textbox').press('Enter');

  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'invalid');
  await expect(field.getByTestId('knob-error')).toContainText('allowed 18 to 1472 bytes');
  await expect(field.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  const panel = page.getByTestId('run-errors');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('workload.datagram_bytes');
  await expect(panel).toContainText('allowed 18 to 1472 bytes');
  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'workload.datagram_bytes',
  );

  // The previous run is still on screen, at the same cursor.
  await expect(chart).toBeVisible();
  await expect(chart.locator('.series-line')).toHaveCount(3);
  await expect(diagram).toBeVisible();
  await expect(diagram).toHaveAttribute('data-events', events ?? '');
  await expect(page.getByTestId('rings-view')).toBeVisible();
  expect(await simTime(page)).toBe(cursor);
  await page.getByTestId('step-forward').click();
  expect(await simTime(page)).toBeGreaterThan(cursor);
  await page.screenshot({ path: 'e2e/artifacts/knob-rejected.png' });

  // Removing the chip runs the scenario as written again.
  await page
    .getByRole('button', { name: 'Remove the change to workload.datagram_bytes and run' })
    .click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(page.getByTestId('knob-error')).toHaveCount(0);
});

test('a valid change re-runs the scenario and the results change', async ({ page }) => {
  await openScenario(page);
  const results = page.getByTestId('results');
  const before = (await results.locator('.metrics').textContent()) ?? '';
  await expect(page.getByTestId('unit-bus')).toContainText('66 MHz');
  const sweepBefore = await page
    .getByTestId('sweep-chart')
    .locator('.series-line')
    .first()
    .getAttribute('d');

  await page.getByTestId('knobs-toggle').click();
  await page.getByTestId('knob-system.bus.clock_mhz').getByRole('combobox').selectOption('33');
  await expect(page.getByTestId('knob-system.bus.clock_mhz')).toContainText('edited');
  await page.getByTestId('knobs-run').click();

  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'system.bus.clock_mhz',
  );
  await expect(page.getByTestId('unit-bus')).toContainText('33 MHz', { timeout: 45_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');
  await expect(results.locator('.metrics')).not.toHaveText(before);
  const sweepAfter = await page
    .getByTestId('sweep-chart')
    .locator('.series-line')
    .first()
    .getAttribute('d');
  expect(sweepAfter).not.toBe(sweepBefore);
  await expect(page.getByTestId('knob-system.bus.clock_mhz')).toContainText('scenario: 66 MHz');
  await page.screenshot({ path: 'e2e/artifacts/knob-changed.png' });

  // Reset all goes back to the scenario as written.
  await page.getByTestId('reset-all').click();
  await expect(page.getByTestId('unit-bus')).toContainText('66 MHz', { timeout: 45_000 });
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(results.locator('.metrics')).toHaveText(before);
});

test('search narrows the parameters and a new Run cancels the one in progress', async ({
  page,
}) => {
  await openScenario(page);
  await page.getByTestId('knobs-toggle').click();
  await page.getByTestId('knobs-search').fill('coalesce timer');
  await expect(page.getByTestId('knob-system.nic.coalesce.send_timer_us')).toBeVisible();
  await expect(page.getByTestId('knob-system.nic.coalesce.receive_timer_us')).toBeVisible();
  await expect(page.getByTestId('knob-system.bus.clock_mhz')).toHaveCount(0);
  await page.getByTestId('knobs-search').fill('');

  // Two runs in quick succession: the second wins, the page never blanks.
  await page.getByTestId('knob-system.bus.clock_mhz').getByRole('combobox').selectOption('33');
  await page.getByTestId('knobs-run').click();
  await page.getByTestId('knob-system.bus.width_bits').getByRole('combobox').selectOption('32');
  await page.getByTestId('knobs-run').click();
  await expect(page.getByTestId('system-diagram')).toBeVisible();
  await expect(page.getByTestId('unit-bus')).toContainText('32-bit · 33 MHz', { timeout: 45_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('override-chip')).toHaveCount(2);
});
