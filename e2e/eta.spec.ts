import { expect, test, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { openScenario as openScenarioAt } from './openScenario';

// ETA+AIO's view (Brecht et al., EuroSys 2006): the PPE's and the application's lanes, Table 1's
// bins beside the paper's, Fig 4's curves with the paper's points; no page errors.

const openScenario = (page: Page, id: string) => openScenarioAt(page, id, 90_000);

// The preset's main run (the one its lanes draw) is at 1,000 requests/s, the low load it is about.
test('eta-never-sleeps: the PPE spins through empty iterations while the application idles', async ({
  page,
}) => {
  const errors = await openScenario(page, 'eta-never-sleeps');
  const view = page.getByTestId('eta-view');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('eta-lanes')).toBeVisible();
  // At 1,000 requests/s most of the PPE's lane is empty iterations.
  await expect
    .poll(() => view.getByTestId('eta-empty').count(), { timeout: 30_000 })
    .toBeGreaterThan(0);
  // The descriptor queues and the four NICs' rings at the cursor, as gauges.
  await expect(view.getByTestId('eta-descriptors')).toHaveCount(1);
  await expect(view.getByTestId('eta-nic-ring')).toHaveCount(4);
  await expect(view.getByTestId('eta-bar').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('eta-where-the-cycles-go: Table 1 bars beside the paper’s', async ({ page }) => {
  const errors = await openScenario(page, 'eta-where-the-cycles-go');
  const view = page.getByTestId('eta-view');
  await expect(view.getByTestId('eta-bar')).toHaveCount(3);
  await expect(view.getByTestId('eta-paper-bar')).toHaveCount(3);
  expect(errors).toEqual([]);
});

test('eta-efficiency-against-load: Fig 4’s curves and the paper’s points', async ({ page }) => {
  const errors = await openScenario(page, 'eta-efficiency-against-load');
  const view = page.getByTestId('eta-view');
  await expect(view.getByTestId('eta-curve')).toHaveCount(4, { timeout: 90_000 });
  expect(await view.getByTestId('eta-paper-point').count()).toBeGreaterThan(2);
  expect(errors).toEqual([]);
});

test('eta-never-sleeps: the view is described, reached by Tab, and passes axe', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const errors = await openScenario(page, 'eta-never-sleeps');
  const view = page.getByTestId('eta-view');
  // Its words for screen readers: the PPE's empty iterations at the cursor.
  await expect(page.getByTestId('view-description-eta')).toContainText(
    /the PPE \(CPU 0\) ran \d+ iterations? with work and [1-9][\d,]* empty iterations/,
  );
  await expect(page.getByTestId('view-description-eta')).toContainText(
    /Frames on the NICs’ rings at the cursor: NIC 0 \d+ received/,
  );
  // Each figure is one tab stop.
  for (const id of ['eta-lanes', 'eta-gauges', 'eta-bars']) {
    const figure = view.getByTestId(id);
    await expect(figure).toHaveAttribute('tabindex', '0');
    await figure.focus();
    await expect(figure).toBeFocused();
  }
  const results = await new AxeBuilder({ page }).include('[data-testid="eta-view"]').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(errors).toEqual([]);
});
