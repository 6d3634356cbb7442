import { describe, expect, it } from 'vitest';
import { validateTraceEvents, type TraceEvent } from './traceEventFormat';

const meta: TraceEvent[] = [
  { name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: 'nicsim' } },
  { name: 'thread_name', ph: 'M', pid: 1, tid: 2, args: { name: 'I/O bus' } },
  { name: 'thread_sort_index', ph: 'M', pid: 1, tid: 2, args: { sort_index: 2 } },
];

/** A trace using every phase the exporter writes, and some it does not, all well formed. */
const good: TraceEvent[] = [
  ...meta,
  { name: 'send data fetch', ph: 'X', pid: 1, tid: 2, ts: 1, dur: 4, cat: 'bus', args: {} },
  { name: 'data', ph: 'X', pid: 1, tid: 2, ts: 2, dur: 1, cat: 'bus' },
  { name: 'data', ph: 'X', pid: 1, tid: 2, ts: 3, dur: 2, cat: 'bus' },
  { name: 'next', ph: 'X', pid: 1, tid: 2, ts: 5, dur: 0, cat: 'bus' },
  { name: 'MailboxWrite', ph: 'i', s: 't', pid: 1, tid: 3, ts: 0.5 },
  { name: 'marker', ph: 'i', s: 'g', pid: 1, ts: 0.5 },
  { name: 'ISR', ph: 'B', pid: 1, tid: 4, ts: 1 },
  { name: 'inner', ph: 'B', pid: 1, tid: 4, ts: 1.5 },
  { ph: 'E', pid: 1, tid: 4, ts: 1.7 },
  { name: 'ISR', ph: 'E', pid: 1, tid: 4, ts: 2 },
  { name: 'dma', ph: 'b', cat: 'dma', id: 7, pid: 1, tid: 5, ts: 1 },
  { name: 'dma', ph: 'b', cat: 'dma', id: 8, pid: 1, tid: 5, ts: 1.5 },
  { name: 'dma', ph: 'e', cat: 'dma', id: 7, pid: 1, tid: 5, ts: 3 },
  { name: 'dma', ph: 'e', cat: 'dma', id: 8, pid: 1, tid: 5, ts: 2 },
  { name: 'cause', ph: 's', cat: 'flow', id: 1, pid: 1, tid: 2, ts: 1 },
  { name: 'cause', ph: 'f', cat: 'flow', id: 1, bp: 'e', pid: 1, tid: 4, ts: 1.5 },
  { name: 'cause', ph: 's', cat: 'flow', id: 2, pid: 1, tid: 2, ts: 2.5 },
  { name: 'cause', ph: 'f', cat: 'flow', id: 2, pid: 1, tid: 2, ts: 4.5 },
  { name: 'a', ph: 'X', pid: 1, tid: 6, ts: 1, dur: 1, bind_id: '0x1', flow_out: true },
  { name: 'b', ph: 'X', pid: 1, tid: 6, ts: 3, dur: 1, bind_id: '0x1', flow_in: true },
  { name: 'throughput', ph: 'C', pid: 1, ts: 0, args: { 'Mb/s': 12.5 } },
];

function rules(events: TraceEvent[] | unknown) {
  return validateTraceEvents(Array.isArray(events) ? { traceEvents: events } : events).violations;
}

describe('Trace Event Format validator', () => {
  it('accepts a well formed trace and finds where its flows bind', () => {
    const r = validateTraceEvents({ traceEvents: good, displayTimeUnit: 'ns' });
    expect(r.violations).toEqual([]);
    const name = (i: number) => good[i]!.name;
    expect(r.flows.map((f) => [name(f.fromSlice), name(f.toSlice)])).toEqual([
      // "s" at 1 on the bus: the slice starting there; "f" bp e at 1.5: the inner B/E slice.
      ['send data fetch', 'inner'],
      // "f" without bp binds to the next slice starting on its track.
      ['data', 'next'],
      ['a', 'b'],
    ]);
    expect(r.phases.X).toBe(6);
  });

  it('binds a flow at one time as Perfetto does: longer slices first, then file order', () => {
    const at = (order: TraceEvent[]) => {
      const r = validateTraceEvents([
        ...order,
        { name: 'end', ph: 'X', pid: 1, tid: 3, ts: 2, dur: 0 },
        { name: 'c', ph: 'f', bp: 'e', cat: 'c', id: 1, pid: 1, tid: 3, ts: 2 },
      ]);
      expect(r.violations).toEqual([]);
      return r.flows.map((f) => (order[f.fromSlice] ?? { name: 'end' }).name);
    };
    const r1: TraceEvent = { name: 'r1', ph: 'X', pid: 1, tid: 2, ts: 1, dur: 0 };
    const r2: TraceEvent = { name: 'r2', ph: 'X', pid: 1, tid: 2, ts: 1, dur: 0 };
    const long: TraceEvent = { name: 'long', ph: 'X', pid: 1, tid: 2, ts: 1, dur: 0.5 };
    const s: TraceEvent = { name: 'c', ph: 's', cat: 'c', id: 1, pid: 1, tid: 2, ts: 1 };
    expect(at([r1, s, r2])).toEqual(['r1']);
    expect(at([r1, r2, s])).toEqual(['r2']);
    // The longer slice is taken before both, wherever it is in the file.
    expect(at([r1, s, long])).toEqual(['r1']);
    expect(at([s, long])).toEqual(['long']);
  });

  it('accepts the bare array form', () => {
    expect(validateTraceEvents(good).violations).toEqual([]);
  });

  // Each defect alone, in an otherwise good trace: the validator names it by rule.
  const defects: [string, (t: TraceEvent[]) => void, string][] = [
    ['a phase nobody knows', (t) => t.push({ name: 'x', ph: 'Q', pid: 1, tid: 1, ts: 0 }), 'phase'],
    ['a slice without a name', (t) => t.push({ ph: 'X', pid: 1, tid: 9, ts: 0, dur: 1 }), 'name'],
    [
      'a name that is a number',
      (t) => t.push({ name: 5 as unknown as string, ph: 'i', pid: 1, tid: 1, ts: 0 }),
      'name',
    ],
    ['a negative time', (t) => t.push({ name: 'x', ph: 'i', pid: 1, tid: 1, ts: -1 }), 'ts'],
    [
      'a time that is not finite',
      (t) => t.push({ name: 'x', ph: 'i', pid: 1, tid: 1, ts: NaN }),
      'ts',
    ],
    [
      'a time as a string',
      (t) => t.push({ name: 'x', ph: 'i', pid: 1, tid: 1, ts: '3' as unknown as number }),
      'ts',
    ],
    ['a missing time', (t) => t.push({ name: 'x', ph: 'X', pid: 1, tid: 9, dur: 1 }), 'ts'],
    [
      'a complete event without dur',
      (t) => t.push({ name: 'x', ph: 'X', pid: 1, tid: 9, ts: 0 }),
      'dur',
    ],
    [
      'a negative duration',
      (t) => t.push({ name: 'x', ph: 'X', pid: 1, tid: 9, ts: 0, dur: -2 }),
      'dur',
    ],
    ['a missing pid', (t) => t.push({ name: 'x', ph: 'X', tid: 9, ts: 0, dur: 1 }), 'pid'],
    [
      'a fractional tid',
      (t) => t.push({ name: 'x', ph: 'X', pid: 1, tid: 1.5, ts: 0, dur: 1 }),
      'tid',
    ],
    [
      'args that are an array',
      (t) =>
        t.push({
          name: 'x',
          ph: 'i',
          pid: 1,
          tid: 1,
          ts: 0,
          args: [] as unknown as Record<string, unknown>,
        }),
      'args',
    ],
    [
      'an instant with a bad scope',
      (t) => t.push({ name: 'x', ph: 'i', s: 'q', pid: 1, tid: 1, ts: 0 }),
      'scope',
    ],
    [
      'two complete events overlapping on one track',
      (t) => t.push({ name: 'y', ph: 'X', pid: 1, tid: 2, ts: 4, dur: 2 }),
      'overlap',
    ],
    [
      'a child that ends after its parent once Perfetto truncates to whole nanoseconds',
      (t) =>
        t.push(
          { name: 'p', ph: 'X', pid: 1, tid: 9, ts: 0.0009, dur: 0.0029 },
          { name: 'c', ph: 'X', pid: 1, tid: 9, ts: 0.001, dur: 0.002 },
        ),
      'overlap',
    ],
    [
      'a slice overlapping the next once Perfetto rounds to whole nanoseconds',
      (t) =>
        t.push(
          { name: 'a', ph: 'X', pid: 1, tid: 9, ts: 0.0006, dur: 0.0016 },
          { name: 'b', ph: 'X', pid: 1, tid: 9, ts: 0.0023, dur: 0.005 },
        ),
      'overlap',
    ],
    [
      'a slice crossing the end of its B/E parent',
      (t) => t.push({ name: 'y', ph: 'X', pid: 1, tid: 4, ts: 1.9, dur: 1 }),
      'overlap',
    ],
    ['an E with no B', (t) => t.push({ ph: 'E', pid: 1, tid: 8, ts: 3 }), 'balance'],
    ['a B never closed', (t) => t.push({ name: 'x', ph: 'B', pid: 1, tid: 8, ts: 3 }), 'balance'],
    [
      'an E closing a B of another name',
      (t) =>
        t.push(
          { name: 'a', ph: 'B', pid: 1, tid: 8, ts: 3 },
          { name: 'b', ph: 'E', pid: 1, tid: 8, ts: 4 },
        ),
      'balance',
    ],
    [
      'an E before its B',
      (t) =>
        t.push({ name: 'a', ph: 'B', pid: 1, tid: 8, ts: 3 }, { ph: 'E', pid: 1, tid: 8, ts: 2 }),
      'balance',
    ],
    [
      'a b never closed',
      (t) => t.push({ name: 'd', ph: 'b', cat: 'dma', id: 9, pid: 1, ts: 1 }),
      'balance',
    ],
    [
      'an e with no b',
      (t) => t.push({ name: 'd', ph: 'e', cat: 'dma', id: 9, pid: 1, ts: 1 }),
      'balance',
    ],
    [
      'an e of another id',
      (t) =>
        t.push(
          { name: 'd', ph: 'b', cat: 'dma', id: 9, pid: 1, ts: 1 },
          { name: 'd', ph: 'e', cat: 'dma', id: 10, pid: 1, ts: 2 },
        ),
      'balance',
    ],
    [
      'an async event without an id',
      (t) => t.push({ name: 'd', ph: 'n', cat: 'dma', pid: 1, ts: 1 }),
      'async',
    ],
    [
      'a flow without an id',
      (t) => t.push({ name: 'c', ph: 's', cat: 'flow', pid: 1, tid: 2, ts: 1 }),
      'flow',
    ],
    [
      'a flow end without a start',
      (t) =>
        t.push({ name: 'cause', ph: 'f', bp: 'e', cat: 'flow', id: 99, pid: 1, tid: 2, ts: 1 }),
      'flow',
    ],
    [
      'a flow start without an end',
      (t) => t.push({ name: 'cause', ph: 's', cat: 'flow', id: 99, pid: 1, tid: 2, ts: 1 }),
      'flow',
    ],
    [
      'a flow starting twice',
      (t) => t.push({ name: 'cause', ph: 's', cat: 'flow', id: 1, pid: 1, tid: 2, ts: 1 }),
      'flow',
    ],
    [
      'a flow starting where there is no slice',
      (t) =>
        t.push(
          { name: 'cause', ph: 's', cat: 'flow', id: 50, pid: 1, tid: 2, ts: 0.2 },
          { name: 'cause', ph: 'f', bp: 'e', cat: 'flow', id: 50, pid: 1, tid: 2, ts: 2 },
        ),
      'flow',
    ],
    [
      'a flow ending where there is no slice',
      (t) =>
        t.push(
          { name: 'cause', ph: 's', cat: 'flow', id: 50, pid: 1, tid: 2, ts: 1 },
          { name: 'cause', ph: 'f', bp: 'e', cat: 'flow', id: 50, pid: 1, tid: 77, ts: 2 },
        ),
      'flow',
    ],
    [
      'a flow going back in time',
      (t) =>
        t.push(
          { name: 'cause', ph: 's', cat: 'flow', id: 50, pid: 1, tid: 2, ts: 3 },
          { name: 'cause', ph: 'f', bp: 'e', cat: 'flow', id: 50, pid: 1, tid: 2, ts: 1 },
        ),
      'flow',
    ],
    [
      'a bad binding point',
      (t) => t.push({ name: 'cause', ph: 'f', bp: 'x', cat: 'flow', id: 1, pid: 1, tid: 2, ts: 2 }),
      'flow',
    ],
    [
      'a flow_in that never flowed out',
      (t) =>
        t.push({ name: 'z', ph: 'X', pid: 1, tid: 7, ts: 3, dur: 1, bind_id: 5, flow_in: true }),
      'flow',
    ],
    [
      'a bind_id without a direction',
      (t) => t.push({ name: 'z', ph: 'X', pid: 1, tid: 7, ts: 3, dur: 1, bind_id: 5 }),
      'flow',
    ],
    [
      'a bind_id on an instant',
      (t) => t.push({ name: 'z', ph: 'i', pid: 1, tid: 7, ts: 3, bind_id: 5, flow_out: true }),
      'flow',
    ],
    [
      'a counter with a text value',
      (t) => t.push({ name: 'q', ph: 'C', pid: 1, ts: 1, args: { depth: 'three' } }),
      'counter',
    ],
    [
      'a counter with no values',
      (t) => t.push({ name: 'q', ph: 'C', pid: 1, ts: 1, args: {} }),
      'counter',
    ],
    [
      'a counter that is infinite',
      (t) => t.push({ name: 'q', ph: 'C', pid: 1, ts: 1, args: { v: Infinity } }),
      'counter',
    ],
    [
      'unknown metadata',
      (t) => t.push({ name: 'thread_colour', ph: 'M', pid: 1, tid: 2, args: {} }),
      'metadata',
    ],
    [
      'a thread name without a name',
      (t) => t.push({ name: 'thread_name', ph: 'M', pid: 1, tid: 2, args: {} }),
      'metadata',
    ],
    [
      'a sort index that is text',
      (t) =>
        t.push({ name: 'thread_sort_index', ph: 'M', pid: 1, tid: 2, args: { sort_index: 'a' } }),
      'metadata',
    ],
    [
      'a thread name without a tid',
      (t) => t.push({ name: 'thread_name', ph: 'M', pid: 1, args: { name: 'x' } }),
      'tid',
    ],
  ];
  for (const [what, add, rule] of defects) {
    it(`catches ${what}`, () => {
      const t = good.map((e) => ({ ...e }));
      add(t);
      const v = rules(t);
      expect(v.length, JSON.stringify(v)).toBeGreaterThan(0);
      expect(v.map((x) => x.rule)).toContain(rule);
    });
  }

  it('catches a document that is not a trace, and a bad display unit', () => {
    expect(rules({ events: [] })[0]!.rule).toBe('document');
    expect(rules({ traceEvents: [], displayTimeUnit: 'us' })[0]!.rule).toBe('document');
    expect(rules([7])[0]!.rule).toBe('event');
  });
});
