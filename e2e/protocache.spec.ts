import { expect, test, type Page } from '@playwright/test';
import { openScenario as openScenarioAt } from './openScenario';

// The host cache view of seed 002's protocol-cache presets: the three caches' grids fill as the
// cursor moves through one packet's references; the per-layer bars and the latency follow; no
// page errors.

const openScenario = (page: Page, id: string) => openScenarioAt(page, id, 60_000);

test('protocol-one-packet: the caches, the current reference and the packet latency', async ({
  page,
}) => {
  const errors = await openScenario(page, 'protocol-one-packet');
  const view = page.getByTestId('protocache-view');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('pc-cache')).toHaveCount(3);
  // Hot caches: the window opens on lines the earlier packets left.
  const l1i = view.locator('[data-testid="pc-cache"][data-cache="L1-I"]');
  await expect.poll(async () => Number(await l1i.getAttribute('data-lines'))).toBeGreaterThan(0);
  // Stepping moves through the packet's references.
  for (let i = 0; i < 6; i++) await page.getByTestId('step-forward').click();
  await expect(view.getByTestId('pc-current')).toBeVisible();
  await expect(view.getByTestId('pc-layers')).toBeVisible();
  await expect
    .poll(async () => Number(await view.getByTestId('pc-latency').getAttribute('data-cycles')))
    .toBeGreaterThan(1000);
  expect(errors).toEqual([]);
});

test('protocol-cold-hot: the sweep chart and the checks load', async ({ page }) => {
  const errors = await openScenario(page, 'protocol-cold-hot');
  await expect(page.getByTestId('protocache-view')).toBeVisible();
  await expect(page.getByText('Cold against hot').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('cache-l1-size: Table 6 beside the sweep, fitted hollow and predicted filled', async ({
  page,
}) => {
  const errors = await openScenario(page, 'cache-l1-size');
  const chart = page.getByTestId('sweep-chart');
  await page
    .getByTestId('chart-metric')
    .getByRole('button', { name: /l1-?i miss rate/i })
    .click();
  const marks = chart.getByTestId('reference-mark');
  // Table 6's five sizes for TCP send: the 16 KB row is Table 3's fitted value, the rest predicted.
  await expect(marks).toHaveCount(5);
  for (const [check, basis] of [
    ['tcp-send-16kb-l1i', 'fitted'],
    ['tcp-send-64kb-l1i', 'predicted'],
  ] as const)
    await expect(chart.locator(`[data-check="${check}"]`)).toHaveAttribute('data-basis', basis);
  await expect(chart.getByTestId('reference-legend-fitted')).toBeVisible();
  await expect(chart.getByTestId('reference-legend-predicted')).toBeVisible();
  expect(errors).toEqual([]);
});
