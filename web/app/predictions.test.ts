// README's per-paper table is the one web/app/predictions.json holds (both are written by
// `npm run predictions` from the CLI; `node web/scripts/predictions.mjs --check` reruns the
// presets to see that the JSON is current too).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import predictions from './predictions.json';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the per-paper count of predictions', () => {
  it("is README's table", () => {
    const r = spawnSync(process.execPath, ['web/scripts/predictions.mjs', '--readme-check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('counts every paper, holding no more predictions than it makes', () => {
    expect(predictions.papers.map((p) => p.id)).toEqual([
      'thesis',
      'sinic',
      'offload',
      'eta',
      'protocache',
      'facts',
    ]);
    for (const p of predictions.papers)
      expect(p.hold + p.known_miss).toBeLessThanOrEqual(p.predicted);
  });
});
