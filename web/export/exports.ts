// What the export buttons write: the sweep's data as CSV, the scenario with the page's overrides
// as a file the CLI runs, and the run's trace as Trace Event Format JSON that Perfetto opens.
// Pure functions of the run's output; the views only hand the text to the browser.
import type { ParameterTree, RunOutput, TimeSeries } from '../engine/types';
import { type Trace } from '../trace/trace';
import {
  column,
  OffloadDma,
  OffloadDmaQueued,
  OffloadFrame,
  OffloadFrameIn,
  type TraceColumns,
} from '../trace/records.gen';

import {
  C,
  K,
  TIGON_EVENTS,
  TRACE_KINDS,
  componentInstance,
  componentKind,
  componentLabel,
  formatField,
  kindName,
  purposeName,
} from '../trace/traceKinds';
import { seriesStart } from '../kit/sweep';
import type { Overrides } from '../run/overrides';
import type { TraceIndex } from '../trace/traceIndex';

/** A TCP-offload frame's identity: its id within its direction (way) of the connection. */
function offloadFrameKey(trace: TraceColumns, i: number): number {
  const f = OffloadFrame.is(trace, i) ? OffloadFrame : OffloadFrameIn;
  return f.frame(trace, i) * 2 + f.way(trace, i);
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(fields: unknown[]): string {
  return fields.map(csvField).join(',');
}

/** Every metric of every sweep point: one row per point, one column per metric (with its unit). */
export function sweepCsv(output: Pick<RunOutput, 'sweep' | 'sweep_spec'>): string {
  const metrics: { name: string; unit: string }[] = [];
  const seen = new Set<string>();
  for (const e of output.sweep) {
    for (const [name, m] of Object.entries(e.results)) {
      if (seen.has(name)) continue;
      seen.add(name);
      metrics.push({ name, unit: m.unit });
    }
  }
  const param = output.sweep_spec?.parameter ?? 'value';
  const seriesParam = output.sweep_spec?.series_parameter ?? null;
  const head = [param, ...(seriesParam ? [seriesParam] : [])].concat(
    metrics.map((m) => (m.unit ? `${m.name} (${m.unit})` : m.name)),
  );
  const rows = output.sweep.map((e) =>
    [e.value, ...(seriesParam ? [e.series ?? ''] : [])].concat(
      metrics.map((m) => e.results[m.name]?.value ?? ''),
    ),
  );
  return [head, ...rows].map(csvLine).join('\n') + '\n';
}

/** A time series: time in µs and the value (in the series' unit). */
export function seriesCsv(s: TimeSeries): string {
  const head = ['time_us', s.unit ? `${s.name} (${s.unit})` : s.name];
  const start = seriesStart(s);
  const rows = Array.from(s.values, (v, i) => [(start + i * s.interval_ps) / 1e6, v]);
  return [head, ...rows].map(csvLine).join('\n') + '\n';
}

/** The main run's metrics: metric, value, unit. */
export function resultsCsv(results: RunOutput['results']): string {
  const rows = Object.entries(results).map(([name, m]) => [name, m.value, m.unit]);
  return [['metric', 'value', 'unit'], ...rows].map(csvLine).join('\n') + '\n';
}

/**
 * The scenario file with the overrides written into it ("system.bus.clock_mhz": 66 becomes
 * system → bus → clock_mhz), so `nicsim file.json` runs what the page ran. Throws on text that
 * is not a JSON object (the page only offers this for a scenario that loaded).
 */
export function scenarioWithOverrides(text: string, overrides: Overrides): string {
  const doc = JSON.parse(text) as ParameterTree;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error('the scenario is not a JSON object');
  for (const [path, value] of Object.entries(overrides)) {
    const parts = path.split('.');
    let node: ParameterTree = doc;
    for (const p of parts.slice(0, -1)) {
      const next = node[p];
      if (!next || typeof next !== 'object' || Array.isArray(next)) node[p] = {};
      node = node[p] as ParameterTree;
    }
    node[parts[parts.length - 1]!] = value;
  }
  return JSON.stringify(doc, null, 2) + '\n';
}

/** "udp-throughput-sweep": the scenario id and what, safe as a file name. */
export function exportBaseName(scenarioId: string, what: string): string {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  return `${clean(scenarioId) || 'nicsim'}${what ? `-${clean(what)}` : ''}`;
}

/** "udp-throughput-sweep.csv". */
export function exportFileName(scenarioId: string, what: string, ext: string): string {
  return `${exportBaseName(scenarioId, what)}.${ext}`;
}

// The trace for Perfetto, in the Trace Event Format (the JSON ui.perfetto.dev and chrome://tracing
// open). One process; per component a track of its records (each a zero-length slice named by its
// kind, its fields as arguments) and tracks of the work it does (bus transactions, DMAs, frames,
// host CPU tasks and parts, Tigon handlers, SINIC copies), as complete events. Work that overlaps
// on one component (DMAs in flight, split transactions) takes as many tracks as it needs ("DMA
// read · DMAs in flight 2"), so no two slices on a track overlap and the viewer drops none. A record's
// cause becomes a flow ("s" on the cause's slice, "f" on the effect's), the run's time series
// become counter tracks. Times are µs with the picoseconds as decimals.

interface TraceEventOut {
  name: string;
  ph: 'X' | 'C' | 'M' | 's' | 'f';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: 'e';
  args?: Record<string, unknown>;
}

const PID = 1;

function us(ps: number): number {
  return ps / 1e6;
}

const bits = new Float64Array(1);
const word = new BigInt64Array(bits.buffer);
/** The next smaller double (of a positive one). */
function nextDown(x: number): number {
  bits[0] = x;
  word[0]! -= 1n;
  return bits[0]!;
}

/** Whole nanoseconds from µs as Perfetto reads them: truncated (older) or rounded (newer). */
const nsTrunc = (us: number) => Math.trunc(us * 1000);
const nsRound = (us: number) => Math.round(us * 1000);

/**
 * The duration in µs of a slice from start to end (ps) when the next slice on its track starts
 * at `next` (ps): ts + dur must not pass that start, neither as written nor as Perfetto reads
 * the two (it turns ts and dur into whole nanoseconds each on its own), or the viewer finds the
 * two overlapping. The duration is the exact one but where that would happen, then it is less
 * by under a nanosecond.
 */
export function durationUs(start: number, end: number, next = Infinity): number {
  const a = us(start);
  let d = us(Math.max(0, end - start));
  if (!Number.isFinite(next)) return d;
  const l = us(next);
  const fits = (d: number) =>
    d === 0 ||
    (a + d <= l && nsTrunc(a) + nsTrunc(d) <= nsTrunc(l) && nsRound(a) + nsRound(d) <= nsRound(l));
  for (let i = 0; i < 4 && !fits(d); i++) d = nextDown(d);
  if (!fits(d)) {
    // Short enough in whole nanoseconds whichever way they are read.
    const room = Math.min(nsRound(l) - nsRound(a) + 0.49, nsTrunc(l) - nsTrunc(a) + 0.99);
    d = Math.max(0, Math.min(d, l - a, room / 1000));
    for (let i = 0; i < 64 && !fits(d); i++) d = nextDown(d);
  }
  return fits(d) ? d : 0;
}

/** A record's fields by the names the event log uses: numbers, and names for enumerations. */
export function recordArgs(trace: Trace, i: number): Record<string, number | string> {
  const doc = TRACE_KINDS[trace.kind[i]!];
  const args: Record<string, number | string> = {};
  doc?.fields.forEach((f, j) => {
    if (!f) return;
    const v = column(trace, j, i);
    args[f.name] = f.format === undefined || f.format === 'bytes' ? v : formatField(f, v);
  });
  args.record = trace.id[i]!;
  if (trace.cause[i]! !== 0) args.cause = trace.cause[i]!;
  return args;
}

/** One raw field of a record by its name in the kind's field list (undefined when it has none). */
function field(trace: Trace, i: number, name: string): number | undefined {
  const j = TRACE_KINDS[trace.kind[i]!]?.fields.findIndex((f) => f?.name === name) ?? -1;
  return j < 0 ? undefined : column(trace, j, i);
}

interface Work {
  /** Component field the work belongs to (kind | instance << 8). */
  component: number;
  /** What kind of work, for the track's name ("DMAs in flight"), and its order on the component. */
  family: string;
  start: number;
  end: number;
  name: string;
  cat: string;
  args: Record<string, unknown>;
  /** The record that opened it: flows of that record bind to this slice. */
  rec: number | null;
}

/** Families in the order their tracks follow a component's record track. */
const FAMILIES = [
  'transactions',
  'DMAs in flight',
  'frames',
  'tasks',
  'parts',
  'handlers, CPU A',
  'handlers, CPU B',
  'copies',
];

/**
 * The run's trace as Trace Event Format JSON. Spans still open at the end of the window end
 * there; causes outside the trace window, or later than their effect, draw no flow (otherData
 * counts them).
 */
export function perfettoTrace(
  trace: Trace,
  index: Pick<TraceIndex, 'bus' | 'dma' | 'frames' | 'cpu' | 'windowStart' | 'windowEnd'>,
  meta: { scenario: string; seed: number; series?: readonly TimeSeries[] },
): string {
  const end = index.windowEnd;
  const close = (to: number) => (Number.isFinite(to) ? to : Math.max(end, 0));
  const opens = (rec: number, start: number) => (trace.time[rec] === start ? rec : null);
  const work: Work[] = [];
  for (const s of index.bus.spans)
    work.push({
      component: trace.component[s.rec] ?? C.Bus,
      family: 'transactions',
      start: s.start,
      end: close(s.end),
      name: purposeName(s.purpose),
      cat: 'bus',
      args: {
        transaction: s.txn,
        master: componentLabel(s.master),
        bytes: s.bytes,
        packet: s.packet,
      },
      rec: opens(s.rec, s.start),
    });
  for (const s of index.dma.spans)
    work.push({
      component: s.engine,
      family: 'DMAs in flight',
      start: s.start,
      end: close(s.end),
      name: purposeName(s.purpose),
      cat: 'dma',
      args: {
        dma: field(trace, s.rec, 'dma'),
        packet: s.packet,
        bytes: field(trace, s.rec, 'bytes'),
      },
      rec: opens(s.rec, s.start),
    });
  for (const s of index.frames.spans)
    work.push({
      // The MAC of the frame's NIC.
      component: (s.dir === 'tx' ? C.MacTx : C.MacRx) | (s.nic << 8),
      family: 'frames',
      start: s.start,
      end: close(s.end),
      name: s.dir === 'tx' ? 'frame to the peer' : 'frame from the peer',
      cat: 'frame',
      args: { packet: s.packet, bytes: s.bytes, ...(s.dropped ? { dropped: true } : {}) },
      rec: opens(s.rec, s.start),
    });
  for (const s of index.cpu.spans)
    work.push({
      component: C.HostCpu,
      family: 'tasks',
      start: s.start,
      end: close(s.end),
      name: s.task === 0 ? 'send' : 'interrupt service',
      cat: 'cpu',
      args: {},
      rec: opens(s.rec, s.start),
    });
  // Tigon handlers (TigonHandler to its CPU's TigonHandlerEnd), the host's CPU parts (CpuPart
  // with its duration) and the SINIC and kernel copies (recorded as they happen, no length).
  const handler = new Map<number, number>();
  const offloadDma = new Map<number, number>();
  const offloadFrame = new Map<number, number>();
  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind[i]!;
    const t = trace.time[i]!;
    const comp = trace.component[i]!;
    if (kind === K.TigonHandler || kind === K.TigonHandlerEnd) {
      const cpu = field(trace, i, 'cpu') ?? 0;
      const key = comp * 2 + cpu;
      if (kind === K.TigonHandlerEnd) {
        const open = handler.get(key);
        if (open !== undefined) work[open]!.end = t;
        handler.delete(key);
        continue;
      }
      const event = field(trace, i, 'event') ?? 0;
      handler.set(key, work.length);
      work.push({
        component: comp,
        family: cpu === 0 ? 'handlers, CPU A' : 'handlers, CPU B',
        start: t,
        end: t + (field(trace, i, 'duration ps') ?? 0),
        name: TIGON_EVENTS[event]?.label ?? `event ${event}`,
        cat: 'tigon',
        args: recordArgs(trace, i),
        rec: i,
      });
    } else if (kind === K.CpuPart) {
      const part = field(trace, i, 'part') ?? 0;
      const doc = TRACE_KINDS[kind]!.fields.find((f) => f?.name === 'part')!;
      work.push({
        component: comp,
        family: 'parts',
        start: t,
        end: t + (field(trace, i, 'duration ns') ?? 0) * 1000,
        name: formatField(doc, part),
        cat: 'cpu',
        args: recordArgs(trace, i),
        rec: i,
      });
    } else if (kind === K.OffloadDmaQueued || kind === K.OffloadFrame) {
      // TCP offload: a ledger DMA from queued to done, a frame from the wire to its arrival.
      const dma = kind === K.OffloadDmaQueued;
      const key = dma ? OffloadDmaQueued.dma(trace, i) * 2 : offloadFrameKey(trace, i);
      (dma ? offloadDma : offloadFrame).set(key, work.length);
      const args = recordArgs(trace, i);
      work.push({
        component: comp,
        family: dma ? 'DMAs in flight' : 'frames',
        start: t,
        end: close(NaN),
        name: dma ? String(args.purpose) : String(args['frame kind']),
        cat: dma ? 'dma' : 'frame',
        args,
        rec: i,
      });
    } else if (kind === K.OffloadDma || kind === K.OffloadFrameIn) {
      const dma = kind === K.OffloadDma;
      const key = dma ? OffloadDma.dma(trace, i) * 2 : offloadFrameKey(trace, i);
      const open = (dma ? offloadDma : offloadFrame).get(key);
      if (open !== undefined) work[open]!.end = t;
    } else if (kind === K.SinicCopy || kind === K.L2Copy) {
      const args = recordArgs(trace, i);
      work.push({
        component: comp,
        family: 'copies',
        start: t,
        end: t,
        name:
          kind === K.L2Copy
            ? 'kernel copy to the user buffer'
            : `${String(args.direction)} copy (${String(args.what)})`,
        cat: 'copy',
        args,
        rec: i,
      });
    }
  }

  // Tracks: per component its records, then per family as many tracks as its work needs.
  const tracks = new Map<string, { tid: number; name: string; sort: number }>();
  const trackOf = (key: string, name: string, sort: number) => {
    let tr = tracks.get(key);
    if (!tr) tracks.set(key, (tr = { tid: tracks.size + 1, name, sort }));
    return tr.tid;
  };
  const componentSort = (c: number) => (componentKind(c) * 256 + componentInstance(c)) * 1000;
  const recordTrack = (c: number) => trackOf(`r${c}`, componentLabel(c), componentSort(c));

  // A slice and the flows that bind to it are written together, so the viewer (which takes
  // events at one time in file order, after longer slices) binds each flow to its own slice.
  interface Entry {
    ev: TraceEventOut;
    flows: TraceEventOut[];
    /** The record it stands for: at one time, causes (made first) come before effects. */
    rec: number;
  }
  const entries: Entry[] = [];
  const anchor = new Map<number, Entry>();

  work.sort((p, q) => p.start - q.start || p.end - q.end);
  const slots = new Map<string, { start: number; end: number; entry?: Entry }[]>();
  for (const w of work) {
    const family = `${w.component}:${w.family}`;
    let used = slots.get(family);
    if (!used) slots.set(family, (used = []));
    // A track is free once its last slice ended; two slices never start at one time on a track
    // (a zero-length one would nest in the other and take its flows).
    let slot = used.findIndex((u) => u.end < w.start || (u.end === w.start && u.start < w.start));
    if (slot < 0) slot = used.push({ start: 0, end: 0 }) - 1;
    // The slice before on this track now knows where the next one starts.
    const before = used[slot]!.entry;
    if (before) before.ev.dur = durationUs(used[slot]!.start, used[slot]!.end, w.start);
    const label = `${componentLabel(w.component)} · ${w.family}${slot > 0 ? ` ${slot + 1}` : ''}`;
    const sort = componentSort(w.component) + 1 + FAMILIES.indexOf(w.family) * 64 + slot;
    const entry: Entry = {
      ev: {
        name: w.name,
        ph: 'X',
        pid: PID,
        tid: trackOf(`${family}:${slot}`, label, sort),
        ts: us(w.start),
        dur: durationUs(w.start, w.end),
        cat: w.cat,
        // The record that started the work, as the event log numbers it.
        args: w.rec === null ? w.args : { ...w.args, record: trace.id[w.rec]! },
      },
      flows: [],
      rec: w.rec ?? -1,
    };
    used[slot] = { start: w.start, end: w.end, entry };
    entries.push(entry);
    if (w.rec !== null && !anchor.has(w.rec)) anchor.set(w.rec, entry);
  }
  const recordIndex = new Map<number, number>();
  for (let i = 0; i < trace.length; i++) {
    recordIndex.set(trace.id[i]!, i);
    const kind = trace.kind[i]!;
    const entry: Entry = {
      ev: {
        name: kindName(kind),
        ph: 'X',
        pid: PID,
        tid: recordTrack(trace.component[i]!),
        ts: us(trace.time[i]!),
        dur: 0,
        cat: 'record',
        args: recordArgs(trace, i),
      },
      flows: [],
      rec: i,
    };
    entries.push(entry);
    if (!anchor.has(i)) anchor.set(i, entry);
  }

  // Flows: one per record with a cause in the trace, its id the effect's record id.
  let flows = 0;
  let causesOutside = 0;
  let causesAfter = 0;
  for (let i = 0; i < trace.length; i++) {
    const cause = trace.cause[i]!;
    if (cause === 0) continue;
    const c = recordIndex.get(cause);
    const from = c === undefined ? undefined : anchor.get(c);
    const to = anchor.get(i)!;
    if (!from) {
      causesOutside++;
      continue;
    }
    // A viewer draws no flow whose end it reads before its start.
    if (from.ev.ts! > to.ev.ts! || (from.ev.ts === to.ev.ts && from.rec > to.rec)) {
      causesAfter++;
      continue;
    }
    const flow = { name: 'cause', cat: 'cause', pid: PID, id: trace.id[i]! };
    from.flows.push({ ...flow, ph: 's', tid: from.ev.tid, ts: from.ev.ts });
    to.flows.push({ ...flow, ph: 'f', bp: 'e', tid: to.ev.tid, ts: to.ev.ts });
    flows++;
  }

  // Counter tracks: one per time series, named with its unit.
  const counters: TraceEventOut[] = [];
  for (const s of meta.series ?? []) {
    const start = seriesStart(s);
    s.values.forEach((v, j) => {
      if (!Number.isFinite(v)) return;
      counters.push({
        name: s.name,
        ph: 'C',
        pid: PID,
        ts: us(start + j * s.interval_ps),
        cat: 'series',
        args: { [s.unit || 'value']: v },
      });
    });
  }

  const out: TraceEventOut[] = [
    { name: 'process_name', ph: 'M', pid: PID, tid: 0, args: { name: `nicsim: ${meta.scenario}` } },
  ];
  for (const tr of [...tracks.values()].sort((p, q) => p.sort - q.sort)) {
    out.push({ name: 'thread_name', ph: 'M', pid: PID, tid: tr.tid, args: { name: tr.name } });
    out.push({
      name: 'thread_sort_index',
      ph: 'M',
      pid: PID,
      tid: tr.tid,
      args: { sort_index: tr.sort },
    });
  }
  // In time order, and at one time in the order of the records (a cause before its effects):
  // the viewer reads flow events at one time in file order, and a flow's end read before its
  // start is dropped.
  entries.sort((p, q) => p.ev.ts! - q.ev.ts! || p.rec - q.rec);
  for (const e of entries) out.push(e.ev, ...e.flows);
  out.push(...counters);
  return JSON.stringify({
    // No displayTimeUnit: older Perfetto versions read it as the unit of ts.
    traceEvents: out,
    otherData: {
      scenario: meta.scenario,
      seed: meta.seed,
      source: 'nicsim',
      flows,
      causes_outside_trace: causesOutside,
      causes_after_their_effect: causesAfter,
    },
  });
}
