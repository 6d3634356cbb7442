// What the export buttons write: the sweep's data as CSV, the scenario with the page's overrides
// as a file the CLI runs, and the run's trace as Chrome trace-event JSON that Perfetto opens.
// Pure functions of the run's output; the views only hand the text to the browser.
import type { ParameterTree, RunOutput, TimeSeries } from '../engine/types';
import type { Trace } from '../engine/trace';
import {
  COMPONENT_LABELS,
  KIND_NAMES,
  PURPOSE_NAMES,
  TRACE_KINDS,
  componentInstance,
  componentKind,
} from '../engine/traceKinds';
import { seriesStart } from './chart';
import type { Overrides } from './overrides';
import type { TraceIndex } from './traceIndex';

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

// Chrome trace-event format (the JSON Perfetto and chrome://tracing open): "X" complete events
// with ts/dur in µs, "i" instants, "M" metadata naming the lanes. One process, one lane (tid)
// per component of the trace (host CPU, PCI bus, each NIC's DMA engines, MACs, wire, ...).
interface ChromeEvent {
  name: string;
  ph: 'X' | 'i' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  s?: 't';
  cat?: string;
  args?: Record<string, unknown>;
}

const PID = 1;
const BUS_LANE = 2; // the component field of the I/O bus (kind 2, instance 0)

function laneName(field: number): string {
  const kind = componentKind(field);
  const inst = componentInstance(field);
  const label = COMPONENT_LABELS[kind] ?? `component ${kind}`;
  return inst > 0 ? `${label} (NIC ${inst})` : label;
}

function us(ps: number): number {
  return ps / 1e6;
}

/**
 * The run's trace as Chrome trace-event JSON: each record an instant on its component's lane
 * (named by kind, with its fields named as in the event log), and the spans the views draw
 * (bus transactions, DMAs, frames, host CPU tasks) as complete events. Spans still open at the
 * end of the window end there.
 */
export function perfettoTrace(
  trace: Trace,
  index: Pick<TraceIndex, 'bus' | 'dma' | 'frames' | 'cpu' | 'windowEnd'>,
  meta: { scenario: string; seed: number },
): string {
  const events: ChromeEvent[] = [];
  const lanes = new Set<number>();
  const end = index.windowEnd;
  const span = (
    name: string,
    tid: number,
    start: number,
    stop: number,
    cat: string,
    args: Record<string, unknown>,
  ) => {
    lanes.add(tid);
    const to = Number.isFinite(stop) ? stop : end;
    events.push({
      name,
      ph: 'X',
      pid: PID,
      tid,
      ts: us(start),
      dur: us(Math.max(0, to - start)),
      cat,
      args,
    });
  };
  for (const s of index.bus.spans)
    span(PURPOSE_NAMES[s.purpose] ?? `purpose ${s.purpose}`, BUS_LANE, s.start, s.end, 'bus', {
      transaction: s.txn,
      master: laneName(s.master),
      bytes: s.bytes,
      packet: s.packet,
    });
  for (const s of index.dma.spans)
    span(PURPOSE_NAMES[s.purpose] ?? `purpose ${s.purpose}`, s.engine, s.start, s.end, 'dma', {
      packet: s.packet,
    });
  for (const s of index.frames.spans)
    span(
      `frame ${s.dir} #${s.packet}${s.dropped ? ' (dropped)' : ''}`,
      // The MAC of the frame's NIC: transmit (6) or receive (7), with the NIC instance.
      (s.dir === 'tx' ? 6 : 7) | (s.nic << 8),
      s.start,
      s.end,
      'frame',
      { packet: s.packet, bytes: s.bytes },
    );
  for (const s of index.cpu.spans)
    span(s.task === 0 ? 'send' : 'interrupt service', 0, s.start, s.end, 'cpu', {});
  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind[i]!;
    const doc = TRACE_KINDS[kind];
    const tid = trace.component[i]!;
    lanes.add(tid);
    const args: Record<string, unknown> = {};
    const raw = [trace.a[i]!, trace.b[i]!, trace.c[i]!, trace.d[i]!, trace.e[i]!];
    doc?.fields.forEach((f, j) => {
      if (f) args[f.name] = raw[j];
    });
    events.push({
      name: KIND_NAMES[kind] ?? `kind ${kind}`,
      ph: 'i',
      s: 't',
      pid: PID,
      tid,
      ts: us(trace.time[i]!),
      cat: 'record',
      args,
    });
  }
  const names: ChromeEvent[] = [
    { name: 'process_name', ph: 'M', pid: PID, tid: 0, args: { name: `nicsim: ${meta.scenario}` } },
  ];
  for (const tid of [...lanes].sort((a, b) => a - b)) {
    names.push({ name: 'thread_name', ph: 'M', pid: PID, tid, args: { name: laneName(tid) } });
    names.push({ name: 'thread_sort_index', ph: 'M', pid: PID, tid, args: { sort_index: tid } });
  }
  // Complete events sorted by start, so viewers nest them without re-sorting.
  events.sort((p, q) => (p.ts ?? 0) - (q.ts ?? 0));
  return JSON.stringify({
    traceEvents: [...names, ...events],
    displayTimeUnit: 'ns',
    otherData: { scenario: meta.scenario, seed: meta.seed, source: 'nicsim' },
  });
}
