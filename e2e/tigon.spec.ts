import { expect, test, type Page } from '@playwright/test';
import { openScenario } from './openScenario';

async function registers(page: Page): Promise<string> {
  const a = await page.getByTestId('fw-reg-A').getAttribute('data-bits');
  const b = await page.getByTestId('fw-reg-B').getAttribute('data-bits');
  return `${a}/${b}`;
}

test('tigon-one-packet: the firmware view shows both CPUs, their handlers and registers, and follows the cursor', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openScenario(page, 'tigon-one-packet', 45_000, { viewport: null });
  const view = page.getByTestId('firmware-view');
  await expect(view).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tigon firmware' })).toBeVisible();

  // Two lanes, each with handler bars: Mailbox and Receive Complete on A, Send Data Ready on B.
  const laneA = view.getByTestId('fw-lane-A');
  const laneB = view.getByTestId('fw-lane-B');
  await expect(laneA).toBeVisible();
  await expect(laneB).toBeVisible();
  expect(await laneA.getByTestId('fw-bar').count()).toBeGreaterThan(2);
  expect(await laneB.getByTestId('fw-bar').count()).toBeGreaterThan(2);
  await expect(laneA.locator('[data-testid="fw-bar"][data-event="RC"]')).toHaveCount(1);
  await expect(laneB.locator('[data-testid="fw-bar"][data-event="SDR"]')).toHaveCount(1);
  await expect(view.getByText('SDR', { exact: true }).first()).toBeVisible(); // the legend

  // Each CPU's register: nine bit cells, the other CPU's events greyed (Table 3.4).
  const regA = view.getByTestId('fw-reg-A');
  const regB = view.getByTestId('fw-reg-B');
  await expect(regA.getByTestId('fw-cell')).toHaveCount(9);
  await expect(regB.getByTestId('fw-cell')).toHaveCount(9);
  await expect(regA.locator('[data-testid="fw-cell"][data-state="masked"]')).toHaveCount(5);
  await expect(regB.locator('[data-testid="fw-cell"][data-state="masked"]')).toHaveCount(4);
  await expect(regA.locator('[data-event="MB"]')).not.toHaveAttribute('data-state', 'masked');
  await expect(view.getByTestId('fw-queue-dmaRead')).toBeVisible();
  await expect(view.getByTestId('fw-sram-util')).toBeVisible();

  // Stepping the cursor changes the registers: the first mailbox lights MB on CPU A, and PRI
  // outlines it.
  const before = await registers(page);
  const cursorTime = view.getByTestId('fw-cursor-time');
  let changed = false;
  for (let i = 0; i < 40 && !changed; i++) {
    const t = (await cursorTime.textContent()) ?? '';
    await page.getByTestId('step-forward').click();
    await expect(cursorTime).not.toHaveText(t); // the view has followed the cursor
    changed = (await registers(page)) !== before;
  }
  expect(changed).toBe(true);
  await expect(regA).toHaveAttribute('data-bits', '16');
  await expect(regA.locator('[data-event="MB"]')).toHaveAttribute('data-state', 'pending');
  await expect(regA.locator('[data-event="MB"]')).toHaveAttribute('data-pick', 'yes');

  // Clicking a handler bar moves the cursor into it: CPU A runs Receive Complete.
  const rc = laneA.locator('[data-testid="fw-bar"][data-event="RC"] rect');
  // Centred, clear of the sticky playback bar, before the mouse goes to it.
  await rc.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await rc.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(view.getByTestId('fw-now-A')).toContainText('Receive Complete');

  // The handler buttons step from one handler start to the next.
  const t0 = (await cursorTime.textContent()) ?? '';
  await view.getByTestId('fw-next').click();
  await expect(cursorTime).not.toHaveText(t0);
  await page.screenshot({ path: 'e2e/artifacts/tigon-firmware.png', fullPage: true });
});
