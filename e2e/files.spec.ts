import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// "Open a scenario file…": the core validates the file; invalid files list its messages, a
// valid one opens as a custom scenario page. The app keeps working after any bad file.

const preset = JSON.parse(readFileSync('scenarios/anatomy-of-a-send.json', 'utf8')) as Record<
  string,
  unknown
>;

function validScenario(id: string, title: string): Buffer {
  return Buffer.from(JSON.stringify({ ...preset, id, title }, null, 2));
}

const INVALID = Buffer.from(
  JSON.stringify(
    {
      format: 1,
      id: 'broken',
      title: 'Broken',
      summary: 'Two bad values',
      system: { bus: { clock_mhz: 50 } },
      workload: { datagram_bytes: 5000 },
    },
    null,
    2,
  ),
);

test('an invalid file lists the core’s paths and messages; a valid one opens', async ({ page }) => {
  await page.goto('./');
  const input = page.getByTestId('scenario-file-input');

  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: INVALID });
  const panel = page.getByTestId('file-errors');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('broken.json');
  await expect(panel).toContainText('system.bus.clock_mhz');
  await expect(panel).toContainText('workload.datagram_bytes');
  await expect(panel).toContainText('allowed 18 to 1472 bytes');
  await expect(page).toHaveURL(/#\/$|\/$/);
  await page.screenshot({ path: 'e2e/artifacts/file-rejected.png', fullPage: true });

  // Malformed JSON: the core's line/column message.
  await input.setInputFiles({
    name: 'malformed.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{\n  "id": "x",\n  "a": [1,,2]\n}'),
  });
  await expect(panel).toContainText('malformed.json');
  await expect(panel).toContainText(/line 3, column \d+/);

  // Too large: refused before reading, with a plain message.
  await input.setInputFiles({
    name: 'huge.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(1024 * 1024 + 10, 0x20),
  });
  await expect(panel).toContainText('at most 1 MB');

  // A valid file opens as a custom scenario page.
  await input.setInputFiles({
    name: 'my-send.json',
    mimeType: 'application/json',
    buffer: validScenario('my-send', 'My own send'),
  });
  await expect(page).toHaveURL(/#\/file\/my-send$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('My own send');
  await expect(page.getByTestId('custom-badge')).toHaveText('custom file');
  await expect(page.getByTestId('custom-id')).toContainText('my-send');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect(page.getByTestId('system-diagram')).toBeVisible();

  // Not added to the presets.
  await page.goto('./');
  await expect(page.getByTestId('card-anatomy-of-a-send')).toBeVisible();
  await expect(page.getByTestId('card-my-send')).toHaveCount(0);
});

test('the scenario page opens a file too, and a bad one leaves the page working', async ({
  page,
}) => {
  await page.goto('./#/s/udp-throughput');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  await expect(page.getByTestId('open-file')).toBeVisible();
  const input = page.getByTestId('scenario-file-input');
  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: INVALID });
  await expect(page.getByTestId('file-errors')).toContainText('system.bus.clock_mhz');
  await expect(page.getByTestId('system-diagram')).toBeVisible();
  await expect(page.getByTestId('sweep-chart')).toBeVisible();
  await page.getByTestId('step-forward').click();
  await expect(page).toHaveURL(/#\/s\/udp-throughput$/);

  await input.setInputFiles({
    name: 'other.json',
    mimeType: 'application/json',
    buffer: validScenario('other-send', 'Another send'),
  });
  await expect(page).toHaveURL(/#\/file\/other-send$/);
  await expect(page.getByTestId('custom-badge')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  // A reload keeps the opened file (this tab only).
  await page.reload();
  await expect(page.getByTestId('custom-badge')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
});

test('a file address that is not open any more explains itself', async ({ page }) => {
  await page.goto('./#/file/never-opened');
  await expect(page.getByTestId('route-problem')).toContainText('never-opened');
  await expect(page.getByTestId('open-file')).toBeVisible();
});
