import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTrace, encodeTrace } from '../trace/trace';
import { loadNodeCore } from '../engine/nodeCore';
import { K } from '../trace/traceKinds';
import { ONE_REQUEST, US } from './requestPath.example';
import {
  busBytesLayout,
  bytesLabel,
  crossedUpTo,
  currentSteps,
  figureStepText,
  litParts,
  neighbour,
  requestAt,
  requestPathIndex,
  stepState,
  timelineLayout,
  transfersAt,
} from './requestPath';

const ix = requestPathIndex(decodeTrace(encodeTrace(ONE_REQUEST)));
const r7 = ix.byRequest.get(7)!;

describe('one request from its records', () => {
  it('finds the three requests in the order of their first record', () => {
    expect(ix.requests.map((r) => r.request)).toEqual([7, 8, 9]);
    expect(ix.cacheUsed).toBe(true);
    expect(r7).toMatchObject({
      nic: 0,
      file: 42,
      fileBytes: 2000,
      connection: 3,
      fileCacheHit: true,
      api: 'sendfile',
      packets: 2,
      asked: true,
      complete: true,
    });
    expect(ix.byRequest.get(8)).toMatchObject({ asked: false, complete: false, file: 43 });
    expect(ix.byRequest.get(9)).toMatchObject({ asked: true, complete: false });
  });

  it('gives the steps of Fig 4.2 in order, with the waits between them', () => {
    expect(r7.steps.map((s) => [s.id, s.fig, s.start / US, s.end / US, s.wait])).toEqual([
      ['in', 1, 0, 3, false],
      ['toMemory', 1, 3, 4, false],
      ['interrupt', 2, 4, 20, false],
      ['queued', 2, 20, 30, true],
      ['serve', 3, 30, 70, false],
      ['toTcp', 3, 70, 70, false],
      ['waitNic', 3, 70, 100, true],
      ['post', 3, 100, 100, false],
      ['waitRing', 3, 100, 101, true],
      ['fetch', 4, 101, 102, false],
      ['dma', 4, 102, 108, false],
      ['append', 5, 102.1, 102.4, false],
      ['wire', 5, 106, 126, false],
      ['done', 5, 126, 126, false],
    ]);
    const dma = r7.steps.find((s) => s.id === 'dma')!;
    expect(dma.title).toBe('Headers cross the bus; uncached blocks go into the NIC cache');
    expect(dma.detail).toBe('1,164 B: headers 372 B, cache_insert 792 B');
    expect(r7.steps.find((s) => s.id === 'post')!.detail).toBe(
      '2 × append_mm, 2 × append_cache, 1 × cache_insert for 2 segments',
    );
  });

  it('adds up what the descriptors asked for', () => {
    expect(r7.bytes).toEqual({
      segments: 2,
      headers: 372,
      content: 2000,
      contentFromMemory: 0,
      inserted: 792,
      appendedFromCache: 2000,
      descriptors: [2, 2, 1],
    });
  });

  it('pairs each DMA read with its descriptor by command and bytes, not by order (Fig 4.12)', () => {
    expect(r7.dmas.map((d) => [d.packet, d.cargo, d.bytes])).toEqual([
      [200, 'headers', 306],
      [201, 'headers', 66],
      [201, 'insert', 792],
    ]);
    // A bus transfer carries what the DMA its cause names carries.
    expect(r7.bus.map((b) => b.cargo)).toEqual(['request', 'headers', 'headers', 'insert']);
    // Queued in the other order, each DMA still finds its own descriptor.
    const swapped = ONE_REQUEST.map((rec) =>
      rec.kind === K.DmaQueued && rec.a === 4
        ? { ...rec, time: 102.3 * US }
        : rec.kind === K.DmaQueued && rec.a === 5
          ? { ...rec, time: 102.2 * US }
          : rec,
    ).sort((x, y) => x.time - y.time);
    const r = requestPathIndex(decodeTrace(encodeTrace(swapped))).byRequest.get(7)!;
    expect(r.dmas.map((d) => [d.cargo, d.bytes])).toEqual([
      ['headers', 306],
      ['insert', 792],
      ['headers', 66],
    ]);
    expect(r.bus.map((b) => b.cargo)).toEqual(['request', 'headers', 'headers', 'insert']);
    // Without causes a burst is content: nothing names its DMA.
    const none = ONE_REQUEST.map((rec) => ({ ...rec, cause: 0 }));
    const n = requestPathIndex(decodeTrace(encodeTrace(none))).byRequest.get(7)!;
    expect(n.bus.map((b) => b.cargo)).toEqual(['request', 'content', 'content', 'content']);
  });

  it('counts the bytes over the bus up to the cursor', () => {
    expect(crossedUpTo(r7, 103 * US)).toEqual({
      headers: 0,
      content: 0,
      inserted: 0,
      references: 2,
      fromCache: 2000,
      framesSent: 0,
    });
    expect(crossedUpTo(r7, 105 * US)).toMatchObject({ headers: 372, inserted: 0 });
    expect(crossedUpTo(r7, 200 * US)).toMatchObject({ headers: 372, inserted: 792, framesSent: 2 });
  });

  it('finds the transfers under way with their progress', () => {
    const on = transfersAt(r7.bus, 106.5 * US);
    expect(on).toHaveLength(1);
    expect(on[0]!.cargo).toBe('insert');
    expect(on[0]!.progress).toBeCloseTo(0.5);
    expect(transfersAt(r7.frames, 1.5 * US)[0]).toMatchObject({ cargo: 'request', progress: 0.5 });
  });
});

describe('at the cursor', () => {
  it('marks steps done, active and pending', () => {
    const serve = r7.steps.find((s) => s.id === 'serve')!;
    expect(stepState(serve, 10 * US)).toBe('pending');
    expect(stepState(serve, 50 * US)).toBe('active');
    expect(stepState(serve, 80 * US)).toBe('done');
    expect(currentSteps(r7, 50 * US)).toEqual(['serve']);
    // Overlapping steps are all current: the bus, the cache append, the wire.
    expect(currentSteps(r7, 107 * US)).toEqual(['dma', 'wire']);
    // Between an instant and the next step the request rests at the instant.
    expect(currentSteps(r7, -1)).toEqual([]);
  });

  it('lights the parts of the current steps, a wait in its own tone', () => {
    const atDma = litParts(r7, 106.5 * US);
    for (const p of ['bus', 'dma', 'memHeaders', 'memFile', 'nicCache', 'insertPath'] as const)
      expect(atDma.get(p)).toBe('on');
    expect(atDma.has('disk')).toBe(false);
    expect(litParts(r7, 25 * US).get('http')).toBe('wait');
  });

  it('follows the oldest request asked in the window, else the next one', () => {
    expect(requestAt(ix, 50 * US)!.request).toBe(7);
    // Request 8 began before the window: it is followed only when nothing else is.
    expect(requestAt(ix, 127 * US)!.request).toBe(9);
    expect(requestAt(ix, -5 * US)!.request).toBe(7);
    expect(neighbour(ix, r7, 1)!.request).toBe(8);
    expect(neighbour(ix, r7, -1)).toBeNull();
  });
});

describe('layouts', () => {
  it('lays the steps on a timeline from the first to the last', () => {
    const l = timelineLayout(r7, 126);
    expect(l.from).toBe(0);
    expect(l.to).toBe(126 * US);
    const serve = l.bars.find((b) => b.id === 'serve')!;
    expect(serve.x).toBeCloseTo(30);
    expect(serve.w).toBeCloseTo(40);
    // An instant keeps a visible width, and the last one stays inside.
    const done = l.bars.find((b) => b.id === 'done')!;
    expect(done).toMatchObject({ instant: true, w: 2 });
    expect(done.x + done.w).toBeLessThanOrEqual(126);
  });

  it('splits the bus bytes: headers, inserts and references against the whole file', () => {
    const l = busBytesLayout(r7, crossedUpTo(r7, 105 * US), 16, 600);
    expect(l.segments.map((s) => s.key)).toEqual(['headers', 'insert', 'refs']);
    expect(l.scale).toBe(372 + 2000 + 32);
    expect(l.total).toBe(372 + 792 + 32);
    expect(l.soFar).toBe(372 + 32);
    const [h, ins] = l.segments;
    expect(h!.wSoFar).toBeCloseTo(h!.w);
    expect(ins!.x).toBeCloseTo(h!.w);
    expect(ins!.wSoFar).toBe(0);
  });

  it('words bytes and the figures’ steps', () => {
    expect(bytesLabel(322)).toBe('322 B');
    expect(bytesLabel(18400)).toBe('18.4 KB');
    expect(figureStepText(4, false)).toContain('HTTP content into its buffers');
    expect(figureStepText(4, true)).toContain('only the headers and the cache location');
    expect(figureStepText(5, true)).toContain('appends it to the headers');
  });
});

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);

describe.skipIf(!built)('the preset "Anatomy of a web request" in the real engine', async () => {
  const core = built ? await loadNodeCore() : null;
  const text = readFileSync(
    fileURLToPath(new URL('../../scenarios/web-anatomy-of-a-request.json', import.meta.url)),
    'utf8',
  );
  const run = (kb: number) => {
    core!.run(text, JSON.stringify({ 'system.nic_cache.kbytes': kb }));
    return requestPathIndex(decodeTrace(core!.traceBytes()));
  };

  it.each([0, 16384])('follows whole requests from ask to last frame (%i KB)', (kb) => {
    const px = run(kb);
    const whole = px.requests.filter((q) => q.complete);
    expect(whole.length).toBeGreaterThanOrEqual(5);
    expect(px.cacheUsed).toBe(kb > 0);
    for (const q of whole) {
      expect(q.steps[0]!.id).toBe('in');
      expect(q.steps[q.steps.length - 1]!.id).toBe('done');
      expect(q.bytes.content).toBe(q.fileBytes);
      const all = crossedUpTo(q, Infinity);
      expect(all.headers).toBe(q.bytes.headers);
      expect(all.content).toBe(q.bytes.contentFromMemory);
      expect(all.inserted).toBe(q.bytes.inserted);
      expect(all.framesSent).toBe(q.packets);
      if (kb === 0) expect(q.bytes.appendedFromCache).toBe(0);
      else {
        expect(q.bytes.contentFromMemory).toBe(0);
        expect(all.fromCache).toBe(q.bytes.appendedFromCache);
      }
    }
  });
});
