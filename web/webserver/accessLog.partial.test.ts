// The access-log preset says what the core's parser does with partial content (206): it takes
// such a line as a request of the bytes sent (every 2xx counts), so no text may say it is set aside.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'build/native/nicsim');
const preset = join(root, 'scenarios/web-access-log.json');

describe('partial content (206) in an access log', () => {
  const text = readFileSync(preset, 'utf8');

  it('is not said to be set aside by the preset’s notes or tour', () => {
    expect(text).not.toMatch(/partial content\)? (are|is) (counted and )?set aside/i);
    expect(text).not.toMatch(/304s, partial content\)/);
    expect(text).toMatch(/Partial content \(206\) is taken/);
  });

  it.skipIf(!existsSync(cli))('is taken by the core’s parser, as the bytes it sent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nicsim-206-'));
    const log = join(dir, 'access.log');
    const at = '[01/Jul/1995:00:00:01 -0400]';
    writeFileSync(
      log,
      [
        `1.2.3.4 - - ${at} "GET /a.html HTTP/1.0" 200 5000`,
        `1.2.3.4 - - ${at} "GET /a.html HTTP/1.0" 206 1200`,
        `1.2.3.4 - - ${at} "GET /b.html HTTP/1.0" 304 -`,
        '',
      ].join('\n'),
    );
    const r = spawnSync(cli, [preset, '--log', log], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout).access_log as {
      accepted: number;
      rejected: Record<string, number>;
    };
    expect(report.accepted).toBe(2);
    expect(report.rejected['not-2xx']).toBe(1);
  });
});
