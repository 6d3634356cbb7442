// A web server access log, read by the core's parser (core-cpp/workload/access_log.hpp, the same
// code as the command line's --log): this file only moves the file's bytes to it, in slices with
// progress and a way to stop, and holds the report's type and the words that show it. Which lines
// count (static, successful GETs, as the thesis's Table 4.1 counts a trace), the limits and the
// refusals are the core's.
import { EngineClient } from '../engine/client';
import type { NicsimCoreModule } from '../engine/core';

/** Why a line was not taken as a request, in the core's order. */
export const REJECT_REASONS = [
  'malformed', // not host ident user [date] "request" status bytes
  'not-get', // HEAD, POST, … (no file content sent)
  'dynamic', // a query string or a CGI path: not a static file
  'not-2xx', // errors, redirects and 304 Not Modified send no file
  'no-bytes', // "-" or 0 bytes
  'too-long', // a line over the core's line limit
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export const REJECT_LABELS: Record<RejectReason, string> = {
  malformed: 'not in Common Log Format',
  'not-get': 'not a GET request',
  dynamic: 'dynamic content (query string or CGI)',
  'not-2xx': 'status not 2xx',
  'no-bytes': 'no content bytes',
  'too-long': 'line too long',
};

export interface LogSample {
  /** Line number in the file, from 1. */
  line: number;
  reason: RejectReason;
  text: string;
}

/** The core's report of a parse (accessLogFinish(); the CLI output's "access_log"). */
export interface AccessLogReport {
  /** Non-blank lines read: accepted plus every rejected. */
  lines: number;
  accepted: number;
  rejected: Record<RejectReason, number>;
  /** The first few rejected lines of each reason, in file order. */
  samples: LogSample[];
  /** Parsing stopped at a limit; `limit` says which. */
  truncated: boolean;
  limit: string | null;
  /** The log cannot be used (empty, binary, no usable line); the message says why. */
  refused: string | null;
  /** Table 4.1's statistics of the accepted requests (a file's size: its largest response). */
  files: number;
  content_bytes: number;
  data_set_bytes: number;
  limits: {
    log_bytes: number;
    requests: number;
    files: number;
    path_bytes: number;
    line_bytes: number;
  };
}

/** A parsed log: the report and, unless refused, request i = (requestFile[i], requestBytes[i]). */
export interface ParsedLog extends AccessLogReport {
  requestFile: Uint32Array;
  requestBytes: Uint32Array;
}

export function parsedLog(
  report: AccessLogReport,
  files: Uint32Array = new Uint32Array(),
  bytes: Uint32Array = new Uint32Array(),
): ParsedLog {
  return { ...report, requestFile: files, requestBytes: bytes };
}

/** Where a log's bytes go: the core, in the engine worker or (tests, Node) in this thread. */
export interface AccessLogSink {
  begin(): void | Promise<void>;
  /** False once the parser takes no more (a limit reached, or the file refused). */
  feed(bytes: Uint8Array): boolean | Promise<boolean>;
  finish(): ParsedLog | Promise<ParsedLog>;
}

type LogCore = Pick<
  NicsimCoreModule,
  'accessLogBegin' | 'accessLogFeed' | 'accessLogFinish' | 'accessLogRequests'
>;

/** A core module loaded in this thread. */
export function coreSink(core: LogCore): AccessLogSink {
  return {
    begin: () => core.accessLogBegin(),
    feed: (bytes) => core.accessLogFeed(bytes),
    finish: () => {
      const report = JSON.parse(core.accessLogFinish()) as AccessLogReport;
      if (report.refused !== null) return parsedLog(report);
      const r = core.accessLogRequests();
      return parsedLog(report, r.files, r.bytes);
    },
  };
}

/** The core in an engine worker; each slice is transferred, not copied. */
export function workerSink(client: EngineClient): AccessLogSink {
  return {
    begin: () => client.accessLogBegin(),
    feed: (bytes) => client.accessLogFeed(bytes),
    finish: async () => {
      const r = await client.accessLogFinish();
      return parsedLog(r.report as AccessLogReport, r.files, r.bytes);
    },
  };
}

export interface BlobLike {
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** How much of a file the core reads, for the opener's text (a test checks the core agrees). */
export const LOG_READ_MB = 1024;

/** The slice a file is read in: progress moves every 4 MB. */
export const LOG_SLICE_BYTES = 4 << 20;

/**
 * Hands a file to the parser in slices (cut anywhere: the parser does not care), stopping when it
 * takes no more or `signal` aborts; `onProgress` gets the fraction read.
 */
export async function readAccessLog(
  file: BlobLike,
  sink: AccessLogSink,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ParsedLog> {
  await sink.begin();
  const read = (at: number) =>
    file.slice(at, Math.min(file.size, at + LOG_SLICE_BYTES)).arrayBuffer();
  let next: Promise<ArrayBuffer> | null = null;
  for (let at = 0; at < file.size; at += LOG_SLICE_BYTES) {
    if (signal?.aborted) break;
    const bytes = new Uint8Array(await (next ?? read(at)));
    // The next slice is read while the parser works on this one.
    const following = at + LOG_SLICE_BYTES;
    next = following < file.size ? read(following) : null;
    next?.catch(() => {}); // its error, if any, surfaces when it is awaited
    const open = await sink.feed(bytes);
    onProgress?.(Math.min(1, following / file.size));
    if (!open) break;
  }
  return sink.finish();
}

let ready: EngineClient | null = null;

/** A line in Common Log Format that prepareLogParser has the parser read once (no one's data). */
const WARM_UP_LINE =
  '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326\n';

/**
 * Starts the next parse's worker now (a page that offers a log, while the viewer picks one): its
 * thread and core instance start meanwhile, and the parser reads one made-up line, so that the
 * file's first slice goes straight to a parser whose code has compiled (the core's functions
 * compile on their first call; the file's parse begins afresh). Unused, it is stopped by
 * dropLogParser (the page is left).
 */
export function prepareLogParser(): void {
  if (ready || typeof Worker === 'undefined') return;
  ready = new EngineClient();
  const quiet = () => {}; // a worker that failed to start: the parse says so
  ready.accessLogBegin().catch(quiet);
  ready.accessLogFeed(new TextEncoder().encode(WARM_UP_LINE)).catch(quiet);
  ready.accessLogFinish().catch(quiet);
}

/** Stops the worker prepareLogParser started, if no parse took it. */
export function dropLogParser(): void {
  ready?.dispose();
  ready = null;
}

/**
 * Parses a file in an engine worker of its own, so that a run started meanwhile (which restarts
 * the run's worker) leaves the read alone, and Cancel ends it at once, freeing its memory.
 */
export async function parseAccessLogFile(
  file: BlobLike,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ParsedLog> {
  const client = ready ?? new EngineClient();
  ready = null;
  const stop = () => client.dispose();
  signal?.addEventListener('abort', stop);
  try {
    return await readAccessLog(file, workerSink(client), onProgress, signal);
  } finally {
    signal?.removeEventListener('abort', stop);
    client.dispose();
  }
}

/** One line for the report: "12,840 requests to 1,203 files from 13,150 lines; 310 rejected (…)". */
export function summarizeLog(log: AccessLogReport): string {
  if (log.refused) return log.refused;
  const counted = REJECT_REASONS.filter((r) => log.rejected[r] > 0);
  const rejected = counted.reduce((a, r) => a + log.rejected[r], 0);
  const reasons = counted
    .map((r) => `${log.rejected[r].toLocaleString('en')} ${REJECT_LABELS[r]}`)
    .join(', ');
  const head = `${log.accepted.toLocaleString('en')} requests to ${log.files.toLocaleString('en')} files from ${log.lines.toLocaleString('en')} lines`;
  const rej = rejected ? `; ${rejected.toLocaleString('en')} rejected (${reasons})` : '';
  const cut = log.truncated ? `; read only ${log.limit}` : '';
  return head + rej + cut + '.';
}
