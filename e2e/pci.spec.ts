import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

async function span(page: Page): Promise<number> {
  return Number(await page.getByTestId('wave-span').getAttribute('data-span'));
}

/** Steps forward until the tenure beside the waveform matches (at most `max` events). */
async function stepUntilTenure(page: Page, text: RegExp, max = 120): Promise<void> {
  const words = page.getByTestId('tenure-words');
  for (let i = 0; i < max; i++) {
    if (text.test((await words.textContent()) ?? '')) return;
    await page.getByTestId('step-forward').click();
  }
  throw new Error(`no tenure matching ${text} within ${max} events`);
}

test('pci-dma-read: the waveform shows the signals, zooms, and follows the cursor', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openScenario(page, 'pci-dma-read', 45_000, { viewport: null });
  const wave = page.getByTestId('waveform');
  await expect(wave).toBeVisible();
  const svg = wave.locator('svg.wave-svg');
  for (const row of [
    'CLK',
    'bus owner',
    'NIC REQ#',
    'NIC GNT#',
    'FRAME#',
    'IRDY#',
    'TRDY#',
    'STOP#',
    'AD',
  ])
    await expect(
      svg.locator('text.wave-label', { hasText: new RegExp(`^${row.replace('#', '\\#')}$`) }),
    ).toHaveCount(1);

  // Step to the data read: its phases are named in the AD row and listed beside.
  await stepUntilTenure(page, /NIC DMA read/);
  await stepUntilTenure(page, /send data fetch/);
  const words = page.getByTestId('tenure-words');
  await expect(words).toContainText('arbitration');
  await expect(words).toContainText('memory stall');
  await expect(
    wave.locator('[data-testid="ad-cell"] text', { hasText: /^wait \d+$/ }).first(),
  ).toBeVisible();

  // Step through the phases: the phase at the cursor changes.
  const now = page.getByTestId('phase-now');
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) {
    seen.add(((await now.textContent()) ?? '').split('—')[0]!.trim());
    await page.getByTestId('step-forward').click();
  }
  expect(seen.size).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('system-diagram')).toBeVisible();
  await page.getByTestId('step-back').click();
  await stepUntilTenure(page, /wait|data/);

  // Zoom in to single cycles and out to the whole window.
  const s0 = await span(page);
  await page.getByTestId('wave-zoom-in').click();
  expect(await span(page)).toBeLessThan(s0);
  await page.getByTestId('wave-zoom-out').click();
  await page.getByTestId('wave-zoom-out').click();
  expect(await span(page)).toBeGreaterThan(s0);
  // The mouse wheel zooms too.
  // Centred, clear of the sticky playback bar, before the mouse goes to it.
  await page.getByTestId('wave-hit').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await page.getByTestId('wave-hit').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const s1 = await span(page);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => span(page)).toBeLessThan(s1);
  await page.getByRole('button', { name: 'cycles', exact: true }).click();
  await wave.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/pci-waveform.png', fullPage: false });
  await wave.screenshot({ path: 'e2e/artifacts/pci-waveform-panel.png' });

  // Zoomed out to the whole window the phases merge into bands.
  await page.getByRole('button', { name: 'window', exact: true }).click();
  await expect(wave.locator('svg.wave-svg')).toHaveAttribute('data-detailed', 'false');
});

test('pci-33-vs-66: utilisation bars with both sweep groups, and the chart', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openScenario(page, 'pci-33-vs-66', 45_000, { viewport: null });
  const bus = page.getByTestId('bus-util');
  await expect(bus).toBeVisible();
  await expect(page.getByTestId('bus-window-overhead')).toContainText('%');
  const groups = bus.getByTestId('sweep-group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0)).toHaveAttribute('data-series', '33');
  await expect(groups.nth(1)).toHaveAttribute('data-series', '66');
  expect(await groups.nth(0).getByTestId('sweep-bar').count()).toBeGreaterThanOrEqual(4);
  await expect(bus).toContainText('33 MHz');
  await expect(bus).toContainText('66 MHz');
  // The live bar fills as the cursor moves.
  for (let i = 0; i < 30; i++) await page.getByTestId('step-forward').click();
  await expect(page.getByTestId('bus-live-overhead')).toContainText('%');

  const chart = page.getByTestId('sweep-chart');
  await expect(chart).toBeVisible();
  await expect(chart.locator('.series-line')).toHaveCount(2);
  await expect(chart.locator('.chart-legend')).toContainText('33 MHz');
  await expect(chart.locator('.chart-legend')).toContainText('66 MHz');
  await expect(chart).toContainText('(%)');
  // A relative check reads as a claim about another sweep point.
  await expect(page.getByTestId('relative-claim').first()).toContainText('× value at 33 MHz');
  await bus.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/pci-bus.png', fullPage: false });
});

test('pci-two-nics: both NICs in the diagram and two REQ#/GNT# pairs', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openScenario(page, 'pci-two-nics', 45_000, { viewport: null });
  const diagram = page.getByTestId('system-diagram');
  await expect(diagram).toHaveAttribute('data-nics', '2');
  await expect(page.getByTestId('unit-nic')).toBeVisible();
  await expect(page.getByTestId('unit-nic-2')).toBeVisible();
  await expect(page.getByTestId('unit-peer-2')).toBeVisible();
  await expect(page.getByTestId('unit-disk')).toBeVisible();
  const labels = page.getByTestId('waveform').locator('text.wave-label');
  for (const l of ['NIC 1 REQ#', 'NIC 1 GNT#', 'NIC 2 REQ#', 'NIC 2 GNT#'])
    await expect(labels.filter({ hasText: new RegExp(`^${l.replace('#', '\\#')}$`) })).toHaveCount(
      1,
    );
  // Both NICs own the bus in turn.
  await page.getByRole('button', { name: 'window', exact: true }).click();
  const owners = page.getByTestId('waveform').getByTestId('owner-cell');
  expect(await owners.and(page.locator('[data-port="3"]')).count()).toBeGreaterThan(2); // NIC 1
  expect(await owners.and(page.locator('[data-port="259"]')).count()).toBeGreaterThan(2); // NIC 2
  for (let i = 0; i < 12; i++) await page.getByTestId('step-forward').click();
  await diagram.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/artifacts/pci-two-nics.png', fullPage: false });
});
