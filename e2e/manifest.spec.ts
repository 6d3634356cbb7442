// The app is installable: index.html links a web manifest whose icons (SVG, PNG 192 and 512, a
// maskable one) load at their stated sizes, and Chromium reads the manifest without errors.
import { expect, test } from '@playwright/test';

test('the web manifest and its icons load, and Chromium reports no manifest error', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('./#/');
  await expect(page.getByRole('heading', { name: 'Start here' })).toBeVisible();
  const cdp = await page.context().newCDPSession(page);
  const got = (await cdp.send('Page.getAppManifest')) as {
    url: string;
    errors: { message: string; critical: number }[];
    data?: string;
  };
  expect(got.url).toMatch(/manifest\.webmanifest$/);
  expect(got.errors).toEqual([]);
  const manifest = JSON.parse(got.data!) as {
    name: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest.display).toBe('standalone');
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const res = await page.request.get(new URL(icon.src, got.url).href);
    expect(res.ok(), icon.src).toBe(true);
    expect(res.headers()['content-type']).toContain(icon.type.split('+')[0]!);
    if (icon.type === 'image/png') {
      const body = await res.body();
      // PNG IHDR: width and height, big-endian, at bytes 16 and 20.
      const size = `${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`;
      expect(size, icon.src).toBe(icon.sizes);
    }
  }
  expect(errors).toEqual([]);
});
