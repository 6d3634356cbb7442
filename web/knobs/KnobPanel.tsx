// "Change a knob": the scenario's parameters (the core's parameterInfo()) with the values of the
// run on screen, grouped by section, the most relevant first. A moved knob runs by itself: a
// slider at its first step, then every so often while it moves and at its last position (see
// liveRun.ts); a choice or a typed value (Enter or leaving the field) at once. The core validates every value; its messages appear next to their
// fields and the previous run stays on screen. The UI checks nothing beyond reading the number
// text.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ParameterSpec, ValidationError } from '../engine/types';
import {
  fieldText,
  groupParameters,
  mapErrors,
  matchesQuery,
  parameterLabel,
  parseFieldText,
  sameOverrides,
  sameValue,
  valueWithUnit,
  withOverride,
  type OverrideValue,
  type Overrides,
} from '../run/overrides';
import { KnobField } from './KnobField';
import { LiveRunner } from './liveRun';
import { positionOf, sliderScale } from './scale';

/**
 * Chosen: the knob positions asked for ahead of time, the neighbours of the last moved slider
 * and of the sliders on show. Eight main runs keep two idle cores busy for a few seconds at most
 * on the slowest preset, then the pool rests.
 */
export const PREFETCH_MAX = 8;

export { knobInputId } from './KnobField';

export interface KnobPanelProps {
  /** The core's parameter specs (empty until the first run reports them). */
  specs: readonly ParameterSpec[];
  /** Effective values of the run on screen, path → value. */
  effective: ReadonlyMap<string, unknown>;
  /** The scenario's own values (its run without overrides), path → value. */
  base: ReadonlyMap<string, unknown>;
  /** The overrides of the latest run (applied, running, or rejected). */
  overrides: Overrides;
  /** The core's messages for the latest run, when it rejected it. */
  errors: readonly ValidationError[];
  running: boolean;
  /** Runs the scenario with these overrides (cancelling what is in flight). */
  onRun: (overrides: Overrides) => void;
  /**
   * Asks for these runs ahead of time (the pool's prefetch): a slider's neighbouring positions,
   * so that moving it one step answers at once. Not given: nothing is asked ahead.
   */
  onPrefetch?: (candidates: Overrides[]) => void;
  /** Start expanded (tests). */
  defaultOpen?: boolean;
}

export function KnobPanel({
  specs,
  effective,
  base,
  overrides,
  errors,
  running,
  onRun,
  onPrefetch,
  defaultOpen = false,
}: KnobPanelProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [query, setQuery] = useState('');
  // Text typed into a value field and not yet run, path → text.
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  // Knob positions waiting to run (a pause, the next step of a drag), or null.
  const [waiting, setWaiting] = useState<Overrides | null>(null);
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(() => new Set(['key']));
  // A new rejection opens the panel so that each message is seen next to its field.
  const [seenErrors, setSeenErrors] = useState(errors);
  if (seenErrors !== errors) {
    setSeenErrors(errors);
    if (errors.length > 0) setOpen(true);
  }

  // The overrides this panel last asked for (sent, or waiting); what the next move builds on.
  const latest = useRef(overrides);
  const sent = useRef(overrides);
  // The slider moved last: the likeliest to move again.
  const [lastMoved, setLastMoved] = useState<string | null>(null);
  const onRunRef = useRef(onRun);
  const runningRef = useRef(running);
  useEffect(() => {
    onRunRef.current = onRun;
    runningRef.current = running;
  });
  // Created after mount: its callbacks read the refs, never during render.
  const runnerRef = useRef<LiveRunner | null>(null);
  useEffect(() => {
    const r = new LiveRunner(
      (o) => {
        sent.current = o;
        setWaiting(null);
        // For web/scripts/bench-knobs.mjs: when a moved knob's run was asked for.
        performance.mark('nicsim:knob-run');
        onRunRef.current(o);
      },
      () => runningRef.current,
    );
    runnerRef.current = r;
    return () => {
      r.cancel();
      runnerRef.current = null;
    };
  }, []);
  useEffect(() => {
    if (!running) runnerRef.current?.idle();
  }, [running]);
  // Something else ran the page (a tour step, a link, the A/B page): its overrides win.
  useEffect(() => {
    if (sameOverrides(overrides, sent.current)) return;
    runnerRef.current?.cancel();
    sent.current = overrides;
    latest.current = overrides;
    setWaiting(null);
  }, [overrides]);

  // Bring the first rejected field into the panel's view (the panel scrolls inside itself).
  const bodyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const body = bodyRef.current;
    const bad = body?.querySelector<HTMLElement>('.knob.invalid');
    if (!body || !bad || errors.length === 0) return;
    const top = bad.getBoundingClientRect().top - body.getBoundingClientRect().top;
    if (top < 0 || top + bad.offsetHeight > body.clientHeight) body.scrollTop += top - 40;
  }, [errors, open]);

  // A pointer on a slider: the drag runs every so often, and its last position when let go.
  const slideStart = useCallback(() => {
    const end = () => {
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      runnerRef.current?.release();
    };
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  }, []);

  const specMap = useMemo(() => new Map(specs.map((s) => [s.path, s])), [specs]);
  const groups = useMemo(() => groupParameters(specs), [specs]);
  const mapped = useMemo(() => mapErrors(errors, specMap.keys()), [errors, specMap]);

  // With the panel open and the run on screen complete, the sliders' neighbouring positions are
  // asked for ahead of time: the last moved first, then those on show, in the panel's order.
  const q0 = query.trim();
  useEffect(() => {
    if (!onPrefetch || !open || running || waiting || specs.length === 0) return;
    const paths: string[] = lastMoved ? [lastMoved] : [];
    for (const g of groups) {
      const shown = g.specs.filter((s) => !q0 || matchesQuery(s, q0));
      if (q0 || openGroups.has(g.id)) for (const s of shown) paths.push(s.path);
    }
    const out: Overrides[] = [];
    const valueOf = (p: string) => (p in overrides ? overrides[p] : effective.get(p));
    for (const path of new Set(paths)) {
      const spec = specMap.get(path);
      const scale = spec
        ? sliderScale(spec, spec.multiple_of && valueOf(spec.multiple_of.path))
        : null;
      if (!scale) continue;
      const value = valueOf(path);
      const at = positionOf(scale, value);
      for (const p of [at + 1, at - 1]) {
        const v = scale.values[p];
        if (v === undefined || sameValue(v, value)) continue;
        out.push(withOverride(overrides, path, v, base));
      }
      if (out.length >= PREFETCH_MAX) break;
    }
    onPrefetch(out.slice(0, PREFETCH_MAX));
  }, [
    onPrefetch,
    open,
    running,
    waiting,
    specs,
    groups,
    openGroups,
    q0,
    lastMoved,
    specMap,
    overrides,
    effective,
    base,
  ]);

  const knobValue = (path: string): unknown => {
    const ov = waiting ?? overrides;
    if (path in ov) return ov[path];
    // An override just taken away: the scenario's own value, before the run reports it.
    if (path in overrides && base.has(path)) return base.get(path);
    return effective.get(path);
  };

  /** Moves a knob: a slider (runs as it moves), or a choice or typed value (runs at once). */
  const move = (path: string, value: OverrideValue | undefined, how: 'slide' | 'now') => {
    const next = withOverride(latest.current, path, value, base);
    latest.current = next;
    setWaiting(next);
    if (how === 'slide') setLastMoved(path);
    const r = runnerRef.current;
    if (!r) return onRun(next);
    r.change(next, how === 'slide');
    if (how === 'now') r.flush();
  };

  const dropDraft = (path: string) =>
    setDrafts((d) => {
      if (!(path in d)) return d;
      const rest = { ...d };
      delete rest[path];
      return rest;
    });

  /** Runs the text typed into a field, unless it is the knob's value already. */
  const commit = (path: string) => {
    const text = drafts[path];
    const spec = specMap.get(path);
    if (text === undefined || !spec) return;
    dropDraft(path);
    const p = parseFieldText(spec, text);
    const value = p.kind === 'empty' ? undefined : p.value;
    const before = knobValue(path);
    if (value === undefined ? !(path in latest.current) : sameValue(value, before)) return;
    move(path, value, 'now');
  };

  /** Runs these overrides now, dropping whatever waits (Run, a chip's ×, Reset all). */
  const runNow = (next: Overrides) => {
    runnerRef.current?.cancel();
    setDrafts({});
    setWaiting(null);
    latest.current = next;
    sent.current = next;
    onRun(next);
  };
  const runAll = () => {
    let next = latest.current;
    for (const [path, text] of Object.entries(drafts)) {
      const spec = specMap.get(path);
      if (!spec) continue;
      const p = parseFieldText(spec, text);
      next = withOverride(next, path, p.kind === 'empty' ? undefined : p.value, base);
    }
    runNow(next);
  };

  const chips = Object.entries(waiting ?? overrides);
  const typed = Object.keys(drafts).filter((p) => drafts[p]!.trim() !== fieldText(knobValue(p)));
  const q = query.trim();

  return (
    <section
      className={`knobs ${open ? 'open' : ''}`}
      aria-label="Change a knob"
      data-testid="knob-panel"
    >
      <div className="knobs-bar">
        <button
          type="button"
          className="knobs-toggle"
          aria-expanded={open}
          aria-controls="knobs-body"
          onClick={() => setOpen((o) => !o)}
          data-testid="knobs-toggle"
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path d="M3 5h8M15 5h2M3 10h2M9 10h8M3 15h10M17 15h0" />
            <circle cx="13" cy="5" r="2" />
            <circle cx="7" cy="10" r="2" />
            <circle cx="15" cy="15" r="2" />
          </svg>
          Change a knob
          <span className="knobs-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
        </button>
        <div className="knobs-chips" data-testid="override-chips">
          {chips.length === 0 ? (
            <span className="muted small">
              {specs.length
                ? `The scenario as written · ${specs.length} parameters`
                : 'The parameters appear when the scenario has run once.'}
            </span>
          ) : (
            <>
              <span className="muted small">Changed:</span>
              {chips.map(([path, v]) => {
                const spec = specMap.get(path);
                const bad = mapped.byPath.has(path) || errors.some((e) => e.path === path);
                return (
                  <span
                    key={path}
                    className={`ochip ${bad ? 'bad' : ''}`}
                    data-testid="override-chip"
                    data-path={path}
                    title={path}
                  >
                    <span className="ochip-name">{parameterLabel(path)}</span>
                    <span className="ochip-value mono">{valueWithUnit(v, spec?.unit)}</span>
                    <button
                      type="button"
                      className="ochip-x"
                      aria-label={`Remove the change to ${path} and run`}
                      onClick={() => runNow(withOverride(latest.current, path, undefined, base))}
                    >
                      ×
                    </button>
                  </span>
                );
              })}
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={() => runNow({})}
                data-testid="reset-all"
              >
                Reset all
              </button>
            </>
          )}
        </div>
        <div className="knobs-run">
          {typed.length > 0 && (
            <span className="knobs-pending small">
              {typed.length} typed value{typed.length === 1 ? '' : 's'} not run: press{' '}
              <kbd>Enter</kbd>
            </span>
          )}
          <span
            className={`spinner ${running || waiting ? '' : 'spinner-off'}`}
            aria-hidden="true"
            data-testid="knobs-busy"
          />
          <button
            type="button"
            className="btn btn-run"
            onClick={runAll}
            disabled={specs.length === 0}
            data-testid="knobs-run"
            title="Run again (a moved knob runs by itself)"
          >
            Run
          </button>
        </div>
      </div>
      {open && (
        <div className="knobs-body" id="knobs-body" ref={bodyRef}>
          {mapped.other.length > 0 && (
            <div className="notice notice-error knobs-other" role="alert">
              {mapped.other.map((e, i) => (
                <div key={i}>
                  <code>{e.path || '(scenario)'}</code> {e.message}
                </div>
              ))}
            </div>
          )}
          <div className="knobs-tools">
            <input
              type="search"
              className="knobs-search"
              placeholder="Search: ring, coalesce, bus…"
              aria-label="Search parameters"
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              data-testid="knobs-search"
            />
            <span className="muted small">
              Values of the run on screen. Move a knob and the scenario runs again; type an exact
              value and press <kbd>Enter</kbd>. The engine checks every value. Hover a name for its
              source.
            </span>
          </div>
          {specs.length === 0 && (
            <p className="muted">The parameters appear when the scenario has run once.</p>
          )}
          {q &&
            specs.length > 0 &&
            !specs.some((s) => matchesQuery(s, q) || mapped.byPath.has(s.path)) && (
              <p className="muted small">No parameter matches “{q}”.</p>
            )}
          {groups.map((g) => {
            const shown = g.specs.filter(
              (s) => !q || matchesQuery(s, q) || mapped.byPath.has(s.path),
            );
            if (shown.length === 0) return null;
            const forced = !!q || shown.some((s) => mapped.byPath.has(s.path) || s.path in drafts);
            const isOpen = forced || openGroups.has(g.id);
            return (
              <div className="knob-group" key={g.id} data-testid={`knob-group-${g.id}`}>
                <button
                  type="button"
                  className="knob-group-head"
                  aria-expanded={isOpen}
                  disabled={forced}
                  onClick={() =>
                    setOpenGroups((s) => {
                      const n = new Set(s);
                      if (n.has(g.id)) n.delete(g.id);
                      else n.add(g.id);
                      return n;
                    })
                  }
                >
                  <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span> {g.label}
                  <span className="muted small">
                    {' '}
                    {g.id === 'key' ? '' : `${g.id} · `}
                    {shown.length}
                  </span>
                </button>
                {isOpen && (
                  <div className="knob-grid">
                    {shown.map((s) => (
                      <KnobField
                        key={s.path}
                        spec={s}
                        value={s.path in drafts ? drafts[s.path] : knobValue(s.path)}
                        unit={s.multiple_of && knobValue(s.multiple_of.path)}
                        base={base.get(s.path)}
                        hasBase={base.has(s.path)}
                        edited={typed.includes(s.path)}
                        errors={mapped.byPath.get(s.path)}
                        onChange={(v) => {
                          dropDraft(s.path);
                          move(s.path, v, 'slide');
                        }}
                        onPick={(v) => move(s.path, v, 'now')}
                        onType={(t) => setDrafts((d) => ({ ...d, [s.path]: t }))}
                        onCommit={() => commit(s.path)}
                        onRevert={() => dropDraft(s.path)}
                        onSlideStart={slideStart}
                      />
                    ))}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
