import { expect, test } from '@playwright/test';

// The main run is drawn first; the sweep's points then run over a pool of workers (one per
// core), fill the chart with "k of N" in the run status, and the checks come last.
// web-cache-sizes has the longest sweep (35 points): time enough to watch it fill in, and on a
// busy machine more than the default minute to finish.
test.setTimeout(240_000);
test('the main run is drawn first, the sweep fills in with k of N, then the checks come', async ({
  page,
}) => {
  await page.goto('./#/s/web-cache-sizes');
  const status = page.getByTestId('run-status');
  await expect(status).toHaveAttribute('data-status', 'sweep', { timeout: 45_000 });
  await expect(page.getByTestId('sweep-progress')).toContainText(/sweep \d+ of 35/);
  await expect(page.getByTestId('checks-pending')).toContainText('checks wait for the sweep');
  await page.screenshot({ path: 'e2e/artifacts/sweep-progress.png' });
  // One instance of the core per core of the machine.
  const cores = await page.evaluate(() => Math.max(1, navigator.hardwareConcurrency));
  expect(page.workers().length).toBeGreaterThanOrEqual(cores);

  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('checks')).toBeVisible();
  await expect(page.getByTestId('sweep-chart')).toBeVisible();
  const marks = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
  );
  expect(marks['nicsim:first-view']).toBeLessThan(marks['nicsim:run-done']!);
});

test('Cancel stops the sweep: the main run stays, the checks say they were not computed', async ({
  page,
}) => {
  // web-sendfile-vs-write's eight points are full-system windows of 4 s on two NICs: the slowest
  // sweep by far, so Cancel is still there when the click lands (tigon-thttpd's nine 400 ms
  // points could all finish first on a loaded machine, and web-cache-sizes' cache-only ones too).
  await page.goto('./#/s/web-sendfile-vs-write');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'sweep', {
    timeout: 45_000,
  });
  await page.getByTestId('sweep-progress').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('run-status')).toContainText('Cancelled.');
  await expect(page.getByTestId('checks-pending')).toContainText('were not computed');
  // Run again starts over and gets to the end.
  await page.getByTestId('run-status').getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('checks')).toBeVisible();
});
