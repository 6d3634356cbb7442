// Reading a log through the core's parser (its rules are tested in GoogleTest,
// core-cpp/tests/access_log_test.cpp): the slices, the progress, stopping, the report's words,
// and the fixtures other tests use. Skipped when the wasm is not built.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../engine/nodeCore';
import {
  LOG_READ_MB,
  LOG_SLICE_BYTES,
  coreSink,
  readAccessLog,
  summarizeLog,
  type BlobLike,
  type ParsedLog,
} from './accessLog';
import {
  BINARY_LOG,
  BINARY_LOG_TEXT,
  ONE_LINE_LOG,
  ONE_LINE_LOG_TEXT,
  PANEL_LOG,
  PANEL_LOG_TEXT,
} from './accessLog.fixture';

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

/** A file whose slices are made on demand; `reads` counts them. */
function blob(size: number, byte: (i: number) => number) {
  const f = {
    size,
    reads: 0,
    slice: (a: number, b: number) => ({
      arrayBuffer: async () => {
        f.reads++;
        const out = new Uint8Array(b - a);
        for (let i = a; i < b; i++) out[i - a] = byte(i);
        return out.buffer;
      },
    }),
  };
  return f;
}

function textBlob(text: string): BlobLike & { reads: number } {
  const bytes = new TextEncoder().encode(text);
  return blob(bytes.length, (i) => bytes[i]!);
}

const plain = (p: ParsedLog) => ({
  ...p,
  requestFile: Array.from(p.requestFile),
  requestBytes: Array.from(p.requestBytes),
});

describe.skipIf(!built)("reading a log through the core's parser", async () => {
  const sink = built ? coreSink(await loadNodeCore()) : null;
  const read = (f: BlobLike, progress?: (f: number) => void, signal?: AbortSignal) =>
    readAccessLog(f, sink!, progress, signal);

  it('gives exactly the fixtures the other tests use', async () => {
    expect(plain(await read(textBlob(PANEL_LOG_TEXT)))).toEqual(plain(PANEL_LOG));
    expect(plain(await read(textBlob(ONE_LINE_LOG_TEXT)))).toEqual(plain(ONE_LINE_LOG));
    expect(plain(await read(textBlob(BINARY_LOG_TEXT)))).toEqual(plain(BINARY_LOG));
    // The opener's text says how much the core reads.
    expect(PANEL_LOG.limits.log_bytes).toBe(LOG_READ_MB << 20);
  });

  it('reads a large file in slices with progress, cut anywhere', async () => {
    const line = (i: number) =>
      `10.0.0.${i % 250} - - [10/Oct/2000:13:55:36 -0700] "GET /f${i % 97}.html HTTP/1.0" 200 ${1000 + (i % 97)}\n`;
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 2.5 * LOG_SLICE_BYTES; i++) {
      lines.push(line(i));
      size += lines[i]!.length;
    }
    const f = textBlob(lines.join(''));
    const seen: number[] = [];
    const log = await read(f, (x) => seen.push(x));
    expect(f.reads).toBe(3);
    expect(seen).toEqual([1 / 2.5, 2 / 2.5, 1].map((x) => expect.closeTo(x, 2)));
    expect(log.accepted).toBe(lines.length);
    expect(log.lines).toBe(lines.length);
    expect(log.files).toBe(97);
    expect(log.requestFile.length).toBe(lines.length);
    expect(log.requestFile[97]).toBe(0);
  });

  it('stops reading once the parser takes no more, and when aborted', async () => {
    const binary = blob(3 * LOG_SLICE_BYTES, (i) => i % 7);
    expect((await read(binary)).refused).toBe('This is a binary file, not a text access log.');
    expect(binary.reads).toBe(2); // the first slice, and the next one read meanwhile
    const abort = new AbortController();
    abort.abort();
    const text = textBlob(PANEL_LOG_TEXT);
    expect((await read(text, undefined, abort.signal)).refused).toBe('The file is empty.');
    expect(text.reads).toBe(0);
  });

  it('says in one line what was taken and rejected', () => {
    expect(summarizeLog(PANEL_LOG)).toBe(
      '3 requests to 2 files from 6 lines; 3 rejected (1 not in Common Log Format, 1 not a GET request, 1 status not 2xx).',
    );
    expect(summarizeLog({ ...PANEL_LOG, truncated: true, limit: '10,000,000 requests' })).toMatch(
      /; read only 10,000,000 requests\.$/,
    );
    expect(summarizeLog(BINARY_LOG)).toBe(BINARY_LOG.refused);
  });
});
