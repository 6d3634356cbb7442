import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

test('web-anatomy-of-a-request: one request’s steps, the bus it crosses and the bottleneck, cache on and off', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.setViewportSize({ width: 1366, height: 900 });
  await openScenario(page, 'web-anatomy-of-a-request', 45_000, { viewport: null });

  // The request path: Figure 4.2 (the scenario's 16 MB cache), a request and its steps.
  const view = page.getByTestId('request-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('Figure 4.2: with a 16 MiB NIC cache');
  const steps = view.getByTestId('request-steps');
  await expect(steps.locator('[data-step="in"]')).toBeVisible();
  await expect(steps.locator('[data-step="serve"]')).toContainText('builds the HTTP header');
  await expect(steps.locator('[data-step="dma"]')).toBeVisible();
  await expect(steps.locator('[data-step="append"]')).toContainText('appends cached content');
  await expect(view.getByTestId('request-diagram')).toBeVisible();

  // The bottleneck: with the cache the host CPU, named and described.
  const bn = page.getByTestId('bottleneck-view');
  await expect(bn.getByTestId('bottleneck-name')).toHaveText('Host CPU');
  await expect(bn.getByTestId('bottleneck-why')).toContainText('the bus has room');
  await expect(bn.getByTestId('bottleneck-sweep')).toBeVisible();

  // Stepping the cursor walks the request's steps: from its DMA step the current step changes.
  await steps.locator('[data-step="dma"] button').click();
  await expect(steps.locator('[data-step="dma"]')).toHaveAttribute('aria-current', 'step');
  const current = async () =>
    (await steps
      .locator('[aria-current="step"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-step')).join(','))) as string;
  const before = await current();
  let moved = false;
  for (let i = 0; i < 80 && !moved; i++) {
    await page.getByTestId('step-forward').click();
    moved = (await current()) !== before;
  }
  expect(moved).toBe(true);
  await expect(view.getByTestId('request-bytes-total')).toBeVisible();

  // Next request: another request, and the cursor moves to its first step.
  const first = await view.getAttribute('data-request');
  const time = page.getByTestId('sim-time');
  const t0 = await time.getAttribute('data-ps');
  await view.getByTestId('request-next').click();
  await expect(view).not.toHaveAttribute('data-request', first ?? '');
  await expect(time).not.toHaveAttribute('data-ps', t0 ?? '');
  await expect(steps.locator('[aria-current="step"]').first()).toBeVisible();

  // The other sweep point: no cache, Figure 4.1, the bus is the bottleneck.
  await view.locator('[data-testid="sweep-pick"][data-value="0"]').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect(view).toContainText('Figure 4.1: no NIC cache');
  await expect(bn.getByTestId('bottleneck-name')).toHaveText('PCI bus');
  await expect(steps.locator('[data-step="append"]')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/artifacts/web-request.png', fullPage: true });

  expect(errors).toEqual([]);
});
