import { useEffect, useState } from 'react';
import { useStore, useSweepProgress } from '../run/store';

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const id = setInterval(() => setNow(performance.now()), 200);
    return () => clearInterval(id);
  }, []);
  return <span className="mono">{((now - since) / 1000).toFixed(1)} s</span>;
}

export function RunStatus({
  onRerun,
  onCancel,
  kept = false,
}: {
  onRerun: () => void;
  onCancel: () => void;
  /** A previous run stays on screen (while this one computes, or after it failed). */
  kept?: boolean;
}) {
  const run = useStore((s) => s.run);
  const sweep = useSweepProgress();
  return (
    <div
      className="run-status"
      aria-live="polite"
      data-testid="run-status"
      data-status={run.status === 'done' && run.sweepProgress ? 'sweep' : run.status}
    >
      {run.status === 'running' && (
        <div className="status-line">
          <span className="spinner" aria-hidden="true" />
          <span>
            Simulating… <Elapsed since={run.startedAt} />
            {kept && <span className="muted"> · showing the previous run</span>}
          </span>
          <button type="button" className="btn btn-small" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
      {run.status === 'done' && run.sweepProgress && sweep && (
        <div className="status-line" data-testid="sweep-progress">
          <span className="spinner" aria-hidden="true" />
          <span>
            Main run drawn · sweep{' '}
            {/* The count changes with every point: shown, not announced (the line is). */}
            <span className="mono" aria-hidden="true">
              {sweep.done} of {sweep.total} points
            </span>
            <span className="sr-only">running</span> · checks wait for it
          </span>
          <button type="button" className="btn btn-small" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
      {run.status === 'done' && !run.sweepProgress && (
        <div className="status-line">
          <span className="dot dot-ok" aria-hidden="true" />
          <span>
            {run.demo ? 'Demo data' : 'Simulated'} ·{' '}
            {run.output.results.events && (
              <>{run.output.results.events.value.toLocaleString('en-US')} events, </>
            )}
            {run.output.trace.records.toLocaleString('en-US')} traced
            {run.elapsedMs > 0 && <> in {(run.elapsedMs / 1000).toFixed(2)} s</>}
            {run.output.trace.dropped > 0 && (
              <> · {run.output.trace.dropped.toLocaleString('en-US')} not recorded</>
            )}
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={onRerun}>
            Run again
          </button>
        </div>
      )}
      {run.status === 'done' && run.demo && (
        <div className="notice notice-warn">
          The simulation engine is not built, so this page shows built-in demo data. Run{' '}
          <code>bash core-cpp/scripts/build-wasm.sh</code> and reload.
        </div>
      )}
      {run.status === 'invalid' && (
        <div className="notice notice-error" role="alert" data-testid="run-errors">
          <strong>
            {kept
              ? 'The engine rejected this change; the previous run stays on screen.'
              : 'The engine rejected this scenario.'}
          </strong>
          <ul className="error-list">
            {run.errors.map((e, i) => (
              <li key={i}>
                <code>{e.path || '(scenario)'}</code> {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {run.status === 'failed' && (
        <div
          className={`notice ${run.code === 'cancelled' ? 'notice-warn' : 'notice-error'}`}
          role="alert"
          data-testid="run-errors"
        >
          <strong>
            {run.code === 'cancelled' ? 'Cancelled.' : 'The simulation could not run.'}
          </strong>{' '}
          {run.code === 'cancelled' ? '' : run.message}
          {kept && <> The previous run stays on screen.</>}
          <button type="button" className="btn btn-small" onClick={onRerun}>
            Run again
          </button>
        </div>
      )}
    </div>
  );
}
