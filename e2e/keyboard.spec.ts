// Expected keyboard conventions: Esc closes the Share, Views and Download menus and gives focus
// back to their button; the event log is one Tab stop with the arrows inside; `?` opens the
// keyboard-shortcut sheet (a modal dialog) and Esc closes it.
import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

test('Esc closes the Share, Views and Download menus and returns focus to the button', async ({
  page,
}) => {
  await openScenario(page, 'anatomy-of-a-receive', 45_000, { viewport: null });
  for (const id of ['share-menu', 'views-menu', 'run-downloads']) {
    const menu = page.getByTestId(id);
    const button = menu.locator('summary');
    await button.click();
    await expect(menu).toHaveAttribute('open', '');
    // Focus inside the menu, as a keyboard user would be.
    await menu.locator('button, input').first().focus();
    await page.keyboard.press('Escape');
    await expect(menu).not.toHaveAttribute('open', '');
    await expect(button).toBeFocused();
  }
  // The page itself stays: Esc in a menu reaches nothing behind it.
  await expect(page.getByTestId('scenario-page')).toBeVisible();
});

test('the event log is one Tab stop; the arrows move inside it', async ({ page }) => {
  await openScenario(page, 'anatomy-of-a-receive', 45_000, { viewport: null });
  const log = page.getByTestId('event-log');
  await expect(log).toBeVisible();
  const rows = log.getByTestId('log-row');
  expect(await rows.count()).toBeGreaterThan(5);
  await expect(log.locator('[data-testid="log-row"][tabindex="0"]')).toHaveCount(1);
  const first = log.locator('[data-testid="log-row"][tabindex="0"]');
  await first.focus();
  const at = Number(await first.getAttribute('data-index'));
  await page.keyboard.press('ArrowDown');
  await expect(log.locator(`[data-testid="log-row"][data-index="${at + 1}"]`)).toBeFocused();
  await expect(log.locator('[data-testid="log-row"][tabindex="0"]')).toHaveCount(1);
  // Tab leaves the log at once instead of walking its rows.
  await page.keyboard.press('Tab');
  const inLog = await page.evaluate(
    () => document.activeElement?.closest('[data-testid="event-log"]') !== null,
  );
  expect(inLog).toBe(false);
  // Times to the nanosecond: no two rows 30 ns apart read alike.
  const times = await log.locator('[data-testid="log-row"] td:first-child').allTextContents();
  expect(times.every((t) => /^\d+(\.\d+)? (ps|ns|µs|ms|s)$/.test(t))).toBe(true);
});

test('? opens the keyboard-shortcut sheet, a dialog that Esc closes', async ({ page }) => {
  await openScenario(page, 'anatomy-of-a-receive', 45_000, { viewport: null });
  const play = page.getByTestId('play');
  await play.focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('Play or pause');
  await expect(sheet).toContainText('Close an open menu');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'e2e/artifacts/shortcut-sheet.png' });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(play).toBeFocused();
  // The header's button opens it too. On a 720 px projector the list scrolls and Close stays in
  // view (it used to sit below the dialog's fold).
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('shortcuts-open').click();
  await expect(sheet).toBeVisible();
  await expect(sheet.getByTestId('shortcuts-close')).toBeInViewport({ ratio: 1 });
  await sheet.getByTestId('shortcuts-close').click();
  await expect(sheet).toBeHidden();
});
