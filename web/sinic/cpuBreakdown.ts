// The host CPU's time by part — driver, TCP/IP stack, copy, user, idle — in the form of the
// SINIC paper's Figs 6 and 9: one stacked bar per NIC configuration (sweep point), grouped,
// from the core's cpu_* metrics. The bar of the run on screen (the sweep point whose parameters
// are the run's) is marked. Nothing is computed but the layout.
import type { Check, Metrics, ParameterTree, RunOutput } from '../engine/types';
import { paramAt } from '../engine/types';
import { paramValueLabel } from '../kit/paramLabels';

export const CPU_PARTS = ['driver', 'stack', 'copy', 'user', 'idle'] as const;
export type CpuPartKey = (typeof CPU_PARTS)[number];
export const CPU_PART_LABELS: Record<CpuPartKey, string> = {
  driver: 'driver',
  stack: 'TCP/IP stack',
  copy: 'copy',
  user: 'user',
  idle: 'idle',
};

export interface CpuBar {
  key: string;
  label: string;
  /** Fractions of the CPU's time (0..1) by CPU_PARTS. */
  parts: Record<CpuPartKey, number>;
  throughput: number | null;
  /** The run on screen (its trace is what the other views show). */
  selected: boolean;
  /** The sweep point: parameter path → value. */
  at: Record<string, unknown>;
}

export interface CpuGroup {
  key: string;
  label: string;
  bars: CpuBar[];
}

export interface CpuBreakdown {
  groups: CpuGroup[];
  /** The parameter the groups are by, and the one the bars within a group are by. */
  groupParam: string | null;
  barParam: string | null;
  /** True when no bar carries the cpu_* metrics (not a tcp-stream run). */
  empty: boolean;
}

const NICE: Record<string, Record<string, string>> = {
  'system.nic.model': {
    'cnic-off-chip': 'CNIC off chip',
    'cnic-on-chip': 'CNIC on chip',
    sinic: 'SINIC',
    'v-sinic': 'V-SINIC',
  },
  'system.sinic.zero_copy': { off: 'off', aggressive: 'aggressive', conservative: 'conservative' },
  'workload.direction': { send: 'stream (send)', receive: 'maerts (receive)' },
};

/** A parameter value as the CPU bars name it ("CNIC on chip", "maerts (receive)", "1 MB"). */
export function cpuValueLabel(path: string, v: unknown, params?: ParameterTree): string {
  const nice = NICE[path]?.[String(v)];
  return nice ?? paramValueLabel(path, v, params);
}

/** A swept parameter in words ("NIC", "zero-copy policy", "L2 cache size"). */
const PARAM_WORDS: Record<string, string> = {
  'system.nic.model': 'NIC',
  'system.sinic.zero_copy': 'zero-copy policy',
  'system.l2.kbytes': 'L2 cache size',
  'system.sinic.vnics': 'number of VNICs',
  'workload.direction': 'benchmark',
  'workload.read_delay_us': 'read() delay',
};
export function cpuParamWords(path: string): string {
  return PARAM_WORDS[path] ?? path.slice(path.lastIndexOf('.') + 1).replace(/_/g, ' ');
}

/** What the bars within a group compare: the NIC configuration, when one is swept. */
const CONFIG_PARAMS = new Set(['system.nic.model', 'system.sinic.zero_copy']);

function partsOf(m: Metrics): Record<CpuPartKey, number> | null {
  if (!m.cpu_driver) return null;
  const v = (k: string) => Math.max(0, m[k]?.value ?? 0);
  return {
    driver: v('cpu_driver'),
    stack: v('cpu_stack'),
    copy: v('cpu_copy'),
    user: v('cpu_user'),
    idle: v('cpu_idle'),
  };
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-9);
}

/**
 * The bars. Without a sweep: one bar, the run's. With one: a bar per sweep point, grouped so
 * that the NIC configurations sit side by side (by the other parameter; `swap` turns it round).
 */
export function cpuBreakdown(
  output: Pick<RunOutput, 'sweep' | 'sweep_spec' | 'results' | 'parameters'>,
  swap = false,
): CpuBreakdown {
  const params = output.parameters;
  const x = output.sweep_spec?.parameter ?? null;
  const s = output.sweep_spec?.series_parameter ?? null;
  if (!x || output.sweep.length === 0) {
    const parts = partsOf(output.results);
    const model = paramAt(params, 'system.nic.model');
    return {
      groups: parts
        ? [
            {
              key: '',
              label: '',
              bars: [
                {
                  key: 'run',
                  label: cpuValueLabel('system.nic.model', model, params),
                  parts,
                  throughput: output.results.tcp_throughput?.value ?? null,
                  selected: true,
                  at: {},
                },
              ],
            },
          ]
        : [],
      groupParam: null,
      barParam: null,
      empty: !parts,
    };
  }
  // Bars compare the NIC configurations: group by the series unless it is the configuration.
  let groupParam: string | null = s;
  let barParam: string = x;
  if (s && CONFIG_PARAMS.has(s) && !CONFIG_PARAMS.has(x)) {
    groupParam = x;
    barParam = s;
  }
  if (swap && s) [groupParam, barParam] = [barParam, groupParam!];
  const groups = new Map<string, CpuGroup>();
  let any = false;
  for (const e of output.sweep) {
    const at: Record<string, unknown> = { [x]: e.value };
    if (s) at[s] = e.series;
    const parts = partsOf(e.results);
    if (parts) any = true;
    const gv = groupParam ? at[groupParam] : '';
    const gk = String(gv);
    let g = groups.get(gk);
    if (!g)
      groups.set(
        gk,
        (g = {
          key: gk,
          label: groupParam ? cpuValueLabel(groupParam, gv, params) : '',
          bars: [],
        }),
      );
    g.bars.push({
      key: `${gk}|${String(at[barParam])}`,
      label: cpuValueLabel(barParam, at[barParam], params),
      parts: parts ?? { driver: 0, stack: 0, copy: 0, user: 0, idle: 0 },
      throughput: e.results.tcp_throughput?.value ?? null,
      selected: Object.entries(at).every(([k, v]) => same(paramAt(params, k), v)),
      at,
    });
  }
  return { groups: [...groups.values()], groupParam, barParam, empty: !any };
}

/** The reference checks about the CPU's time (cpu_* metrics): the paper's orderings. */
export function cpuChecks(checks: readonly Check[]): Check[] {
  return checks.filter(
    (c) => c.metric?.startsWith('cpu_') || c.relative_to?.metric?.startsWith('cpu_'),
  );
}

/** "38%" */
export function pct(v: number): string {
  return `${Math.round(v * 100)}%`;
}

export interface CpuBarLayout {
  bar: CpuBar;
  group: number;
  x: number;
  w: number;
  /** Segments bottom-up (driver first), in px from the plot's top. */
  segments: Array<{ part: CpuPartKey; y: number; h: number; value: number }>;
}

export interface CpuLayout {
  width: number;
  height: number;
  plot: { x: number; y: number; w: number; h: number };
  bars: CpuBarLayout[];
  groups: Array<{ label: string; x0: number; x1: number }>;
  ticks: Array<{ y: number; label: string }>;
  /** Bar labels too long for their slot are drawn slanted. */
  slanted: boolean;
  /** y of the bar labels' baseline and of the group labels. */
  labelY: number;
  groupY: number;
}

/** About the width of a label at 11.5 px (px). */
export function labelWidth(s: string): number {
  return s.length * 6.4;
}

/** Places the bars in `width` px: groups side by side, a gap between groups. */
export function cpuLayout(b: CpuBreakdown, width: number, plotH = 220): CpuLayout {
  const plot = { x: 46, y: 26, w: Math.max(120, width - 56), h: plotH };
  const n = b.groups.reduce((a, g) => a + g.bars.length, 0);
  const gaps = Math.max(0, b.groups.length - 1);
  // A slot per bar plus 1.2 slots between groups (at most 104 px a slot: a few bars stay close
  // together); bars take 70% of a slot, at most 64 px.
  const slot = Math.min(104, n > 0 ? plot.w / (n + 1.2 * gaps) : plot.w);
  const w = Math.min(64, slot * 0.7);
  const bars: CpuBarLayout[] = [];
  const groups: CpuLayout['groups'] = [];
  let x = plot.x;
  b.groups.forEach((g, gi) => {
    const x0 = x;
    for (const bar of g.bars) {
      let top = plot.y + plot.h;
      const segments: CpuBarLayout['segments'] = [];
      for (const part of CPU_PARTS) {
        const v = bar.parts[part];
        const h = Math.min(1, v) * plot.h;
        top -= h;
        segments.push({ part, y: top, h, value: v });
      }
      bars.push({ bar, group: gi, x: x + (slot - w) / 2, w, segments });
      x += slot;
    }
    groups.push({ label: g.label, x0, x1: x });
    x += 1.2 * slot;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((v) => ({
    y: plot.y + plot.h - v * plot.h,
    label: pct(v),
  }));
  // The plot ends after the last bar.
  plot.w = Math.min(plot.w, x - 1.2 * slot - plot.x + 8);
  const longest = Math.max(0, ...bars.map((b) => labelWidth(b.bar.label)));
  const slanted = longest > slot - 6;
  // A label slanted at 35° reaches down sin(35°) of its width.
  const drop = slanted ? Math.ceil(longest * 0.58) + 6 : 0;
  const labelY = plot.y + plot.h + 15;
  const groupY = labelY + drop + 29;
  return {
    width: Math.min(width, plot.x + plot.w + 10),
    height: groupY + 12,
    plot,
    bars,
    groups,
    ticks,
    slanted,
    labelY,
    groupY,
  };
}
