// Parses a web server access log in Common Log Format (and the Combined format, which only adds
// fields after the size) into the requests a trace-driven run replays: which file, how many
// bytes. Like the thesis's traces (seed 000 Table 4.1), only static, successful GET responses
// count. Every other line is counted under the reason it was rejected; nothing here throws, and
// a huge or binary file is cut off or refused instead of hanging the page.

/** Why a line was not taken as a request. */
export type RejectReason =
  | 'malformed' // not host ident user [date] "request" status bytes
  | 'not-get' // HEAD, POST, … (no file content sent)
  | 'dynamic' // a query string or a CGI path: not a static file
  | 'not-2xx' // errors, redirects and 304 Not Modified send no file
  | 'no-bytes' // "-" or 0 bytes
  | 'too-long'; // a line over MAX_LINE characters

export const REJECT_LABELS: Record<RejectReason, string> = {
  malformed: 'not in Common Log Format',
  'not-get': 'not a GET request',
  dynamic: 'dynamic content (query string or CGI)',
  'not-2xx': 'status not 2xx',
  'no-bytes': 'no content bytes',
  'too-long': 'line too long',
};

/** Limits that keep a browser tab responsive (chosen: about 10 M lines of a typical log). */
export const MAX_LOG_BYTES = 1 << 30;
export const MAX_REQUESTS = 10_000_000;
export const MAX_FILES = 2_000_000;
export const MAX_LINE = 8192;
/** A file whose first bytes hold this share of control characters is binary, not a log. */
export const BINARY_SHARE = 0.05;

export interface LogSample {
  line: number;
  reason: RejectReason;
  text: string;
}

export interface ParsedLog {
  /** Distinct files in first-seen order: path and size (the largest response seen for it). */
  paths: string[];
  fileBytes: number[];
  /** One entry per accepted request: file index and bytes sent. */
  requestFile: Uint32Array;
  requestBytes: Uint32Array;
  lines: number;
  accepted: number;
  rejected: Record<RejectReason, number>;
  /** The first few rejected lines of each reason, for the report. */
  samples: LogSample[];
  /** Parsing stopped at a limit; `limit` says which. */
  truncated: boolean;
  limit: string | null;
  /** The whole input was refused (empty or binary); the message says why. */
  refused: string | null;
}

// host ident authuser [date] "METHOD path PROTO" status bytes [referer agent …]
const CLF = /^(\S+) (\S+) (\S+) \[([^\]]+)\] "(\S+) (\S+)(?: [^"]*)?" (\d{3}) (\d+|-)(?:\s.*)?$/;

const SAMPLES_PER_REASON = 3;

/** Incremental parser: feed text chunks (any split), then finish(). */
export class AccessLogParser {
  private readonly index = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly fileBytes: number[] = [];
  private reqFile: Uint32Array = new Uint32Array(1024);
  private reqBytes: Uint32Array = new Uint32Array(1024);
  private n = 0;
  private lines = 0;
  private rest = '';
  private readonly rejected: Record<RejectReason, number> = {
    malformed: 0,
    'not-get': 0,
    dynamic: 0,
    'not-2xx': 0,
    'no-bytes': 0,
    'too-long': 0,
  };
  private readonly samples: LogSample[] = [];
  private limit: string | null = null;
  private refused: string | null = null;
  private seen = 0;
  private checkedBinary = false;

  /** False once a limit is reached or the input was refused: stop feeding. */
  get open(): boolean {
    return this.limit === null && this.refused === null;
  }

  feed(chunk: string): void {
    if (!this.open) return;
    if (!this.checkedBinary) {
      this.checkedBinary = true;
      if (looksBinary(chunk)) {
        this.refused = 'This is a binary file, not a text access log.';
        return;
      }
    }
    this.seen += chunk.length;
    if (this.seen > MAX_LOG_BYTES) {
      this.limit = `the first ${MAX_LOG_BYTES / (1 << 20)} MB`;
      return;
    }
    const text = this.rest + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.line(text.slice(start, nl));
      start = nl + 1;
      if (!this.open) return;
    }
    this.rest = text.slice(start);
    if (this.rest.length > MAX_LINE) {
      // A line this long is no log line; drop it without holding it in memory.
      this.lines++;
      this.reject('too-long', this.rest.slice(0, 120));
      this.rest = '';
    }
  }

  finish(): ParsedLog {
    if (this.open && this.rest.length) this.line(this.rest);
    this.rest = '';
    if (this.refused === null && this.lines === 0) this.refused = 'The file is empty.';
    return {
      paths: this.paths,
      fileBytes: this.fileBytes,
      requestFile: this.reqFile.slice(0, this.n),
      requestBytes: this.reqBytes.slice(0, this.n),
      lines: this.lines,
      accepted: this.n,
      rejected: { ...this.rejected },
      samples: this.samples.slice(),
      truncated: this.limit !== null,
      limit: this.limit,
      refused: this.refused,
    };
  }

  private line(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    this.lines++;
    if (text.length > MAX_LINE) return this.reject('too-long', text.slice(0, 120));
    const m = CLF.exec(text);
    if (!m) return this.reject('malformed', text);
    const method = m[5]!;
    const path = m[6]!;
    const status = Number(m[7]);
    const bytes = m[8] === '-' ? 0 : Number(m[8]);
    if (method !== 'GET') return this.reject('not-get', text);
    if (path.includes('?') || path.includes('/cgi-bin/')) return this.reject('dynamic', text);
    if (status < 200 || status > 299) return this.reject('not-2xx', text);
    if (!(bytes > 0) || bytes > 0xffffffff) return this.reject('no-bytes', text);
    let id = this.index.get(path);
    if (id === undefined) {
      if (this.paths.length >= MAX_FILES) {
        this.limit = `${MAX_FILES.toLocaleString('en')} distinct files`;
        return;
      }
      id = this.paths.length;
      this.index.set(path, id);
      this.paths.push(path);
      this.fileBytes.push(bytes);
    } else if (bytes > this.fileBytes[id]!) this.fileBytes[id] = bytes;
    this.push(id, bytes);
    if (this.n >= MAX_REQUESTS) this.limit = `${MAX_REQUESTS.toLocaleString('en')} requests`;
  }

  private push(file: number, bytes: number): void {
    if (this.n === this.reqFile.length) {
      const f = new Uint32Array(this.n * 2);
      f.set(this.reqFile);
      this.reqFile = f;
      const b = new Uint32Array(this.n * 2);
      b.set(this.reqBytes);
      this.reqBytes = b;
    }
    this.reqFile[this.n] = file;
    this.reqBytes[this.n] = bytes;
    this.n++;
  }

  private reject(reason: RejectReason, text: string): void {
    if (this.rejected[reason]++ < SAMPLES_PER_REASON)
      this.samples.push({ line: this.lines, reason, text: text.slice(0, 200) });
  }
}

/** Control characters other than tab, CR and LF in the first 4 KB mark a binary file. */
export function looksBinary(head: string): boolean {
  const s = head.slice(0, 4096);
  if (s.length === 0) return false;
  let control = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) control++;
  }
  return control / s.length > BINARY_SHARE;
}

export function parseAccessLog(text: string): ParsedLog {
  const p = new AccessLogParser();
  p.feed(text);
  return p.finish();
}

export interface BlobLike {
  size: number;
  slice(start: number, end: number): { text(): Promise<string> };
}

/**
 * Reads a file in 4 MB slices, yielding to the event loop between them, so a large log never
 * freezes the page; `onProgress` gets the fraction read; an aborted signal stops early.
 */
export async function parseAccessLogFile(
  file: BlobLike,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ParsedLog> {
  const p = new AccessLogParser();
  const slice = 4 << 20;
  for (let at = 0; at < file.size && p.open; at += slice) {
    if (signal?.aborted) break;
    // A slice may cut a UTF-8 character; logs are ASCII in practice and a cut one only lands
    // in a rejected line.
    p.feed(await file.slice(at, Math.min(file.size, at + slice)).text());
    onProgress?.(Math.min(1, (at + slice) / file.size));
    await new Promise((r) => setTimeout(r, 0));
  }
  return p.finish();
}

/** One line for the report: "12 840 requests to 1 203 files; 310 lines rejected (…)". */
export function summarizeLog(log: ParsedLog): string {
  if (log.refused) return log.refused;
  const rejected = Object.values(log.rejected).reduce((a, b) => a + b, 0);
  const reasons = (Object.keys(log.rejected) as RejectReason[])
    .filter((r) => log.rejected[r] > 0)
    .map((r) => `${log.rejected[r].toLocaleString('en')} ${REJECT_LABELS[r]}`)
    .join(', ');
  const head = `${log.accepted.toLocaleString('en')} requests to ${log.paths.length.toLocaleString('en')} files from ${log.lines.toLocaleString('en')} lines`;
  const rej = rejected ? `; ${rejected.toLocaleString('en')} rejected (${reasons})` : '';
  const cut = log.truncated ? `; read only ${log.limit}` : '';
  return head + rej + cut + '.';
}
