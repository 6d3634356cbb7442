import { describe, expect, it } from 'vitest';
import {
  AccessLogParser,
  MAX_LINE,
  looksBinary,
  parseAccessLog,
  parseAccessLogFile,
  summarizeLog,
} from './accessLog';

const line = (path: string, status = 200, bytes: string | number = 1000, method = 'GET') =>
  `host1 - - [01/Jul/1995:00:00:01 -0400] "${method} ${path} HTTP/1.0" ${status} ${bytes}`;

describe('parseAccessLog', () => {
  it('takes static successful GETs: one file per path, its largest response as its size', () => {
    const log = parseAccessLog(
      [line('/a.html', 200, 500), line('/b.gif', 200, 7000), line('/a.html', 200, 800)].join('\n') +
        '\n',
    );
    expect(log.refused).toBeNull();
    expect(log.lines).toBe(3);
    expect(log.accepted).toBe(3);
    expect(log.paths).toEqual(['/a.html', '/b.gif']);
    expect(log.fileBytes).toEqual([800, 7000]);
    expect(Array.from(log.requestFile)).toEqual([0, 1, 0]);
    expect(Array.from(log.requestBytes)).toEqual([500, 7000, 800]);
  });

  it('counts every rejected line under its reason, with samples, and never throws', () => {
    const log = parseAccessLog(
      [
        line('/ok'),
        'garbage line',
        line('/x', 200, 10, 'POST'),
        line('/search?q=1'),
        line('/cgi-bin/counter'),
        line('/missing', 404, 200),
        line('/cached', 304, '-'),
        line('/empty', 200, '-'),
        line('/zero', 200, 0),
        '',
      ].join('\r\n'),
    );
    expect(log.accepted).toBe(1);
    expect(log.lines).toBe(9);
    expect(log.rejected).toEqual({
      malformed: 1,
      'not-get': 1,
      dynamic: 2,
      'not-2xx': 2,
      'no-bytes': 2,
      'too-long': 0,
    });
    expect(log.samples.find((s) => s.reason === 'malformed')).toEqual({
      line: 2,
      reason: 'malformed',
      text: 'garbage line',
    });
    expect(summarizeLog(log)).toContain('8 rejected');
  });

  it('reads the Combined format, which adds referer and agent', () => {
    const log = parseAccessLog(`${line('/c.html')} "http://x/" "Mozilla/4.0"`);
    expect(log.accepted).toBe(1);
  });

  it('refuses an empty file and a binary one with a message', () => {
    expect(parseAccessLog('').refused).toBe('The file is empty.');
    expect(parseAccessLog('\n\n').refused).toBe('The file is empty.');
    const binary = String.fromCharCode(...Array.from({ length: 400 }, (_, i) => i % 32));
    expect(looksBinary(binary)).toBe(true);
    const log = parseAccessLog(binary);
    expect(log.refused).toMatch(/binary/);
    expect(log.accepted).toBe(0);
    expect(summarizeLog(log)).toMatch(/binary/);
  });

  it('gives the same result however the text is split into chunks', () => {
    const text = Array.from({ length: 50 }, (_, i) => line(`/f${i % 7}`, 200, 100 + i)).join('\n');
    const whole = parseAccessLog(text);
    const p = new AccessLogParser();
    for (let i = 0; i < text.length; i += 37) p.feed(text.slice(i, i + 37));
    const chunked = p.finish();
    expect(chunked.accepted).toBe(50);
    expect(Array.from(chunked.requestFile)).toEqual(Array.from(whole.requestFile));
    expect(chunked.fileBytes).toEqual(whole.fileBytes);
  });

  it('drops an over-long line without holding it, and keeps going', () => {
    const p = new AccessLogParser();
    p.feed('x'.repeat(MAX_LINE + 10));
    p.feed('yyy\n' + line('/after') + '\n');
    const log = p.finish();
    expect(log.rejected['too-long']).toBe(1);
    expect(log.accepted).toBe(1);
  });

  it('reads a file in slices with progress, and stops when aborted', async () => {
    const text = Array.from({ length: 20 }, () => line('/a')).join('\n');
    const blob = {
      size: text.length,
      slice: (s: number, e: number) => ({ text: async () => text.slice(s, e) }),
    };
    const seen: number[] = [];
    const log = await parseAccessLogFile(blob, (f) => seen.push(f));
    expect(log.accepted).toBe(20);
    expect(seen[seen.length - 1]).toBe(1);
    const abort = new AbortController();
    abort.abort();
    expect((await parseAccessLogFile(blob, undefined, abort.signal)).refused).toBe(
      'The file is empty.',
    );
  });
});
