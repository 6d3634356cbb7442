import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';

// Fitted or predicted, said everywhere: the checks panel, the chart's marks, the A/B table and
// the gallery's per-paper count (the core decides; core-cpp/scenario/fits.cpp).
test.use({ viewport: { width: 1440, height: 900 } });

test('tigon-one-or-two-cpus: PARALLEL’s 1553 Mb/s is fitted, the 18-byte factor predicted', async ({
  page,
}) => {
  await page.goto('./#/s/tigon-one-or-two-cpus');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const checks = page.getByTestId('checks');
  await expect(checks.locator('tr[data-basis="fitted"]').first()).toBeVisible();
  await expect(checks.locator('tr[data-basis="predicted"]').first()).toBeVisible();
  await expect(page.getByTestId('checks-basis-summary')).toContainText(
    /\d+ of \d+ predictions? hold/,
  );
  const chart = page.getByTestId('sweep-chart');
  await expect(chart.locator('[data-check="parallel-1472"]')).toHaveAttribute(
    'data-basis',
    'fitted',
  );
  await expect(chart.locator('[data-check="parallel-vs-release-18"]')).toHaveAttribute(
    'data-basis',
    'predicted',
  );
  await expect(chart.getByTestId('reference-legend-predicted')).toContainText('predicted');
  await expect(chart.getByTestId('reference-legend-fitted')).toContainText('fitted');
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/fitted-chart.png' });
  await checks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/fitted-checks.png' });

  await page.goto('./#/ab/tigon-one-or-two-cpus');
  const published = page.getByTestId('ab-published');
  await expect(published.first()).toBeVisible({ timeout: 45_000 });
  await expect(page.locator('[data-testid="ab-published"][data-basis="fitted"]')).toHaveCount(2);
  await page.getByTestId('ab-results').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/fitted-ab.png' });

  await page.goto('./#/');
  await expect(page.getByTestId('prediction-tally-thesis')).toContainText(
    /the thesis .*: \d+ of \d+ predictions hold/,
  );
  await page.getByTestId('prediction-tally-thesis').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/fitted-gallery.png' });
});

test('a prediction that misses with a known_miss shows as “misses — explained”', async ({
  page,
}) => {
  const doc = JSON.parse(readFileSync('scenarios/anatomy-of-a-send.json', 'utf8'));
  doc.id = 'known-miss';
  doc.title = 'A known miss';
  delete doc.tour;
  doc.reference = [
    {
      ...doc.reference.find((r: { id: string }) => r.id === 'frame-on-the-wire'),
      id: 'wire-too-fast',
      expected: 10,
      tolerance: 0.01,
      known_miss: 'A 1518-byte frame, its preamble and gap take 12.3 µs at 1 Gb/s, never 10.',
    },
  ];
  await page.goto('./');
  await page.getByTestId('scenario-file-input').setInputFiles({
    name: 'known-miss.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const row = page.locator('[data-testid="checks"] tr[data-outcome="known_miss"]');
  await expect(row).toContainText('misses — explained');
  await expect(row.getByTestId('known-miss')).toContainText('never 10');
  await expect(page.getByTestId('checks')).toContainText('1 explained miss');
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/fitted-known-miss.png' });
});
