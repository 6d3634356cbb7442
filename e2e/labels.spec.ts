// Every label true, where only the page shows it: the step of a mailbox write comes from its
// mailbox, counters say where they count from, the Tigon's SRAM note agrees with its CPUs, one
// throughput reads in one unit, the bus sweep names its sizes, and the "All metrics" table reads
// in words. Screenshots of each go to e2e/artifacts/labels-*.png (1440×900).
import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

test.use({ viewport: { width: 1440, height: 900 } });

test('receive preset: the first mailbox write is pre-allocation, not the send step S2', async ({
  page,
}) => {
  await openScenario(page, 'anatomy-of-a-receive', 45_000, { viewport: null });
  const now = page.getByTestId('now-list');
  for (let i = 0; i < 60 && !(await now.textContent())?.includes('mailbox write'); i++)
    await page.getByTestId('step-forward').click();
  await expect(now).toContainText('mailbox write (receive producer)');
  const item = now.locator('li', { hasText: 'mailbox write' });
  await expect(item.locator('.now-step')).toHaveText('pre');
  await now.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-receive-mailbox.png' });
});

test('counters from a window opened mid-run say since when', async ({ page }) => {
  await openScenario(page, 'udp-throughput', 45_000, { viewport: null });
  const diagram = page.getByTestId('system-diagram');
  await expect(diagram).toContainText(/received [\d,]+ since 20 ms/);
  await expect(diagram).toContainText(/sent [\d,]+ since 20 ms/);
  await diagram.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-peer-counters.png' });
});

test('the Tigon SRAM note never says no handler started beside a running CPU', async ({ page }) => {
  await openScenario(page, 'tigon-udp-receive', 45_000, { viewport: null });
  const fw = page.getByTestId('firmware-view');
  await expect(fw).toBeVisible();
  await expect(fw).not.toContainText('No handler has started yet');
  const running = await fw.locator('.fw-now.running').count();
  const note = fw.locator('.fw-meter-note').last();
  if (running > 0) await expect(note).not.toContainText('No handler has started');
  await fw.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-tigon-sram.png' });
});

test('web throughput and content throughput are one quantity in one unit', async ({ page }) => {
  await openScenario(page, 'web-nasa-cache', 45_000, { viewport: null });
  const results = page.getByTestId('results');
  await results.locator('details summary', { hasText: 'All metrics' }).click();
  const table = results.locator('.metrics-table');
  const value = async (name: string) =>
    results
      .locator('.metric, tr', { hasText: name })
      .first()
      .locator('.mono')
      .first()
      .textContent();
  expect(await value('Web throughput')).toBe(await value('Content throughput'));
  // Readable names, no identifiers, no other model's metrics.
  const names = await table.locator('td:first-child').allTextContents();
  expect(names.filter((n) => /_|Bench mips/.test(n))).toEqual([]);
  expect(names.some((n) => /UDP|Tigon|Bench/i.test(n))).toBe(false);
  await results.locator('.metrics').screenshot({ path: 'e2e/artifacts/labels-web-cards.png' });
  await table.screenshot({ path: 'e2e/artifacts/labels-web-metrics.png' });
});

test('sweeps over cache sizes name the size with its unit', async ({ page }) => {
  await openScenario(page, 'web-bus-cycles', 45_000, { viewport: null });
  const sweep = page.getByTestId('bus-sweep');
  if ((await sweep.count()) === 0) test.skip(true, 'this preset shows no bus sweep');
  await expect(sweep).toBeVisible({ timeout: 60_000 });
  const labels = await sweep.locator('.bus-x-label').allTextContents();
  expect(labels.some((l) => /^\d{4,}$/.test(l))).toBe(false);
  await sweep.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-bus-sweep.png' });
});

test('sendfile against write: no line joins separate traces', async ({ page }) => {
  // The heaviest preset (a main run and 8 sweep points of about 10 M events each): beside another
  // spec's sweep on this 2-core machine its whole run has taken 48 s.
  test.setTimeout(150_000);
  await openScenario(page, 'web-sendfile-vs-write', 120_000, { viewport: null });
  const chart = page.locator('.series-line').first();
  await expect(chart).toBeAttached({ timeout: 90_000 });
  for (const d of await page
    .locator('.series-line')
    .evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? '')))
    expect(d).toBe('');
  await page.locator('.series').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-sendfile-chart.png' });
});

test('the A/B table gives shares no percent of a percent', async ({ page }) => {
  await page.goto('./#/ab/tigon-one-or-two-cpus');
  const table = page.getByTestId('ab-results');
  await expect(table).toBeVisible({ timeout: 90_000 });
  const row = table.locator('[data-metric="tigon_sram_utilization"]');
  await expect(row).toBeVisible();
  await expect(row.locator('.ab-pct')).not.toContainText('%');
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/labels-ab-table.png' });
});
