// Which views have something to show for a run: the views menu offers a view beyond the
// scenario's own list only when the run's trace (or its sweep) holds what that view draws.
import { KIND_NAMES } from '../engine/traceKinds';
import type { DoneRun } from '../store/store';

/** Trace kinds a view reads; a view is offered when the trace holds any of them. */
const VIEW_KINDS: Record<string, readonly string[]> = {
  diagram: ['DriverPostSendBd', 'MacTxStart', 'MacRxDone', 'BusTxnStart'],
  rings: ['DriverPostSendBd', 'IndexUpdate'],
  waveform: ['BusPhase'],
  bus: ['BusTxnStart', 'BusPhase'],
  firmware: ['TigonHandler', 'TigonSnapshot'],
  profile: ['TigonHandler'],
  cache: ['NicCacheBlock', 'CacheCommand', 'NicCacheAppend'],
  request: ['WebRequest'],
  bottleneck: ['WebRequest'],
  rxpath: ['SinicCopy', 'FifoLevel', 'VnicState'],
  vnics: ['NicRegister', 'VnicState'],
  cpu: ['CpuPart'],
};

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
  if (view === 'results') return false;
  if (view === 'chart') return run.output.sweep.length > 0 || run.output.series.length > 0;
  const needs = VIEW_KINDS[view];
  // The event log, the timeline and any view this table does not know: any trace at all.
  if (!needs) return run.trace.length > 0;
  return needs.some((k) => kinds.has(k));
}
