import { expect, test, type Worker } from '@playwright/test';

// A preset's address starts its main run before the page's code has loaded (so the core computes
// while the code downloads). Leaving before the page takes that run must stop it: its worker is
// terminated, not left computing for a page nobody sees.

test('leaving a preset before its page loads stops the main run started for it', async ({
  page,
}) => {
  // Hold the scenario page's code, so that the page cannot take the run before we leave.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/ScenarioPage-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const workers: Worker[] = [];
  const closed: Worker[] = [];
  page.on('worker', (w) => {
    workers.push(w);
    w.on('close', () => closed.push(w));
  });
  // The slowest full-system main run: still computing when we leave.
  await page.goto('./#/s/web-rice-cache');
  await expect.poll(() => workers.length).toBeGreaterThan(0);
  await page.waitForTimeout(300);
  expect(closed).toHaveLength(0);
  await page.evaluate(() => {
    window.location.hash = '#/';
  });
  await expect(page.locator('.cards').first()).toBeVisible();
  // The worker that ran it is terminated; the idle one stays for the next page.
  await expect.poll(() => closed.length).toBe(1);
  expect(workers.length - closed.length).toBeGreaterThan(0);
  release();
});

test('staying on the preset keeps the started run: the page takes it', async ({ page }) => {
  await page.goto('./#/s/web-rice-cache');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /done|sweep/, {
    timeout: 60_000,
  });
  // The main run on screen is the one started before the page loaded, not a second one.
  const source = await page.evaluate(
    () => (performance.getEntriesByName('nicsim:answer')[0] as PerformanceMark | undefined)?.detail,
  );
  expect(source).toBe('prestarted');
});
