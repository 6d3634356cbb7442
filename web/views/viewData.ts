// Which views have something to show for a run: the views menu offers a view beyond the
// scenario's own list only when the run's trace (or its sweep) holds what that view draws.
import { KIND_NAMES } from '../trace/traceKinds';
import { VIEWS } from '../trace/records.gen';
import type { DoneRun } from '../run/store';

/** Trace kinds a view reads (the core's definition of the views); a view is offered when the
 * trace holds any of them. */
const VIEW_KINDS: ReadonlyMap<string, readonly string[] | string> = new Map(
  VIEWS.map((v) => [v.id, v.needs]),
);

/** Names of the trace kinds present in a run. */
export function kindsIn(run: Pick<DoneRun, 'trace'>): Set<string> {
  const seen = new Set<number>();
  const { kind, length } = run.trace;
  for (let i = 0; i < length; i++) seen.add(kind[i]!);
  return new Set([...seen].map((k) => KIND_NAMES[k] ?? `kind ${k}`));
}

/** Does the run hold data for this view? ("results" is not a panel of its own: never.) */
export function viewHasData(
  view: string,
  run: Pick<DoneRun, 'trace' | 'output'>,
  kinds: ReadonlySet<string> = kindsIn(run),
): boolean {
  const needs = VIEW_KINDS.get(view);
  if (needs === 'never') return false;
  if (needs === 'series or sweep')
    return run.output.sweep.length > 0 || run.output.series.length > 0;
  // The event log, the timeline and any view the definition does not know: any trace at all.
  if (needs === undefined || typeof needs === 'string') return run.trace.length > 0;
  return needs.some((k) => kinds.has(k));
}
