import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

// The partition editor: dragging a handler chip from CPU A to CPU B with the mouse sets
// its partition override, the core runs the new partition, and the CPU split changes; the keys
// move it back.

test('tigon-partition: drag Receive Complete from CPU A to CPU B and the run follows', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openScenario(page, 'tigon-partition', 45_000, { viewport: null });
  const editor = page.getByTestId('partition-editor');
  await expect(editor).toBeVisible();
  const zoneA = editor.getByTestId('pt-zone-A');
  const zoneB = editor.getByTestId('pt-zone-B');
  await expect(zoneA).toHaveAttribute('data-events', 'RC MB URRP DWC'); // Table 3.4
  await expect(editor.getByTestId('pt-semaphore')).toHaveAttribute('data-events', '');
  const split = editor.getByTestId('pt-split-bar');
  const before = Number(await split.getAttribute('data-a'));
  expect(before).toBeGreaterThan(0.3);
  await expect(page.getByTestId('override-chip')).toHaveCount(0);

  // Drag with the mouse: press on the chip's name, move over CPU B in steps, release.
  const chip = zoneA.locator('[data-testid="pt-chip"][data-event="RC"]');
  await chip.scrollIntoViewIfNeeded();
  const box = (await chip.locator('.pt-label').boundingBox())!;
  const target = (await zoneB.boundingBox())!;
  await page.mouse.move(box.x + 10, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height - 20, { steps: 15 });
  await expect(zoneB).toHaveClass(/over/);
  await page.mouse.up();

  // The chip now sits on CPU B, the override is the knob panel's, and the core re-ran.
  await expect(zoneB.locator('[data-testid="pt-chip"][data-event="RC"]')).toBeVisible();
  await expect(zoneA).toHaveAttribute('data-events', 'MB URRP DWC');
  const knob = page.getByTestId('override-chip');
  await expect(knob).toHaveAttribute('data-path', 'system.tigon.partition.receive_complete');
  await expect(knob).toContainText('B');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect(editor).toHaveAttribute('data-results', 'current');
  // Receive Complete shares the write channel with DWC and URRP left on CPU A: the semaphore.
  await expect(editor.getByTestId('pt-semaphore')).toHaveAttribute('data-events', 'RC URRP DWC');
  await expect
    .poll(async () => Number(await split.getAttribute('data-a')))
    .toBeLessThan(before - 0.2);
  await page.screenshot({ path: 'e2e/artifacts/partition-dragged.png', fullPage: true });

  // The keyboard moves it back: focus the chip and press A.
  await zoneB.locator('[data-testid="pt-chip"][data-event="RC"]').focus();
  await page.keyboard.press('a');
  await expect(zoneA.locator('[data-testid="pt-chip"][data-event="RC"]')).toBeFocused();
  await expect(page.getByTestId('override-chip')).toHaveCount(0);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect.poll(async () => Number(await split.getAttribute('data-a'))).toBeCloseTo(before, 3);
});
