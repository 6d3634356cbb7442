import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

async function range(page: Page): Promise<[number, number]> {
  const r = page.getByTestId('tl-range');
  return [Number(await r.getAttribute('data-t0')), Number(await r.getAttribute('data-t1'))];
}

test('the timeline of a send: its lanes, arrows, zoom, pan, cursor and a packet followed', async ({
  page,
}) => {
  const errors = await openScenario(page, 'anatomy-of-a-send', 45_000, { viewport: null });
  const view = page.getByTestId('timeline-view');
  await view.scrollIntoViewIfNeeded();
  await expect(view).toBeVisible();

  // The lanes of a send through the fixed-function NIC, and only those.
  const labels = await page
    .getByTestId('tl-lane')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));
  expect(labels).toEqual([
    'host CPU',
    'driver',
    'PCI bus',
    'NIC events',
    'DMA read',
    'DMA write',
    'MAC transmit',
    'wire (to peer)',
  ]);
  expect(await page.getByTestId('tl-arrow').count()).toBeGreaterThan(15);
  await expect(page.getByTestId('tl-unit')).toHaveText('µs');
  const [w0, w1] = await range(page);
  expect(w1 - w0).toBe(40_000_000);

  // Zoom in with the button, then with the wheel: the axis narrows and its unit follows.
  await page.getByTestId('tl-zoom-in').click();
  const [a0, a1] = await range(page);
  expect(a1 - a0).toBe(20_000_000);
  const hit = page.getByTestId('tl-hit');
  // Centred, clear of the sticky playback bar, before the mouse goes to it.
  await hit.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await hit.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + 30);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -250);
  await expect
    .poll(async () => {
      const [b0, b1] = await range(page);
      return b1 - b0;
    })
    .toBeLessThan(200_000);
  await expect(page.getByTestId('tl-unit')).toHaveText('ns');
  const ticks = await page.getByTestId('tl-tick').allTextContents();
  expect(ticks.length).toBeGreaterThan(2);

  // Pan with the keyboard, then drag the lanes: the range moves, its width stays.
  const [p0, p1] = await range(page);
  await page.locator('.tl-wrap').focus();
  await page.keyboard.press('ArrowRight');
  const [q0, q1] = await range(page);
  expect(q0).toBeGreaterThan(p0);
  expect(q1 - q0).toBeCloseTo(p1 - p0, 0);
  await page.mouse.move(box.x + box.width * 0.6, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + 30, { steps: 5 });
  await page.mouse.up();
  const [d0] = await range(page);
  expect(d0).toBeGreaterThan(q0);

  // Zoom out with the keyboard and the button, back to the whole window.
  await page.keyboard.press('-');
  await page.getByTestId('tl-zoom-all').click();
  expect(await range(page)).toEqual([w0, w1]);
  await expect(page.getByTestId('tl-unit')).toHaveText('µs');

  // Clicking the lanes moves the cursor there (the playback bar agrees).
  await hit.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const lanes = (await hit.boundingBox())!;
  await page.mouse.click(lanes.x + lanes.width * 0.25, lanes.y + 8);
  const cursor = Number(await page.getByTestId('tl-cursor').getAttribute('data-t'));
  expect(cursor).toBeGreaterThan(9_000_000);
  expect(cursor).toBeLessThan(11_000_000);
  expect(Number(await page.getByTestId('sim-time').getAttribute('data-ps'))).toBe(cursor);
  // Dragging the time axis scrubs the cursor.
  const axis = (await page.getByTestId('tl-axis-hit').boundingBox())!;
  await page.mouse.move(axis.x + axis.width * 0.5, axis.y + axis.height / 2);
  await page.mouse.down();
  await page.mouse.move(axis.x + axis.width * 0.75, axis.y + axis.height / 2, { steps: 5 });
  await page.mouse.up();
  const scrubbed = Number(await page.getByTestId('tl-cursor').getAttribute('data-t'));
  expect(scrubbed).toBeGreaterThan(28_000_000);

  // Hover the MAC's frame: it is named; click it: packet 1 is followed, its arrows on top.
  const mac = page.locator('[data-testid="tl-lane"][data-lane="macTx:0"]');
  const macBox = (await mac.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.4, macBox.y + macBox.height / 2);
  await expect(page.getByTestId('tl-tip')).toContainText('S5: sends packet 1’s frame');
  await page.mouse.click(box.x + box.width * 0.4, macBox.y + macBox.height / 2);
  await expect(page.getByTestId('tl-follow')).toHaveAttribute('data-packet', '1');
  expect(await page.locator('.tl-arrow.on').count()).toBeGreaterThan(10);
  await page.getByRole('button', { name: 'fit to its journey' }).click();
  const [f0, f1] = await range(page);
  expect(f0).toBeGreaterThan(w0);
  expect(f1).toBeLessThan(w1);
  await page.getByTestId('tl-unfollow').click();
  await expect(page.getByTestId('tl-follow')).toHaveCount(0);

  // No serious or critical accessibility violation in the view.
  const axe = await new AxeBuilder({ page }).include('[data-testid="timeline-view"]').analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // On a phone the drawing scales down whole: its height follows its width (no blank band).
  await page.setViewportSize({ width: 390, height: 844 });
  const svg = page.getByTestId('timeline-svg');
  await svg.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      svg.evaluate((e) => {
        const vb = (e as SVGSVGElement).viewBox.baseVal;
        const r = e.getBoundingClientRect();
        return Math.abs(r.height - (r.width * vb.height) / vb.width);
      }),
    )
    .toBeLessThan(2);

  expect(errors).toEqual([]);
});

test('the timeline of a web request shows the server’s lanes', async ({ page }) => {
  // The full-system web run is the slowest preset: give it time on a loaded machine.
  test.slow();
  const errors = await openScenario(page, 'web-anatomy-of-a-request', 150_000, { viewport: null });
  await page.getByTestId('timeline-view').scrollIntoViewIfNeeded();
  const web = await page
    .getByTestId('tl-lane')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));
  expect(web).toEqual(
    expect.arrayContaining(['host CPU', 'web server', 'PCI bus', 'NIC 2 DMA read']),
  );
  expect(await page.getByTestId('tl-bar').count()).toBeGreaterThan(100);
  expect(errors).toEqual([]);
});

test('the timeline of the Tigon shows its two CPUs', async ({ page }) => {
  const errors = await openScenario(page, 'tigon-one-packet', 45_000, { viewport: null });
  await page.getByTestId('timeline-view').scrollIntoViewIfNeeded();
  const tigon = await page
    .getByTestId('tl-lane')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));
  expect(tigon).toEqual(expect.arrayContaining(['Tigon CPU A', 'Tigon CPU B', 'MAC receive']));
  expect(await page.getByTestId('tl-arrow').count()).toBeGreaterThan(30);
  expect(errors).toEqual([]);
});
