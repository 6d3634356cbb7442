import { expect, test } from '@playwright/test';
import { openScenario as open } from './openScenario';

// The TCP offload paper's presets: Table 4's 36 cells as checks (one of them a fit), the
// E1000 beside the offload adapter as an A/B table, the ledger, sequence diagram and tables
// views from the trace, and their gallery group.
test.use({ viewport: { width: 1440, height: 900 } });

const openScenario = (page: Parameters<typeof open>[0], id: string) => open(page, id, 45_000);

test('offload-one-file: Table 4 as checks, one fitted, every one holding', async ({ page }) => {
  const errors = await openScenario(page, 'offload-one-file');
  const checks = page.getByTestId('checks');
  await expect(checks.locator('tr[data-basis="predicted"]')).toHaveCount(40);
  await expect(checks.locator('tr[data-outcome="known_miss"]')).toHaveCount(0);
  await expect(checks.locator('tr[data-basis="fitted"]')).toHaveCount(1);
  await expect(checks).toContainText('41 of 41 pass');
  await expect(checks).toContainText('1 fitted value');
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

test('offload views: the ledger follows the cursor, the frames cross or stay', async ({ page }) => {
  const errors = await openScenario(page, 'offload-where-did-the-acks-go');
  // The E1000 run: every client frame crosses the bus, interrupts coalesced.
  const seq = page.getByTestId('offload-sequence');
  await expect(seq.getByTestId('seq-frame')).toHaveCount(10);
  await expect(seq.getByTestId('seq-interrupt')).toHaveCount(3);
  await expect(seq).toContainText('crossed the bus');
  const ledger = page.getByTestId('offload-ledger');
  await expect(ledger.getByTestId('ledger-1-dmas')).toHaveText('0');
  // At 600 µs the whole 1 KB transfer has crossed: Table 4's 12 receive DMAs.
  await page.getByTestId('scrub').fill('600000000');
  await expect(ledger.getByTestId('ledger-1-dmas')).toHaveText('12');
  await expect(ledger.getByTestId('ledger-0-dmas')).toHaveText('9');
  await expect(seq).toContainText('6 crossed the bus');
  await expect(page.getByTestId('offload-tables')).toContainText('E1000 receive ring');
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await seq.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/artifacts/offload-sequence-${w}.png` });
  }
  // On a phone the ledger's two directions stack and fit: nothing to scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await ledger.scrollIntoViewIfNeeded();
  await expect
    .poll(() => ledger.evaluate((e) => e.scrollWidth - e.clientWidth))
    .toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'e2e/artifacts/offload-ledger-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await ledger.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/offload-ledger.png' });
  await page.getByTestId('offload-tables').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/offload-tables.png' });
  expect(errors).toEqual([]);
});
