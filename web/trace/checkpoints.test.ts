// Checkpoints give the same state as a scan from the start: at many cursors, the spans open (and
// overlapping a window) found from a checkpoint plus a short replay equal a full scan's, on
// synthetic lists (spans still open at the end, zero-length spans, ties) and on real runs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTrace } from './trace';
import { loadNodeCore } from '../engine/nodeCore';
import type { RunOutput } from '../engine/types';
import { scenarioById } from '../scenarios/eager';
import { doneState } from '../run/store';
import { variantText } from '../compare/ab';
import { packetAtCursor, packetOf } from '../inspector/packetJourney';
import { cachedRequestPathIndex, requestAt, type RequestPath } from '../webserver/requestPath';
import { CacheReplay, cacheGridIndex, cacheSetup } from '../webserver/cacheGrid';
import {
  CHECKPOINT_SPANS,
  activeAt,
  overlapping,
  type Span,
  type SpanList,
  type TraceIndex,
} from './traceIndex';

function list(spans: Span[]): SpanList<Span> {
  spans.sort((x, y) => x.start - y.start || x.rec - y.rec);
  return { spans, starts: Float64Array.from(spans.map((s) => s.start)) };
}

const scanActive = (l: SpanList<Span>, t: number) =>
  l.spans.filter((s) => s.start <= t && (t < s.end || (s.end === s.start && t === s.start)));
const scanOverlap = (l: SpanList<Span>, lo: number, hi: number) =>
  l.spans.filter((s) => s.start <= hi && s.end > lo);

/** A deterministic pseudo-random sequence (no Math.random in tests). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

function cursors(l: SpanList<Span>, n: number): number[] {
  const last = l.spans.length ? l.starts[l.starts.length - 1]! : 0;
  const out: number[] = [-1, 0, last, last + 1];
  for (const s of l.spans.slice(0, 400)) out.push(s.start, s.end, s.start + 0.5);
  const r = lcg(7);
  for (let i = 0; i < n; i++) out.push(r() * (last + 10));
  return out.filter(Number.isFinite);
}

describe('span checkpoints', () => {
  const r = lcg(42);
  const spans: Span[] = [];
  // Many short spans, some long ones, ties, zero-length ones, and two never closed.
  for (let i = 0; i < 20 * CHECKPOINT_SPANS; i++) {
    const start = Math.floor(r() * 100_000);
    const long = r() < 0.01;
    const zero = r() < 0.05;
    spans.push({ start, end: zero ? start : start + (long ? r() * 50_000 : r() * 300), rec: i });
  }
  spans.push({ start: 10, end: Infinity, rec: 1e6 });
  spans.push({ start: 60_000, end: Infinity, rec: 1e6 + 1 });
  const l = list(spans);

  it('open spans equal a full scan at every cursor', () => {
    for (const t of cursors(l, 2000)) expect(activeAt(l, t)).toEqual(scanActive(l, t));
  });

  it('spans overlapping a window equal a full scan', () => {
    const rr = lcg(3);
    for (const t of cursors(l, 1000)) {
      const half = rr() * 5000;
      expect(overlapping(l, t - half, t + half)).toEqual(scanOverlap(l, t - half, t + half));
    }
  });

  it('handles empty and short lists', () => {
    const empty = list([]);
    expect(activeAt(empty, 5)).toEqual([]);
    const one = list([{ start: 5, end: 5, rec: 0 }]);
    expect(activeAt(one, 5)).toHaveLength(1);
    expect(activeAt(one, 6)).toHaveLength(0);
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('span checkpoints on real runs', async () => {
  const core = built ? await loadNodeCore() : null;
  const indexOf = (id: string): TraceIndex => {
    const out = JSON.parse(core!.run(scenarioById(id)!.text, '{}')) as RunOutput;
    return doneState(out, decodeTrace(core!.traceBytes())).index;
  };
  it('the NIC cache from a checkpoint equals a replay from the start, jumping about', () => {
    const overrides = {
      'system.nics': 2,
      'system.nic_cache.kbytes': 256,
      'workload.trace': 'nasa',
      'workload.trace_requests': 3000,
      'workload.warmup_requests': 0,
      'run.trace.start_us': 0,
      'run.trace.end_us': 2999,
    };
    // The main run only (the checks and the tour name sweep points).
    const text = variantText(scenarioById('web-cache-sizes')!.text);
    const o = JSON.parse(core!.run(text, JSON.stringify(overrides))) as RunOutput;
    const ix = cacheGridIndex(decodeTrace(core!.traceBytes()), cacheSetup(o.parameters, o.results));
    expect(ix.events).toBeGreaterThan(4 * 1024);
    const jumping = new CacheReplay(ix);
    const rr = lcg(11);
    const targets = [ix.events, 0, ix.events, 1, ix.events - 1];
    for (let i = 0; i < 60; i++) targets.push(Math.floor(rr() * (ix.events + 1)));
    for (const to of targets) {
      jumping.seekEvents(to);
      const scan = new CacheReplay(ix, false).seekEvents(to);
      expect(jumping.position).toBe(to);
      expect(jumping.file).toEqual(scan.file);
      expect(jumping.block).toEqual(scan.block);
      expect(jumping.used).toEqual(scan.used);
      expect(jumping.unknown).toEqual(scan.unknown);
    }
  });

  it('the request at the cursor equals a scan of every request', () => {
    const text = scenarioById('web-nasa-cache')!.text;
    core!.run(variantText(text), JSON.stringify({ 'run.trace.end_us': 12000 }));
    const rp = cachedRequestPathIndex(decodeTrace(core!.traceBytes()));
    expect(rp.requests.length).toBeGreaterThan(64);
    // requestAt as it was: the oldest asked request in flight, else the next, else the last.
    const scan = (t: number): RequestPath | null => {
      const whole = rp.requests.filter((r) => r.asked);
      const pool = whole.length ? whole : rp.requests;
      const begun = pool.filter((r) => r.start <= t);
      return begun.find((r) => r.end >= t) ?? pool[begun.length] ?? pool[pool.length - 1] ?? null;
    };
    const times = rp.requests.flatMap((r) => [r.start, r.end, r.start - 1, (r.start + r.end) / 2]);
    for (const t of times) expect(requestAt(rp, t)).toBe(scan(t));
  });

  for (const id of ['udp-throughput', 'tigon-one-packet', 'web-nasa-cache', 'sinic-anatomy']) {
    it(id, () => {
      const ix = indexOf(id);
      for (const name of [
        'bus',
        'frames',
        'cpu',
        'dma',
        'txBuffer',
        'rxBuffer',
        'stalls',
      ] as const) {
        const l = ix[name] as SpanList<Span>;
        for (const t of cursors(l, 300)) {
          expect(activeAt(l, t)).toEqual(scanActive(l, t));
          expect(overlapping(l, t - 1e6, t + 1e6)).toEqual(scanOverlap(l, t - 1e6, t + 1e6));
        }
      }
      // The packet at the cursor, as the walk back over at most 5000 records found it.
      const tr = ix.trace;
      const walk = (t: number): number | null => {
        let i = tr.length - 1;
        while (i >= 0 && tr.time[i]! > t) i--;
        for (let n = 0; i >= 0 && n < 5000; i--, n++)
          if (packetOf(tr, i) !== 0) return packetOf(tr, i);
        return null;
      };
      const step = Math.max(1, Math.floor(tr.length / 300));
      for (let i = 0; i < tr.length; i += step) {
        const t = tr.time[i]!;
        expect(packetAtCursor(tr, t)).toBe(walk(t));
        expect(packetAtCursor(tr, t - 1)).toBe(walk(t - 1));
      }
    });
  }
});
