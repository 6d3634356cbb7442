// Opening a link on the scenario page: the store starts with the link's views and tour step, the
// first run carries its overrides, and once that run is done the cursor goes where the link
// says. The core judges the overrides (names and ranges) when it runs them: what it rejects is
// dropped, with the core's own message, and the page runs the rest, so a bad value never costs
// the view.
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import {
  paramAt,
  type ParameterSpec,
  type ParameterTree,
  type ValidationError,
} from '../engine/types';
import { parameterMap, type Overrides } from '../run/overrides';
import type { Scenario } from '../scenarios/types';
import { INITIAL_VIEW_STATE, type DoneRun, type Store, type ViewState } from '../run/store';
import type { RunResult } from '../engine/client';
import { EnginePool, type RunProgress } from '../engine/pool';
import type { ScenarioEntry } from '../scenarios/types';
import type { LinkProblem, LinkState } from './link';

/** A link the app opened: its validated state, what was dropped from it, and which opening. */
export interface OpenedLink {
  state: LinkState;
  problems: LinkProblem[];
  /** Counts openings, so opening the same link again restores it again. */
  serial: number;
}

/** The view state a page opened from a link starts with. */
export function linkUi(link: OpenedLink | undefined): ViewState {
  if (!link) return INITIAL_VIEW_STATE;
  return { ...INITIAL_VIEW_STATE, views: link.state.views, tourStep: link.state.tourStep };
}

const covers = (override: string, errorPath: string) =>
  errorPath === override ||
  errorPath.startsWith(`${override}.`) ||
  errorPath.startsWith(`${override}[`);

/**
 * The overrides left once those the core rejected are dropped. An error that names no override
 * (two settings that do not fit together, say) leaves no way to tell which one is wrong, so
 * then every override is dropped and the scenario opens as written.
 */
export function dropRejected(
  overrides: Overrides,
  errors: readonly ValidationError[],
): { kept: Overrides; problems: LinkProblem[] } {
  const kept: Overrides = { ...overrides };
  const problems: LinkProblem[] = [];
  let unplaced = false;
  for (const e of errors) {
    const path = Object.keys(overrides).find((p) => covers(p, e.path));
    if (path === undefined) {
      unplaced = true;
      continue;
    }
    delete kept[path];
    problems.push({
      field: `overrides.${path}`,
      message: `${e.path}: ${e.message}. The link's value ${JSON.stringify(overrides[path])} was dropped; the scenario's own value is used.`,
    });
  }
  if (unplaced && Object.keys(kept).length) {
    const why = errors
      .filter((e) => !Object.keys(overrides).some((p) => covers(p, e.path)))
      .map((e) => `${e.path}: ${e.message}`)
      .join('; ');
    problems.push({
      field: 'overrides',
      message: `The scenario does not accept the link's settings together (${why}), so it opens with its own settings.`,
    });
    return { kept: {}, problems };
  }
  return { kept, problems };
}

/**
 * The scenario's own parameter values, from a run made with overrides: the run's values, except
 * that each overridden path takes the scenario file's value (or the core's default). What the
 * knob panel compares against ("scenario: …") until a run without overrides gives the exact one.
 */
export function linkBase(
  scenario: Scenario,
  parameters: ParameterTree,
  specs: readonly ParameterSpec[],
  overrides: Readonly<Record<string, unknown>>,
): Map<string, unknown> {
  const base = parameterMap(parameters);
  for (const path of Object.keys(overrides)) {
    const own = paramAt(scenario as unknown as ParameterTree, path);
    const spec = specs.find((s) => s.path === path);
    if (own !== undefined && (own === null || typeof own !== 'object')) base.set(path, own);
    else if (spec && 'default' in spec) base.set(path, spec.default);
    else base.delete(path);
  }
  return base;
}

/**
 * Follows the store from the page's first run: when the core rejects the link's overrides, runs
 * again without those it names; once a run is done, puts the cursor where the link had it.
 * Reports what it drops through `report`. Returns the unsubscribe function.
 */
export function restoreLink(
  store: Store,
  link: OpenedLink,
  run: (overrides: Overrides) => void,
  report: (problems: LinkProblem[]) => void,
  /** Called once, with the first finished run. */
  onDone: (run: DoneRun) => void = () => {},
): () => void {
  let done = false;
  let requested = link.state.overrides;
  const check = () => {
    if (done) return;
    const r = store.getState().run;
    if (r.status === 'invalid' && Object.keys(requested).length > 0) {
      const { kept, problems } = dropRejected(requested, r.errors);
      if (problems.length) report(problems);
      // Nothing named: the scenario itself is refused, and the page says so as it would.
      if (Object.keys(kept).length === Object.keys(requested).length) {
        done = true;
        return;
      }
      requested = kept;
      run(kept);
    } else if (r.status === 'done') {
      done = true;
      onDone(r);
      const t = link.state.cursor;
      const w = store.window();
      if (t === null || !w) return;
      store.setCursor(t);
      if (t < w.start || t > w.end) {
        report([
          {
            field: 'cursor',
            message: `The time cursor ${t} ps lies outside this run's trace, ${w.start} to ${w.end} ps; it was placed at the nearest end.`,
          },
        ]);
      }
    } else if (r.status !== 'running' && r.status !== 'idle') {
      done = true;
    }
  };
  check();
  return store.subscribe(check);
}

/** What scenarioBase needs of an engine: an EnginePool of its own. */
export interface BaseEngine {
  run(
    text: string,
    overrides: Record<string, unknown>,
    log?: undefined,
    progress?: RunProgress,
  ): Promise<RunResult>;
  dispose(): void;
}

/**
 * The scenario's own parameter values, exactly: a run without overrides, in an engine pool of
 * its own so the page's run is not cancelled; its main run has them, so the sweep is not waited
 * for. Null when that run cannot be made (a log to open first).
 */
export async function scenarioBase(
  text: string,
  engine: BaseEngine,
): Promise<Map<string, unknown> | null> {
  try {
    const parameters = await new Promise<RunResult & { ok: true }>((resolve, reject) => {
      engine.run(text, {}, undefined, { onMain: resolve }).then((r) => {
        if (r.ok) resolve(r);
        else reject(new Error('refused'));
      }, reject);
    });
    return parameterMap(parameters.output.parameters);
  } catch {
    return null;
  } finally {
    engine.dispose();
  }
}

/**
 * restoreLink for the scenario page; returns everything dropped from the link so far. When the
 * first run has overrides, the knob panel's "scenario: …" values come from linkBase at once,
 * then exactly from a run without them made in the background.
 */
export function useLinkRestore(
  store: Store,
  link: OpenedLink | undefined,
  run: (overrides: Overrides) => void,
  entry: ScenarioEntry,
  setBase: Dispatch<SetStateAction<ReadonlyMap<string, unknown>>>,
): LinkProblem[] {
  const [problems, setProblems] = useState<LinkProblem[]>(() => link?.problems ?? []);
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  }, [run]);
  useEffect(() => {
    if (!link) return;
    let background: EnginePool | null = null;
    const stop = restoreLink(
      store,
      link,
      (o) => runRef.current(o),
      (more) => setProblems((p) => [...p, ...more]),
      (first) => {
        if (Object.keys(first.overrides).length === 0) return;
        const near = linkBase(
          entry.scenario,
          first.output.parameters,
          first.parameterInfo,
          first.overrides,
        );
        setBase((b) => (b.size ? b : near));
        background = new EnginePool(1);
        void scenarioBase(entry.text, background).then((exact) => {
          if (exact) setBase(exact);
        });
      },
    );
    return () => {
      stop();
      background?.dispose();
    };
  }, [store, link, entry, setBase]);
  return problems;
}
