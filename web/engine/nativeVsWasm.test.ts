// The native and wasm builds of the same core give identical results for the same scenario and
// seed: every preset, with and without overrides, byte for byte (results JSON and trace), and the
// same validation messages for bad input. Requires both builds (npm test builds them first).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from './nodeCore';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'build/native/nicsim');
const scenarioDir = join(root, 'scenarios');
const presets = readdirSync(scenarioDir).filter(
  (f) => f.endsWith('.json') && !f.includes('.schema.'),
);

function native(
  file: string,
  sets: Record<string, string | number> = {},
  traceFile?: string,
  requestsFile?: string,
): string {
  const args = [file];
  for (const [k, v] of Object.entries(sets)) args.push('--set', `${k}=${v}`);
  if (traceFile) args.push('--trace', traceFile);
  if (requestsFile) args.push('--requests', requestsFile);
  return execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
}

describe('native and wasm builds agree', async () => {
  const core = await loadNodeCore();
  const tmp = mkdtempSync(join(tmpdir(), 'nicsim-'));

  it('finds the presets', () => expect(presets.length).toBeGreaterThanOrEqual(4));

  // A preset that replays the user's access log gets the same small log in both builds.
  const log = { files: new Uint32Array(3000), bytes: new Uint32Array(3000) };
  for (let i = 0; i < log.files.length; i++) {
    log.files[i] = (i * 7919) % (1 + (i % 300));
    log.bytes[i] = 1000 + 37 * log.files[i]!;
  }
  const requestsFile = join(tmp, 'requests.txt');
  writeFileSync(
    requestsFile,
    Array.from(log.files, (f, i) => `${f} ${log.bytes[i]}`).join('\n') + '\n',
  );

  for (const file of presets) {
    it(`${file}: identical results and trace`, () => {
      const path = join(scenarioDir, file);
      const text = readFileSync(path, 'utf8');
      const needsLog =
        (JSON.parse(text) as { workload?: { trace?: string } }).workload?.trace === 'log';
      const traceFile = join(tmp, `${file}.trace`);
      const n = native(path, {}, traceFile, needsLog ? requestsFile : undefined);
      core.setAccessLog(
        needsLog ? log.files : new Uint32Array(),
        needsLog ? log.bytes : new Uint32Array(),
      );
      const w = core.run(text, '{}');
      core.setAccessLog(new Uint32Array(), new Uint32Array());
      expect(w).toBe(n);
      expect(JSON.parse(w).errors).toBeUndefined();
      const nativeTrace = new Uint8Array(readFileSync(traceFile));
      const wasmTrace = core.traceBytes();
      expect(wasmTrace.length).toBe(nativeTrace.length);
      expect(Buffer.compare(Buffer.from(wasmTrace), Buffer.from(nativeTrace))).toBe(0);
    });
  }

  it('identical with overrides and another seed', () => {
    const path = join(scenarioDir, 'udp-throughput.json');
    const sets = {
      'workload.direction': 'bidirectional',
      'workload.datagram_bytes': 64,
      'run.seed': 7,
      'workload.peer_jitter_ns': 200,
    };
    const n = native(path, sets);
    const w = core.run(readFileSync(path, 'utf8'), JSON.stringify(sets));
    expect(w).toBe(n);
  });

  it('same validation messages, naming the field and the allowed values', () => {
    const path = join(scenarioDir, 'udp-throughput.json');
    const bad = spawnSync(
      cli,
      [path, '--set', 'system.bus.clock_mhz=50', '--set', 'workload.datagram_bytes=9000'],
      {
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(2);
    const errs = JSON.parse(
      core.validate(
        readFileSync(path, 'utf8'),
        JSON.stringify({ 'system.bus.clock_mhz': 50, 'workload.datagram_bytes': 9000 }),
      ),
    ) as { path: string; message: string }[];
    expect(errs).toEqual([
      { path: 'system.bus.clock_mhz', message: 'must be one of 33, 66, 100, 133 (MHz), got 50' },
      {
        path: 'workload.datagram_bytes',
        message: 'is out of range: 9000; allowed 18 to 1472 bytes',
      },
    ]);
    for (const e of errs) expect(bad.stderr).toContain(`error: ${e.path}: ${e.message}`);
  });

  it('bad scenario text is an error value, not a crash', () => {
    for (const text of [
      '',
      '{',
      '[]',
      '{"format":1,"id":"x","title":"t","summary":"s","system":{"bus":{"clock_mhz":"fast"}}}',
    ]) {
      const out = JSON.parse(core.run(text, '{}')) as {
        errors?: { path: string; message: string }[];
      };
      expect(out.errors?.length, text).toBeGreaterThan(0);
    }
    const unknown = JSON.parse(
      core.validate('{"format":1,"id":"x","title":"t","summary":"s","wrkload":{}}', ''),
    ) as {
      path: string;
      message: string;
    }[];
    expect(unknown[0]!.path).toBe('wrkload');
    expect(unknown[0]!.message).toContain("unknown field 'wrkload'; allowed:");
    // The module still works after bad input.
    expect(
      JSON.parse(core.run(readFileSync(join(scenarioDir, 'anatomy-of-a-send.json'), 'utf8'), '{}'))
        .scenario,
    ).toBe('anatomy-of-a-send');
  });
});
