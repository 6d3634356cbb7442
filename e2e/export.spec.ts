import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

async function take(page: Page, menu: string, item: string) {
  await page.getByTestId(menu).locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(item).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

test('the sweep chart exports as SVG, PNG and CSV', async ({ page }) => {
  await page.goto('./#/s/tigon-one-or-two-cpus');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const svg = await take(page, 'chart-export', 'export-svg');
  expect(svg.name).toBe('tigon-one-or-two-cpus-sweep.svg');
  const text = svg.bytes.toString('utf8');
  expect(text).toMatch(/^<\?xml/);
  expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
  // The title and the legend are drawn in, and the styles inlined.
  expect(text).toContain('sweep</text>'); // the title, wrapped to the chart's width
  expect(text).toMatch(/stroke:/);
  expect(text).not.toContain('hover-line');

  const png = await take(page, 'chart-export', 'export-png');
  expect(png.name).toBe('tigon-one-or-two-cpus-sweep.png');
  expect([...png.bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(png.bytes.length).toBeGreaterThan(5000);

  const csv = await take(page, 'chart-export', 'export-csv');
  const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
  expect(lines[0]).toMatch(/^workload\.datagram_bytes,system\.tigon\.firmware,/);
  expect(lines.length).toBeGreaterThan(3);
});

test('the run downloads as a scenario file, results CSV and a Perfetto trace', async ({ page }) => {
  await page.goto('./#/s/anatomy-of-a-send');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'done', {
    timeout: 45_000,
  });
  const scenario = await take(page, 'run-downloads', 'download-scenario');
  expect(scenario.name).toBe('anatomy-of-a-send.json');
  expect(JSON.parse(scenario.bytes.toString('utf8')).id).toBe('anatomy-of-a-send');

  const results = await take(page, 'run-downloads', 'download-results');
  expect(results.bytes.toString('utf8').split('\n')[0]).toBe('metric,value,unit');

  const trace = await take(page, 'run-downloads', 'download-trace');
  expect(trace.name).toBe('anatomy-of-a-send-trace.json');
  const doc = JSON.parse(trace.bytes.toString('utf8')) as {
    traceEvents: { ph: string; name: string; args?: { name?: string } }[];
  };
  expect(doc.traceEvents.some((e) => e.ph === 'X')).toBe(true);
  expect(
    doc.traceEvents.filter((e) => e.name === 'thread_name').map((e) => e.args?.name),
  ).toContain('I/O bus');
});
