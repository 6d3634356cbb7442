// The SINIC paper's views, server-rendered: the receive path, the registers and VNICs, and the
// CPU time by part, from hand-written trace records (model/rxPath.example.ts) and metrics.
import { describe, expect, it } from 'vitest';
import { fixtureSystem } from '../engine/fixture';
import { renderToStaticMarkup } from 'react-dom/server';
import { decodeTrace, encodeTrace } from '../trace/trace';
import type { Metrics, ParameterTree, RunOutput } from '../engine/types';
import { Store, StoreContext, doneState } from '../run/store';
import { NS, OFF_CHIP, US, ZERO_COPY } from './rxPath.example';
import { buildRxPath, rxSetup } from './rxPath';
import { cpuBreakdown, cpuLayout } from './cpuBreakdown';
import { RxDiagram, RxPathView, arrowPaths } from './RxPathView';
import { VnicsView } from './VnicsView';
import { CpuBars, CpuView } from './CpuView';

const T0 = 1000 * US;

function output(parameters: ParameterTree, extra: Partial<RunOutput> = {}): RunOutput {
  return {
    format: 'nicsim-results/1',
    system: fixtureSystem(),
    scenario: 't',
    seed: 1,
    parameters,
    results: {},
    series: [],
    histograms: [],
    sweep: [],
    sweep_spec: null,
    checks: [],
    trace: { records: 0, dropped: 0, start_ps: T0, end_ps: T0 + 100 * US },
    ...extra,
  };
}

const zcParams: ParameterTree = {
  system: {
    nic: { model: 'v-sinic' },
    link: { rate_mbps: 10000 },
    sinic: { vnics: 8, zero_copy: 'aggressive', rx_fifo_kbytes: 512 },
  },
  workload: { kind: 'tcp-stream' },
};
const offParams: ParameterTree = { system: { nic: { model: 'cnic-off-chip' } } };

function render(store: Store, node: React.ReactNode): string {
  return renderToStaticMarkup(<StoreContext.Provider value={store}>{node}</StoreContext.Provider>);
}

function storeAt(params: ParameterTree, records: typeof ZERO_COPY, t: number, extra = {}): Store {
  const store = new Store();
  store.setRun(doneState(output(params, extra), decodeTrace(encodeTrace(records))));
  store.setCursor(t);
  return store;
}

describe('RxPathView', () => {
  it('follows the packet at the cursor: the header copy, the payload left in the FIFO', () => {
    const html = render(storeAt(zcParams, ZERO_COPY, T0 + 2595 * NS), <RxPathView />);
    expect(html).toContain('data-testid="rxpath-view" data-packet="7" data-step="5"');
    expect(html).toContain('data-arrow="toKernel"');
    expect(html).toContain('data-testid="rx-token"');
    expect(html).toContain('VNIC 3');
    expect(html).toContain('12 steps from 1,000.000 µs');
    expect(html).toContain('the 64-byte header only');
    // Later: the payload goes straight to the user buffer.
    const later = render(storeAt(zcParams, ZERO_COPY, T0 + 20085 * NS), <RxPathView />);
    expect(later).toContain('data-arrow="toUser"');
    expect(later).toContain('data-testid="hold-header"');
  });

  it('shows the off-chip kernel copy’s lines from DRAM', () => {
    const html = render(storeAt(offParams, OFF_CHIP, T0 + 50500 * NS), <RxPathView />);
    expect(html).toContain('data-arrow="copy"');
    expect(html).toContain('23 lines from DRAM');
    expect(html).toContain('I/O');
    expect(html).toContain('data-testid="rx-lines"');
    expect(html).toContain('class="unit busy" data-testid="rx-dram"');
  });

  it('says so for another NIC or an empty window', () => {
    expect(
      render(storeAt({ system: { nic: { model: 'tigon' } } }, [], T0), <RxPathView />),
    ).toContain('not one of the SINIC paper');
    expect(render(storeAt(zcParams, [], T0), <RxPathView />)).toContain('holds no received packet');
    expect(render(new Store(), <RxPathView />)).toContain('appears when the simulation has run');
  });

  it('draws the diagram of each NIC (snapshot)', () => {
    const setup = rxSetup(zcParams);
    const ix = buildRxPath(decodeTrace(encodeTrace(ZERO_COPY)), setup);
    const html = renderToStaticMarkup(
      <RxDiagram
        setup={setup}
        packet={ix.packets[0]!}
        t={T0 + 10000 * NS}
        fifoBytes={15140}
        fifoCapacity={512 * 1024}
      />,
    );
    expect(html).toMatchSnapshot();
    // Off chip the kernel buffers are in DRAM: the DMA arrow ends there.
    const off = arrowPaths(rxSetup(offParams));
    const on = arrowPaths(rxSetup({ system: { nic: { model: 'cnic-on-chip' } } }));
    expect(off.toKernel.at(-1)![1]).toBeGreaterThan(on.toKernel.at(-1)![1]);
  });
});

describe('VnicsView', () => {
  it('colours the VNICs by state and shows the registers’ last values', () => {
    const html = render(storeAt(zcParams, ZERO_COPY, T0 + 10000 * NS), <VnicsView />);
    expect(html).toContain('data-vnics="8"');
    expect((html.match(/data-testid="vnic-cell"/g) ?? []).length).toBe(8);
    expect(html).toContain('data-state="3"');
    expect(html).toContain('VNIC 3: payload deferred, packet 7: 1,450 B left in the FIFO');
    expect(html).toContain('data-testid="vnic-reg-RxWait"');
    expect(html).toMatch(/vnic-bit set[^>]*>More</);
    expect(html).toContain('not yet in the window');
    expect(html).toContain('14.8 KiB of 512 KiB');
  });

  it('explains that a conventional NIC has no VNICs', () => {
    expect(render(storeAt(offParams, OFF_CHIP, T0), <VnicsView />)).toContain(
      'no SINIC registers or VNICs',
    );
  });
});

describe('CpuView', () => {
  const m = (d: number, s: number, c: number): Metrics => ({
    cpu_driver: { value: d, unit: 'fraction' },
    cpu_stack: { value: s, unit: 'fraction' },
    cpu_copy: { value: c, unit: 'fraction' },
    cpu_user: { value: 0.01, unit: 'fraction' },
    cpu_idle: { value: 1 - d - s - c - 0.01, unit: 'fraction' },
    tcp_throughput: { value: 9.4, unit: 'Gb/s' },
  });
  const sweep = {
    sweep: [
      { value: 'cnic-on-chip', results: m(0.37, 0.45, 0.04) },
      { value: 'sinic', results: m(0.19, 0.45, 0.04) },
    ],
    sweep_spec: { parameter: 'system.nic.model', series_parameter: null },
    results: m(0.19, 0.45, 0.04),
  };

  it('draws a stacked bar per NIC, the run on screen marked, with the paper’s orderings', () => {
    const store = storeAt({ system: { nic: { model: 'sinic' } } }, [], T0, {
      ...sweep,
      checks: [
        {
          id: 'x',
          source: 'seed 003 §6 (Fig 6)',
          description: 'Qualitative: SINIC’s driver share is smaller.',
          expected: 0.3,
          simulated: 0.19,
          kind: 'qualitative',
          pass: true,
          metric: 'cpu_driver',
          comparison: 'at_most',
        },
      ],
    });
    const html = render(store, <CpuView />);
    expect((html.match(/data-testid="cpu-bar"/g) ?? []).length).toBe(2);
    expect(html).toContain('data-selected="yes"');
    expect(html).toContain('CNIC on chip');
    expect(html).toContain('SINIC’s driver share is smaller.');
    expect(html).toContain('Marked: SINIC.');
  });

  it('draws the bars (snapshot)', () => {
    const b = cpuBreakdown({ ...sweep, parameters: { system: { nic: { model: 'sinic' } } } });
    expect(renderToStaticMarkup(<CpuBars layout={cpuLayout(b, 600)} />)).toMatchSnapshot();
  });

  it('says so for a run without CPU parts', () => {
    expect(render(storeAt(offParams, [], T0), <CpuView />)).toContain(
      'reports no CPU time by part',
    );
  });
});
