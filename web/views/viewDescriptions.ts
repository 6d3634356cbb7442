// What each view shows at the cursor, in one or two sentences for a screen reader. Every
// sentence is derived from the same model functions the view itself draws from, so the words and
// the picture cannot disagree. Nothing here computes the simulation.
import { metricLabel } from '../kit/metricNames';
import type { DoneRun } from '../run/store';
import { holdFor } from '../run/store';
import { paramAt } from '../engine/types';
import { RING_NAMES, VNIC_STATE_NAMES } from '../trace/traceKinds';
import { formatNumber, formatTime, humanize } from '../kit/format';
import { diagramStateAt } from '../diagram';
import { narrate } from '../diagram';
import { ringsAt, type RingCopyState } from '../rings';
import { cachedFirmwareIndex, cpuNow, registerAt, tigonSetup, CPU_NAMES } from '../tigon';
import {
  busPhaseIndex,
  CATEGORY_LABELS,
  cyclesUpTo,
  describeTenure,
  tenureNear,
  type BusPhaseIndex,
} from '../bus';
import { barFromCycles, barFromResults, IDLE } from '../bus';
import {
  cacheSetup,
  cachedCacheGridIndex,
  countsUpTo,
  formatBytes,
  requestAtInCacheGrid as cacheRequestAt,
  requestNow,
} from '../webserver';
import {
  cachedRequestPathIndex,
  currentSteps,
  requestAtInRequestPath as pathRequestAt,
} from '../webserver';
import { cachedRxPath, packetAt, packetNow, rxSetup } from '../sinic';
import { cachedVnicIndex, fifoAt, stateCounts, vnicSetup, vnicsAt } from '../sinic';
import { cpuBreakdown, CPU_PARTS, CPU_PART_LABELS } from '../sinic';
import { seriesStart } from '../kit/sweep';
import { shownCpus } from '../tigon';
import { sweepAxisLabel } from '../kit/sweep';

/** One sentence (or a few) about a view at the cursor. */
export type Describer = (run: DoneRun, cursor: number, speed: number) => string;

function pct(v: number): string {
  return `${Math.round(v * 100)}%`;
}

function windowOf(run: DoneRun): { start: number; end: number } {
  const start = run.output.trace.start_ps;
  let end = run.output.trace.end_ps;
  const tr = run.trace;
  if (tr.length && tr.time[tr.length - 1]! > end) end = tr.time[tr.length - 1]!;
  return { start, end: Math.max(start, end) };
}

// The bus phase index is rebuilt only for a new run (the views keep theirs in a memo).
const busIndexes = new WeakMap<DoneRun, BusPhaseIndex>();
function busIndex(run: DoneRun): BusPhaseIndex {
  let ix = busIndexes.get(run);
  if (!ix) {
    const w = windowOf(run);
    ix = busPhaseIndex(run.trace, w.start, w.end, run.output.parameters, run.output.system);
    busIndexes.set(run, ix);
  }
  return ix;
}

function sentence(s: string): string {
  const t = s.trim();
  return t.endsWith('.') ? t : `${t}.`;
}

const RING_HOLDS = ['packets to send', 'empty receive buffers', 'received packets'];

function ringCopyWords(c: RingCopyState): string {
  return `producer index ${c.producer}, consumer ${c.consumer}`;
}

export const diagram: Describer = (run, t, speed) => {
  const hold = holdFor(speed);
  const state = diagramStateAt(run.index, t, hold);
  const acts = narrate(run.index, state, t, hold);
  const now = acts.length
    ? acts
        .slice(0, 4)
        .map((a) => a.text)
        .join('; ')
    : 'nothing moves: the bus, the NIC and the wire are idle';
  return sentence(`System at ${formatTime(t)}: ${now}`);
};

export const rings: Describer = (run, t) => {
  const parts = ringsAt(run.index, t).map((r) => {
    const name = `${humanize(RING_NAMES[r.ring] ?? `ring ${r.ring}`)} ring`;
    if (!r.host.known && !r.nic.known) return `${name}: no index recorded yet`;
    const c = r.host.known ? r.host : r.nic;
    let s = `${name}: ${c.occupied} of ${c.size} descriptors (${RING_HOLDS[r.ring] ?? 'descriptors'}), ${ringCopyWords(c)}`;
    if (r.lagging) s += `; the NIC's copy differs: ${ringCopyWords(r.nic)}`;
    return s;
  });
  return sentence(parts.join('. '));
};

export const firmware: Describer = (run, t) => {
  const setup = tigonSetup(run.output.system);
  const w = windowOf(run);
  const ix = cachedFirmwareIndex(run.trace, w.start, w.end);
  const cpus = shownCpus(setup, ix);
  const parts = cpus.map((cpu) => {
    const now = cpuNow(ix, cpu, t);
    const reg = registerAt(ix, cpu, t);
    const pending = reg.cells.filter((c) => c.pending).map((c) => c.label);
    return `CPU ${CPU_NAMES[cpu]}: ${now.text}; ${
      pending.length ? `pending ${pending.join(', ')}` : 'no event pending'
    }`;
  });
  return sentence(`Firmware at ${formatTime(t)}. ${parts.join('. ')}`);
};

export const waveform: Describer = (run, t) => {
  const ix = busIndex(run);
  if (ix.n === 0) return 'No bus phases recorded in this run.';
  const near = tenureNear(ix, t);
  const words = near ? describeTenure(ix, near.ti, t, run.output.parameters) : null;
  if (!near || !words) return sentence(`Bus at ${formatTime(t)}: idle`);
  const cur = words.phases.find((p) => p.current);
  const when =
    near.when === 'now'
      ? `now ${cur ? `${cur.name}, cycle ${cur.at ?? 1} of ${cur.cycles}` : 'in a tenure'}`
      : near.when === 'last'
        ? 'idle; the last tenure was'
        : 'idle; the next tenure is';
  return sentence(
    `Bus at ${formatTime(t)}, ${when}: ${words.sentence}${words.what ? ` (${words.what})` : ''}`,
  );
};

export const bus: Describer = (run, t) => {
  const ix = busIndex(run);
  const c = cyclesUpTo(ix, t);
  const live = c.elapsed > 0 ? barFromCycles(c.cycles) : null;
  const whole = barFromResults(run.output.results);
  const out: string[] = [];
  out.push(
    live
      ? `Up to the cursor: the bus was busy ${pct(live.utilization)} of ${formatNumber(Math.round(c.elapsed))} cycles; of the traffic ${pct(live.overhead)} overhead, ${pct(live.content)} content`
      : 'Up to the cursor: no bus cycles yet',
  );
  if (whole) {
    const top = whole.shares
      .map((v, k) => [k, v] as const)
      .filter(([k, v]) => v > 0 && k !== IDLE)
      .sort((p, q) => q[1] - p[1])
      .slice(0, 3)
      .map(([k, v]) => `${CATEGORY_LABELS[k] ?? k} ${pct(v)}`);
    out.push(
      `Measured window: busy ${pct(whole.utilization)}, overhead ${pct(whole.overhead)}, content ${pct(whole.content)}; largest shares ${top.join(', ')}`,
    );
  }
  return sentence(out.join('. '));
};

export const cache: Describer = (run, t) => {
  const setup = cacheSetup(run.output.parameters, run.output.results);
  if (!setup.web) return 'This run is not a web server trace: there is no NIC data cache.';
  const ix = cachedCacheGridIndex(run.trace, setup, run.output.trace.start_ps);
  const r = cacheRequestAt(ix, t);
  const now = requestNow(ix, r);
  const counts = countsUpTo(ix, r);
  const req = now
    ? `Request ${formatNumber(now.request)} for file ${now.file} (${formatBytes(now.bytes)}) on NIC ${now.nic + 1}: ${now.found} of ${now.blocks} blocks found in the cache, ${now.inserted} inserted, ${now.evicted} evicted`
    : 'No request yet';
  return sentence(
    `${req}. So far ${formatNumber(counts.requests)} requests, ${formatBytes(counts.cachedBytes)} of ${formatBytes(counts.contentBytes)} content from the NIC cache: content-traffic reduction ${pct(counts.reduction)}`,
  );
};

export const request: Describer = (run, t) => {
  if (paramAt(run.output.parameters, 'workload.web_mode') !== 'full-system')
    return 'No web request to follow: this view follows the full-system web server.';
  const ix = cachedRequestPathIndex(run.trace);
  const path = pathRequestAt(ix, t);
  if (!path) return 'No web request in the trace window.';
  const cur = currentSteps(path, t)
    .map((id) => path.steps.find((s) => s.id === id)?.title ?? id)
    .join('; ');
  return sentence(
    `Request ${path.request}${path.file !== null ? ` for file ${path.file}` : ''} on NIC ${path.nic + 1}: ${cur || 'not begun yet'}`,
  );
};

export const rxpath: Describer = (run, t) => {
  const setup = rxSetup(run.output.parameters);
  if (!setup.nic) return 'This run is not one of the SINIC paper’s NICs: no receive path.';
  const ix = cachedRxPath(run.trace, setup);
  const p = packetAt(ix, t);
  if (!p) return 'The trace window holds no received packet.';
  const now = packetNow(p, t);
  const step = now.step >= 0 ? p.steps[now.step]! : null;
  const where = now.pending
    ? 'not arrived yet'
    : now.finished
      ? 'delivered to the user'
      : `step ${now.step + 1} of ${p.steps.length}: ${step?.text ?? ''}`;
  const holds = now.holds.map((h) => `${h.place} holds the ${h.part}`).join(', ');
  return sentence(`Packet ${p.id}: ${where}${holds ? `; ${holds}` : ''}`);
};

export const vnics: Describer = (run, t) => {
  const setup = vnicSetup(run.output.parameters);
  if (setup.vnics === 0) return 'The conventional NIC has no SINIC registers or VNICs.';
  const ix = cachedVnicIndex(run.trace, setup.vnics);
  const counts = stateCounts(vnicsAt(ix, t));
  const states = counts
    .map((n, i) => (n > 0 ? `${n} ${VNIC_STATE_NAMES[i] ?? `state ${i}`}` : null))
    .filter(Boolean)
    .join(', ');
  const fifo = fifoAt(ix, t);
  return sentence(
    `${setup.vnics} VNIC${setup.vnics === 1 ? '' : 's'} at ${formatTime(t)}: ${states || 'none known yet'}${
      fifo !== null
        ? `; the receive FIFO holds ${formatBytes(fifo)}${setup.fifoBytes ? ` of ${formatBytes(setup.fifoBytes)}` : ''}`
        : ''
    }`,
  );
};

export const cpu: Describer = (run) => {
  const b = cpuBreakdown(run.output, false);
  if (b.empty) return 'This run reports no CPU time by part.';
  const bars = b.groups.flatMap((g) =>
    g.bars.map((bar) => {
      const name = [g.label, bar.label].filter(Boolean).join(', ') || 'this run';
      const parts = CPU_PARTS.filter((k) => bar.parts[k] > 0.005).map(
        (k) => `${CPU_PART_LABELS[k]} ${pct(bar.parts[k])}`,
      );
      return `${name}: ${parts.join(', ')}`;
    }),
  );
  return sentence(`CPU time by part. ${bars.slice(0, 8).join('. ')}`);
};

export const chart: Describer = (run, t) => {
  const out = run.output;
  const parts: string[] = [];
  if (out.sweep.length > 0) {
    const checks = out.checks.filter((c) => typeof c.expected === 'number');
    const passed = checks.filter((c) => c.pass).length;
    parts.push(
      `Sweep of ${out.sweep.length} points over ${sweepAxisLabel(out.sweep_spec?.parameter).label}`,
    );
    if (checks.length)
      parts.push(
        `${checks.length} published value${checks.length === 1 ? '' : 's'} from the papers beside the simulated ones, ${passed} within tolerance`,
      );
  }
  const s = out.series[0];
  if (s && s.values.length) {
    const i = Math.max(
      0,
      Math.min(s.values.length - 1, Math.round((t - seriesStart(s)) / s.interval_ps)),
    );
    const v = s.values[i]!;
    const value =
      s.unit === 'fraction' ? pct(v) : `${formatNumber(v)}${s.unit ? ` ${s.unit}` : ''}`;
    parts.push(`Over time, ${metricLabel(s.name)} at ${formatTime(t)}: ${value}`);
  }
  return parts.length ? sentence(parts.join('. ')) : 'This run produced no sweep and no series.';
};
