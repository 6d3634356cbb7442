import { expect, test, type Page } from '@playwright/test';

// The TCP offload paper's presets: Table 4's 36 cells as checks (explained misses marked), the
// E1000 beside the offload adapter as an A/B table, and their gallery group.
test.use({ viewport: { width: 1440, height: 900 } });

async function openScenario(page: Page, id: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`./#/s/${id}`);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  return errors;
}

test('offload-one-file: Table 4 as checks, predicted, three explained misses', async ({ page }) => {
  const errors = await openScenario(page, 'offload-one-file');
  const checks = page.getByTestId('checks');
  await expect(checks.locator('tr[data-basis="predicted"]')).toHaveCount(41);
  await expect(checks.locator('tr[data-outcome="known_miss"]')).toHaveCount(3);
  await expect(checks.locator('tr[data-basis="fitted"]')).toHaveCount(0);
  await expect(checks).toContainText('3 explained misses');
  await checks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/offload-checks.png' });
  const chart = page.getByTestId('sweep-chart');
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/offload-chart.png' });
  expect(errors).toEqual([]);
});

test('offload-one-file: the E1000 and the offload adapter side by side', async ({ page }) => {
  await page.goto('./#/ab/offload-one-file');
  const results = page.getByTestId('ab-results');
  await expect(results).toBeVisible({ timeout: 45_000 });
  await expect(results).toContainText('Send DMAs (host to adapter)');
  await expect(results).toContainText('Handshake, ACK and FIN frame DMAs');
  await results.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/offload-ab.png' });
});

test('the gallery groups the offload presets', async ({ page }) => {
  await page.goto('./#/');
  await expect(page.getByText('TCP offload: what crosses the bus').first()).toBeVisible();
  for (const title of ['One file, two interfaces', 'Where did the ACKs go?', 'The batching dial'])
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
});
