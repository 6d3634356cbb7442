import { expect, test } from '@playwright/test';
import { openScenario } from './openScenario';

// The SINIC paper's views: the receive path, the SINIC registers and VNICs, and the CPU time by part
// on their presets; stepping the cursor moves them; no page errors.

test('sinic-anatomy: follow a SINIC packet step by step, its registers and the CPU bars', async ({
  page,
}) => {
  const errors = await openScenario(page, 'sinic-anatomy', 45_000);
  await expect(
    page.getByRole('heading', { name: 'DMA descriptors or a FIFO and a copy engine' }),
  ).toBeVisible();
  const rx = page.getByTestId('rxpath-view');
  await expect(rx).toHaveAttribute('data-nic', 'sinic');
  await expect(rx.getByTestId('rx-diagram')).toBeVisible();

  // The playback cursor moves the followed packet along.
  const before = `${await rx.getAttribute('data-packet')}/${await rx.getAttribute('data-step')}`;
  for (let i = 0; i < 12; i++) await page.getByTestId('step-forward').click();
  await expect
    .poll(
      async () => `${await rx.getAttribute('data-packet')}/${await rx.getAttribute('data-step')}`,
    )
    .not.toBe(before);

  // Pick the next packet, then step through it: the highlighted step follows.
  const p0 = await rx.getAttribute('data-packet');
  await rx.getByTestId('rx-next').click();
  await expect(rx).not.toHaveAttribute('data-packet', p0 ?? '');
  await expect(rx).toHaveAttribute('data-step', '0');
  await rx.getByTestId('rx-step-next').click();
  await expect(rx).toHaveAttribute('data-step', '1');
  await expect(rx.locator('[data-testid="rx-step"][data-state="now"]')).toHaveCount(1);
  // A SINIC packet's path: RxData, the copy engine, RxWait, the stack, the kernel copy.
  const kinds = await rx
    .getByTestId('rx-step')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
  for (const k of ['wire', 'arrive', 'rxdata', 'engine', 'rxwait', 'stack'])
    expect(kinds).toContain(k);
  // Clicking a step moves the cursor there.
  await rx.locator('[data-testid="rx-step"][data-kind="engine"] button').click();
  await expect(rx.locator('[data-testid="rx-step"][data-state="now"]')).toHaveAttribute(
    'data-kind',
    'engine',
  );
  await expect(rx.getByTestId('rx-diagram')).toHaveAttribute('data-arrow', 'toKernel');

  // SINIC: one register set; by now the driver has written RxData and read RxWait.
  const vn = page.getByTestId('vnics-view');
  await expect(vn.getByTestId('vnic-cell')).toHaveCount(1);
  await expect(vn.getByTestId('vnic-reg-RxData')).not.toContainText('not yet in the window');
  await expect(vn.getByTestId('vnic-reg-RxWait')).toContainText('Complete');

  // The CPU bars: the on-chip CNIC and SINIC, SINIC (the run on screen) marked.
  const cpu = page.getByTestId('cpu-view');
  await expect(cpu.getByTestId('cpu-bar')).toHaveCount(2);
  await expect(cpu.locator('[data-testid="cpu-bar"][data-selected="yes"]')).toHaveCount(1);
  await expect(cpu.getByTestId('cpu-checks')).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/sinic-anatomy.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('sinic-on-die: off chip, the frame goes by DMA into DRAM and the copy misses', async ({
  page,
}) => {
  const errors = await openScenario(page, 'sinic-on-die', 45_000);
  const rx = page.getByTestId('rxpath-view');
  await expect(rx).toHaveAttribute('data-nic', 'cnic-off-chip');
  // A packet followed from the wire to the user's buffer.
  for (let i = 0; i < 30; i++) {
    const kinds = await rx
      .getByTestId('rx-step')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    if (kinds[0] === 'wire' && kinds.includes('copy')) break;
    await rx.getByTestId('rx-next').click();
  }
  await rx.locator('[data-testid="rx-step"][data-kind="dma"] button').click();
  await expect(rx.getByTestId('rx-diagram')).toHaveAttribute('data-arrow', 'toKernel');
  await rx.locator('[data-testid="rx-step"][data-kind="copy"] button').click();
  await expect(rx.getByTestId('rx-miss-label')).toContainText('from DRAM');
  await expect(rx.getByTestId('rx-lines')).toBeVisible();
  // Eight CPU bars (two NICs by four L2 sizes), the chart beside.
  await expect(page.getByTestId('cpu-bar')).toHaveCount(8);
  await expect(page.getByTestId('sweep-chart')).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/sinic-on-die.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('sinic-zero-copy: 256 VNICs, some holding deferred payloads, change as the cursor steps', async ({
  page,
}) => {
  const errors = await openScenario(page, 'sinic-zero-copy', 45_000);
  const vn = page.getByTestId('vnics-view');
  await expect(vn.getByTestId('vnic-cell')).toHaveCount(256);
  expect(await vn.locator('[data-testid="vnic-cell"][data-state="3"]').count()).toBeGreaterThan(0);
  const t0 = await vn.getByTestId('vnic-time').textContent();
  await vn.getByTestId('vnic-next').click();
  await expect(vn.getByTestId('vnic-time')).not.toHaveText(t0 ?? '');
  // The receive path of a zero-copy packet ends with the payload copied to the user buffer.
  const rx = page.getByTestId('rxpath-view');
  for (let i = 0; i < 40; i++) {
    const kinds = await rx
      .getByTestId('rx-step')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    if (kinds[0] === 'wire' && kinds.includes('zcsetup')) break;
    await rx.getByTestId('rx-next').click();
  }
  await rx.locator('[data-testid="rx-step"][data-kind="engine"] button').last().click();
  await expect(rx.getByTestId('rx-diagram')).toHaveAttribute('data-arrow', 'toUser');
  await expect(page.getByTestId('cpu-bar')).toHaveCount(12);
  expect(errors).toEqual([]);
});
