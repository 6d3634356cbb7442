import { expect, test, type Page } from '@playwright/test';

// Links that reopen one exact moment (#v1.…), what a bad link does, and embed mode.

const SCENARIO = 'tigon-udp-send';

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function waitDone(page: Page): Promise<void> {
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
}

async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-ps'));
}

/** The open panels in order, by their class (panel-chart, panel-firmware, …). */
async function panelTitles(page: Page): Promise<string[]> {
  return (
    page
      // The stage holds the main moving view; the grid holds the others.
      .locator('.stage > section.panel, .grid > section.panel')
      .evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c.startsWith('panel-'))!))
  );
}

async function chips(page: Page): Promise<string[]> {
  return page
    .getByTestId('override-chip')
    .evaluateAll((els) =>
      els.map(
        (e) => `${e.getAttribute('data-path')}=${e.querySelector('.ochip-value')?.textContent}`,
      ),
    );
}

/** Opens the share menu, copies one of its links and returns it (from the page's own field). */
async function copyLink(page: Page, which: 'copy-link' | 'copy-link-moment'): Promise<string> {
  const menu = page.getByTestId('share-menu');
  if (!(await menu.evaluate((el: HTMLDetailsElement) => el.open)))
    await menu.locator('summary').click();
  await page.getByTestId(which).click();
  const field = page.getByTestId('share-link-text');
  await expect(field).toHaveValue(/#v1\./);
  return field.inputValue();
}

test('a link to this moment reopens the scenario, its settings, cursor and views', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(150_000); // four runs of a 24-point sweep on a shared machine
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(baseURL!).origin,
  });
  const errors = watchErrors(page);
  await page.goto(`./#/s/${SCENARIO}`);
  await waitDone(page);

  // Two settings changed from the knob panel (each runs by itself).
  await page.getByTestId('knobs-toggle').click();
  const size = page.getByTestId('knob-workload.datagram_bytes').getByRole('textbox');
  await size.fill('800');
  await size.press('Enter');
  await page.getByTestId('knobs-search').fill('system.tigon.firmware');
  await page
    .getByTestId('knob-system.tigon.firmware')
    .getByRole('combobox')
    .selectOption('release');
  await expect(page.getByTestId('override-chip')).toHaveCount(2);
  await waitDone(page);

  // The event log added from the views menu, the firmware view taken away.
  await page.getByTestId('views-menu').locator('summary').click();
  await page.getByTestId('view-toggle-events').check();
  await page.getByTestId('view-toggle-firmware').uncheck();
  await page.getByTestId('views-menu').locator('summary').click();
  await expect(page.getByTestId('firmware-view')).toHaveCount(0);

  for (let i = 0; i < 7; i++) await page.getByTestId('step-forward').click();
  const cursor = await simTime(page);
  const titles = await panelTitles(page);
  const changed = await chips(page);
  expect([...titles].sort()).toEqual(['panel-chart', 'panel-events', 'panel-timeline']);
  expect(changed).toEqual(['workload.datagram_bytes=800 bytes', 'system.tigon.firmware=release']);

  const link = await copyLink(page, 'copy-link-moment');
  await expect(page.getByTestId('share-result')).toHaveAttribute('data-how', 'clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  expect(new URL(link).hash.length).toBeLessThan(120);
  await page.screenshot({ path: 'e2e/artifacts/share-menu.png' });

  const other = await context.newPage();
  const otherErrors = watchErrors(other);
  await other.goto(link);
  await waitDone(other);
  await expect.poll(() => simTime(other)).toBe(cursor);
  expect(await panelTitles(other)).toEqual(titles);
  expect(await chips(other)).toEqual(changed);
  // The knob panel still knows the scenario's own values.
  await other.getByTestId('knobs-toggle').click();
  await other.getByTestId('knobs-search').fill('system.tigon.firmware');
  await expect(other.getByTestId('knob-system.tigon.firmware')).toContainText('scenario: parallel');
  // … exactly, once a run without overrides is done (PARALLEL's default follows the firmware).
  await other.getByTestId('knobs-search').fill('send_consumer_by_pio');
  await expect(other.getByTestId('knob-system.driver.send_consumer_by_pio')).toContainText(
    'scenario: yes',
  );
  await expect(other.getByTestId('link-banner')).toHaveCount(0);

  // "Copy link" carries the same settings with the cursor at the start.
  const plain = await copyLink(page, 'copy-link');
  const third = await context.newPage();
  await third.goto(plain);
  await waitDone(third);
  expect(await chips(third)).toEqual(changed);
  expect(await panelTitles(third)).toEqual(titles);
  const start = Number(await third.getByTestId('sim-time').getAttribute('data-ps'));
  expect(start).toBeLessThan(cursor);
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('without a clipboard the link is shown selected in a field', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  });
  await page.goto('./#/s/pci-dma-read');
  await waitDone(page);
  const link = await copyLink(page, 'copy-link-moment');
  await expect(page.getByTestId('share-result')).toHaveAttribute('data-how', 'field');
  const field = page.getByTestId('share-link-text');
  await expect(field).toBeFocused();
  const selected = await field.evaluate((el: HTMLInputElement) =>
    el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0),
  );
  expect(selected).toBe(link);
});

const BAD: Array<[string, string, string]> = [
  ['corrupt', '#v1.I0urhYEB4dQGMd_YwNQ$AnQgQQfz', 'base64url'],
  ['corrupt', '#v1.I0urhYEB4dQGMd_YwNQAAnQgQQfzPlJoQUMC', 'decompress'],
  ['too-long', `#v1.${'A'.repeat(2100)}`, 'at most 2000'],
  ['future-version', '#v2.I0urhYEB4dQGMd_YwNQAAnQgQQfz', 'format v2'],
  // {"s":"no-such"}
  ['unknown-scenario', '#v1.g2jNA9ZBpckZSrUA', '"no-such"'],
];

for (const [reason, hash, says] of BAD) {
  test(`a ${reason} link explains itself and opens the gallery (${says})`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto(`./${hash}`);
    const banner = page.getByTestId('link-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('data-reason', reason);
    await expect(banner).toContainText(says);
    // A usable page: the gallery, its cards open scenarios.
    await expect(page.getByTestId(`card-${SCENARIO}`)).toBeVisible();
    if (reason === 'corrupt' && says === 'base64url')
      await page.screenshot({ path: 'e2e/artifacts/link-banner.png' });
    await page.getByTestId('link-banner-dismiss').click();
    await expect(banner).toHaveCount(0);
    await page.getByTestId(`card-${SCENARIO}`).click();
    await waitDone(page);
    expect(errors).toEqual([]);
  });
}

test('settings the core rejects are dropped, named with their range, and the rest runs', async ({
  page,
}) => {
  const errors = watchErrors(page);
  // {"s":"tigon-udp-send","o":{"workload.datagram_bytes":99999,"system.tigon.firmware":"release",
  //  "foo.bar":1},"t":3050000000,"v":["chart","nope"],"k":3}
  await page.goto('./#v1.I0urJQgQk97S8vP1khKLgL6A2GZsYGoAATqQgIQFRl5-QSo0KIxrAQ');
  await waitDone(page);
  const banner = page.getByTestId('link-banner');
  await expect(banner).toHaveAttribute('data-reason', 'partial');
  await expect(banner.locator('[data-field="overrides.workload.datagram_bytes"]')).toContainText(
    'allowed 18 to 1472 bytes',
  );
  await expect(banner.locator('[data-field="overrides.foo.bar"]')).toContainText(
    "unknown parameter 'foo.bar'",
  );
  await expect(banner.locator('[data-field="views"]')).toContainText('"nope"');
  // Step 4 (k 3) is a step of this preset's tour, so it stands.
  await expect(banner.locator('[data-field="tourStep"]')).toHaveCount(0);
  expect(await chips(page)).toEqual(['system.tigon.firmware=release']);
  expect(await panelTitles(page)).toEqual(['panel-chart']);
  await expect.poll(() => simTime(page)).toBe(3_050_000_000);
  expect(errors).toEqual([]);
});

test('a bad link pasted over a scenario page leaves that page as it was', async ({ page }) => {
  await page.goto('./#/s/pci-dma-read');
  await waitDone(page);
  for (let i = 0; i < 4; i++) await page.getByTestId('step-forward').click();
  const cursor = await simTime(page);
  await page.evaluate(() => {
    location.hash = '#v9.AAAA';
  });
  await expect(page.getByTestId('link-banner')).toHaveAttribute('data-reason', 'future-version');
  await expect(page.getByTestId('link-banner')).toContainText('stays as it was');
  expect(await simTime(page)).toBe(cursor);
  await expect(page).toHaveURL(/#\/s\/pci-dma-read$/);
});

test('embed mode shows the scenario and its controls without the site around it', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('./?embed=1#/s/pci-dma-read');
  await waitDone(page);
  await expect(page.locator('.topbar')).toBeHidden();
  await expect(page.locator('.footer')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toBeHidden();
  await expect(page.getByTestId('open-file')).toBeHidden();
  await expect(page.getByTestId('play')).toBeVisible();
  await expect(page.getByTestId('knobs-toggle')).toBeVisible();
  await expect(page.getByTestId('waveform')).toBeVisible();
  const out = page.getByTestId('open-in-nicsim');
  await expect(out).toHaveAttribute('target', '_blank');
  expect(new URL((await out.getAttribute('href'))!).search).toBe('');
  expect(new URL((await out.getAttribute('href'))!).hash).toBe('#/s/pci-dma-read');
  await page.screenshot({ path: 'e2e/artifacts/embed.png' });
  // A link copied inside an embed opens the full app.
  const link = await copyLink(page, 'copy-link');
  expect(new URL(link).search).toBe('');

  // The gallery is not embedded: a plain message and the way out.
  await page.goto('./?embed=1#/');
  await expect(page.getByTestId('embed-gallery')).toBeVisible();
  await expect(page.getByTestId('open-in-nicsim')).toBeVisible();
  await expect(page.locator('.topbar')).toBeHidden();
  // A bad link in an embed: the banner and the same message.
  await page.goto('./?embed=1#v1.zz');
  await expect(page.getByTestId('link-banner')).toBeVisible();
  await expect(page.getByTestId('embed-gallery')).toBeVisible();
  expect(errors).toEqual([]);
});
