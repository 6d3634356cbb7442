// A validator of the Trace Event Format, the JSON that ui.perfetto.dev and chrome://tracing open
// (Google's "Trace Event Format" document; Perfetto's JSON importer for what it accepts). It
// checks what makes a viewer drop or misdraw events: required fields per phase and their types,
// B/E and b/e balance, complete events that overlap without nesting on one track, flow events
// with no slice to bind to, counters without numbers, malformed metadata, bad timestamps.

export interface TraceEventDoc {
  traceEvents: TraceEvent[];
  displayTimeUnit?: string;
  otherData?: Record<string, unknown>;
}

export interface TraceEvent {
  name?: string;
  ph: string;
  ts?: number;
  dur?: number;
  pid?: number | string;
  tid?: number | string;
  cat?: string;
  id?: number | string;
  id2?: { local?: number | string; global?: number | string };
  /** Instant scope: g(lobal), p(rocess), t(hread). */
  s?: string;
  /** Flow end binding point: "e" binds to the enclosing slice, none to the next slice. */
  bp?: string;
  args?: Record<string, unknown>;
  bind_id?: number | string;
  flow_in?: boolean;
  flow_out?: boolean;
}

export interface Violation {
  /** Index of the offending event in traceEvents (-1: the document). */
  event: number;
  rule: string;
  message: string;
}

/** A flow joined: the events of its two ends and the slices they bind to (indices). */
export interface FlowLink {
  fromEvent: number;
  toEvent: number;
  fromSlice: number;
  toSlice: number;
}

export interface ValidationReport {
  violations: Violation[];
  /** Flows whose both ends bound to a slice. */
  flows: FlowLink[];
  /** Events per phase. */
  phases: Record<string, number>;
}

const PHASES = new Set(['B', 'E', 'X', 'i', 'I', 'C', 'b', 'e', 'n', 's', 't', 'f', 'M']);
const METADATA = new Set([
  'process_name',
  'process_labels',
  'process_sort_index',
  'thread_name',
  'thread_sort_index',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) =>
  (typeof v === 'string' && v.length > 0) || (typeof v === 'number' && Number.isInteger(v));
const isProcId = (v: unknown) =>
  (typeof v === 'number' && Number.isInteger(v) && v >= 0) || typeof v === 'string';

interface Slice {
  event: number;
  start: number;
  end: number;
}

/** Validates a parsed trace (the JSON object form, or the bare array form). */
export function validateTraceEvents(doc: unknown): ValidationReport {
  const violations: Violation[] = [];
  const phases: Record<string, number> = {};
  const flows: FlowLink[] = [];
  const bad = (event: number, rule: string, message: string) =>
    violations.push({ event, rule, message });

  let events: unknown[];
  if (Array.isArray(doc)) events = doc;
  else if (isObject(doc) && Array.isArray(doc.traceEvents)) {
    events = doc.traceEvents;
    if (
      doc.displayTimeUnit !== undefined &&
      doc.displayTimeUnit !== 'ms' &&
      doc.displayTimeUnit !== 'ns'
    )
      bad(
        -1,
        'document',
        `displayTimeUnit is ${JSON.stringify(doc.displayTimeUnit)}, not "ms" or "ns"`,
      );
  } else {
    bad(-1, 'document', 'not a trace: expected {"traceEvents": [...]} or an array of events');
    return { violations, flows, phases };
  }

  // Slices per track (pid/tid) from X and B/E; async slices per scope; flows for a second pass.
  const slices = new Map<string, Slice[]>();
  const openB = new Map<string, { event: number; ts: number; name?: string }[]>();
  const openAsync = new Map<string, { event: number; ts: number }[]>();
  const flowStarts = new Map<string, number>();
  const flowSteps: number[] = [];
  const v2Out = new Map<string, number>();
  const v2In: number[] = [];
  const track = (e: TraceEvent) => `${String(e.pid)}/${String(e.tid)}`;
  const addSlice = (e: TraceEvent, event: number, start: number, end: number) => {
    const k = track(e);
    let list = slices.get(k);
    if (!list) slices.set(k, (list = []));
    list.push({ event, start, end });
  };

  events.forEach((raw, i) => {
    if (!isObject(raw)) return bad(i, 'event', 'not an object');
    const e = raw as unknown as TraceEvent;
    if (typeof e.ph !== 'string' || !PHASES.has(e.ph))
      return bad(i, 'phase', `ph ${JSON.stringify(e.ph)} is not one of ${[...PHASES].join(' ')}`);
    phases[e.ph] = (phases[e.ph] ?? 0) + 1;
    const ph = e.ph;
    if (ph !== 'E' && (typeof e.name !== 'string' || e.name === ''))
      bad(i, 'name', `a "${ph}" event needs a name (a non-empty string)`);
    if (e.name !== undefined && typeof e.name !== 'string') bad(i, 'name', 'name is not a string');
    if (e.cat !== undefined && typeof e.cat !== 'string') bad(i, 'cat', 'cat is not a string');
    if (e.args !== undefined && !isObject(e.args)) bad(i, 'args', 'args is not an object');
    if (ph !== 'M') {
      if (typeof e.ts !== 'number' || !Number.isFinite(e.ts) || e.ts < 0)
        bad(i, 'ts', `ts ${JSON.stringify(e.ts)} is not a finite, non-negative number (µs)`);
    }
    if (!isProcId(e.pid)) bad(i, 'pid', `pid ${JSON.stringify(e.pid)} is not an id`);
    const needsTid = ph !== 'C' && !(ph === 'M' && e.name?.startsWith('process_'));
    const threadScoped = !((ph === 'i' || ph === 'I') && (e.s === 'g' || e.s === 'p'));
    if (needsTid && threadScoped && !isProcId(e.tid))
      bad(i, 'tid', `tid ${JSON.stringify(e.tid)} is not an id`);
    const ts = typeof e.ts === 'number' ? e.ts : 0;
    switch (ph) {
      case 'X': {
        if (typeof e.dur !== 'number' || !Number.isFinite(e.dur) || e.dur < 0) {
          bad(i, 'dur', `dur ${JSON.stringify(e.dur)} is not a finite, non-negative number (µs)`);
          break;
        }
        addSlice(e, i, ts, ts + e.dur);
        break;
      }
      case 'B': {
        const k = track(e);
        let st = openB.get(k);
        if (!st) openB.set(k, (st = []));
        st.push({ event: i, ts, name: e.name });
        break;
      }
      case 'E': {
        const open = openB.get(track(e))?.pop();
        if (!open) {
          bad(i, 'balance', `"E" on track ${track(e)} with no open "B"`);
          break;
        }
        if (e.name !== undefined && open.name !== e.name)
          bad(i, 'balance', `"E" named ${e.name} closes "B" named ${String(open.name)}`);
        if (ts < open.ts) bad(i, 'balance', `"E" at ${ts} before its "B" at ${open.ts}`);
        addSlice(e, open.event, open.ts, Math.max(ts, open.ts));
        break;
      }
      case 'i':
      case 'I':
        if (e.s !== undefined && e.s !== 'g' && e.s !== 'p' && e.s !== 't')
          bad(i, 'scope', `instant scope ${JSON.stringify(e.s)} is not g, p or t`);
        break;
      case 'C': {
        if (!isObject(e.args) || Object.keys(e.args).length === 0) {
          bad(i, 'counter', 'a counter needs args with at least one series');
          break;
        }
        for (const [k, v] of Object.entries(e.args))
          if (typeof v !== 'number' || !Number.isFinite(v))
            bad(i, 'counter', `counter value ${k} = ${JSON.stringify(v)} is not a finite number`);
        break;
      }
      case 'b':
      case 'e':
      case 'n': {
        const scope = asyncScope(e);
        if (scope === null) {
          bad(i, 'async', `a "${ph}" event needs an id (or id2.local / id2.global)`);
          break;
        }
        if (typeof e.cat !== 'string') bad(i, 'async', `a "${ph}" event needs a cat`);
        const k = `${scope}|${String(e.name)}`;
        if (ph === 'b') {
          let st = openAsync.get(k);
          if (!st) openAsync.set(k, (st = []));
          st.push({ event: i, ts });
        } else if (ph === 'e') {
          const open = openAsync.get(k)?.pop();
          if (!open) bad(i, 'balance', `"e" ${String(e.name)} (${scope}) with no open "b"`);
          else if (ts < open.ts) bad(i, 'balance', `"e" at ${ts} before its "b" at ${open.ts}`);
        }
        break;
      }
      case 's':
      case 't':
      case 'f': {
        if (!isId(e.id)) {
          bad(i, 'flow', `a "${ph}" flow event needs an id`);
          break;
        }
        if (typeof e.cat !== 'string') bad(i, 'flow', `a "${ph}" flow event needs a cat`);
        if (e.bp !== undefined && e.bp !== 'e')
          bad(i, 'flow', `binding point ${JSON.stringify(e.bp)} is not "e"`);
        const k = flowKey(e);
        if (ph === 's') {
          if (flowStarts.has(k)) bad(i, 'flow', `flow ${k} starts twice`);
          else flowStarts.set(k, i);
        } else flowSteps.push(i);
        break;
      }
      case 'M': {
        if (!METADATA.has(e.name ?? '')) {
          bad(
            i,
            'metadata',
            `metadata ${JSON.stringify(e.name)} is not one of ${[...METADATA].join(', ')}`,
          );
          break;
        }
        if (!isObject(e.args)) {
          bad(i, 'metadata', `${String(e.name)} needs args`);
          break;
        }
        if (e.name === 'process_name' || e.name === 'thread_name') {
          if (typeof e.args.name !== 'string' || e.args.name === '')
            bad(i, 'metadata', `${e.name} needs args.name (a non-empty string)`);
        } else if (e.name!.endsWith('_sort_index')) {
          if (typeof e.args.sort_index !== 'number' || !Number.isInteger(e.args.sort_index))
            bad(i, 'metadata', `${e.name} needs args.sort_index (an integer)`);
        } else if (!Array.isArray(e.args.labels)) {
          bad(i, 'metadata', 'process_labels needs args.labels (an array)');
        }
        break;
      }
    }
    // Flow version 2: ids bound on the slice events themselves.
    if (e.bind_id !== undefined || e.flow_in !== undefined || e.flow_out !== undefined) {
      if (!['X', 'B', 'b', 'n'].includes(ph)) bad(i, 'flow', `bind_id on a "${ph}" event`);
      else if (!isId(e.bind_id)) bad(i, 'flow', 'flow_in/flow_out without a bind_id');
      else if (e.flow_in !== true && e.flow_out !== true)
        bad(i, 'flow', 'bind_id without flow_in or flow_out');
      else {
        if (e.flow_out === true) {
          const k = String(e.bind_id);
          if (v2Out.has(k)) bad(i, 'flow', `bind_id ${k} flows out twice`);
          else v2Out.set(k, i);
        }
        if (e.flow_in === true) v2In.push(i);
      }
    }
  });

  for (const [k, st] of openB)
    for (const o of st) bad(o.event, 'balance', `"B" on track ${k} is never closed by an "E"`);
  for (const [k, st] of openAsync)
    for (const o of st) bad(o.event, 'balance', `"b" ${k} is never closed by an "e"`);

  // Complete events on one track must nest: sorted by start (longer first), each slice lies
  // inside the innermost open one or starts after it ended. A partial overlap is dropped or
  // moved by the viewers. Checked on the times as written and as Perfetto reads them: it turns
  // ts and dur into whole nanoseconds each on its own, truncated (older versions) or rounded.
  const readings: [string, (us: number) => number][] = [
    ['whole nanoseconds, truncated', (us) => Math.trunc(us * 1000)],
    ['whole nanoseconds, rounded', (us) => Math.round(us * 1000)],
  ];
  for (const [k, list] of slices) {
    let found = nesting(list, (s) => [s.start, s.end]);
    let how = '';
    for (const [reading, ns] of readings) {
      if (found) break;
      how = ` (in ${reading})`;
      found = nesting(list, (s) => {
        const e = events[s.event] as TraceEvent;
        const start = ns(s.start);
        return [start, e.ph === 'X' ? start + ns(e.dur!) : ns(s.end)];
      });
    }
    if (found) {
      const [s, top] = found;
      const name = (i: number) => String((events[i] as TraceEvent).name);
      bad(
        s.event,
        'overlap',
        `${name(s.event)} [${s.start}, ${s.end}] overlaps ${name(top.event)} [${top.start}, ${top.end}] on track ${k} without nesting${how}`,
      );
    }
  }
  for (const list of slices.values())
    list.sort((p, q) => p.start - q.start || q.end - p.end || p.event - q.event);

  // Flows bind to slices as Perfetto's JSON importer binds them: it takes the events in time
  // order (at one time: complete events longest first, then the rest in file order) and binds
  // "s", "t" and "f" with bp "e" to the slice on top of the track's stack at that point, an "f"
  // without bp to the next slice that begins on the track; version 2 flows to their own slice.
  const binding = new Map<number, number | null>();
  const flowTracks = new Map<string, number[]>();
  for (const i of [...flowStarts.values(), ...flowSteps]) {
    const k = track(events[i] as TraceEvent);
    let list = flowTracks.get(k);
    if (!list) flowTracks.set(k, (list = []));
    list.push(i);
  }
  for (const [k, flowEvents] of flowTracks) {
    const list = slices.get(k) ?? [];
    // [time, order class, tie, event, slice or null]
    const order: [number, number, number, number, Slice | null][] = [
      ...list.map((s): [number, number, number, number, Slice | null] => {
        const longFirst = (events[s.event] as TraceEvent).ph === 'X' && s.end > s.start;
        return [s.start, longFirst ? 0 : 1, longFirst ? s.start - s.end : 0, s.event, s];
      }),
      ...flowEvents.map((i): [number, number, number, number, Slice | null] => [
        (events[i] as TraceEvent).ts!,
        1,
        0,
        i,
        null,
      ]),
    ];
    order.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2] || p[3] - q[3]);
    const stack: Slice[] = [];
    const waiting: number[] = [];
    for (const [t, , , i, s] of order) {
      if (s) {
        while (stack.length > 0 && stack[stack.length - 1]!.end <= t) stack.pop();
        stack.push(s);
        for (const w of waiting.splice(0)) binding.set(w, s.event);
        continue;
      }
      const e = events[i] as TraceEvent;
      if (e.ph === 'f' && e.bp !== 'e') {
        waiting.push(i);
        continue;
      }
      const top = stack[stack.length - 1];
      // A slice that ended before the flow's time is still on Perfetto's stack; a viewer that
      // looks for the enclosing slice finds none.
      binding.set(i, top && top.end >= t ? top.event : null);
    }
  }
  const bound = (i: number) => binding.get(i) ?? null;
  const flowSlice = new Map<number, number>();
  for (const [k, i] of flowStarts) {
    const e = events[i] as TraceEvent;
    const s = bound(i);
    if (s === null)
      bad(
        i,
        'flow',
        `flow ${k} starts where no slice encloses it (track ${track(e)} at ${String(e.ts)})`,
      );
    else flowSlice.set(i, s);
  }
  const ended = new Set<string>();
  for (const i of flowSteps) {
    const e = events[i] as TraceEvent;
    const k = flowKey(e);
    const start = flowStarts.get(k);
    if (start === undefined) {
      bad(i, 'flow', `flow ${k} ${e.ph === 'f' ? 'ends' : 'steps'} without a start`);
      continue;
    }
    if ((events[start] as TraceEvent).ts! > e.ts!) bad(i, 'flow', `flow ${k} goes back in time`);
    else if (readBefore(events, i, start))
      bad(i, 'flow', `flow ${k} ends before it starts in the order the viewer reads events`);
    const s = bound(i);
    if (s === null) {
      bad(i, 'flow', `flow ${k} has no slice to bind to on track ${track(e)} at ${String(e.ts)}`);
      continue;
    }
    if (e.ph === 'f') ended.add(k);
    const from = flowSlice.get(start);
    if (from !== undefined)
      flows.push({ fromEvent: start, toEvent: i, fromSlice: from, toSlice: s });
  }
  for (const [k, i] of flowStarts)
    if (!ended.has(k)) bad(i, 'flow', `flow ${k} starts but never ends ("f")`);
  for (const i of v2In) {
    const e = events[i] as TraceEvent;
    const from = v2Out.get(String(e.bind_id));
    if (from === undefined)
      bad(i, 'flow', `flow_in of bind_id ${String(e.bind_id)} that never flows out`);
    else if ((events[from] as TraceEvent).ts! > e.ts!)
      bad(i, 'flow', `bind_id ${String(e.bind_id)} goes back in time`);
    else if (readBefore(events, i, from))
      bad(i, 'flow', `bind_id ${String(e.bind_id)} flows in before it flows out`);
    else flows.push({ fromEvent: from, toEvent: i, fromSlice: from, toSlice: i });
  }
  return { violations, flows, phases };
}

/**
 * Whether the viewer reads event p before event q: by time, and at one time complete events
 * with a duration first (longest first), then the rest in file order (Perfetto's sorter).
 */
function readBefore(events: readonly unknown[], p: number, q: number): boolean {
  const key = (i: number): [number, number, number, number] => {
    const e = events[i] as TraceEvent;
    const long = e.ph === 'X' && typeof e.dur === 'number' && e.dur > 0;
    return [e.ts ?? 0, long ? 0 : 1, long ? -e.dur! : 0, i];
  };
  const [a, b] = [key(p), key(q)];
  for (let j = 0; j < 4; j++) if (a[j] !== b[j]) return a[j]! < b[j]!;
  return false;
}

/** The first slice that overlaps the one open before it without nesting, and that one. */
function nesting(
  list: readonly Slice[],
  span: (s: Slice) => [number, number],
): [Slice, Slice] | null {
  const items = list.map((s) => ({ s, t: span(s) }));
  items.sort((p, q) => p.t[0] - q.t[0] || q.t[1] - p.t[1] || p.s.event - q.s.event);
  const stack: { s: Slice; t: [number, number] }[] = [];
  for (const it of items) {
    const [start, end] = it.t;
    while (stack.length > 0) {
      const [topStart, topEnd] = stack[stack.length - 1]!.t;
      if (topEnd <= start && (end > topEnd || start > topStart)) stack.pop();
      else break;
    }
    const top = stack[stack.length - 1];
    if (top && end > top.t[1]) return [it.s, top.s];
    stack.push(it);
  }
  return null;
}

function asyncScope(e: TraceEvent): string | null {
  if (isId(e.id)) return `${String(e.cat)}|id:${String(e.id)}`;
  if (isObject(e.id2)) {
    if (isId(e.id2.global)) return `${String(e.cat)}|global:${String(e.id2.global)}`;
    if (isId(e.id2.local)) return `${String(e.cat)}|${String(e.pid)}:local:${String(e.id2.local)}`;
  }
  return null;
}

/** Version 1 flows are matched by category, name and id. */
function flowKey(e: TraceEvent): string {
  return `${String(e.cat)}/${String(e.name)}/${String(e.id)}`;
}

/** One line per violation, for test failure messages. */
export function formatViolations(v: readonly Violation[], limit = 20): string {
  const lines = v.slice(0, limit).map((x) => `#${x.event} ${x.rule}: ${x.message}`);
  if (v.length > limit) lines.push(`… and ${v.length - limit} more`);
  return lines.join('\n');
}
