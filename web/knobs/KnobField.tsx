// One knob: a slider with its exact value beside it (numbers with a range), segmented buttons
// (a few short choices, yes/no), a select (more choices) or a text field (no range). Ranges,
// units and choices are the core's parameter specs; the core checks every value it is sent.
import { useMemo, type KeyboardEvent } from 'react';
import type { ParameterSpec } from '../engine/types';
import {
  choiceFromKey,
  choiceKey,
  fieldText,
  parameterLabel,
  parseFieldText,
  sameValue,
  valueWithUnit,
  type OverrideValue,
} from '../run/overrides';
import { parseOrigin } from '../results';
import { positionOf, sliderScale, valueAt } from './scale';

export function knobInputId(path: string): string {
  return `knob-input-${path}`;
}

/** Segmented buttons for up to this many choices whose labels together are this short. */
const SEGMENT_MAX = 4;
const SEGMENT_CHARS = 28;

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

export function choicesOf(spec: ParameterSpec): unknown[] | null {
  if (spec.choices) return spec.choices;
  return spec.type === 'boolean' ? [false, true] : null;
}

/** A choice's label on a segment: without the unit, which the group shows once. */
function segmentText(v: unknown): string {
  return valueWithUnit(v, undefined);
}

export function segmented(choices: readonly unknown[]): boolean {
  if (choices.length > SEGMENT_MAX) return false;
  return choices.reduce<number>((n, c) => n + segmentText(c).length, 0) <= SEGMENT_CHARS;
}

export interface KnobFieldProps {
  spec: ParameterSpec;
  /** The value on screen: the knob's latest position, or the text being typed. */
  value: unknown;
  /** The current value of the parameter that sets this one's step (spec.multiple_of), if any. */
  unit?: unknown;
  base: unknown;
  hasBase: boolean;
  /** Text typed and not yet run (Enter or leaving the field runs it). */
  edited: boolean;
  errors: string[] | undefined;
  /** A new value from the slider (runs after a pause, or every so often while dragged). */
  onChange: (v: OverrideValue) => void;
  /** A choice picked: runs at once. */
  onPick: (v: OverrideValue) => void;
  onType: (text: string) => void;
  /** Enter or leaving the text field. */
  onCommit: () => void;
  /** Escape in the text field: back to the knob's value. */
  onRevert: () => void;
  /** A pointer took the slider (a drag runs every so often, and at once when let go). */
  onSlideStart: () => void;
}

export function KnobField({
  spec,
  value,
  unit,
  base,
  hasBase,
  edited,
  errors,
  onChange,
  onPick,
  onType,
  onCommit,
  onRevert,
  onSlideStart,
}: KnobFieldProps) {
  const id = knobInputId(spec.path);
  const nameId = `${id}-name`;
  const errId = `${id}-error`;
  const invalid = !!errors && errors.length > 0;
  const choices = choicesOf(spec);
  const scale = useMemo(() => sliderScale(spec, unit), [spec, unit]);
  const parsed =
    typeof value === 'string' && !choices && spec.type !== 'string'
      ? parseFieldText(spec, value)
      : null;
  const compared = parsed ? (parsed.kind === 'empty' ? base : parsed.value) : value;
  const changed = hasBase && !sameValue(compared, base);
  const described = invalid ? errId : undefined;

  // Page Up / Down: a tenth of the range, and at least two steps (Chromium's own page step
  // is a tenth of the positions, one step on a short slider).
  const onSlideKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!scale || (e.key !== 'PageUp' && e.key !== 'PageDown')) return;
    e.preventDefault();
    const last = scale.values.length - 1;
    const big = Math.max(2, Math.round(last / 10));
    const at = Number(e.currentTarget.value);
    const to = Math.min(last, Math.max(0, at + (e.key === 'PageUp' ? big : -big)));
    if (to !== at) onChange(valueAt(scale, to));
  };

  const onTextKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onCommit();
    } else if (e.key === 'Escape' && edited) {
      e.preventDefault();
      onRevert();
    }
  };

  let control;
  if (choices && segmented(choices)) {
    const key = choiceKey(value);
    control = (
      <div
        className="knob-segments"
        role="group"
        aria-labelledby={nameId}
        aria-describedby={described}
        aria-invalid={invalid || undefined}
      >
        {choices.map((c, i) => {
          const k = choiceKey(c);
          return (
            <button
              type="button"
              key={k}
              id={i === 0 ? id : undefined}
              className="knob-segment"
              aria-pressed={k === key}
              onClick={() => {
                if (k !== key) onPick(choiceFromKey(k));
              }}
            >
              {segmentText(c)}
            </button>
          );
        })}
        {spec.unit && <span className="knob-unit">{spec.unit}</span>}
      </div>
    );
  } else if (choices) {
    const key = choiceKey(value);
    const known = choices.some((c) => choiceKey(c) === key);
    control = (
      <select
        id={id}
        value={key}
        onChange={(e) => onPick(choiceFromKey(e.currentTarget.value))}
        aria-invalid={invalid || undefined}
        aria-describedby={described}
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
    const text = (
      <span className="knob-input">
        <input
          id={id}
          type="text"
          inputMode={spec.type === 'integer' ? 'numeric' : 'decimal'}
          autoComplete="off"
          spellCheck={false}
          value={typeof value === 'string' ? value : fieldText(value)}
          onChange={(e) => onType(e.currentTarget.value)}
          onKeyDown={onTextKey}
          onBlur={onCommit}
          aria-invalid={invalid || undefined}
          aria-describedby={described}
          title="The exact value: Enter runs it"
        />
        {spec.unit && <span className="knob-unit">{spec.unit}</span>}
      </span>
    );
    if (scale) {
      // The slider sits where the value is; a value typed between its positions stays exact.
      const shownValue = parsed ? (parsed.kind === 'value' ? parsed.value : base) : value;
      const pos = positionOf(scale, shownValue);
      const last = scale.values.length - 1;
      control = (
        <div className="knob-slide">
          <div className="knob-track">
            <input
              type="range"
              className="knob-slider"
              min={0}
              max={last}
              step={1}
              value={pos}
              aria-labelledby={nameId}
              aria-valuetext={valueWithUnit(shownValue, spec.unit)}
              aria-invalid={invalid || undefined}
              aria-describedby={described}
              data-scale={scale.kind}
              onPointerDown={onSlideStart}
              onKeyDown={onSlideKey}
              onChange={(e) => onChange(valueAt(scale, Number(e.currentTarget.value)))}
            />
            <span className="knob-ends mono" aria-hidden="true">
              <span>{scale.values[0]!.toLocaleString('en-US')}</span>
              {scale.kind === 'log' && <span className="knob-log">log</span>}
              <span>{scale.values[last]!.toLocaleString('en-US')}</span>
            </span>
          </div>
          {text}
        </div>
      );
    } else {
      control = text;
    }
  }

  // Segmented buttons are named by the group (aria-labelledby); a <label> would rename the first.
  const Label = choices && segmented(choices) ? 'div' : 'label';
  return (
    <div
      className={`knob ${changed ? 'changed' : ''} ${edited ? 'edited' : ''} ${invalid ? 'invalid' : ''}`}
      data-testid={`knob-${spec.path}`}
      data-path={spec.path}
    >
      <Label
        htmlFor={Label === 'label' ? id : undefined}
        className="knob-label"
        title={specTitle(spec)}
      >
        <span className="knob-head">
          <span className="knob-name" id={nameId}>
            {parameterLabel(spec.path)}
          </span>
          {edited && (
            <span className="knob-flag" title="Typed, not run yet">
              Enter runs it
            </span>
          )}
        </span>
        <span className="knob-path mono">{spec.path}</span>
        {spec.description && <span className="knob-desc">{spec.description}</span>}
      </Label>
      {control}
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
