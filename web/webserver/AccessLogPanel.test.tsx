import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { coreSink, readAccessLog, type BlobLike, type ParsedLog } from './accessLog';
import { PANEL_LOG, PANEL_LOG_TEXT, BINARY_LOG } from './accessLog.fixture';
import { loadNodeCore } from '../engine/nodeCore';
import type { Scenario } from '../scenarios/types';
import { Store, StoreContext, type LoadedLog } from '../run/store';
import {
  AccessLogPanel,
  LogReport,
  engineLog,
  isLogPage,
  logFacts,
  needsAccessLog,
  openAccessLog,
  withTrace,
  type LogFile,
} from './AccessLogPanel';

// The core's report of PANEL_LOG_TEXT (accessLog.test.ts checks the core gives exactly this).
const TEXT = PANEL_LOG_TEXT;
const GOOD = PANEL_LOG;

function file(name: string, text = TEXT): LogFile {
  const bytes = new TextEncoder().encode(text);
  return {
    name,
    size: bytes.length,
    slice: (a: number, b: number) => ({
      arrayBuffer: async () => bytes.slice(a, b).buffer as ArrayBuffer,
    }),
  };
}

const built = existsSync(
  fileURLToPath(new URL('../engine/wasm/nicsim_core.wasm', import.meta.url)),
);
/** The core's parser in this thread (the app runs it in an engine worker). */
const coreParse = async () => {
  const sink = coreSink(await loadNodeCore());
  return (f: BlobLike, progress?: (f: number) => void, signal?: AbortSignal) =>
    readAccessLog(f, sink, progress, signal);
};

/** A parse the test finishes by hand, with the progress and signal it was given. */
function manualParse() {
  const calls: Array<{
    progress?: (f: number) => void;
    signal?: AbortSignal;
    finish: (p: ParsedLog) => void;
    fail: (e: Error) => void;
  }> = [];
  const parse = (_f: BlobLike, progress?: (f: number) => void, signal?: AbortSignal) =>
    new Promise<ParsedLog>((finish, fail) => calls.push({ progress, signal, finish, fail }));
  return { parse, calls };
}

const scenario = (trace: string, extra: Partial<Scenario> = {}): Scenario => ({
  id: 'web-access-log',
  title: 't',
  summary: '',
  workload: { kind: 'web', trace },
  ...extra,
});

describe('openAccessLog: reading a log into the store', () => {
  it('shows the progress, then keeps the log and runs with it', async () => {
    const store = new Store();
    const { parse, calls } = manualParse();
    const loaded: LoadedLog[] = [];
    const op = openAccessLog(store, file('access.log'), { parse, onLoaded: (l) => loaded.push(l) });
    expect(store.getState().log.attempt).toMatchObject({ status: 'reading', fraction: 0 });
    calls[0]!.progress!(0.4);
    expect(store.getState().log.attempt).toMatchObject({ status: 'reading', fraction: 0.4 });
    calls[0]!.finish(GOOD);
    await op.done;
    expect(store.getState().log.current).toMatchObject({ name: 'access.log', parsed: GOOD });
    expect(store.getState().log.attempt).toEqual({ status: 'loaded', name: 'access.log' });
    expect(loaded.map((l) => l.name)).toEqual(['access.log']);
  });

  it.skipIf(!built)("parses a real file with the core's parser", async () => {
    const store = new Store();
    await openAccessLog(store, file('real.log'), { parse: await coreParse() }).done;
    const log = store.getState().log.current!;
    expect(log.parsed.accepted).toBe(3);
    expect(log.parsed.rejected).toMatchObject({ malformed: 1, 'not-get': 1, 'not-2xx': 1 });
  });

  it.skipIf(!built)(
    'refuses an empty, binary or useless file and keeps the previous log',
    async () => {
      const store = new Store();
      const parse = await coreParse();
      await openAccessLog(store, file('good.log'), { parse }).done;
      const good = store.getState().log.current;
      expect(good?.parsed.accepted).toBe(3);
      for (const [name, text] of [
        ['empty.log', ''],
        ['binary.bin', '\u0000\u0001\u0002\u0003'.repeat(200)],
        ['junk.txt', 'hello\nworld\n'],
      ] as const) {
        let ran = false;
        await openAccessLog(store, file(name, text), { parse, onLoaded: () => (ran = true) }).done;
        const a = store.getState().log.attempt;
        expect(a.status, name).toBe('refused');
        expect(ran).toBe(false);
        expect(store.getState().log.current).toBe(good);
      }
    },
  );

  it('cancels: the signal aborts, the late result is dropped, the log in use stays', async () => {
    const store = new Store();
    const { parse, calls } = manualParse();
    let ran = false;
    const op = openAccessLog(store, file('big.log'), { parse, onLoaded: () => (ran = true) });
    op.cancel();
    expect(calls[0]!.signal!.aborted).toBe(true);
    expect(store.getState().log.attempt).toEqual({ status: 'cancelled', name: 'big.log' });
    calls[0]!.progress!(0.9);
    calls[0]!.finish(GOOD);
    await op.done;
    expect(store.getState().log.attempt.status).toBe('cancelled');
    expect(store.getState().log.current).toBeNull();
    expect(ran).toBe(false);
  });

  it('reports a read error without throwing', async () => {
    const store = new Store();
    const { parse, calls } = manualParse();
    const op = openAccessLog(store, file('x.log'), { parse });
    calls[0]!.fail(new Error('NotReadableError'));
    await op.done;
    expect(store.getState().log.attempt).toEqual({
      status: 'failed',
      name: 'x.log',
      message: 'NotReadableError',
    });
  });
});

describe('which runs use the log', () => {
  it('needs a log when the trace asked for is "log"', () => {
    expect(needsAccessLog(scenario('log'), {})).toBe(true);
    expect(needsAccessLog(scenario('log'), { 'workload.trace': 'nasa' })).toBe(false);
    expect(needsAccessLog(scenario('nasa'), { 'workload.trace': 'log' })).toBe(true);
  });

  it('offers the log on a page whose scenario, run or sweep replays one', () => {
    expect(isLogPage(scenario('log'), { 'workload.trace': 'nasa' })).toBe(true);
    expect(isLogPage(scenario('nasa'), {})).toBe(false);
    expect(
      isLogPage(
        scenario('nasa', {
          sweep: {
            parameter: 'system.nic_cache.kbytes',
            values: [64],
            series: { parameter: 'workload.trace', values: ['nasa', 'log'] },
          },
        }),
        {},
      ),
    ).toBe(true);
  });

  it('switches the trace with an override, dropped when the scenario says so itself', () => {
    const s = scenario('log');
    const o = withTrace({ 'system.nics': 2 }, s, 'rice');
    expect(o).toEqual({ 'system.nics': 2, 'workload.trace': 'rice' });
    expect(withTrace(o, s, 'log')).toEqual({ 'system.nics': 2 });
  });

  it('hands the engine the requests as they were parsed', () => {
    const log: LoadedLog = { name: 'a', size: 1, parsed: GOOD };
    const e = engineLog(log)!;
    expect([...e.files]).toEqual([0, 1, 0]);
    expect([...e.bytes]).toEqual([3000, 500, 3000]);
    expect(engineLog(null)).toBeUndefined();
  });

  it('counts a log as Table 4.1 counts a trace', () => {
    expect(logFacts(GOOD)).toEqual({
      requests: 3,
      files: 2,
      contentBytes: 6500,
      dataSetBytes: 3500,
      averageBytes: 6500 / 3,
    });
  });
});

describe('LogReport and the panel (server-rendered)', () => {
  it('lists what was taken, each reason rejected and the sample lines with their numbers', () => {
    const html = renderToStaticMarkup(<LogReport name="access.log" size={400} parsed={GOOD} />);
    expect(html).toContain('data-testid="log-report" data-accepted="3" data-lines="6"');
    expect(html).toContain('3 requests to 2 files from 6 lines; 3 rejected');
    expect(html).toMatch(/data-testid="log-rejected-malformed" data-count="1"/);
    expect(html).toMatch(/data-testid="log-rejected-not-get" data-count="1"/);
    expect(html).toMatch(/data-testid="log-rejected-not-2xx" data-count="1"/);
    expect(html).toContain('data-testid="log-sample" data-line="3"');
    expect(html).toContain('line 3</span>');
    expect(html).toContain('not a log line');
  });

  it('says why a binary file is refused', () => {
    const html = renderToStaticMarkup(
      <LogReport name="x.bin" size={300} parsed={BINARY_LOG} refused />,
    );
    expect(html).toContain('data-testid="log-refused"');
    expect(html).toContain('This is a binary file, not a text access log.');
  });

  it('prompts for a log, says the link does not carry it, offers the generated traces', () => {
    const store = new Store();
    const html = renderToStaticMarkup(
      <StoreContext.Provider value={store}>
        <AccessLogPanel scenario={scenario('log')} requested={{}} onRun={() => {}} />
      </StoreContext.Provider>,
    );
    expect(html).toContain('data-testid="log-prompt"');
    expect(html).toContain('Open an access log…');
    expect(html).toContain('does not carry the log');
    expect(html).toContain(
      '<option value="log" disabled="" selected="">your access log (open one first)',
    );
    expect(html).toContain('the NASA trace, generated from Table 4.1');
  });

  it('shows the log in use and no prompt once one is open', () => {
    const store = new Store();
    store.setAccessLog({ name: 'mine.log', size: 400, parsed: GOOD });
    const html = renderToStaticMarkup(
      <StoreContext.Provider value={store}>
        <AccessLogPanel scenario={scenario('log')} requested={{}} onRun={() => {}} />
      </StoreContext.Provider>,
    );
    expect(html).not.toContain('data-testid="log-prompt"');
    expect(html).toContain('your access log (mine.log)');
    expect(html).toContain('data-testid="log-report"');
    expect(html).toContain('Open another access log…');
    store.setAccessLog(null);
  });
});
