// The browser's launch: one --disable-features, Playwright's own list and the suite's together.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumLaunchOptions, launchOptions, playwrightDisabledFeatures } from './chromium.mjs';

const FEATURES = '--disable-features=';

describe('the launch options of Debian Chromium', () => {
  it("finds Playwright's own list of disabled features", () => {
    const names = playwrightDisabledFeatures();
    // Two of those Playwright documents (chromiumSwitches.ts) as changing what a page does.
    expect(names).toEqual(
      expect.arrayContaining(['PaintHolding', 'ThirdPartyStoragePartitioning']),
    );
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it('passes one --disable-features with both lists, and drops the default one', () => {
    const config = { executablePath: '/x', args: ['--a', `${FEATURES}Mine,Other`, '--b'] };
    const o = launchOptions(config, ['Theirs', 'Other']);
    expect(o.executablePath).toBe('/x');
    expect(o.args).toEqual(['--a', '--b', `${FEATURES}Theirs,Other,Mine`]);
    expect(o.ignoreDefaultArgs).toEqual([`${FEATURES}Theirs,Other`]);
  });

  it('leaves the config as it is when it disables no feature', () => {
    const config = { executablePath: '/x', args: ['--a'] };
    expect(launchOptions(config, ['Theirs'])).toEqual(config);
  });

  it("the suite's options: chromium.json's flags, one feature list with Playwright's in it", () => {
    const json = JSON.parse(
      readFileSync(new URL('../../e2e/chromium.json', import.meta.url), 'utf8'),
    ) as { executablePath: string; args: string[] };
    const o = chromiumLaunchOptions();
    expect(o.executablePath).toBe(json.executablePath);
    const lists = o.args!.filter((a) => a.startsWith(FEATURES));
    expect(lists).toHaveLength(1);
    const names = lists[0]!.slice(FEATURES.length).split(',');
    expect(names).toEqual(expect.arrayContaining(playwrightDisabledFeatures()));
    expect(names).toEqual(expect.arrayContaining(['WebUIOmniboxPopup']));
    for (const a of json.args) if (!a.startsWith(FEATURES)) expect(o.args).toContain(a);
  });
});
