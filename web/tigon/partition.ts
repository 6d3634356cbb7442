// The partition editor's pure parts: where each of the Tigon's nine event handlers runs (as the
// user last asked for it), the overrides that moving one handler sends to the core, and what the
// thesis's Tables 3.2 and 3.3 say two CPUs then share. The tables are presentation: the core
// decides what a handler pays (tigon_events_conflict in core-cpp/nic/tigon/firmware.cpp, which
// eventsConflict below mirrors; partition.test.ts checks the mirror against the core's own
// refusals) and computes every result the editor shows.
import { TIGON_EVENTS } from '../trace/traceKinds';
import type { EventCpu, Metrics, SystemInfo, SystemTigonShare } from '../engine/types';
import { withOverride, type Overrides } from '../run/overrides';
import { firmwareFamily, type FirmwareFamily } from './firmware';

/** Where the user may put a handler: one CPU, both (under the semaphore), or none (refused). */
export type Place = 'A' | 'B' | 'both' | 'none';
export const PLACES: readonly Place[] = ['A', 'B', 'both', 'none'];

export const FIRMWARE_PATH = 'system.tigon.firmware';
/** Set by the -sram firmware variants; carried over when the editor switches to custom. */
export const SRAM_PATHS: readonly string[] = [
  'system.tigon.code_in_sram',
  'system.tigon.data_in_sram',
];

/** Event id by name ("SendDataReady" → 0). */
export function eventId(name: string): number {
  const i = TIGON_EVENTS.findIndex((e) => e.name === name);
  if (i < 0) throw new Error(`unknown Tigon event ${name}`);
  return i;
}

// ---------------------------------------------------------------------------------------------
// What the user asked for

export interface PartitionState {
  /** The firmware's name as requested ("parallel", "custom"), or null. */
  firmware: string | null;
  family: FirmwareFamily;
  /** Where each event's handler runs, index = event id (dynamic firmware: "both"). */
  places: Place[];
  /** Each event's partition parameter, as the core names it ("system.tigon.partition.mailbox"). */
  paths: string[];
}

function asPlace(cpu: EventCpu): Place {
  return cpu === 'either' ? 'both' : cpu;
}

/**
 * The partition as `get` reads the parameters: a firmware other than custom runs what the core
 * says that firmware choice runs (RELEASE: all on A; PARALLEL: Table 3.4; …); custom runs the
 * partition parameters as asked.
 */
export function partitionState(
  get: (path: string) => unknown,
  system: SystemInfo | undefined,
): PartitionState {
  const t = system?.tigon ?? null;
  const asked = get(FIRMWARE_PATH);
  const choice = t && typeof asked === 'string' ? t.firmware_choices[asked] : undefined;
  if (!t || !choice)
    return { firmware: null, family: 'unknown', places: TIGON_EVENTS.map(() => 'none'), paths: [] };
  const family = firmwareFamily(
    choice.firmware,
    choice.cpu_b,
    choice.partition?.includes('either') ?? false,
  );
  const places = choice.partition
    ? choice.partition.map(asPlace)
    : t.events.map((e) => {
        const v = get(e.parameter);
        return v === 'A' || v === 'B' || v === 'both' || v === 'none' ? v : 'none';
      });
  return { firmware: choice.firmware, family, places, paths: t.events.map((e) => e.parameter) };
}

/**
 * Reads a parameter as the user last asked for it: the latest overrides (applied, running or
 * rejected), else the scenario's own value, else the value of the run on screen.
 */
export function requestedValue(
  overrides: Overrides,
  base: ReadonlyMap<string, unknown>,
  effective: ReadonlyMap<string, unknown>,
): (path: string) => unknown {
  return (path) =>
    path in overrides ? overrides[path] : base.has(path) ? base.get(path) : effective.get(path);
}

/**
 * The overrides that ask for `places`. A firmware other than custom is switched to custom (all
 * nine handlers set, so the ones not moved stay where that firmware ran them) with its SRAM
 * placement kept (`get` reads the current values). Values equal to the scenario's own are
 * dropped, as the knob panel does.
 */
export function withPartition(
  overrides: Overrides,
  base: ReadonlyMap<string, unknown>,
  state: PartitionState,
  places: readonly Place[],
  get: (path: string) => unknown,
): Overrides {
  let next = overrides;
  if (state.family !== 'custom') {
    next = withOverride(next, FIRMWARE_PATH, 'custom', base);
    // "release-sram-both" puts code and data in the SRAM; custom firmware takes the two flags
    // as they are set, so a true one is sent even where the scenario's value is the same.
    for (const path of SRAM_PATHS) if (get(path) === true) next = { ...next, [path]: true };
  }
  places.forEach((p, e) => {
    const path = state.paths[e];
    if (path) next = withOverride(next, path, p, base);
  });
  return next;
}

/** The overrides after moving one handler to `to` (see withPartition). */
export function moveEvent(
  overrides: Overrides,
  base: ReadonlyMap<string, unknown>,
  state: PartitionState,
  event: number,
  to: Place,
  get: (path: string) => unknown,
): Overrides {
  const places = state.places.map((p, e) => (e === event ? to : p));
  return withPartition(overrides, base, state, places, get);
}

/** Table 3.4 (PARALLEL's partition) as places, as the core holds it. */
export function table34Places(system: SystemInfo | undefined): Place[] {
  return (system?.tigon?.table_3_4 ?? []).map(asPlace);
}

// ---------------------------------------------------------------------------------------------
// What two CPUs share (Tables 3.2 and 3.3)

/** What two handlers share: the core's table for the configured system (its system block). */
export type Shares = readonly SystemTigonShare[];

export function tigonShares(system: SystemInfo | null | undefined): Shares {
  return system?.tigon?.shares ?? [];
}

export interface Share {
  kind: SystemTigonShare['kind'];
  /** "the DMA read channel", "the producer index of …". */
  what: string;
  source: SystemTigonShare['source'];
  /** Needs the semaphore when the two handlers run on different CPUs. */
  lock: boolean;
}

/** What two different handlers share, per Tables 3.2 and 3.3 (empty when nothing). */
export function sharedBetween(a: number, b: number, shares: Shares): Share[] {
  return shares
    .filter((s) => (s.a === a && s.b === b) || (s.a === b && s.b === a))
    .map(({ kind, what, source, lock }) => ({ kind, what, source, lock }));
}

/**
 * Handlers of `a` and `b` on different CPUs must hold the semaphore (the same event on both CPUs
 * always does), as the core's tigon_events_conflict decides from the same table.
 */
export function eventsConflict(a: number, b: number, shares: Shares): boolean {
  return a === b || sharedBetween(a, b, shares).some((s) => s.lock);
}

/** The CPUs a place runs a handler on. */
export function cpusOf(place: Place): number[] {
  switch (place) {
    case 'A':
      return [0];
    case 'B':
      return [1];
    case 'both':
      return [0, 1];
    default:
      return [];
  }
}

/** Two handlers may run at once, one on each CPU. */
function apart(p: Place, q: Place): boolean {
  return cpusOf(p).some((x) => cpusOf(q).some((y) => x !== y));
}

export interface CrossPair {
  a: number;
  b: number;
  shares: Share[];
  /** Some share needs the semaphore. */
  lock: boolean;
}

/** Pairs of handlers that may run on different CPUs at once and share data or a DMA channel. */
export function crossPairs(places: readonly Place[], shares: Shares): CrossPair[] {
  const out: CrossPair[] = [];
  for (let a = 0; a < places.length; a++)
    for (let b = a + 1; b < places.length; b++) {
      if (!apart(places[a]!, places[b]!)) continue;
      const common = sharedBetween(a, b, shares);
      if (common.length) out.push({ a, b, shares: common, lock: common.some((s) => s.lock) });
    }
  return out;
}

/**
 * The events whose handlers take the semaphore (as the core's TigonNic::lock_needed decides for
 * a static partition): every one on both CPUs, and every one that conflicts with a handler the
 * other CPU may run.
 */
export function semaphoreEvents(places: readonly Place[], shares: Shares): number[] {
  return places.flatMap((p, e) => {
    if (p === 'both') return [e];
    const locked = cpusOf(p).some((cpu) =>
      places.some((q, f) => cpusOf(q).includes(1 - cpu) && eventsConflict(e, f, shares)),
    );
    return locked ? [e] : [];
  });
}

/** Events on no CPU: the core refuses such a partition (nothing would serve them). */
export function unplacedEvents(places: readonly Place[]): number[] {
  return places.flatMap((p, e) => (p === 'none' ? [e] : []));
}

/** "CPU A", "CPU B", "both CPUs", "no CPU". */
export function placeWords(place: Place): string {
  if (place === 'both') return 'both CPUs';
  if (place === 'none') return 'no CPU';
  return `CPU ${place}`;
}

// ---------------------------------------------------------------------------------------------
// The run's results beside the thesis

export interface PartitionResults {
  /** CPU A's share of the handler work, 0..1. */
  aShare: number | null;
  /** Each CPU's busy fraction (handlers, dispatch loop and spins). */
  utilization: [number | null, number | null];
  /** Time spent spinning on the semaphore, as a share of the window. */
  spin: number | null;
  /** Each event's share of the handler time, index = event id. */
  eventShares: (number | null)[];
}

function metric(results: Metrics | undefined, name: string): number | null {
  const v = results?.[name]?.value;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function partitionResults(results: Metrics | undefined): PartitionResults {
  return {
    aShare: metric(results, 'tigon_cpu_a_share'),
    utilization: [
      metric(results, 'tigon_cpu_a_utilization'),
      metric(results, 'tigon_cpu_b_utilization'),
    ],
    spin: metric(results, 'tigon_semaphore_spin'),
    eventShares: TIGON_EVENTS.map((e) => metric(results, `tigon_share_${e.name}`)),
  };
}
