import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/eager';
import { presetSection, withSection } from './readmePresets';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');

describe('README', () => {
  it('lists every preset by group, as the scenario files say (UPDATE_README=1 rewrites it)', () => {
    const text = readFileSync(README, 'utf8');
    const want = withSection(text, presetSection(SCENARIOS));
    if (process.env.UPDATE_README) writeFileSync(README, want);
    else
      expect(text, 'run: UPDATE_README=1 npx vitest run web/app/readmePresets.test.ts').toBe(want);
    for (const s of SCENARIOS) expect(want).toContain(`(\`${s.id}\`)`);
  });
});
