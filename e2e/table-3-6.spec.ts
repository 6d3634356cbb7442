// Table 3.6's macrobenchmarks: thttpd over the Tigon firmwares and Click on two Tigons. Each
// preset opens, runs, draws its sweep chart and the firmware view, and shows its checks.
import { expect, test, type Page } from '@playwright/test';

async function openScenario(page: Page, id: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`./#/s/${id}`);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
}

for (const id of ['tigon-thttpd', 'tigon-ip-router']) {
  test(`${id}: runs, draws the firmware view and the chart`, async ({ page }) => {
    await openScenario(page, id);
    await expect(page.getByTestId('firmware-view')).toBeVisible();
    await expect(page.getByTestId('firmware-view').getByTestId('fw-lane-A')).toBeVisible();
    await page.screenshot({ path: `e2e/artifacts/${id}.png` });
    await page.locator('.panel-chart').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e/artifacts/${id}-chart.png` });
  });
}
