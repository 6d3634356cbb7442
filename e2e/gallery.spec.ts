// The gallery gives a beginner a path: the start-here steps first and numbered, the presets
// grouped by mechanism, each card citing its paper, a filter by tag and a search by text that
// the address keeps, and a footer citing every paper the presets follow.
import { expect, test } from '@playwright/test';

test('start here comes first, numbered from the anatomy of a send', async ({ page }) => {
  await page.goto('./#/');
  const steps = page.getByRole('region', { name: 'Start here' }).getByRole('listitem');
  await expect(steps.first()).toContainText('Anatomy of a send');
  expect(await steps.count()).toBeGreaterThanOrEqual(5);
  // Above every group of cards.
  const startY = (await page.getByRole('heading', { name: 'Start here' }).boundingBox())!.y;
  const firstGroupY = (await page.getByRole('heading', { name: 'Descriptor rings' }).boundingBox())!
    .y;
  expect(startY).toBeLessThan(firstGroupY);
  await steps.first().getByRole('link').click();
  await expect(page).toHaveURL(/#\/s\/anatomy-of-a-send$/);
});

test('groups by mechanism, and each card cites its paper', async ({ page }) => {
  await page.goto('./#/');
  for (const g of [
    'Descriptor rings',
    'The PCI bus',
    'Tigon-2 firmware',
    'The NIC data cache and a web server',
    'SINIC: a NIC beside the CPU',
  ]) {
    await expect(page.getByRole('list', { name: g })).toBeVisible();
  }
  await expect(
    page.getByRole('list', { name: 'SINIC: a NIC beside the CPU' }).getByTestId('card-sinic-vnics'),
  ).toBeVisible();
  await expect(page.getByTestId('cite-sinic-vnics')).toHaveText('Binkert et al., ASPLOS 2006');
  await expect(page.getByTestId('cite-pci-cost-model')).toHaveText('Freimuth et al., USENIX 2005');
  await expect(page.getByTestId('cite-tigon-one-packet')).toHaveText('Kim, MS thesis, Rice 2003');
  const cards = await page.locator('a.card').count();
  expect(await page.locator('a.card cite').count()).toBe(cards);
  const footer = page.getByTestId('footer-papers');
  await expect(footer).toContainText('Integrated Network Interfaces for High-Bandwidth TCP/IP');
  await expect(footer).toContainText('Improving Networking Server Performance');
  await expect(footer).toContainText('Server Network Scalability and TCP Offload');
});

test('filter by tag and search by text, kept in the address to share', async ({ page }) => {
  await page.goto('./#/');
  const total = await page.locator('a.card').count();
  await page.getByTestId('gallery-tag').selectOption('V-SINIC');
  await expect(page).toHaveURL(/#\/\?tag=V-SINIC$/);
  const vsinic = await page.locator('a.card').count();
  expect(vsinic).toBeGreaterThan(0);
  expect(vsinic).toBeLessThan(total);
  await expect(page.getByRole('region', { name: 'Start here' })).toHaveCount(0);
  await page.getByTestId('gallery-search').fill('zero copy');
  await expect(page).toHaveURL(/q=zero\+copy/);
  await expect(page.getByTestId('gallery-count')).toContainText(`of ${total} scenarios`);
  await expect(page.getByTestId('card-sinic-zero-copy')).toBeVisible();
  await expect(page.getByTestId('card-anatomy-of-a-send')).toHaveCount(0);

  // The shared address opens the same filtered gallery.
  const url = page.url();
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId('gallery-tag')).toHaveValue('V-SINIC');
  await expect(other.getByTestId('gallery-search')).toHaveValue('zero copy');
  await expect(other.getByTestId('route-problem')).toHaveCount(0);
  expect(await other.locator('a.card').count()).toBe(await page.locator('a.card').count());

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/#\/$/);
  expect(await page.locator('a.card').count()).toBe(total);
});
