// Offline after the first visit: the service worker (web/sw/sw.ts, built to sw.js)
// caches the app shell, its JS and CSS, the engine worker and the wasm core; with the network
// gone, a reload still opens a scenario page and runs it to the end.
import { expect, test } from '@playwright/test';

test('after one visit the app reloads and runs a scenario offline', async ({ page, context }) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  // The worker installed (everything precached) and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cached = await page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith('nicsim-'));
    const urls: string[] = [];
    for (const n of names)
      for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
    return { names, urls };
  });
  expect(cached.names).toHaveLength(1);
  expect(cached.urls.some((u) => /\/assets\/nicsim_core-[\w-]+\.wasm$/.test(u))).toBe(true);
  expect(cached.urls.some((u) => /\/assets\/worker-[\w-]+\.js$/.test(u))).toBe(true);
  expect(cached.urls.some((u) => u.endsWith('/index.html'))).toBe(true);

  await context.setOffline(true);
  const response = await page.reload();
  // The page came from the service worker, not the network.
  expect(response?.fromServiceWorker()).toBe(true);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('rings-view')).toBeVisible();

  // Another family's page, never opened online, runs too (scenarios are in the bundle).
  await page.goto('./#/s/pci-dma-read');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await context.setOffline(false);
});
