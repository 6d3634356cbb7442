// Table 3.6's macrobenchmarks: thttpd over the Tigon firmwares and Click on two Tigons. Each
// preset opens, runs, draws its sweep chart and the firmware view, and shows its checks.
import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

for (const id of ['tigon-thttpd', 'tigon-ip-router']) {
  test(`${id}: runs, draws the firmware view and the chart`, async ({ page }) => {
    await openScenario(page, id, 60_000, { viewport: { width: 1440, height: 900 } });
    await expect(page.getByTestId('firmware-view')).toBeVisible();
    await expect(page.getByTestId('firmware-view').getByTestId('fw-lane-A')).toBeVisible();
    await page.screenshot({ path: `e2e/artifacts/${id}.png` });
    await page.locator('.panel-chart').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/artifacts/${id}-chart.png` });
  });
}
