import { expect, type Page } from '@playwright/test';

/**
 * Opens a preset's page at 1400×1000 and waits for its run to be done; returns the page errors
 * and console errors seen from then on (the caller expects none).
 */
export async function openScenario(page: Page, id: string, timeout: number): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`./#/s/${id}`);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout });
  return errors;
}
