import { expect, test } from '@playwright/test';

test('tigon-one-or-two-cpus: the thesis’s values are drawn beside the simulated lines', async ({
  page,
}) => {
  await page.goto('./#/s/tigon-one-or-two-cpus');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const chart = page.getByTestId('sweep-chart');
  const marks = chart.getByTestId('reference-mark');
  // Every check of this preset reads the charted metric at a swept point.
  await expect(marks).toHaveCount(6);
  const release = chart.locator('[data-testid="reference-mark"][data-check="release-1472"]');
  await expect(release).toBeVisible();
  await expect(release).toHaveAttribute('data-series', 'release');
  await expect(release.locator('title')).toHaveText(
    /^thesis: 938 Mb\/s ± 5% \(seed 000 Abstract, §3\.4\.2 \(Fig 3\.10\)\) — simulated \d[\d,.]* Mb\/s [✓✗]/,
  );
  await expect(chart.getByTestId('reference-legend').first()).toContainText('published value');

  // Hovering the 1472-byte column lists the published values in the tooltip.
  await release.hover();
  await expect(chart.getByTestId('tooltip-reference')).toHaveCount(3);
  await expect(chart.getByTestId('chart-tooltip')).toContainText('938 Mb/s ± 5%');

  // Under the chart, the same values in words: source and kind of comparison, no hover needed.
  const list = page.getByTestId('chart-references');
  await expect(list.getByTestId('chart-reference')).toHaveCount(6);
  const row = list.locator('[data-testid="chart-reference"][data-check="release-1472"]');
  await expect(row).toContainText('thesis: 938 Mb/s ± 5%');
  await expect(row).toContainText('seed 000 Abstract, §3.4.2 (Fig 3.10)');
  await expect(row).toContainText(/simulated|✓ within|✗ outside/);
  await expect(row).toHaveAttribute('data-kind', /^(exact|approximate|qualitative)$/);
  await expect(list).toContainText(/exact: the paper’s number|qualitative: the trend/);
  await expect(release.locator('title')).toContainText(
    /\((exact|approximate|qualitative) comparison\)/,
  );

  // The checks panel gives relative claims in Mb/s, not in units of the factor.
  await expect(page.getByTestId('relative-claim').first()).toContainText(/ = \d[\d,.]* Mb\/s/);
});

test('the over-time chart says where the papers’ values are', async ({ page }) => {
  await page.goto('./#/s/tigon-one-or-two-cpus');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await page.getByRole('tab', { name: 'Over time' }).click();
  await expect(page.getByTestId('series-chart')).toBeVisible();
  await expect(page.getByTestId('chart-references-none')).toContainText(
    'their 6 values are on the Sweep chart and in “Checks against the reference”',
  );
});
