// One access log through the command line (nicsim --log FILE, native) and through the wasm
// module as the engine worker drives it (accessLogBegin/Feed/Finish, then run): the same report
// and the same run, byte for byte. Requires both builds (npm test builds them first).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'build/native/nicsim');
const preset = join(root, 'scenarios/web-access-log.json');
const built =
  existsSync(cli) &&
  existsSync(fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)));

/** 3,000 requests to 300 files, with every kind of rejected line, CRLF and odd bytes. */
function accessLog(): Uint8Array {
  const parts: string[] = ['\ufeff'];
  for (let i = 0; i < 3000; i++) {
    const f = (i * 7919) % (1 + (i % 300));
    const day = String(1 + (i % 28)).padStart(2, '0');
    let line = `10.0.${i % 7}.${i % 251} - - [${day}/Jul/1995:00:00:01 -0400] "GET /files/f${f}.html HTTP/1.0" 200 ${1000 + 37 * f}`;
    if (i % 5 === 0) line += ' "http://example.org/" "Mozilla/4.0 (compatible; caf\u00e9)"';
    parts.push(line + (i % 4 === 0 ? '\r\n' : '\n'));
    if (i % 97 === 0) parts.push('not a log line\n');
    if (i % 89 === 0)
      parts.push(`1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "POST /form HTTP/1.0" 200 12\n`);
    if (i % 83 === 0)
      parts.push(`1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "GET /q?id=${i} HTTP/1.0" 200 512\n`);
    if (i % 79 === 0)
      parts.push(`1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "GET /gone HTTP/1.0" 404 209\n`);
    if (i % 73 === 0)
      parts.push(`1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "GET /same HTTP/1.0" 304 -\n`);
    if (i === 1500) parts.push('x'.repeat(9000) + '\n\n');
  }
  parts.push('1.2.3.4 - - [01/Jul/1995:00:00:01 -0400] "GET /last.html HTTP/1.0" 200 99'); // no newline
  return new TextEncoder().encode(parts.join(''));
}

describe.skipIf(!built)('one access log, native and wasm', async () => {
  const core = built ? await loadNodeCore() : null;
  const tmp = mkdtempSync(join(tmpdir(), 'nicsim-log-'));
  const bytes = accessLog();
  const logFile = join(tmp, 'access.log');
  writeFileSync(logFile, bytes);

  it('gives byte-identical results: the report and the run, and the same trace', () => {
    const traceFile = join(tmp, 'log.trace');
    const n = spawnSync(cli, [preset, '--log', logFile, '--trace', traceFile], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(n.status, n.stderr).toBe(0);
    const nativeJson = n.stdout.trim();

    // As the worker does: slices cut anywhere (here mid-line, mid-character), then a run.
    const m = core!;
    m.accessLogBegin();
    for (let at = 0; at < bytes.length; at += 4093) {
      expect(m.accessLogFeed(bytes.slice(at, at + 4093))).toBe(true);
    }
    const report = m.accessLogFinish();
    const wasmJson = m.run(readFileSync(preset, 'utf8'), '{}');
    expect(wasmJson).toBe(nativeJson);
    const wasmTrace = m.traceBytes();
    const nativeTrace = new Uint8Array(readFileSync(traceFile));
    expect(Buffer.compare(Buffer.from(wasmTrace), Buffer.from(nativeTrace))).toBe(0);

    // The output's "access_log" is the report; stderr has it in short.
    const out = JSON.parse(nativeJson) as { access_log: unknown; results: object };
    expect(out.access_log).toEqual(JSON.parse(report));
    const r = JSON.parse(report) as {
      accepted: number;
      files: number;
      lines: number;
      rejected: Record<string, number>;
      samples: { line: number; reason: string }[];
    };
    expect(r.accepted).toBe(3001);
    expect(r.rejected).toEqual({
      malformed: 31,
      'not-get': 34,
      dynamic: 37,
      'not-2xx': 80,
      'no-bytes': 0,
      'too-long': 1,
    });
    expect(r.samples[0]).toMatchObject({ line: 2, reason: 'malformed' });
    expect(n.stderr).toBe(
      `--log ${logFile}: 3,001 requests to ${r.files} files from ${r.lines.toLocaleString('en')} lines; 183 rejected (31 malformed, 34 not-get, 37 dynamic, 80 not-2xx, 1 too-long).\n`,
    );
    // The requests the runs replay are those the worker hands the page.
    const req = m.accessLogRequests();
    expect(req.files.length).toBe(3001);
    expect(req.bytes[0]).toBe(1000);
    m.setAccessLog(new Uint32Array(), new Uint32Array());
    expect(m.run(readFileSync(preset, 'utf8'), '{}')).not.toContain('"access_log"');
  });

  it('refuses a log it cannot use as every option fails: exit 2, the option and the reason', () => {
    const binary = join(tmp, 'photo.bin');
    writeFileSync(
      binary,
      Uint8Array.from({ length: 8192 }, (_, i) => (i * 31) & 0xff),
    );
    const empty = join(tmp, 'empty.log');
    writeFileSync(empty, '');
    const run = (...args: string[]) => spawnSync(cli, [preset, ...args], { encoding: 'utf8' });
    const bin = run('--log', binary);
    expect(bin.status).toBe(2);
    expect(bin.stdout).toBe('');
    expect(bin.stderr).toBe(
      `error: --log: '${binary}': This is a binary file, not a text access log.\n`,
    );
    expect(run('--log', empty).stderr).toContain('The file is empty.');
    const missing = run('--log', join(tmp, 'nope.log'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`error: --log: cannot read '${join(tmp, 'nope.log')}'`);
    const both = run('--log', logFile, '--requests', logFile);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--log and --requests');
    expect(run('--log').stderr).toContain('--log needs a value');
    // CSV has the results only; the report is on stderr.
    const csv = execFileSync(cli, [preset, '--log', logFile, '--format', 'csv'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(csv).not.toContain('access_log');
  });
});
