import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { FOUR_SLOTS, US } from './cacheGrid.example';
import {
  CacheReplay,
  FLASH,
  cacheGridIndex,
  countsUpTo,
  fileColor,
  gridLayout,
  requestNow,
} from './cacheGrid';
import { Store, StoreContext, doneState } from '../run/store';
import {
  CacheLegend,
  CacheView,
  CountsBox,
  FLASH_COLORS,
  RequestBox,
  SLOT_EMPTY,
  paintFlashes,
  paintSlots,
  setupWords,
  type Paint2D,
} from './CacheView';
import { lightHex } from '../kit/palette';

const trace = decodeTrace(encodeTrace(FOUR_SLOTS));
const ix = cacheGridIndex(trace, { nics: 1, slots: 4, blockBytes: 4096 });

/** Records what a painter does. */
function fakeCtx() {
  const calls: string[] = [];
  const ctx: Paint2D = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    fillRect: (x, y, w, h) => calls.push(`fill ${String(ctx.fillStyle)} ${x},${y} ${w}x${h}`),
    strokeRect: (x, y, w, h) => calls.push(`stroke ${String(ctx.strokeStyle)} ${x},${y} ${w}x${h}`),
    clearRect: () => calls.push('clear'),
  };
  return { ctx, calls };
}

describe('the canvas painters', () => {
  const l = gridLayout(4, 400);

  it('paints every slot in its file’s colour, empty slots grey', () => {
    const r = new CacheReplay(ix).seek(1 * US);
    const { ctx, calls } = fakeCtx();
    expect(paintSlots(ctx, l, r, 0, 'all')).toBe(4);
    expect(calls[0]).toBe('clear');
    expect(calls.slice(1).map((c) => c.split(' ')[1])).toEqual([
      fileColor(7).split(' ')[0],
      fileColor(7).split(' ')[0],
      fileColor(7).split(' ')[0],
      fileColor(9).split(' ')[0],
    ]);
    const empty = new CacheReplay(ix);
    const e = fakeCtx();
    paintSlots(e.ctx, l, empty, 0, 'all');
    expect(e.calls[1]).toContain(lightHex(SLOT_EMPTY));
  });

  it('repaints only the slots the replay changed', () => {
    const r = new CacheReplay(ix).seek(1 * US);
    r.takeDirty();
    r.seek(3 * US);
    const { ctx, calls } = fakeCtx();
    expect(paintSlots(ctx, l, r, 0, r.takeDirty())).toBe(2);
    expect(calls).toHaveLength(2);
    expect(calls.every((c) => c.includes(fileColor(5)))).toBe(true);
  });

  it('outlines an evicted and refilled slot red around blue, a hit green', () => {
    const { ctx, calls } = fakeCtx();
    paintFlashes(ctx, l, requestNow(ix, 3)!.flashes);
    expect(calls[0]).toBe('clear');
    const strokes = calls.slice(1).map((c) => c.split(' ')[1]);
    expect(strokes).toEqual([
      FLASH_COLORS.evict,
      FLASH_COLORS.insert,
      FLASH_COLORS.evict,
      FLASH_COLORS.insert,
    ]);
    const h = fakeCtx();
    paintFlashes(h.ctx, l, [{ nic: 0, slot: 2, bits: FLASH.hit }]);
    expect(h.calls[1]).toContain(FLASH_COLORS.hit);
  });

  it('rings tiny cells from outside so a 2 px slot still shows its mark', () => {
    const tiny = gridLayout(32768, 430, 440);
    const { ctx, calls } = fakeCtx();
    paintFlashes(ctx, tiny, [{ nic: 0, slot: 0, bits: FLASH.insert }]);
    const [, , , size] = calls[1]!.split(' ');
    expect(Number(size!.split('x')[0])).toBeGreaterThanOrEqual(tiny.cell + 4);
  });
});

describe('the boxes beside the grid (server-rendered)', () => {
  it('describes the current request', () => {
    const html = renderToStaticMarkup(
      <RequestBox now={requestNow(ix, 2)} nics={1} firstRequest={0} />,
    );
    expect(html).toContain('Request 2');
    expect(html).toContain('file <b>7</b>, 10,000 bytes = 3 blocks');
    expect(html).toContain('3 found in the cache: 10 KB need not cross the bus');
    expect(html).toContain('0 evicted to make room');
    expect(renderToStaticMarkup(<RequestBox now={null} nics={1} firstRequest={0} />)).toContain(
      'before the first request of the trace window (request 0)',
    );
  });

  it('counts up to the cursor beside the whole run', () => {
    const html = renderToStaticMarkup(
      <CountsBox
        counts={countsUpTo(ix, 3)}
        runReduction={0.393}
        runRequests={300000}
        warmup={0}
        window="0–3"
      />,
    );
    expect(html).toContain('data-testid="cache-count-requests">4<');
    expect(html).toContain('32.3 KB');
    expect(html).toContain('content-traffic reduction <b>31.0%</b>');
    expect(html).toContain('The whole run: <b>39.3%</b> over 300,000 requests');
    expect(html).toContain('The trace window holds requests 0–3.');
  });

  it('has a legend of the states and outlines', () => {
    const html = renderToStaticMarkup(<CacheLegend unknown sample={[1, 2]} />);
    for (const w of ['empty slot', 'not known yet', 'one colour per file', 'inserted', 'evicted'])
      expect(html).toContain(w);
  });

  it('names the cache', () => {
    expect(
      setupWords(
        {
          web: true,
          trace: 'worldcup',
          nics: 2,
          kbytes: 16384,
          blockBytes: 512,
          replacement: 'lru',
          slots: 32768,
          warmup: 0,
        },
        32768,
      ),
    ).toBe(
      'LRU, 512 B blocks, 16 MiB = 32,768 slots on each of 2 NICs (the requests split evenly); World Cup trace',
    );
  });
});

describe('CacheView (server-rendered)', () => {
  const output = (parameters: RunOutput['parameters']): RunOutput => ({
    format: 'nicsim-results/1',
    system: fixtureSystem(),
    scenario: 't',
    seed: 1,
    parameters,
    results: {
      cache_slots: { value: 4, unit: 'blocks' },
      content_traffic_reduction: { value: 0.31, unit: 'fraction' },
      web_requests: { value: 4, unit: 'requests' },
    },
    series: [],
    histograms: [],
    sweep: [],
    sweep_spec: null,
    checks: [],
    trace: { records: trace.length, dropped: 0, start_ps: 0, end_ps: 3 * US },
  });
  const web = {
    system: { nics: 1, nic_cache: { kbytes: 16, block_bytes: 4096, replacement: 'lru' } },
    workload: { kind: 'web', web_mode: 'cache-only', trace: 'nasa' },
  };
  const render = (store: Store) =>
    renderToStaticMarkup(
      <StoreContext.Provider value={store}>
        <CacheView />
      </StoreContext.Provider>,
    );

  it('shows the grid, the request at the cursor and the counts', () => {
    const store = new Store();
    store.setRun(doneState(output(web), trace));
    store.setCursor(2 * US);
    const html = render(store);
    expect(html).toContain('data-testid="cache-view" data-request="2"');
    expect(html).toContain('LRU, 4 KiB blocks, 16 KiB = 4 slots; NASA trace.');
    expect(html).toContain('data-testid="cache-canvas"');
    expect(html).toContain('4 of 4 slots hold blocks of 2 files');
    expect(html).toContain('request 2 of 0–3');
    expect(html).toContain('Request 2');
  });

  it('says so when the run has no cache or is not the web workload', () => {
    const none = new Store();
    none.setRun(
      doneState(output({ ...web, system: { nics: 1, nic_cache: { kbytes: 0 } } }), trace),
    );
    expect(render(none)).toContain('This run has no NIC data cache');
    const udp = new Store();
    udp.setRun(doneState(output({ workload: { kind: 'udp' } }), trace));
    expect(render(udp)).toContain('not a web server&#x27;s trace');
    expect(render(new Store())).toContain('appears when the simulation has run');
  });
});
