import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace } from '../trace/trace';
import type { RunOutput } from '../engine/types';
import { NASA_16MB as CACHED, NASA_NONE as NONE } from './bottleneck.example';
import { ONE_REQUEST, US } from './requestPath.example';
import { crossedUpTo, requestPathIndex } from './requestPath';
import { Store, StoreContext, doneState } from '../run/store';
import { BusBytes, RequestDiagram, RequestPathView } from './RequestPathView';
import { BottleneckView } from './BottleneckView';
import { SweepPickContext } from '../charts/SweepPointPicker';

const trace = decodeTrace(encodeTrace(ONE_REQUEST));
const r7 = requestPathIndex(trace).byRequest.get(7)!;

function output(kb: number): RunOutput {
  return {
    format: 'nicsim-results/1',
    system: fixtureSystem(),
    scenario: 't',
    seed: 1,
    parameters: {
      system: {
        nics: 2,
        bus: { width_bits: 64, clock_mhz: 33 },
        nic: { send_bd_bytes: 16 },
        nic_cache: { kbytes: kb },
        server: { send_api: 'sendfile' },
      },
      workload: { kind: 'web', web_mode: 'full-system', trace: 'nasa' },
    },
    results: kb > 0 ? CACHED : NONE,
    series: [],
    histograms: [],
    sweep: [
      { value: 0, results: NONE },
      { value: 16384, results: CACHED },
    ],
    sweep_spec: { parameter: 'system.nic_cache.kbytes', series_parameter: null },
    checks: [],
    trace: { records: trace.length, dropped: 0, start_ps: 0, end_ps: 130 * US },
  };
}

function render(node: React.ReactNode, kb = 16384, cursor = 0): string {
  const store = new Store();
  store.setRun(doneState(output(kb), trace));
  store.setCursor(cursor);
  return renderToStaticMarkup(
    <StoreContext.Provider value={store}>
      <SweepPickContext.Provider
        value={{ requested: {}, base: new Map(), running: false, run: () => {} }}
      >
        {node}
      </SweepPickContext.Provider>
    </StoreContext.Provider>,
  );
}

describe('the request-path view (server-rendered)', () => {
  it('follows the request at the cursor with its steps and the figure it draws', () => {
    const html = render(<RequestPathView />, 16384, 50 * US);
    expect(html).toContain('data-testid="request-view" data-request="7"');
    expect(html).toContain('Figure 4.2: with a 16 MiB NIC cache');
    expect(html).toContain('<b>Request 7</b> · file 42 · 2,000 B · NIC 1 · 2 segments');
    expect(html).toContain('1 of 3 in the trace window, the oldest in flight at the cursor');
    // The lookup is the current step; the ones before it are done.
    expect(html).toMatch(/data-step="serve" data-state="active" aria-current="step"/);
    expect(html).toContain('data-step="in" data-state="done"');
    expect(html).toContain('data-step="dma" data-state="pending"');
    expect(html).toContain('Figure 4.2, step 3: ');
    // The sweep's points, the shown one pressed.
    expect(html).toMatch(/aria-pressed="true"[^>]*data-value="16384"/);
    expect(html).toContain('no cache');
  });

  it('names Figure 4.1 without a cache and says when nothing is traced', () => {
    expect(render(<RequestPathView />, 0)).toContain('Figure 4.1: no NIC cache');
    const store = new Store();
    const out = output(0);
    out.parameters = { workload: { kind: 'udp' } };
    store.setRun(doneState(out, decodeTrace(encodeTrace([]))));
    const html = renderToStaticMarkup(
      <StoreContext.Provider value={store}>
        <RequestPathView />
      </StoreContext.Provider>,
    );
    expect(html).toContain('data-testid="request-empty"');
  });

  it('lights the bus, the DMA engine and the cache while a block goes into the cache', () => {
    const html = renderToStaticMarkup(
      <RequestDiagram
        path={r7}
        t={106.5 * US}
        facts={{ cacheKb: 16384, busLabel: 'PCI bus', busOther: false }}
      />,
    );
    expect(html).toContain('data-part="nicCache" data-lit="on"');
    expect(html).toContain('data-part="dma" data-lit="on"');
    expect(html).toContain('data-part="disk" data-lit="off"');
    expect(html).toContain('data-testid="request-bus" data-busy="request"');
    expect(html).toContain('data-cargo="insert"');
    expect(html).toContain('NIC cache · 16 MiB');
    expect(html).toMatch(/class="rp-fig on" data-fig="4"/);
  });

  it('counts the bytes over the bus so far', () => {
    const html = renderToStaticMarkup(
      <BusBytes path={r7} crossed={crossedUpTo(r7, 105 * US)} bdBytes={16} />,
    );
    expect(html).toContain('404 B of 1,196 B');
    expect(html).toContain('1,208 B');
    expect(html).toContain('cache references (2 × 16 B descriptors)');
  });
});

describe('the bottleneck panel (server-rendered)', () => {
  it('names the bus without a cache, with the three busy fractions', () => {
    const html = render(<BottleneckView />, 0);
    expect(html).toContain('data-testid="bottleneck-name">PCI bus<');
    expect(html).toContain('data-testid="bottleneck-bus" data-utilization="0.9640"');
    expect(html).toContain('aria-describedby="bn-description"');
    expect(html).toContain('The thesis measured NASA as PCI-bound');
    expect(html).toMatchSnapshot();
  });

  it('names the CPU with the cache, and marks the point shown in the sweep table', () => {
    const html = render(<BottleneckView />, 16384);
    expect(html).toContain('data-testid="bottleneck-name">Host CPU<');
    expect(html).toMatch(/<tr class="shown" aria-current="true"><th scope="row">16 MiB/);
  });
});
