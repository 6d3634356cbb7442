import { expect, test, type Page } from '@playwright/test';

// The A/B view: two variants of a scenario with the same seed side by side, one cursor
// for both, the differences marked. The expected directions are what the model computes for the
// main runs (native CLI, seed 1): PARALLEL 1556 against RELEASE 914 Mb/s at 1472 bytes; the NASA
// trace 1528 against 1142 Mb/s with 16 MB caches, the bus 35% against 95% busy; V-SINIC 9.4
// against 5.8 Gb/s with zero copy at a 1 MB L2, and no L2 misses left.

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

async function openAb(page: Page, id: string): Promise<void> {
  await page.goto(`./#/ab/${id}`);
  await expect(page.getByTestId('ab-page')).toBeVisible();
  for (const side of ['a', 'b']) {
    await expect(page.getByTestId(`ab-side-${side}`)).toHaveAttribute('data-status', 'done', {
      timeout: 90_000,
    });
  }
  await expect(page.getByTestId('ab-diff')).toBeVisible();
}

function row(page: Page, metric: string) {
  return page.locator(`[data-testid="ab-row"][data-metric="${metric}"]`);
}

async function values(page: Page, metric: string): Promise<{ a: number; b: number }> {
  const r = row(page, metric);
  await expect(r).toBeVisible();
  return { a: Number(await r.getAttribute('data-a')), b: Number(await r.getAttribute('data-b')) };
}

/** Steps the shared cursor and checks both sides follow it to the same time. */
async function cursorMovesBoth(page: Page): Promise<void> {
  const a = page.getByTestId('ab-cursor-a');
  const b = page.getByTestId('ab-cursor-b');
  const start = Number(await a.getAttribute('data-ps'));
  expect(Number(await b.getAttribute('data-ps'))).toBe(start);
  for (let i = 0; i < 5; i++) await page.getByTestId('step-forward').click();
  await expect.poll(async () => Number(await a.getAttribute('data-ps'))).toBeGreaterThan(start);
  const t = await a.getAttribute('data-ps');
  await expect(b).toHaveAttribute('data-ps', t!);
  await expect(page.getByTestId('sim-time')).toHaveAttribute('data-ps', t!);
  // Scrubbing to the middle of the window moves both as well.
  const scrub = page.getByTestId('scrub');
  const min = Number(await scrub.getAttribute('min'));
  const max = Number(await scrub.getAttribute('max'));
  await scrub.fill(String((min + max) / 2));
  await expect.poll(async () => Number(await a.getAttribute('data-ps'))).toBeGreaterThan(Number(t));
  await expect(b).toHaveAttribute('data-ps', (await a.getAttribute('data-ps'))!);
  // The views on both sides are labelled with their side.
  await expect(page.locator('.ab-panel[data-side="a"]').first()).toContainText('A');
  await expect(page.locator('.ab-panel[data-side="b"]').first()).toContainText('B');
}

test('gallery: the A/B entry opens RELEASE against PARALLEL; PARALLEL carries more', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('./');
  await page.getByTestId('card-ab-tigon-one-or-two-cpus').click();
  await expect(page).toHaveURL(/#\/ab\/tigon-one-or-two-cpus$/);
  await openAb(page, 'tigon-one-or-two-cpus');
  await expect(page.getByTestId('ab-side-a')).toContainText('RELEASE');
  await expect(page.getByTestId('ab-side-b')).toContainText('PARALLEL');

  // Only the firmware was set; the seed is the same.
  await expect(
    page.locator('[data-testid="ab-param"][data-path="system.tigon.firmware"]'),
  ).toContainText('parallel');
  await expect(page.getByTestId('ab-params')).toContainText('Same seed (1)');

  const t = await values(page, 'udp_total_throughput');
  expect(t.b).toBeGreaterThan(t.a * 1.5);
  await expect(row(page, 'udp_total_throughput')).toHaveAttribute('data-sign', '+');
  await expect(row(page, 'udp_total_throughput')).toHaveAttribute('data-significant', 'yes');
  await expect(row(page, 'udp_total_throughput')).toHaveClass(/sig/);
  // RELEASE leaves CPU B idle; PARALLEL uses it.
  const cpuB = await values(page, 'tigon_cpu_b_utilization');
  expect(cpuB.a).toBe(0);
  expect(cpuB.b).toBeGreaterThan(0.3);

  // Both sides show the firmware view; only PARALLEL has a lane for CPU B.
  await expect(page.getByTestId('ab-row-firmware')).toBeVisible();
  await expect(page.getByTestId('ab-overlay')).toBeVisible();
  await expect(page.getByTestId('ab-line-a')).toBeVisible();
  await expect(page.getByTestId('ab-line-b')).toBeVisible();
  await cursorMovesBoth(page);
  await page.screenshot({ path: 'e2e/artifacts/ab-tigon.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('web-nasa-cache: a 16 MB NIC cache against none, the bus relieved', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openAb(page, 'web-nasa-cache');
  await expect(
    page.locator('[data-testid="ab-param"][data-path="system.nic_cache.kbytes"]'),
  ).toContainText('16,384');
  const t = await values(page, 'web_throughput');
  expect(t.b).toBeGreaterThan(t.a);
  await expect(row(page, 'web_throughput')).toHaveAttribute('data-significant', 'yes');
  const bus = await values(page, 'bus_utilization');
  expect(bus.b).toBeLessThan(bus.a);
  await expect(row(page, 'bus_utilization')).toHaveAttribute('data-sign', '-');
  const cached = await values(page, 'web_nic_cache_mb');
  expect(cached.a).toBe(0);
  expect(cached.b).toBeGreaterThan(0);
  await cursorMovesBoth(page);
  await page.screenshot({ path: 'e2e/artifacts/ab-nasa.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('sinic-zero-copy: copy against zero copy, from the scenario page', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('./#/s/sinic-zero-copy');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('open-ab')).toContainText('copy vs zero copy');
  await page.getByTestId('open-ab').click();
  await openAb(page, 'sinic-zero-copy');
  const t = await values(page, 'tcp_throughput');
  expect(t.b).toBeGreaterThan(t.a);
  await expect(row(page, 'tcp_throughput')).toHaveAttribute('data-sign', '+');
  const copy = await values(page, 'cpu_copy');
  expect(copy.b).toBeLessThan(copy.a);
  const misses = await values(page, 'l2_misses_per_kb');
  expect(misses.a).toBeGreaterThan(0);
  expect(misses.b).toBe(0);
  await expect(row(page, 'l2_misses_per_kb')).toHaveAttribute('data-significant', 'yes');
  await cursorMovesBoth(page);
  await page.screenshot({ path: 'e2e/artifacts/ab-sinic.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('Compare… on a scenario without a comparison: B waits for a knob, then runs beside A', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('./#/s/pci-dma-read');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('card-ab-pci-dma-read')).toHaveCount(0);
  await page.getByTestId('open-ab').click();
  await expect(page.getByTestId('ab-side-a')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('ab-waiting')).toBeVisible();
  await expect(page.getByTestId('ab-side-b')).toHaveAttribute('data-status', 'idle');

  // B's knob panel is the scenario page's: picking a bus clock runs it.
  const b = page.getByTestId('ab-side-b');
  await b.getByTestId('knobs-toggle').click();
  await b
    .getByTestId('knob-system.bus.clock_mhz')
    .getByRole('button', { name: '66', exact: true })
    .click();
  await expect(b).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(
    page.locator('[data-testid="ab-param"][data-path="system.bus.clock_mhz"]'),
  ).toContainText('66');
  // A bad value is refused by the core next to its field; A and the differences stay.
  const ring = b.getByTestId('knob-system.driver.send_ring_size').getByRole('textbox');
  await ring.fill('3');
  await ring.press('Enter');
  await expect(b).toHaveAttribute('data-status', 'invalid', { timeout: 60_000 });
  await expect(
    b.locator('[data-testid="knob-system.driver.send_ring_size"] [data-testid="knob-error"]'),
  ).toContainText('allowed 4 to 65536');
  await expect(page.getByTestId('ab-diff')).toBeVisible();
  await expect(page.getByTestId('ab-side-a')).toHaveAttribute('data-status', 'done');
  expect(errors).toEqual([]);
});

test('an A/B address naming no scenario falls back to the gallery with the reason', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('./#/ab/no-such-scenario');
  await expect(page.getByTestId('route-problem')).toContainText('no-such-scenario');
  expect(errors).toEqual([]);
});
