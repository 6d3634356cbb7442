// "Change a knob": the scenario's parameters (the core's parameterInfo()) with the values of the
// last run, grouped by section, the most relevant first. Edits are sent to the core as an
// overrides object when the user presses Run or Enter; the core validates them and its messages
// appear next to their fields. The UI checks nothing beyond reading the number text.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ParameterSpec, ValidationError } from '../engine/types';
import {
  buildOverrides,
  choiceFromKey,
  choiceKey,
  fieldText,
  groupParameters,
  mapErrors,
  matchesQuery,
  parameterLabel,
  parseFieldText,
  sameValue,
  valueWithUnit,
  withOverride,
  type OverrideValue,
  type Overrides,
} from '../run/overrides';
import { parseOrigin } from '../results';

type Edits = Record<string, string | OverrideValue>;

export interface KnobPanelProps {
  /** The core's parameter specs (empty until the first run reports them). */
  specs: readonly ParameterSpec[];
  /** Effective values of the run on screen, path → value. */
  effective: ReadonlyMap<string, unknown>;
  /** The scenario's own values (its run without overrides), path → value. */
  base: ReadonlyMap<string, unknown>;
  /** The overrides of the latest Run (applied, running, or rejected). */
  overrides: Overrides;
  /** The core's messages for the latest Run, when it rejected it. */
  errors: readonly ValidationError[];
  running: boolean;
  onRun: (overrides: Overrides) => void;
  /** Start expanded (tests). */
  defaultOpen?: boolean;
}

export function knobInputId(path: string): string {
  return `knob-input-${path}`;
}

function rangeText(spec: ParameterSpec): string {
  if (spec.type === 'choice' || spec.choices) return '';
  if (typeof spec.min === 'number' && typeof spec.max === 'number')
    return `${spec.min.toLocaleString('en-US')} – ${spec.max.toLocaleString('en-US')}`;
  return '';
}

function specTitle(spec: ParameterSpec): string {
  const origin = parseOrigin(spec.origin);
  return [
    spec.description,
    spec.default !== undefined ? `Default: ${valueWithUnit(spec.default, spec.unit)}` : '',
    origin.text ? `${origin.chosen ? 'Chosen: ' : 'Source: '}${origin.text}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function choicesOf(spec: ParameterSpec): unknown[] | null {
  if (spec.choices) return spec.choices;
  return spec.type === 'boolean' ? [true, false] : null;
}

interface FieldProps {
  spec: ParameterSpec;
  value: unknown;
  base: unknown;
  hasBase: boolean;
  edited: boolean;
  errors: string[] | undefined;
  onEdit: (v: string | OverrideValue) => void;
  onEnter: () => void;
}

function Field({ spec, value, base, hasBase, edited, errors, onEdit, onEnter }: FieldProps) {
  const id = knobInputId(spec.path);
  const errId = `${id}-error`;
  const invalid = !!errors && errors.length > 0;
  const parsed =
    typeof value === 'string' && !choicesOf(spec) && spec.type !== 'string'
      ? parseFieldText(spec, value)
      : null;
  const compared = parsed ? (parsed.kind === 'empty' ? base : parsed.value) : value;
  const changed = hasBase && !sameValue(compared, base);
  const choices = choicesOf(spec);
  const onKey = (e: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onEnter();
    }
  };
  let control;
  if (choices) {
    const key = choiceKey(value);
    const known = choices.some((c) => choiceKey(c) === key);
    control = (
      <select
        id={id}
        value={key}
        onChange={(e) => onEdit(choiceFromKey(e.currentTarget.value))}
        onKeyDown={onKey}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errId : undefined}
      >
        {!known && <option value={key}>{fieldText(value)}</option>}
        {choices.map((c) => (
          <option key={choiceKey(c)} value={choiceKey(c)}>
            {valueWithUnit(c, spec.unit)}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <span className="knob-input">
        <input
          id={id}
          type="text"
          inputMode={spec.type === 'integer' ? 'numeric' : 'decimal'}
          autoComplete="off"
          spellCheck={false}
          value={typeof value === 'string' ? value : fieldText(value)}
          onChange={(e) => onEdit(e.currentTarget.value)}
          onKeyDown={onKey}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errId : undefined}
        />
        {spec.unit && <span className="knob-unit">{spec.unit}</span>}
      </span>
    );
  }
  const range = rangeText(spec);
  return (
    <div
      className={`knob ${changed ? 'changed' : ''} ${edited ? 'edited' : ''} ${invalid ? 'invalid' : ''}`}
      data-testid={`knob-${spec.path}`}
      data-path={spec.path}
    >
      <label htmlFor={id} className="knob-label" title={specTitle(spec)}>
        <span className="knob-name">
          {parameterLabel(spec.path)}
          {edited && (
            <span className="knob-flag" title="Edited: press Run or Enter">
              edited
            </span>
          )}
        </span>
        <span className="knob-path mono">{spec.path}</span>
        {spec.description && <span className="knob-desc">{spec.description}</span>}
      </label>
      <div className="knob-row">
        {control}
        {range && (
          <span className="knob-range mono" title="The range the engine accepts (parameterInfo)">
            {range}
          </span>
        )}
      </div>
      {changed && (
        <div className="knob-base muted">
          scenario: <span className="mono">{valueWithUnit(base, spec.unit)}</span>
        </div>
      )}
      {invalid &&
        errors!.map((m, i) => (
          <p
            className="knob-error"
            id={i === 0 ? errId : undefined}
            key={i}
            data-testid="knob-error"
          >
            {m}
          </p>
        ))}
    </div>
  );
}

export function KnobPanel({
  specs,
  effective,
  base,
  overrides,
  errors,
  running,
  onRun,
  defaultOpen = false,
}: KnobPanelProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [query, setQuery] = useState('');
  const [edits, setEdits] = useState<Edits>({});
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(() => new Set(['key']));
  // A new rejection opens the panel so that each message is seen next to its field.
  const [seenErrors, setSeenErrors] = useState(errors);
  if (seenErrors !== errors) {
    setSeenErrors(errors);
    if (errors.length > 0) setOpen(true);
  }

  // Bring the first rejected field into the panel's view (the panel scrolls inside itself).
  const bodyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const body = bodyRef.current;
    const bad = body?.querySelector<HTMLElement>('.knob.invalid');
    if (!body || !bad || errors.length === 0) return;
    const top = bad.getBoundingClientRect().top - body.getBoundingClientRect().top;
    if (top < 0 || top + bad.offsetHeight > body.clientHeight) body.scrollTop += top - 40;
  }, [errors, open]);

  const specMap = useMemo(() => new Map(specs.map((s) => [s.path, s])), [specs]);
  const groups = useMemo(() => groupParameters(specs), [specs]);
  const mapped = useMemo(() => mapErrors(errors, specMap.keys()), [errors, specMap]);

  const current = (path: string): unknown =>
    path in edits ? edits[path] : path in overrides ? overrides[path] : effective.get(path);

  const submit = (nextEdits: Edits = edits, from: Overrides = overrides) => {
    const next = buildOverrides(from, nextEdits, specMap, base);
    setEdits({});
    onRun(next);
  };
  const remove = (path: string) => {
    const rest = { ...edits };
    delete rest[path];
    setEdits({});
    submit(rest, withOverride(overrides, path, undefined, base));
  };
  const resetAll = () => {
    setEdits({});
    onRun({});
  };

  const chips = Object.entries(overrides);
  const pending = Object.keys(edits).filter((p) => {
    const before = p in overrides ? overrides[p] : effective.get(p);
    const e = edits[p];
    return typeof e === 'string' ? e.trim() !== fieldText(before) : !sameValue(e, before);
  });
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
                      onClick={() => remove(path)}
                    >
                      ×
                    </button>
                  </span>
                );
              })}
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={resetAll}
                data-testid="reset-all"
              >
                Reset all
              </button>
            </>
          )}
        </div>
        <div className="knobs-run">
          {pending.length > 0 && (
            <span className="knobs-pending small">
              {pending.length} edit{pending.length === 1 ? '' : 's'} not run yet
            </span>
          )}
          {running && <span className="spinner" aria-hidden="true" />}
          <button
            type="button"
            className="btn btn-run"
            onClick={() => submit()}
            disabled={specs.length === 0}
            data-testid="knobs-run"
            title="Run the scenario with these values (Enter in a field does the same)"
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
              Values of the last run. Edit, then press <kbd>Enter</kbd> or Run; the engine checks
              every value. Hover a name for its source.
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
            const forced = !!q || shown.some((s) => mapped.byPath.has(s.path) || s.path in edits);
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
                      <Field
                        key={s.path}
                        spec={s}
                        value={current(s.path)}
                        base={base.get(s.path)}
                        hasBase={base.has(s.path)}
                        edited={pending.includes(s.path)}
                        errors={mapped.byPath.get(s.path)}
                        onEdit={(v) => setEdits((e) => ({ ...e, [s.path]: v }))}
                        onEnter={() => submit()}
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
