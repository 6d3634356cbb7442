import { expect, type Page } from '@playwright/test';

export interface OpenOptions {
  /** The window to open the page in; null keeps the test's own (by default 1400×1000). */
  viewport?: { width: number; height: number } | null;
  /** Whether console errors count as errors too, besides page errors (by default they do). */
  consoleErrors?: boolean;
}

/**
 * Opens a preset's page and waits for its run to be done; returns the page errors (and console
 * errors, unless told not to) seen from then on (the caller expects none).
 */
export async function openScenario(
  page: Page,
  id: string,
  timeout: number,
  { viewport = { width: 1400, height: 1000 }, consoleErrors = true }: OpenOptions = {},
): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (consoleErrors)
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(`./#/s/${id}`);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', { timeout });
  return errors;
}
