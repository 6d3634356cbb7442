// "Bring your own access log": a scenario whose workload.trace is "log" replays a web server's
// access log (Common or Combined Log Format) that the user opens here, instead of a trace
// generated from Table 4.1. The file's bytes go in slices, with progress and a Cancel, to the
// core's parser in an engine worker (the command line's --log uses the same one); its report says
// what was taken and what was rejected, line by line; the parsed log goes to the page's store
// (and stays in this tab only: never in a link), and the core runs with it. Empty, binary, huge
// or malformed files are reported and leave the previous log and results as they were.
import { useEffect, useRef, useState, type DragEvent } from 'react';
import {
  LOG_READ_MB,
  REJECT_LABELS,
  REJECT_REASONS,
  dropLogParser,
  parseAccessLogFile,
  prepareLogParser,
  summarizeLog,
  type BlobLike,
  type ParsedLog,
} from './accessLog';
import { TRACE_LABELS, formatBytes } from './cacheGrid';
import { formatNumber } from '../kit/format';
import type { Overrides } from '../run/overrides';
import { paramAt, type ParameterTree } from '../engine/types';
import type { AccessLogRequests } from '../engine/protocol';
import type { Scenario } from '../scenarios/types';
import { useStore, useStoreInstance, type LoadedLog, type Store } from '../run/store';
import './cache.css';

const TRACE_PATH = 'workload.trace';
export const GENERATED_TRACES = ['berkeley', 'ibm', 'nasa', 'rice', 'worldcup'] as const;

function scenarioTrace(s: Scenario): unknown {
  return paramAt(s as unknown as ParameterTree, TRACE_PATH);
}

/** The trace a run with these overrides replays. */
export function requestedTrace(s: Scenario, overrides: Overrides): unknown {
  return TRACE_PATH in overrides ? overrides[TRACE_PATH] : scenarioTrace(s);
}

/** The run needs a log: its trace is "log". */
export function needsAccessLog(s: Scenario, overrides: Overrides): boolean {
  return requestedTrace(s, overrides) === 'log';
}

/** The page offers "bring your own log": the scenario, the run asked for or its sweep use one. */
export function isLogPage(s: Scenario, overrides: Overrides): boolean {
  const sw = s.sweep;
  const swept = (p: string | undefined, values: readonly unknown[] | undefined) =>
    p === TRACE_PATH && (values ?? []).includes('log');
  return (
    scenarioTrace(s) === 'log' ||
    needsAccessLog(s, overrides) ||
    swept(sw?.parameter, sw?.values) ||
    swept(sw?.series?.parameter, sw?.series?.values)
  );
}

/** The overrides that replay `trace`: no override when the scenario itself says so. */
export function withTrace(overrides: Overrides, s: Scenario, trace: string): Overrides {
  const next = { ...overrides };
  if (scenarioTrace(s) === trace) delete next[TRACE_PATH];
  else next[TRACE_PATH] = trace;
  return next;
}

/** The requests as the engine takes them. */
export function engineLog(log: LoadedLog | null): AccessLogRequests | undefined {
  return log ? { files: log.parsed.requestFile, bytes: log.parsed.requestBytes } : undefined;
}

export interface LogFile extends BlobLike {
  name: string;
}

export interface OpenedLog {
  /** Stops reading; the store says "cancelled" and keeps the previous log. */
  cancel: () => void;
  /** Settles when the attempt ends (never rejects). */
  done: Promise<void>;
}

/**
 * Reads and parses a log into the store: "reading" with its progress, then the log accepted
 * (and `onLoaded` called, to run the core with it), or refused with its report, cancelled or
 * failed. A refused, cancelled or failed attempt leaves the log in use and the results alone.
 */
export function openAccessLog(
  store: Store,
  file: LogFile,
  {
    parse = parseAccessLogFile,
    onLoaded,
  }: { parse?: typeof parseAccessLogFile; onLoaded?: (log: LoadedLog) => void } = {},
): OpenedLog {
  const abort = new AbortController();
  const name = file.name;
  let shown = -1;
  store.setLogAttempt({ status: 'reading', name, size: file.size, fraction: 0 });
  const progress = (fraction: number) => {
    // A re-render per percent is plenty.
    const pct = Math.floor(fraction * 100);
    if (abort.signal.aborted || pct === shown) return;
    shown = pct;
    store.setLogAttempt({ status: 'reading', name, size: file.size, fraction });
  };
  const done = (async () => {
    let parsed: ParsedLog;
    try {
      parsed = await parse(file, progress, abort.signal);
    } catch (err) {
      if (!abort.signal.aborted)
        store.setLogAttempt({
          status: 'failed',
          name,
          message: err instanceof Error ? err.message : String(err),
        });
      return;
    }
    if (abort.signal.aborted) return;
    if (parsed.refused !== null || parsed.accepted === 0) {
      store.setLogAttempt({ status: 'refused', name, size: file.size, parsed });
      return;
    }
    const log: LoadedLog = { name, size: file.size, parsed };
    store.setAccessLog(log);
    onLoaded?.(log);
  })();
  return {
    cancel: () => {
      if (abort.signal.aborted) return;
      abort.abort();
      store.setLogAttempt({ status: 'cancelled', name });
    },
    done,
  };
}

/** Why a refused log cannot run, in one sentence (the core's). */
export function refusalText(parsed: ParsedLog): string {
  return parsed.refused ?? 'Nothing in this log can be replayed.';
}

export interface LogFacts {
  requests: number;
  files: number;
  contentBytes: number;
  dataSetBytes: number;
  averageBytes: number;
}

/** Table 4.1's statistics of a log, as the core counted them. */
export function logFacts(parsed: ParsedLog): LogFacts {
  return {
    requests: parsed.accepted,
    files: parsed.files,
    contentBytes: parsed.content_bytes,
    dataSetBytes: parsed.data_set_bytes,
    averageBytes: parsed.accepted ? parsed.content_bytes / parsed.accepted : 0,
  };
}

/** What a parsed log holds and what was rejected, with the sample lines. */
export function LogReport({
  name,
  size,
  parsed,
  refused = false,
}: {
  name: string;
  size: number;
  parsed: ParsedLog;
  refused?: boolean;
}) {
  const reasons = REJECT_REASONS.filter((r) => parsed.rejected[r] > 0);
  const facts = logFacts(parsed);
  return (
    <section
      className={`log-report${refused ? ' refused' : ''}`}
      aria-labelledby="log-h-report"
      data-testid={refused ? 'log-refused' : 'log-report'}
      data-accepted={parsed.accepted}
      data-lines={parsed.lines}
    >
      <h3 id="log-h-report">
        {refused ? 'Not used: ' : ''}
        <span className="mono">{name}</span>{' '}
        <span className="muted small">({formatBytes(size)})</span>
      </h3>
      <p data-testid="log-summary">
        {refused ? <b>{refusalText(parsed)}</b> : summarizeLog(parsed)}
      </p>
      {parsed.truncated && (
        <p className="notice notice-warn" data-testid="log-truncated">
          The file is too big to replay whole in a browser tab: only {parsed.limit} were read.
        </p>
      )}
      {!refused && (
        <p className="muted small">
          As Table 4.1 counts a trace: {formatNumber(facts.requests)} requests,{' '}
          {formatNumber(facts.files)} distinct files, {formatBytes(facts.contentBytes)} of responses
          (average {formatBytes(facts.averageBytes)}), a data set of{' '}
          {formatBytes(facts.dataSetBytes)}.
        </p>
      )}
      {parsed.lines > 0 && (
        <table className="log-reasons" data-testid="log-reasons">
          <tbody>
            <tr>
              <td>taken: static, successful GETs</td>
              <td className="num" data-testid="log-accepted">
                {formatNumber(parsed.accepted)}
              </td>
            </tr>
            {reasons.map((r) => (
              <tr key={r} data-testid={`log-rejected-${r}`} data-count={parsed.rejected[r]}>
                <td>rejected: {REJECT_LABELS[r]}</td>
                <td className="num">{formatNumber(parsed.rejected[r])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {parsed.samples.length > 0 && (
        <>
          <p className="small muted">The first rejected lines of each kind:</p>
          <ol className="log-samples">
            {parsed.samples.map((sm) => (
              <li key={`${sm.line}-${sm.reason}`} data-testid="log-sample" data-line={sm.line}>
                <span className="log-line-no">line {formatNumber(sm.line)}</span>
                <span className="log-reason">{REJECT_LABELS[sm.reason]}</span>
                <code title={sm.text}>{sm.text}</code>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

/** The file input, the drop zone and the progress of a read. */
function LogOpener({ onFile, onCancel }: { onFile: (f: File) => void; onCancel: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const attempt = useStore((s) => s.log.attempt);
  const hasLog = useStore((s) => s.log.current !== null);
  const reading = attempt.status === 'reading';
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) onFile(f);
  };
  return (
    <div
      className={`log-drop${over ? ' over' : ''}`}
      data-testid="log-dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <button
        type="button"
        className="btn btn-run"
        onClick={() => input.current?.click()}
        data-testid="log-open"
      >
        {hasLog ? 'Open another access log…' : 'Open an access log…'}
      </button>
      <input
        ref={input}
        type="file"
        accept=".log,.txt,text/plain,*/*"
        hidden
        data-testid="log-input"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (f) onFile(f);
        }}
      />
      <span className="muted">
        or drop one here. Common or Combined Log Format, as Apache and nginx write it; up to{' '}
        {LOG_READ_MB} MB are read.
      </span>
      {reading && <ReadProgress onCancel={onCancel} />}
    </div>
  );
}

function ReadProgress({ onCancel }: { onCancel: () => void }) {
  const attempt = useStore((s) => s.log.attempt);
  const hasLog = useStore((s) => s.log.current !== null);
  if (attempt.status !== 'reading') return null;
  return (
    <div className="log-progress" data-testid="log-progress" role="status">
      <progress max={1} value={attempt.fraction} aria-label={`Reading ${attempt.name}`} />
      <span>
        Reading <span className="mono">{attempt.name}</span>… {Math.round(attempt.fraction * 100)}%
        of {formatBytes(attempt.size)}
        {hasLog && <span className="muted"> · the results on screen stay meanwhile</span>}
      </span>
      <button type="button" className="btn btn-small" onClick={onCancel} data-testid="log-cancel">
        Cancel
      </button>
    </div>
  );
}

/** The attempt that did not replace the log in use: refused, cancelled or failed. */
function AttemptNote() {
  const attempt = useStore((s) => s.log.attempt);
  const hasLog = useStore((s) => s.log.current !== null);
  const kept = hasLog ? ' The log in use stays, with its results.' : '';
  if (attempt.status === 'refused')
    return <LogReport name={attempt.name} size={attempt.size} parsed={attempt.parsed} refused />;
  if (attempt.status === 'cancelled')
    return (
      <p className="notice notice-warn" data-testid="log-cancelled">
        Reading <span className="mono">{attempt.name}</span> was cancelled.{kept}
      </p>
    );
  if (attempt.status === 'failed')
    return (
      <p className="notice notice-error" role="alert" data-testid="log-failed">
        <span className="mono">{attempt.name}</span> could not be read: {attempt.message}.{kept}
      </p>
    );
  return null;
}

interface RunProps {
  scenario: Scenario;
  /** The overrides of the latest run request. */
  requested: Overrides;
  /** Starts a run with these overrides (the page passes the log along). */
  onRun: (o: Overrides) => void;
}

/** Which requests the run replays: the log, or one of the generated traces. */
function TraceSource({ scenario, requested, onRun }: RunProps) {
  const log = useStore((s) => s.log.current);
  const trace = requestedTrace(scenario, requested);
  const value = typeof trace === 'string' ? trace : 'log';
  return (
    <label className="log-source">
      <span>The run replays</span>
      <select
        value={value}
        onChange={(e) => onRun(withTrace(requested, scenario, e.currentTarget.value))}
        data-testid="log-source"
      >
        <option value="log" disabled={!log}>
          {log ? `your access log (${log.name})` : 'your access log (open one first)'}
        </option>
        {GENERATED_TRACES.map((t) => (
          <option key={t} value={t}>
            the {TRACE_LABELS[t]} trace, generated from Table 4.1
          </option>
        ))}
      </select>
    </label>
  );
}

export function AccessLogPanel({ scenario, requested, onRun }: RunProps) {
  const store = useStoreInstance();
  const log = useStore((s) => s.log.current);
  const opened = useRef<OpenedLog | null>(null);
  const needs = needsAccessLog(scenario, requested);
  // The parser's worker starts while the viewer picks a file; leaving the page stops it, and a
  // read in progress.
  useEffect(() => {
    prepareLogParser();
    return () => {
      opened.current?.cancel();
      dropLogParser();
    };
  }, []);

  const onFile = (f: File) => {
    opened.current?.cancel();
    opened.current = openAccessLog(store, f, {
      // A new log runs at once, replayed (back to "log" if a generated trace was chosen).
      onLoaded: () => onRun(withTrace(requested, scenario, 'log')),
    });
  };
  const link = typeof window === 'undefined' ? '' : window.location.href;

  return (
    <div className="log-panel" data-testid="access-log-panel">
      {!log && needs && (
        <p className="log-prompt" data-testid="log-prompt">
          <b>This scenario replays a web server access log of your own.</b> Logs never travel in a
          link: open one to run it (it is read here, in this tab, and sent nowhere), or replay a
          generated trace instead.
        </p>
      )}
      <LogOpener onFile={onFile} onCancel={() => opened.current?.cancel()} />
      <AttemptNote />
      <TraceSource scenario={scenario} requested={requested} onRun={onRun} />
      {log && <LogReport name={log.name} size={log.size} parsed={log.parsed} />}
      <p className="log-link-note" data-testid="log-link-note">
        The link to this page
        {link ? (
          <>
            {' '}
            (<span className="mono">{link}</span>)
          </>
        ) : (
          ''
        )}{' '}
        does not carry the log: it stays in this tab. Whoever opens the link must open a log again.
      </p>
    </div>
  );
}
