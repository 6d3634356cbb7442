import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

// Time and navigation: step to an event of a kind, breakpoints, Back restores the view,
// idle stretches collapsed, and the packet inspector.

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
}

/** The event log's rows at the cursor: their event kinds. */
async function currentKinds(page: Page): Promise<string[]> {
  return page.locator('[data-testid="log-row"][aria-current="true"] .kind').allTextContents();
}

/** What the system diagram, the rings and the event log show (attributes and text). */
async function viewState(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = (sel: string, names: string[]) =>
      [...document.querySelectorAll(sel)].map((el) => names.map((n) => el.getAttribute(n)));
    return JSON.stringify({
      diagram: document.querySelector('[data-testid="system-diagram"]')?.textContent,
      events: document.querySelector('[data-testid="system-diagram"]')?.getAttribute('data-events'),
      tokens: attrs('[data-testid="bus-token"], [data-testid^="frame-"]', [
        'data-testid',
        'data-x',
      ]),
      rings: attrs('[data-testid="ring-circle"]', ['aria-label', 'data-occupied']),
      log: document.querySelector('[data-testid="event-log"]')?.textContent,
      time: document.querySelector('[data-testid="sim-time"]')?.textContent,
    });
  });
}

test('step to the next and the previous event of a chosen kind', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'anatomy-of-a-send', 45_000, { viewport: null });
  await page.getByTestId('nav-toggle').click(); // the navigation row, under the bar
  const select = page.getByTestId('kind-select');
  // The kinds are named in words.
  await expect(select.locator('option', { hasText: 'frame starts on the wire' })).toHaveCount(1);
  await select.selectOption({ label: 'NIC raises an interrupt (S6/R4) · 1' });
  await page.getByTestId('kind-next').click();
  expect(await currentKinds(page)).toContain('InterruptRaise');
  const at = await simTime(page);
  await expect(page.getByTestId('kind-next')).toBeDisabled(); // the only one
  // Shift+← goes back to the previous one of the kind: none before it, so from further on.
  await page.getByTestId('step-forward').click();
  await page.getByTestId('step-forward').click();
  await page.keyboard.press('Shift+ArrowLeft');
  expect(await simTime(page)).toBe(at);
  expect(errors).toEqual([]);
});

test('a breakpoint stops playing exactly on the event and says why', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'send-ring-full', 45_000, { viewport: null });
  await page.getByTestId('nav-toggle').click(); // the navigation row, under the bar
  const ringFull = page.getByTestId('bp-ring-full');
  await expect(ringFull).toHaveAttribute('data-present', 'true');
  await ringFull.click();
  await expect(ringFull).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('speed').fill('1000'); // 1 ms/s: the window plays in well under a second
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  const note = page.getByTestId('nav-note');
  await expect(note).toHaveText(/^stopped: \w+ ring full at [\d.]+ µs$/);
  // The cursor is on the RingFull record itself.
  expect(await currentKinds(page)).toContain('RingFull');

  // "Run to breakpoint" on a time: the cursor lands on it.
  await page.getByTestId('bp-ring-full').click();
  const t0 = await simTime(page);
  const target = Math.round(t0 / 1e6 + 3); // µs
  await page.getByTestId('bp-time-input').fill('9999999');
  await page.getByTestId('bp-time-add').click();
  await expect(page.getByTestId('bp-time-error')).toContainText('outside the recorded window');
  await page.getByTestId('bp-time-input').fill(String(target));
  // Closed and opened again, the row keeps the half-typed time.
  await page.getByTestId('nav-toggle').click();
  await expect(page.getByTestId('bp-time-input')).toHaveCount(0);
  await page.getByTestId('nav-toggle').click();
  await expect(page.getByTestId('bp-time-input')).toHaveValue(String(target));
  await page.getByTestId('bp-time-input').press('Enter');
  await expect(page.getByTestId('bp-time')).toHaveCount(1);
  await page.getByTestId('run-to-break').click();
  expect(await simTime(page)).toBe(target * 1e6);
  await expect(note).toHaveText(`stopped: time ${target} µs at ${target} µs`);
  expect(errors).toEqual([]);
});

test('Back restores exactly what the views showed, also from between events', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'anatomy-of-a-send', 45_000, { viewport: null });
  await page.getByTestId('nav-toggle').click(); // the navigation row, under the bar
  // 16 µs: the frame is on the wire, between two events.
  await page.getByTestId('scrub').fill('16000000');
  await expect(page.getByTestId('frame-tx')).toHaveCount(1);
  const before = await viewState(page);
  const t = await simTime(page);
  await page.getByTestId('step-forward').click();
  expect(await simTime(page)).toBeGreaterThan(t);
  expect(await viewState(page)).not.toBe(before);
  await page.getByTestId('step-back').click();
  expect(await simTime(page)).toBe(t);
  expect(await viewState(page)).toBe(before);

  // On an event: two steps forward, two back.
  await page.getByTestId('kind-select').selectOption({ label: 'DMA request queued · 4' });
  await page.getByTestId('kind-prev').click();
  expect(await currentKinds(page)).toContain('DmaQueued');
  const onEvent = await viewState(page);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(await viewState(page)).toBe(onEvent);
  expect(errors).toEqual([]);
});

test('idle stretches are skipped while playing, and the skip is shown', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'anatomy-of-a-send', 45_000, { viewport: null });
  await page.getByTestId('nav-toggle').click(); // the navigation row, under the bar
  // After the interrupt the frame finishes 10 µs later with nothing recorded in between.
  await page.getByTestId('scrub').fill('12000000');
  await page.getByTestId('idle-threshold').selectOption({ label: '1 µs' });
  await page.getByTestId('skip-idle').check();
  await page.getByTestId('speed').fill('500'); // 1 µs/s
  await page.getByTestId('play').click();
  await expect(page.getByTestId('nav-note')).toHaveText(/^skipped [\d.]+ µs idle$/);
  expect(await simTime(page)).toBeGreaterThan(21_500_000);
  await page.getByTestId('play').click();
  expect(errors).toEqual([]);
});

test('clicking a packet opens the inspector; a journey step moves the cursor', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'anatomy-of-a-send', 45_000, { viewport: null });
  await page.getByTestId('scrub').fill('16000000');
  await page.getByTestId('frame-tx').click();
  const inspector = page.getByTestId('packet-inspector');
  await expect(inspector).toBeVisible();
  await expect(inspector).toHaveAttribute('data-packet', '1');
  await expect(inspector.getByTestId('pi-what')).toContainText('UDP datagram sent · 1,518 B frame');
  await expect(inspector.getByTestId('pi-layers')).toContainText('payload1,472 B');
  await expect(inspector.getByTestId('pi-descriptors')).toContainText('send ring, slot 0');

  // The first step: S1, the driver. The cursor moves there and the row is marked.
  const step = inspector.getByTestId('pi-step').first();
  await expect(step).toContainText('S1');
  await expect(step.getByTestId('pi-step-where')).toHaveText('driver');
  const time = Number(await step.getAttribute('data-time'));
  await step.click();
  expect(await simTime(page)).toBe(time);
  await expect(step).toHaveAttribute('aria-current', 'step');
  expect(await currentKinds(page)).toContain('DriverPostSendBd');
  await page.screenshot({ path: 'e2e/artifacts/packet-inspector-send.png' });

  // Esc closes it; the event log's packet chip opens it again.
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);
  await page.locator('[data-testid="log-row"] [data-testid="packet-chip"]').first().click();
  await expect(inspector).toHaveAttribute('data-packet', '1');
  await inspector.getByTestId('pi-close').click();
  await expect(inspector).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the inspector on a web request: HTTP over TCP, the cache commands', async ({ page }) => {
  const errors = collectErrors(page);
  await openScenario(page, 'web-anatomy-of-a-request', 45_000, { viewport: null });
  const chips = page.locator('[data-testid="request-packets"] [data-testid="packet-chip"]');
  await expect(chips.first()).toBeVisible();
  await chips.nth(1).click();
  const inspector = page.getByTestId('packet-inspector');
  await expect(inspector.getByTestId('pi-what')).toContainText('TCP segment of the response');
  await expect(inspector.getByTestId('pi-layers')).toContainText('HTTP');
  await expect(inspector.getByTestId('pi-descriptors')).toContainText('send descriptor: append_mm');
  const last = inspector.getByTestId('pi-step').last();
  await last.click();
  expect(await simTime(page)).toBe(Number(await last.getAttribute('data-time')));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'e2e/artifacts/packet-inspector-web.png' });
  expect(errors).toEqual([]);
});
