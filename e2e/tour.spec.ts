// Guided tours and presenter mode: a tour moves the cursor and the diagram's highlight,
// a predict step runs its variant through the knob panel's path and reveals live values, going
// back restores the scenario's settings, and presenter mode is driven from the keyboard alone at
// a projector's 1280×720.
import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

const SCENARIO = 'anatomy-of-a-send';

const simPs = async (page: Page) =>
  Number(await page.getByTestId('sim-time').getAttribute('data-ps'));

test('a tour moves the cursor and the highlight; back and exit restore', async ({ page }) => {
  const errors = await openScenario(page, SCENARIO, 45_000, {
    viewport: null,
    consoleErrors: false,
  });
  const diagram = page.getByTestId('system-diagram');
  await expect(diagram).toHaveAttribute('data-highlight', '');
  await expect(page.getByTestId('tour-launch')).toContainText('6 steps');

  await page.getByTestId('tour-start').click();
  const dock = page.getByTestId('tour-dock');
  await expect(dock).toBeVisible();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 1 of 6');
  await expect.poll(() => simPs(page)).toBe(3_310_000);
  await expect(diagram).toHaveAttribute('data-highlight', 'driver send_ring');
  await expect(
    diagram.locator('[data-testid="highlight-ring"][data-part="send_ring"]'),
  ).toHaveCount(
    2, // the ring's host copy and the NIC's copy
  );
  await expect(diagram).toHaveAttribute(
    'aria-label',
    /highlighted: driver \(host CPU\), send ring/,
  );

  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 2 of 6');
  await expect.poll(() => simPs(page)).toBe(3_400_000);
  await expect(diagram).toHaveAttribute('data-highlight', 'mailbox bus host_bridge');
  await expect(diagram.locator('[data-part="mailbox"]')).toHaveCount(1);
  await expect(diagram.locator('[data-part="send_ring"]')).toHaveCount(0);

  // The cursor is the viewer's between steps; Back puts it where step 1 says.
  await page.getByTestId('step-forward').click();
  await page.getByTestId('tour-back').click();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 1 of 6');
  await expect.poll(() => simPs(page)).toBe(3_310_000);
  await expect(diagram).toHaveAttribute('data-highlight', 'driver send_ring');

  // The dots jump; playback is paused by every step.
  await page.getByTestId('play').click();
  await page.getByTestId('tour-dot-5').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => simPs(page)).toBe(10_400_000);
  await expect(diagram).toHaveAttribute('data-highlight', 'mac_tx wire_tx tx_buffer');

  await page.getByTestId('tour-exit').click();
  await expect(dock).toHaveCount(0);
  await expect(diagram).toHaveAttribute('data-highlight', '');
  await expect(diagram.getByTestId('highlight-layer')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a predict step runs the variant, reveals live values, and back restores', async ({
  page,
}) => {
  const errors = await openScenario(page, SCENARIO, 45_000, {
    viewport: null,
    consoleErrors: false,
  });
  await page.getByTestId('tour-open-6').click();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 6 of 6');
  const predict = page.getByTestId('tour-predict');
  await expect(predict).toContainText('threshold of 4 descriptors');
  await expect(page.getByTestId('tour-reveal')).toHaveCount(0);
  await expect(page.getByTestId('override-chip')).toHaveCount(0);

  await page.getByTestId('tour-choice-2').click();
  await page.getByTestId('tour-run').click();
  const reveal = page.getByTestId('tour-reveal');
  await expect(reveal).toHaveAttribute('data-status', 'done', { timeout: 45_000 });
  await expect(reveal).toContainText('The class predicted: Not within this run');
  await expect(reveal).toContainText('threshold is never reached');
  // The variant went through the knob panel's path: its chip shows what changed.
  await expect(page.getByTestId('override-chip')).toHaveAttribute(
    'data-path',
    'system.nic.coalesce.send_bds',
  );
  // Live values, before and after, from the two runs (the scenario interrupts once).
  const table = page.getByTestId('tour-reveal-metrics');
  const interrupts = table.getByTestId('tour-metric').filter({ hasText: 'Interrupts' });
  await expect(interrupts.locator('td.was')).toHaveText('1 interrupts');
  await expect(interrupts.getByTestId('tour-live')).toHaveText('0 interrupts');
  // The paper's value sits beside it, with its source.
  await expect(interrupts).toContainText('seed 000 §2.3');

  // Going back restores the scenario's own settings (and runs them again).
  await page.getByTestId('tour-back').click();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 5 of 6');
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-reveal')).toHaveCount(0);
  await expect(page.getByTestId('tour-metrics').getByTestId('tour-live')).toHaveText(
    '1 interrupts',
  );
  expect(errors).toEqual([]);
});

test('presenter mode at 1280×720 is driven by the keyboard alone', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const errors = await openScenario(page, SCENARIO, 45_000, {
    viewport: null,
    consoleErrors: false,
  });
  const root = page.locator('html');

  await page.keyboard.press('p');
  await expect(root).toHaveClass(/presenter-mode/);
  // Clutter hidden: results tables, file tools, the knob panel's details; notices collapsed.
  await expect(page.locator('.panel-results')).toBeHidden();
  await expect(page.locator('.panel-checks')).toBeHidden();
  await expect(page.getByTestId('open-file')).toBeHidden();
  await expect(page.locator('.notice-toggle')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('presenter-toggle')).toBeVisible();
  // Large type: the narration is bigger than the page's usual 15 px.
  const summarySize = await page
    .locator('.summary')
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(summarySize).toBeGreaterThanOrEqual(18);

  // Number keys start the tour at a step; arrows go next and back.
  await page.keyboard.press('1');
  await expect(page.getByTestId('tour-count')).toHaveText('Step 1 of 6');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-count')).toHaveText('Step 2 of 6');
  await expect.poll(() => simPs(page)).toBe(3_400_000);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tour-count')).toHaveText('Step 1 of 6');
  await page.keyboard.press('3');
  await expect(page.getByTestId('tour-count')).toHaveText('Step 3 of 6');
  await expect(page.getByTestId('system-diagram')).toHaveAttribute(
    'data-highlight',
    'dma_read bus send_ring',
  );

  // The dock and the highlighted diagram share the 720 px: both in view, the dock readable.
  const dock = await page.getByTestId('tour-dock').boundingBox();
  expect(dock!.y + dock!.height).toBeLessThanOrEqual(720);
  const text = page.getByTestId('tour-text');
  expect(
    await text.evaluate((el) => parseFloat(getComputedStyle(el).fontSize)),
  ).toBeGreaterThanOrEqual(18);
  const ring = await page.locator('[data-testid="highlight-ring"]').first().boundingBox();
  expect(ring!.y).toBeGreaterThanOrEqual(0);
  expect(ring!.y + ring!.height).toBeLessThanOrEqual(dock!.y);
  await page.screenshot({ path: 'e2e/artifacts/tour-presenter-1280x720.png' });

  // Space plays and pauses, even with a button focused.
  await page.getByTestId('tour-next').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('tour-count')).toHaveText('Step 3 of 6');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');

  // A predict step from the keyboard: a letter picks, R runs and reveals.
  await page.keyboard.press('4');
  await page.keyboard.press('b');
  await expect(page.getByTestId('tour-choice-1')).toHaveClass(/picked/);
  await page.keyboard.press('r');
  await expect(page.getByTestId('tour-reveal')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect(page.getByTestId('tour-reveal-metrics')).toContainText('Bus utilisation');

  // Esc leaves presenter mode (the tour stays); outside it, Esc ends the tour.
  await page.keyboard.press('Escape');
  await expect(root).not.toHaveClass(/presenter-mode/);
  await expect(page.getByTestId('tour-dock')).toBeVisible();
  await expect(page.locator('.panel-results')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour-dock')).toHaveCount(0);
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the highlight does not pulse under prefers-reduced-motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openScenario(page, SCENARIO, 45_000, { viewport: null, consoleErrors: false });
  await page.getByTestId('tour-start').click();
  const halo = page.locator('.hl-halo').first();
  await expect(halo).toBeVisible();
  expect(await halo.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await halo.evaluate((el) => getComputedStyle(el).animationName)).toBe('hl-glow');
});

test('a tour without a diagram scrolls to its views and runs its variant', async ({ page }) => {
  const errors = await openScenario(page, 'tigon-handler-profile', 45_000, {
    viewport: null,
    consoleErrors: false,
  });
  await page.getByTestId('tour-start').click();
  await expect(page.getByTestId('tour-count')).toHaveText('Step 1 of 4');
  await expect(page.locator('.panel-firmware')).toBeInViewport();
  await page.keyboard.press('4');
  await expect(page.locator('.panel-profile')).toBeInViewport();
  await page.getByTestId('tour-run').click();
  await expect(page.getByTestId('tour-reveal')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const sdr = page
    .getByTestId('tour-reveal-metrics')
    .getByTestId('tour-metric')
    .filter({ hasText: 'Send Data Ready' });
  await expect(sdr.getByTestId('tour-live')).not.toHaveText('…');
  await expect(sdr.locator('td.was')).not.toHaveText(
    await sdr.getByTestId('tour-live').innerText(),
  );
  expect(errors).toEqual([]);
});
