import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

// "Bring your own access log": a scenario whose workload.trace is "log" asks for a log, reports
// what it took and rejected, and runs the core with it; a binary file is refused and changes
// nothing. The scenario is opened as a file, so the test needs no preset.

const SCENARIO = {
  format: 1,
  id: 'e2e-own-log',
  title: 'My own access log',
  summary: 'A small Common Log Format log through a 256 KB NIC cache.',
  system: { nics: 1, nic_cache: { kbytes: 256, block_bytes: 4096, replacement: 'lru' } },
  workload: { kind: 'web', web_mode: 'cache-only', trace: 'log' },
  run: { trace: { start_us: 0, end_us: 200 } },
  views: ['cache', 'results'],
};

/** 120 requests to 12 files (some repeated, so the cache hits), and four bad lines. */
function accessLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    const f = (i * 7) % 12;
    lines.push(
      `192.168.0.${i % 9} - - [10/Oct/2000:13:55:${String(i % 60).padStart(2, '0')} -0700] "GET /files/f${f}.html HTTP/1.0" 200 ${1000 + f * 1500}`,
    );
  }
  lines.splice(3, 0, 'this is not a log line');
  lines.splice(10, 0, '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "POST /form HTTP/1.0" 200 12');
  lines.splice(20, 0, '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /gone.html HTTP/1.0" 404 209');
  lines.splice(30, 0, '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /f?id=3 HTTP/1.0" 200 512');
  return lines.join('\n') + '\n';
}

async function openScenario(page: Page) {
  await page.goto('./');
  await page.getByTestId('scenario-file-input').setInputFiles({
    name: 'own-log.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(SCENARIO)),
  });
  await expect(page.getByTestId('scenario-page')).toBeVisible();
  await expect(page.getByTestId('log-prompt')).toBeVisible();
}

test('an access log is parsed, reported line by line and replayed through the cache', async ({
  page,
}) => {
  await openScenario(page);
  // No log yet: a prompt, not an error; nothing ran.
  await expect(page.getByTestId('log-prompt')).toContainText('access log of your own');
  await expect(page.getByTestId('run-errors')).toHaveCount(0);
  await expect(page.getByTestId('log-link-note')).toContainText('does not carry the log');

  await page.getByTestId('log-input').setInputFiles({
    name: 'access.log',
    mimeType: 'text/plain',
    buffer: Buffer.from(accessLog()),
  });
  const report = page.getByTestId('log-report');
  await expect(report).toBeVisible();
  await expect(report).toHaveAttribute('data-accepted', '120');
  await expect(report).toHaveAttribute('data-lines', '124');
  await expect(page.getByTestId('log-summary')).toContainText(
    '120 requests to 12 files from 124 lines; 4 rejected',
  );
  for (const reason of ['malformed', 'not-get', 'not-2xx', 'dynamic'])
    await expect(page.getByTestId(`log-rejected-${reason}`)).toHaveAttribute('data-count', '1');
  const samples = page.getByTestId('log-sample');
  await expect(samples).toHaveCount(4);
  await expect(samples.first()).toHaveAttribute('data-line', '4');
  await expect(samples.first()).toContainText('this is not a log line');
  await expect(page.getByTestId('log-prompt')).toHaveCount(0);

  // The core ran with the log: results and the cache at the cursor.
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');
  const view = page.getByTestId('cache-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('your access log trace');
  await expect(page.getByTestId('cache-request')).toContainText('Request 0');
  await page.getByTestId('cache-next').click();
  await expect(page.getByTestId('cache-request')).toContainText('Request 1');
  // At the last request, part of the content came from the cache.
  await page.getByTestId('scrub').fill('119000000');
  await expect(page.getByTestId('cache-request')).toContainText('Request 119');
  const reduction = Number(await page.getByTestId('cache-reduction').getAttribute('aria-valuenow'));
  expect(reduction).toBeGreaterThan(50);
  await expect(page.locator('.panel-results')).toContainText('Content traffic reduction');
  await page.screenshot({ path: 'e2e/artifacts/access-log.png', fullPage: true });

  // Back to a generated trace, and the log stays loaded.
  await page.getByTestId('log-source').selectOption('nasa');
  await expect(view).toContainText('NASA trace');
  await expect(report).toBeVisible();
});

test('a binary file is refused and the page keeps working', async ({ page }) => {
  await openScenario(page);
  const bytes = Buffer.alloc(8192);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  await page.getByTestId('log-input').setInputFiles({
    name: 'photo.bin',
    mimeType: 'application/octet-stream',
    buffer: bytes,
  });
  const refused = page.getByTestId('log-refused');
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('photo.bin');
  await expect(refused).toContainText('binary file, not a text access log');
  // Still asking for a log; no run, no error page.
  await expect(page.getByTestId('log-prompt')).toBeVisible();
  await expect(page.getByTestId('run-errors')).toHaveCount(0);
  await expect(page.getByTestId('scenario-page')).toBeVisible();
});

test('a huge log shows its progress and can be cancelled; the log in use stays', async ({
  page,
}) => {
  await openScenario(page);
  await page.getByTestId('log-input').setInputFiles({
    name: 'access.log',
    mimeType: 'text/plain',
    buffer: Buffer.from(accessLog()),
  });
  const report = page.getByTestId('log-report');
  await expect(report).toHaveAttribute('data-accepted', '120');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done');

  // About 400 MB: the core reads it in 4 MB slices in a worker, long enough to cancel.
  const line = Buffer.from(
    '10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /big/file.html HTTP/1.0" 200 4096\n',
  );
  const big = join(mkdtempSync(join(tmpdir(), 'nicsim-e2e-')), 'huge.log');
  writeFileSync(big, Buffer.concat(Array.from({ length: 5_000_000 }, () => line)));
  await page.getByTestId('log-input').setInputFiles(big);
  const progress = page.getByTestId('log-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('huge.log');
  await expect(progress).toContainText('the results on screen stay meanwhile');
  await page.screenshot({ path: 'e2e/artifacts/access-log-progress.png' });
  await page.getByTestId('log-cancel').click();
  await expect(page.getByTestId('log-cancelled')).toContainText('The log in use stays');
  await expect(progress).toHaveCount(0);
  await expect(report).toHaveAttribute('data-accepted', '120');
  await expect(page.getByTestId('log-source')).toContainText('your access log (access.log)');
});

test('the preset’s link without a log asks for one', async ({ page }) => {
  test.skip(!existsSync('scenarios/web-access-log.json'), 'no web-access-log preset yet');
  await page.goto('./#/s/web-access-log');
  await expect(page.getByTestId('log-prompt')).toBeVisible();
  await expect(page.getByTestId('run-errors')).toHaveCount(0);
});

test('a log the core refuses to replay shows its error without "running" first', async ({
  page,
}) => {
  await page.goto('./');
  // 512-byte blocks and 600 responses of 1 GB: more cache blocks than a replay may reference.
  const scenario = {
    ...SCENARIO,
    id: 'e2e-too-many-blocks',
    system: { nics: 1, nic_cache: { kbytes: 256, block_bytes: 512, replacement: 'lru' } },
  };
  await page.getByTestId('scenario-file-input').setInputFiles({
    name: 'too-many-blocks.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await expect(page.getByTestId('log-prompt')).toBeVisible();
  // Every status the line takes from now on.
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="run-status"]')!;
    const seen: string[] = [el.getAttribute('data-status') ?? ''];
    (window as unknown as { __statuses: string[] }).__statuses = seen;
    new MutationObserver(() => seen.push(el.getAttribute('data-status') ?? '')).observe(el, {
      attributes: true,
      attributeFilter: ['data-status'],
    });
  });
  const lines = Array.from(
    { length: 600 },
    (_, i) =>
      `10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /big/f${i % 50}.iso HTTP/1.0" 200 1000000000`,
  );
  await page.getByTestId('log-input').setInputFiles({
    name: 'huge-files.log',
    mimeType: 'text/plain',
    buffer: Buffer.from(lines.join('\n') + '\n'),
  });
  await expect(page.getByTestId('log-report')).toHaveAttribute('data-accepted', '600');
  const errors = page.getByTestId('run-errors');
  await expect(errors).toContainText('more cache blocks than the limit');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'invalid');
  const statuses = await page.evaluate(
    () => (window as unknown as { __statuses: string[] }).__statuses,
  );
  expect(statuses).not.toContain('running');
});
