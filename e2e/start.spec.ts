// Starting fast: the gallery loads only its own code (the scenario and A/B pages come with their
// route), the service worker still precaches every page's code so that offline opens any page
// even after a visit to the gallery alone, it installs after the first view and takes what the
// page loaded from the HTTP cache (the wasm core crosses the network once), and a second visit
// takes the wasm core from the service worker's cache instead of the network.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

/** Waits until the service worker has installed (everything precached) and controls the page. */
async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The path names of the scripts the page fetched (its resource timing). */
async function scriptsLoaded(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('.js')),
  );
}

test('the gallery loads no page code; opening a scenario loads it', async ({ page }) => {
  await page.goto('./#/');
  await expect(page.getByRole('list', { name: 'Descriptor rings' })).toBeVisible();
  await page.waitForLoadState('load');
  const gallery = await scriptsLoaded(page);
  expect(gallery.some((p) => /\/assets\/index-[\w-]+\.js$/.test(p))).toBe(true);
  expect(gallery.filter((p) => /ScenarioPage|AbPage/.test(p))).toEqual([]);

  await page.getByTestId('card-anatomy-of-a-send').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  const scenario = await scriptsLoaded(page);
  expect(scenario.some((p) => /\/assets\/ScenarioPage-[\w-]+\.js$/.test(p))).toBe(true);
});

test('after a visit to the gallery alone, a preset and an A/B page open offline', async ({
  page,
  context,
}) => {
  await page.goto('./#/');
  await expect(page.getByRole('list', { name: 'Descriptor rings' })).toBeVisible();
  await serviceWorkerReady(page);
  // The precache holds the code of every route, not only what the gallery loaded.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const n of (await caches.keys()).filter((k) => k.startsWith('nicsim-')))
      for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  });
  expect(cached.some((u) => /\/assets\/ScenarioPage-[\w-]+\.js$/.test(u))).toBe(true);

  await context.setOffline(true);
  try {
    await page.goto('./#/s/anatomy-of-a-send');
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('rings-view')).toBeVisible();

    await page.goto('./#/ab/tigon-one-or-two-cpus');
    await expect(page.getByTestId('ab-page')).toBeVisible();
    for (const side of ['a', 'b'])
      await expect(page.getByTestId(`ab-side-${side}`)).toHaveAttribute('data-status', 'done', {
        timeout: 90_000,
      });
  } finally {
    await context.setOffline(false);
  }
});

test('the first visit downloads the wasm core once: the install takes it from the HTTP cache', async ({
  page,
  context,
}) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await serviceWorkerReady(page);
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  // The service worker's own requests (its install's): what each brought over the network. A
  // revalidated copy brings only headers.
  const installed = await sw.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({
      path: new URL(e.name).pathname,
      transferred: (e as PerformanceResourceTiming).transferSize,
    })),
  );
  const wasm = installed.filter((e) => /\/assets\/nicsim_core-[\w-]+\.wasm$/.test(e.path));
  expect(wasm).toHaveLength(1);
  expect(wasm[0]!.transferred).toBeLessThan(2048);
});

/** Every request for the wasm core: by the page's engine worker, and by the service worker. */
function wasmRequests(context: BrowserContext) {
  const seen: { fromServiceWorker: boolean; bySw: boolean }[] = [];
  context.on('requestfinished', (request) => {
    if (!/\/assets\/nicsim_core-[\w-]+\.wasm$/.test(request.url())) return;
    void request.response().then((r) =>
      seen.push({
        fromServiceWorker: r?.fromServiceWorker() ?? false,
        bySw: request.serviceWorker() !== null,
      }),
    );
  });
  return seen;
}

test('a second visit takes the wasm core from the service worker, not the network', async ({
  context,
}) => {
  const first = await context.newPage();
  await first.goto('./#/s/anatomy-of-a-send');
  await expect(first.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await serviceWorkerReady(first);
  await first.close();

  const requests = wasmRequests(context);
  const second = await context.newPage();
  await second.goto('./#/s/anatomy-of-a-send');
  await expect(second.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 60_000,
  });
  await expect.poll(() => requests.length).toBeGreaterThan(0);
  // The engine worker's request was answered by the service worker, which asked the network
  // for nothing.
  expect(requests.filter((r) => !r.bySw).every((r) => r.fromServiceWorker)).toBe(true);
  expect(requests.filter((r) => r.bySw)).toEqual([]);
});
