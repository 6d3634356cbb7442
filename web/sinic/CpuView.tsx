// The host CPU's time by part, in the form of the SINIC paper's Figs 6 and 9: a stacked bar per
// NIC configuration (sweep point) — driver, TCP/IP stack, copy, user, idle — with the achieved
// throughput above it, the run on screen marked, and the paper's orderings (the reference checks
// on cpu_* metrics) beside. The paper gives no bar heights: only its orderings are checked.
import { useMemo, useRef, useState } from 'react';
import { useRun } from '../run/store';
import { useWidth } from '../kit/useWidth';
import {
  CPU_PARTS,
  CPU_PART_LABELS,
  cpuBreakdown,
  cpuChecks,
  cpuLayout,
  cpuParamWords,
  cpuValueLabel,
  pct,
  type CpuLayout,
} from './cpuBreakdown';
import { metricLabel } from '../kit/metricNames';
import { CPU_PART_COLORS, inkOn } from '../kit/palette';
import { relativeText } from '../results';
import type { Check, ParameterTree } from '../engine/types';
import './sinic.css';

export function CpuBars({ layout }: { layout: CpuLayout }) {
  const { plot } = layout;
  return (
    <svg
      className="cpu-bars"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={layout.width}
      height={layout.height}
      role="img"
      aria-label="CPU time by part for each NIC configuration"
      data-testid="cpu-bars"
    >
      {layout.ticks.map((t) => (
        <g key={t.label}>
          <line x1={plot.x} x2={plot.x + plot.w} y1={t.y} y2={t.y} className="cpu-grid" />
          <text x={plot.x - 6} y={t.y + 4} textAnchor="end" className="cpu-tick">
            {t.label}
          </text>
        </g>
      ))}
      {layout.bars.map((b) => (
        <g
          key={b.bar.key}
          data-testid="cpu-bar"
          data-selected={b.bar.selected ? 'yes' : 'no'}
          className={b.bar.selected ? 'cpu-bar selected' : 'cpu-bar'}
        >
          <title>
            {`${b.bar.label}: ${CPU_PARTS.map((p) => `${CPU_PART_LABELS[p]} ${pct(b.bar.parts[p])}`).join(', ')}`}
          </title>
          {b.segments.map((s) => (
            <g key={s.part}>
              <rect
                x={b.x}
                y={s.y}
                width={b.w}
                height={Math.max(0, s.h)}
                fill={CPU_PART_COLORS[s.part]}
                className={s.part === 'idle' ? 'cpu-idle' : undefined}
                data-part={s.part}
              />
              {s.h >= 15 && b.w >= 26 && (
                <text
                  x={b.x + b.w / 2}
                  y={s.y + s.h / 2 + 4}
                  textAnchor="middle"
                  className="cpu-seg-label"
                  fill={inkOn(CPU_PART_COLORS[s.part])}
                >
                  {pct(s.value)}
                </text>
              )}
            </g>
          ))}
          {b.bar.selected && (
            <rect
              x={b.x - 3}
              y={plot.y - 3}
              width={b.w + 6}
              height={plot.h + 6}
              className="cpu-selected"
              rx={3}
            />
          )}
          {b.bar.throughput !== null && (
            <text x={b.x + b.w / 2} y={plot.y - 8} textAnchor="middle" className="cpu-gbps">
              {b.bar.throughput.toFixed(1)}
            </text>
          )}
          <text
            x={b.x + b.w / 2}
            y={layout.labelY}
            textAnchor={layout.slanted ? 'end' : 'middle'}
            transform={
              layout.slanted ? `rotate(-35 ${b.x + b.w / 2} ${layout.labelY - 4})` : undefined
            }
            className={b.bar.selected ? 'cpu-bar-label on' : 'cpu-bar-label'}
          >
            {b.bar.label}
          </text>
        </g>
      ))}
      <text x={plot.x - 40} y={plot.y - 8} className="cpu-gbps-key">
        Gb/s
      </text>
      {layout.groups.map(
        (g) =>
          g.label && (
            <g key={g.label}>
              <line
                x1={g.x0 + 4}
                x2={g.x1 - 4}
                y1={layout.groupY - 18}
                y2={layout.groupY - 18}
                className="cpu-group-rule"
              />
              <text
                x={(g.x0 + g.x1) / 2}
                y={layout.groupY}
                textAnchor="middle"
                className="cpu-group-label"
              >
                {g.label}
              </text>
            </g>
          ),
      )}
    </svg>
  );
}

export function CpuLegend() {
  return (
    <ul className="legend" aria-label="CPU parts">
      {CPU_PARTS.map((p) => (
        <li key={p}>
          <span
            className={`chip ${p === 'idle' ? 'chip-outline' : ''}`}
            style={{ background: CPU_PART_COLORS[p] }}
          />
          {CPU_PART_LABELS[p]}
        </li>
      ))}
      <li>
        <span className="chip chip-selected" /> the run on screen (its trace)
      </li>
    </ul>
  );
}

export function CpuChecks({ checks, params }: { checks: Check[]; params?: ParameterTree }) {
  if (checks.length === 0) return null;
  return (
    <section className="cpu-checks" aria-labelledby="cpu-checks-h" data-testid="cpu-checks">
      <h3 id="cpu-checks-h">The paper&apos;s orderings</h3>
      <ul>
        {checks.map((c) => (
          <li key={c.id} className={c.pass ? 'pass' : 'fail'}>
            <span className="cpu-check-mark" aria-label={c.pass ? 'passes' : 'fails'}>
              {c.pass ? '✓' : '✗'}
            </span>
            <span>
              {c.description.replace(/^Qualitative: /, '')}{' '}
              <span className="muted small">
                {metricLabel(c.metric ?? '')} {relativeText(c, params) ?? ''} · {c.source}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CpuView() {
  const run = useRun();
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, run, 640, 320);
  const [swap, setSwap] = useState(false);
  const model = useMemo(() => (run ? cpuBreakdown(run.output, swap) : null), [run, swap]);
  const layout = useMemo(
    () => (model ? cpuLayout(model, Math.min(width, 900)) : null),
    [model, width],
  );
  if (!run || !model || !layout)
    return (
      <div className="placeholder">The CPU breakdown appears when the simulation has run.</div>
    );
  if (model.empty)
    return (
      <p className="tg-message" data-testid="cpu-message">
        This run reports no CPU time by part: the breakdown is for the SINIC paper&apos;s netperf
        runs (<code>workload.kind</code> <code>tcp-stream</code>).
      </p>
    );
  const params = run.output.parameters;
  const checks = cpuChecks(run.output.checks);
  return (
    <div className="cpu-view" data-testid="cpu-view">
      <p className="tg-sub">
        Where the CPU&apos;s time goes{model.barParam ? ' for each ' : ''}
        {model.barParam && <b>{cpuParamWords(model.barParam)}</b>}
        {model.groupParam && (
          <>
            , by <b>{cpuParamWords(model.groupParam)}</b>
          </>
        )}
        . Numbers above the bars: throughput (Gb/s).
        {model.groupParam && (
          <button
            type="button"
            className="btn btn-small cpu-swap"
            onClick={() => setSwap((s) => !s)}
            data-testid="cpu-swap"
          >
            group by {cpuParamWords(model.barParam ?? '')}
          </button>
        )}
      </p>
      <div className="cpu-layout">
        <div ref={wrap} className="cpu-main">
          <CpuBars layout={layout} />
          <CpuLegend />
        </div>
        <div className="cpu-side">
          <CpuChecks checks={checks} params={params} />
          <p className="muted small cpu-note">
            The paper gives no bar heights for Figs 6 and 9, only orderings: the driver&apos;s share
            shrinks on chip, SINIC&apos;s overhead is slightly below the on-chip CNIC&apos;s, zero
            copy cuts the copy time and moves it to the stack. The per-packet costs behind these
            bars are chosen (see the parameter notes).
          </p>
          {model.groups.length > 0 && (
            <p className="small" data-testid="cpu-selected">
              Marked:{' '}
              {Object.entries(model.groups.flatMap((g) => g.bars).find((b) => b.selected)?.at ?? {})
                .map(([k, v]) => cpuValueLabel(k, v, params))
                .join(', ') || 'the run'}
              .
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
