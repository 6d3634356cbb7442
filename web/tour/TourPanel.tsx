// The guided tour player: a launcher above the page, and while a tour runs a dock at the
// bottom of the window with the step's narration, its live values beside the paper's, and for a
// "predict" step the class's answer, "Run it" (the variant, through the same run path as the knob
// panel) and the reveal. The tour's state is ui.tourStep; a step moves the cursor, sets
// ui.highlight and pauses playback. Leaving a step whose variant ran restores the settings from
// before it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RunOutput } from '../engine/types';
import type { Overrides } from '../run/overrides';
import {
  metricRows,
  partsText,
  setText,
  stepCursorPs,
  stepHighlight,
  tourKeyAction,
  tourSteps,
  variantOverrides,
  type MetricRow,
} from './tour';
import type { Scenario, TourStep } from '../scenarios/types';
import { useStore, useStoreInstance } from '../run/store';
import { CHOICE_INPUTS } from './Presenter';
import { inOpenMenu, isTyping } from '../kit/keys';
import './tour.css';

export interface TourPanelProps {
  scenario: Scenario;
  /** The overrides of the latest run request (what a variant adds to, and restores). */
  requested: Overrides;
  /** Starts a run with these overrides (the knob panel's path). */
  onRun: (overrides: Overrides) => void;
  /** The panel class suffix of a view ("waveform" → "wave"), to scroll to it. */
  panelOf?: (view: string) => string;
}

interface Variant {
  step: number;
  before: Overrides;
  overrides: Overrides;
  /** The run on screen before the variant: its values are what the variant is compared with. */
  baseline: RunOutput | null;
}

interface Answer {
  step: number;
  choice: number | null;
  text: string;
  revealed: boolean;
}

const LETTERS = 'abcdef';
const noAnswer = (step: number): Answer => ({ step, choice: null, text: '', revealed: false });

function reducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
  );
}

export function TourPanel({ scenario, requested, onRun, panelOf }: TourPanelProps) {
  const store = useStoreInstance();
  const steps = useMemo(() => tourSteps(scenario), [scenario]);
  const tourStep = useStore((s) => s.ui.tourStep);
  const presenter = useStore((s) => s.ui.presenter);
  const shown = useStore((s) => s.shown);
  const runState = useStore((s) => s.run);
  const [variant, setVariant] = useState<Variant | null>(null);
  const [answer, setAnswer] = useState<Answer>(noAnswer(-1));
  const variantRef = useRef<Variant | null>(null);
  const requestedRef = useRef(requested);
  // The step whose cursor, highlight and pause were applied by the tour itself.
  const applied = useRef<number | null>(null);
  // A step's cursor waits for the first run to be on screen.
  const pending = useRef<{ ps: number | null; play: boolean } | null>(null);
  const dockRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    variantRef.current = variant;
  }, [variant]);
  useEffect(() => {
    requestedRef.current = requested;
  }, [requested]);

  const current = tourStep !== null && tourStep >= 0 && tourStep < steps.length ? tourStep : null;
  const step: TourStep | null = current !== null ? steps[current]! : null;

  const applyCursor = useCallback(
    (ps: number | null, play: boolean) => {
      if (!store.getState().shown) {
        pending.current = { ps, play };
        return;
      }
      if (ps !== null) store.setCursor(ps);
      if (play) store.autoPlay(); // not for viewers who asked for reduced motion
    },
    [store],
  );

  // Step k's view, else the last one an earlier step named (a jump lands where a walk would).
  const scrollToView = useCallback(
    (k: number) => {
      const view =
        steps
          .slice(0, k + 1)
          .reverse()
          .find((x) => x.view)?.view ??
        // A step that only highlights parts points at the diagram.
        (stepHighlight(steps[k]!).length > 0 ? 'diagram' : undefined);
      // In presenter mode a scenario with no moving view has its results on the stage.
      const stage =
        store.getState().ui.presenter && !document.querySelector('.stage-view')
          ? '.panel-results'
          : null;
      if (!view && !stage) return;
      const sel = view ? `.panel-${CSS.escape(panelOf ? panelOf(view) : view)}` : stage!;
      // After the dock has rendered (the page makes room for it first).
      requestAnimationFrame(() =>
        document
          .querySelector(sel)
          ?.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' }),
      );
    },
    [steps, panelOf, store],
  );

  const go = useCallback(
    (n: number | null) => {
      const v = variantRef.current;
      if (v && v.step !== n) {
        // Back to the settings from before the variant (the scenario's own, unless knobs moved).
        variantRef.current = null;
        setVariant(null);
        onRun(v.before);
      }
      if (n === null || steps.length === 0) {
        applied.current = null;
        pending.current = null;
        store.setUi({ tourStep: null, highlight: [] });
        return;
      }
      const k = Math.min(steps.length - 1, Math.max(0, n));
      const s = steps[k]!;
      applied.current = k;
      store.setPlaying(false);
      store.setUi({ tourStep: k, highlight: stepHighlight(s) });
      setAnswer((a) => (a.step === k ? a : noAnswer(k)));
      applyCursor(stepCursorPs(s), s.pause === false);
      scrollToView(k);
    },
    [steps, store, onRun, applyCursor, scrollToView],
  );

  // Entering or leaving presenter mode lays the page out again: bring the step's view back.
  useEffect(() => {
    if (applied.current !== null) scrollToView(applied.current);
  }, [presenter, scrollToView]);

  // The first run arrives after a step was chosen: put the cursor where the step says.
  useEffect(() => {
    const p = pending.current;
    if (!p || !shown) return;
    pending.current = null;
    if (p.ps !== null) store.setCursor(p.ps);
    if (p.play) store.autoPlay();
  }, [shown, store]);

  // A step set from elsewhere (a link): its highlight, but the cursor the link carries stays.
  useEffect(() => {
    if (tourStep === applied.current) return;
    if (tourStep === null) {
      applied.current = null;
      return;
    }
    if (tourStep < 0 || tourStep >= steps.length) {
      store.setUi({ tourStep: null });
      return;
    }
    applied.current = tourStep;
    store.setUi({ highlight: stepHighlight(steps[tourStep]!) });
  }, [tourStep, steps, store]);

  // The page keeps room for the dock while a tour runs.
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('tour-open', current !== null);
    return () => root.classList.remove('tour-open');
  }, [current]);

  const mine = current !== null && answer.step === current ? answer : noAnswer(current ?? -1);
  const predict = step?.predict;
  const variantHere = variant && variant.step === current ? variant : null;

  const reveal = useCallback(() => {
    if (current === null || !predict) return;
    setAnswer({ ...mine, step: current, revealed: true });
    if (!predict.set || Object.keys(predict.set).length === 0) return;
    const before = requestedRef.current;
    const overrides = variantOverrides(before, predict.set);
    const v: Variant = {
      step: current,
      before,
      overrides,
      baseline: store.getState().shown?.output ?? null,
    };
    variantRef.current = v;
    setVariant(v);
    store.setPlaying(false);
    onRun(overrides);
  }, [current, predict, mine, store, onRun]);

  // Keys: numbers jump, arrows / Page Up-Down go back and next (presenter mode), Esc leaves;
  // a-f pick an answer and R runs the variant while a step asks. Capture phase: before the
  // playback bar takes the arrows.
  useEffect(() => {
    if (steps.length === 0) return;
    const onKey = (e: KeyboardEvent) => {
      if (
        e.defaultPrevented ||
        e.altKey ||
        e.ctrlKey ||
        e.metaKey ||
        isTyping(e.target, CHOICE_INPUTS)
      )
        return;
      // A focused slider (a knob, the scrubber) keeps its own arrows and Page Up/Down.
      if (
        e.target instanceof HTMLInputElement &&
        e.target.type === 'range' &&
        /^(Arrow|Page)/.test(e.key)
      )
        return;
      // Esc in an open menu closes the menu, not the tour.
      if (e.key === 'Escape' && inOpenMenu(e.target)) return;
      const ui = store.getState().ui;
      const a = tourKeyAction(e.key, {
        steps: steps.length,
        step: ui.tourStep,
        presenter: ui.presenter,
      });
      if (a) {
        e.preventDefault();
        const at = ui.tourStep ?? -1;
        if (a.kind === 'jump') go(a.step);
        else if (a.kind === 'next') {
          if (at < steps.length - 1) go(at + 1);
        } else if (a.kind === 'back') {
          if (at > 0) go(at - 1);
        } else go(null);
        return;
      }
      if (current === null || !predict || mine.revealed) return;
      const letter = LETTERS.indexOf(e.key.toLowerCase());
      if (letter >= 0 && predict.choices && letter < predict.choices.length) {
        e.preventDefault();
        setAnswer({ ...mine, step: current, choice: letter });
      } else if (e.key === 'r' || e.key === 'R') {
        e.preventDefault();
        reveal();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [steps, store, go, current, predict, mine, reveal]);

  // The dock's height, for presenter mode to fit the diagram above it (styles/presenter.css).
  useEffect(() => {
    const el = dockRef.current;
    const root = document.documentElement;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      root.style.setProperty('--tour-dock-h', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.style.removeProperty('--tour-dock-h');
    };
  }, [current]);

  // Focus the dock when a tour starts, so the keyboard and a screen reader are with it.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (current !== null && !wasOpen.current) dockRef.current?.focus({ preventScroll: true });
    wasOpen.current = current !== null;
  }, [current]);

  if (steps.length === 0) return null;
  const asks = steps.filter((s) => s.predict).length;

  if (current === null || !step) {
    return (
      <section className="tour-launch" aria-labelledby="tour-launch-h" data-testid="tour-launch">
        <span className="tour-launch-title" id="tour-launch-h">
          Guided tour
        </span>
        <span className="muted small">
          {steps.length} steps{asks ? ` · ${asks} ask the class to predict` : ''}
        </span>
        <button
          type="button"
          className="btn btn-small btn-run"
          onClick={() => go(0)}
          data-testid="tour-start"
        >
          Start the tour
        </button>
        <ol className="tour-launch-steps" aria-label="Tour steps">
          {steps.map((s, i) => (
            <li key={i}>
              <button type="button" onClick={() => go(i)} data-testid={`tour-open-${i + 1}`}>
                {i + 1}. {s.title}
              </button>
            </li>
          ))}
        </ol>
      </section>
    );
  }

  const rows = metricRows(step.metrics, scenario, shown?.output);
  const highlight = stepHighlight(step);
  const variantStatus: 'running' | 'done' | 'failed' | null = variantHere
    ? shown?.overrides === variantHere.overrides
      ? 'done'
      : runState.status === 'invalid' || runState.status === 'failed'
        ? 'failed'
        : 'running'
    : null;
  const hasSide = !!predict;
  // Once revealed (and the variant, if any, has run), the numbers take the body's room.
  const revealStatus = predict?.set ? variantStatus : 'done';
  const revealRows =
    predict && mine.revealed && revealStatus === 'done' && (predict.metrics ?? []).length > 0
      ? metricRows(predict.metrics, scenario, shown?.output, variantHere?.baseline)
      : null;
  const last = current === steps.length - 1;

  return (
    <section
      ref={dockRef}
      tabIndex={-1}
      className={['tour-dock', hasSide ? '' : 'no-side', mine.revealed ? 'revealed' : '']
        .filter(Boolean)
        .join(' ')}
      aria-labelledby="tour-title"
      data-testid="tour-dock"
      data-step={current}
    >
      <div className="tour-head" aria-live="polite">
        <span className="tour-count" data-testid="tour-count">
          Step {current + 1} of {steps.length}
        </span>
        <h2 className="tour-title" id="tour-title">
          {step.title}
        </h2>
      </div>
      <div className="tour-body">
        <p className="tour-text" data-testid="tour-text">
          {step.text}
        </p>
        {highlight.length > 0 && (
          <p className="tour-look" data-testid="tour-look">
            Look at: {partsText(highlight)}
          </p>
        )}
        {revealRows ? (
          <MetricTable rows={revealRows} variant={!!predict?.set} caption="What the run shows" />
        ) : (
          rows.length > 0 && !(variantHere && mine.revealed) && <MetricTable rows={rows} />
        )}
      </div>
      {hasSide && (
        <div className="tour-side">
          {predict && (
            <div className="tour-predict" data-testid="tour-predict">
              <p className="tour-predict-q">Predict: {predict.question}</p>
              {mine.revealed ? null : predict.choices && predict.choices.length > 0 ? (
                <fieldset className="tour-choices" disabled={mine.revealed}>
                  <legend className="sr-only">The class's prediction</legend>
                  {predict.choices.map((c, i) => (
                    <label
                      key={i}
                      className={`tour-choice ${mine.choice === i ? 'picked' : ''}`}
                      data-testid={`tour-choice-${i}`}
                    >
                      <input
                        type="radio"
                        name={`tour-choice-${current}`}
                        checked={mine.choice === i}
                        onChange={() => setAnswer({ ...mine, step: current, choice: i })}
                      />
                      <span className="tour-choice-key" aria-hidden="true">
                        {LETTERS[i]}
                      </span>
                      {c}
                    </label>
                  ))}
                </fieldset>
              ) : (
                <input
                  className="tour-answer"
                  type="text"
                  aria-label="The class's prediction"
                  placeholder="The class's prediction (optional)"
                  value={mine.text}
                  disabled={mine.revealed}
                  onChange={(e) => setAnswer({ ...mine, step: current, text: e.target.value })}
                />
              )}
              {predict.set && !mine.revealed && (
                <p className="tour-variant">
                  Variant: <span className="mono">{setText(predict.set)}</span>
                </p>
              )}
              {!mine.revealed && (
                <button
                  type="button"
                  className="btn btn-small btn-run"
                  onClick={reveal}
                  data-testid="tour-run"
                >
                  {predict.set ? 'Run it' : 'Reveal'} <kbd aria-hidden="true">R</kbd>
                </button>
              )}
            </div>
          )}
          {predict && mine.revealed && (
            <Reveal
              text={predict.reveal}
              predicted={
                mine.choice !== null
                  ? (predict.choices?.[mine.choice] ?? null)
                  : mine.text.trim() || null
              }
              status={revealStatus}
              errors={
                runState.status === 'invalid'
                  ? runState.errors.map((e) => `${e.path}: ${e.message}`)
                  : runState.status === 'failed'
                    ? [runState.message]
                    : []
              }
              variant={predict.set ? setText(predict.set) : null}
            />
          )}
        </div>
      )}
      <div className="tour-foot">
        <ol className="tour-dots" aria-label="Tour steps">
          {steps.map((s, i) => (
            <li key={i}>
              <button
                type="button"
                className={s.predict ? 'asks' : ''}
                aria-current={i === current ? 'step' : undefined}
                aria-label={`Step ${i + 1}: ${s.title}${s.predict ? ' (asks the class)' : ''}`}
                title={`${i + 1}. ${s.title}`}
                onClick={() => go(i)}
                data-testid={`tour-dot-${i + 1}`}
              >
                {i + 1}
              </button>
            </li>
          ))}
        </ol>
        <span className="tour-keys">
          {presenter ? '← → steps' : 'Page Up/Down'} · 1–{Math.min(9, steps.length)} jump · Esc{' '}
          {presenter ? 'leaves presenter mode' : 'ends the tour'}
        </span>
        <div className="tour-nav">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => go(current - 1)}
            disabled={current === 0}
            data-testid="tour-back"
          >
            ‹ Back
          </button>
          <button
            type="button"
            className="btn btn-small btn-run"
            onClick={() => go(last ? null : current + 1)}
            data-testid="tour-next"
          >
            {last ? 'Finish' : 'Next ›'}
          </button>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => go(null)}
            data-testid="tour-exit"
          >
            Exit tour
          </button>
        </div>
      </div>
    </section>
  );
}

function MetricTable({
  rows,
  variant = false,
  caption,
}: {
  rows: MetricRow[];
  variant?: boolean;
  caption?: string;
}) {
  const paper = rows.some((r) => r.paper);
  const before = variant && rows.some((r) => r.before !== null);
  return (
    <table
      className={`tour-metrics ${caption ? 'reveal-metrics' : ''}`}
      data-testid={caption ? 'tour-reveal-metrics' : 'tour-metrics'}
    >
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">metric</th>
          {before && <th scope="col">before</th>}
          <th scope="col">{variant ? 'variant' : 'simulated'}</th>
          {paper && (
            <th scope="col" title="The paper's value for the scenario's own settings">
              {variant ? 'paper (scenario)' : 'paper'}
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid="tour-metric">
            <td>
              {r.label}
              {r.point && <span className="source">{r.point}</span>}
            </td>
            {before && <td className="was">{r.before ?? '—'}</td>}
            <td className="live" data-testid="tour-live">
              {r.live ?? '…'}
            </td>
            {paper && (
              <td className="paper">
                {r.paper ? (
                  <>
                    {r.paper.text}
                    <span className="source">
                      {r.paper.source} · {r.paper.kind}
                    </span>
                  </>
                ) : (
                  '—'
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Reveal({
  text,
  predicted,
  status,
  errors,
  variant,
}: {
  text: string;
  predicted: string | null;
  status: 'running' | 'done' | 'failed' | null;
  errors: string[];
  /** The variant's settings in words, or null when the step runs none. */
  variant: string | null;
}) {
  if (status === 'failed') {
    return (
      <div className="tour-reveal failed" role="alert" data-testid="tour-reveal">
        <p>The variant could not run; the scenario's own run stays on screen.</p>
        <ul className="small">
          {errors.slice(0, 4).map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div
      className="tour-reveal"
      data-testid="tour-reveal"
      data-status={status ?? 'done'}
      aria-live="polite"
    >
      {predicted && (
        <p className="small">
          The class predicted: <strong>{predicted}</strong>
        </p>
      )}
      {variant && (
        <p className="tour-variant">
          Variant: <span className="mono">{variant}</span>
        </p>
      )}
      {status === 'running' ? <p>Running the variant…</p> : <p>{text}</p>}
    </div>
  );
}
