import { expect, test, type Page } from '@playwright/test';
import { openScenario as openScenarioAt } from './openScenario';

// The host cache view of seed 002's protocol-cache presets: the three caches' grids fill as the
// cursor moves through one packet's references; the per-layer bars and the latency follow; no
// page errors.

const openScenario = (page: Page, id: string) => openScenarioAt(page, id, 60_000);

// Not yet true after the models were merged: in the production build the L1-I reads 0 lines at
// the window's opening (the branch alone drew the hot lines). Marked until that is understood.
test.fixme('protocol-one-packet: the caches, the current reference and the packet latency', async ({
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
