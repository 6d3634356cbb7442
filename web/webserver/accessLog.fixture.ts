// Parsed logs for tests that need one without loading the core: exactly what the core's parser
// reports for these texts (accessLog.test.ts checks it against the wasm build).
import { parsedLog, type AccessLogReport, type ParsedLog } from './accessLog';

const LIMITS: AccessLogReport['limits'] = {
  log_bytes: 1 << 30,
  requests: 10_000_000,
  files: 2_000_000,
  path_bytes: 64 << 20,
  line_bytes: 8192,
};

const NONE_REJECTED: AccessLogReport['rejected'] = {
  malformed: 0,
  'not-get': 0,
  dynamic: 0,
  'not-2xx': 0,
  'no-bytes': 0,
  'too-long': 0,
};

const line = (path: string, status = 200, bytes = 1000, method = 'GET') =>
  `10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "${method} ${path} HTTP/1.0" ${status} ${bytes}`;

/** Three requests to two files, and three rejected lines. */
export const PANEL_LOG_TEXT = [
  line('/a.html', 200, 3000),
  line('/b.gif', 200, 500),
  'not a log line',
  line('/a.html', 200, 3000),
  line('/form', 200, 10, 'POST'),
  line('/missing', 404, 209),
].join('\n');

export const PANEL_LOG: ParsedLog = parsedLog(
  {
    lines: 6,
    accepted: 3,
    rejected: { ...NONE_REJECTED, malformed: 1, 'not-get': 1, 'not-2xx': 1 },
    samples: [
      { line: 3, reason: 'malformed', text: 'not a log line' },
      { line: 5, reason: 'not-get', text: line('/form', 200, 10, 'POST') },
      { line: 6, reason: 'not-2xx', text: line('/missing', 404, 209) },
    ],
    truncated: false,
    limit: null,
    refused: null,
    files: 2,
    content_bytes: 6500,
    data_set_bytes: 3500,
    limits: LIMITS,
  },
  Uint32Array.of(0, 1, 0),
  Uint32Array.of(3000, 500, 3000),
);

/** One request. */
export const ONE_LINE_LOG_TEXT =
  'h - - [10/Oct/2000:13:55:36 -0700] "GET /a.html HTTP/1.0" 200 2326\n';

export const ONE_LINE_LOG: ParsedLog = parsedLog(
  {
    lines: 1,
    accepted: 1,
    rejected: NONE_REJECTED,
    samples: [],
    truncated: false,
    limit: null,
    refused: null,
    files: 1,
    content_bytes: 2326,
    data_set_bytes: 2326,
    limits: LIMITS,
  },
  Uint32Array.of(0),
  Uint32Array.of(2326),
);

/** Control characters only. */
export const BINARY_LOG_TEXT = '\u0000\u0001\u0002'.repeat(100);

export const BINARY_LOG: ParsedLog = parsedLog({
  lines: 0,
  accepted: 0,
  rejected: NONE_REJECTED,
  samples: [],
  truncated: false,
  limit: null,
  refused: 'This is a binary file, not a text access log.',
  files: 0,
  content_bytes: 0,
  data_set_bytes: 0,
  limits: LIMITS,
});
