// ETA+AIO and its baseline (Brecht et al., EuroSys 2006): the two CPUs' lanes for 100 µs from
// the cursor (the PPE's iterations and empty stretches, the application's work and signals), the
// doorbell and event queues' depths, Table 1's cycle bins per sweep point beside the paper's, and
// Fig 4's utilisation against throughput with the paper's points. All from etaView.ts.
import { useMemo, useRef, type ReactNode } from 'react';
import { useCursor, useRun } from '../run/store';
import { useWidth } from '../kit/useWidth';
import { paramAt } from '../engine/types';
import {
  ETA_BINS,
  ETA_BIN_COLORS,
  ETA_BIN_LABELS,
  PAPER_PEAKS,
  PAPER_POINTS,
  etaBinBars,
  etaCurves,
  etaLanes,
  etaQueuesAt,
  laneWindowFrom,
  LANE_WINDOW_PS,
  signalWord,
  type BinBar,
  type Curve,
  type EtaLanes,
  type EtaQueuesAt,
} from './etaView';
import './eta.css';
import { ETA_CURVE_COLORS } from '../kit/palette';

const CURVE_COLORS = ETA_CURVE_COLORS;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** A figure of the view: one tab stop, named for screen readers, as wide as the panel. */
function Figure({
  id,
  label,
  width,
  height,
  children,
}: {
  id: string;
  label: string;
  width: number;
  height: number;
  children: ReactNode;
}) {
  return (
    <svg
      className={id}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      data-testid={id}
      tabIndex={0}
    >
      {children}
    </svg>
  );
}

function Lanes({
  lanes,
  from,
  width,
  eta,
}: {
  lanes: EtaLanes;
  from: number;
  width: number;
  eta: boolean;
}) {
  const left = 110;
  const w = Math.max(100, width - left - 10);
  const x = (t: number) =>
    left + ((Math.min(Math.max(t, from), from + LANE_WINDOW_PS) - from) / LANE_WINDOW_PS) * w;
  const laneY = [10, 50];
  const names = eta ? ['CPU 0: PPE', 'CPU 1: application'] : ['CPU 0', 'CPU 1'];
  const depthY = 100;
  const maxDepth = Math.max(
    2,
    ...lanes.doorbell.map((d) => d.depth),
    ...lanes.events.map((d) => d.depth),
  );
  const steps = (pts: { time: number; depth: number }[]) =>
    pts
      .map((p) => `${x(p.time).toFixed(1)},${(depthY + 40 - (p.depth / maxDepth) * 36).toFixed(1)}`)
      .join(' ');
  return (
    <Figure
      id="eta-lanes"
      width={width}
      height={150}
      label="The two CPUs over 100 µs from the cursor"
    >
      {names.map((n, i) => (
        <g key={n}>
          <text x={4} y={laneY[i]! + 18} className="eta-lane-label">
            {n}
          </text>
          <rect x={left} y={laneY[i]} width={w} height={28} className="eta-lane-bg" />
        </g>
      ))}
      {lanes.spans.map((s, k) => (
        <rect
          key={k}
          x={x(s.start)}
          y={laneY[Math.min(1, s.cpu)]}
          width={Math.max(0.8, x(s.end) - x(s.start))}
          height={28}
          fill={s.what === 'empty' ? 'url(#eta-empty)' : ETA_BIN_COLORS[s.what]}
          data-testid={s.what === 'empty' ? 'eta-empty' : 'eta-work'}
        >
          <title>{s.title}</title>
        </rect>
      ))}
      {lanes.signals.map((s, k) => (
        <g key={`s${k}`}>
          <line
            x1={x(s.time)}
            x2={x(s.time)}
            y1={laneY[1]! - 4}
            y2={laneY[1]! + 32}
            className={`eta-signal eta-signal-${s.step}`}
          />
          <title>{`signal ${signalWord(s.step)}`}</title>
        </g>
      ))}
      <defs>
        <pattern
          id="eta-empty"
          width="6"
          height="6"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <rect width="6" height="6" fill={ETA_BIN_COLORS.idle} />
          <line x1="0" y1="0" x2="0" y2="6" stroke={ETA_BIN_COLORS.ppe_other} strokeWidth="2" />
        </pattern>
      </defs>
      <text x={4} y={depthY + 18} className="eta-lane-label">
        queues
      </text>
      <rect x={left} y={depthY} width={w} height={44} className="eta-lane-bg" />
      {lanes.doorbell.length > 0 && (
        <polyline points={steps(lanes.doorbell)} className="eta-depth eta-depth-db" />
      )}
      {lanes.events.length > 0 && (
        <polyline points={steps(lanes.events)} className="eta-depth eta-depth-ev" />
      )}
      <text x={left + 4} y={depthY + 12} className="eta-depth-key">
        {w >= 360
          ? `doorbell queue (solid), event queues (dashed), up to ${maxDepth}`
          : `DbQ (solid), EvQ (dashed), ≤ ${maxDepth}`}
      </text>
    </Figure>
  );
}

/** One gauge box: its name inside, then a row per queue (a bar and its count). */
const BOX_W = 118;
const BOX_H = 46;

function Gauges({ queues, width, eta }: { queues: EtaQueuesAt; width: number; eta: boolean }) {
  const boxes: { name: string; rows: [string, number][]; testid: string }[] = [];
  if (eta)
    boxes.push({
      name: 'descriptor queues',
      rows: [
        ['TX', queues.txDescriptors ?? 0],
        ['RX', queues.rxDescriptors ?? 0],
      ],
      testid: 'eta-descriptors',
    });
  queues.nics.forEach((n, i) =>
    boxes.push({
      name: `NIC ${i} rings`,
      rows: [
        ['rx', n.rx],
        ['tx', n.tx],
      ],
      testid: 'eta-nic-ring',
    }),
  );
  // As many boxes to a row as the width holds, spread evenly.
  const perRow = Math.max(1, Math.min(boxes.length, Math.floor((width + 6) / (BOX_W + 6))));
  const bw = Math.min(170, (width - (perRow - 1) * 6) / perRow);
  const rows = Math.ceil(boxes.length / perRow);
  const h = rows * (BOX_H + 6);
  const scale = Math.max(8, ...boxes.flatMap((b) => b.rows.map((r) => r[1])));
  return (
    <Figure
      id="eta-gauges"
      width={width}
      height={h}
      label="The descriptor queues and the NICs' rings at the cursor"
    >
      {boxes.map((b, k) => {
        const x0 = (k % perRow) * (bw + 6);
        const y0 = Math.floor(k / perRow) * (BOX_H + 6);
        const barW = bw - 56;
        return (
          <g key={b.name} transform={`translate(${x0},${y0})`} data-testid={b.testid}>
            <rect width={bw} height={BOX_H} className="eta-gauge-box" />
            <text x={5} y={13} className="eta-key">
              {b.name}
            </text>
            {b.rows.map(([label, v], r) => (
              <g key={label} transform={`translate(0,${20 + r * 13})`}>
                <text x={5} y={9} className="eta-key">
                  {label}
                </text>
                <rect x={24} width={barW} height={10} className="eta-gauge-bg" />
                <rect
                  x={24}
                  width={(Math.min(v, scale) / scale) * barW}
                  height={10}
                  className={`eta-gauge eta-gauge-${r}`}
                />
                <text x={bw - 5} y={9} textAnchor="end" className="eta-key">
                  {v}
                </text>
                <title>{`${b.name}, ${label}: ${v}`}</title>
              </g>
            ))}
          </g>
        );
      })}
    </Figure>
  );
}

/** The key's entries: as many to a row as the width holds (95 px each). */
const KEY_STEP = 95;

function Bars({ bars, width }: { bars: BinBar[]; width: number }) {
  // Narrow (a phone, one side of an A/B page): each bar's name above it, not beside it.
  const narrow = width < 480;
  const left = narrow ? 4 : 170;
  const w = Math.max(100, width - left - (narrow ? 10 : 60));
  const rowH = 18;
  const labelH = narrow ? 14 : 0;
  const rows: { label: string; parts: Partial<Record<string, number>>; paper: boolean }[] = [];
  for (const b of bars) {
    rows.push({ label: b.label, parts: b.parts, paper: false });
    if (b.paper) rows.push({ label: 'Table 1 (paper)', parts: b.paper, paper: true });
  }
  const keyLeft = narrow ? 4 : left;
  const perRow = Math.max(1, Math.floor((width - keyLeft) / KEY_STEP));
  const keyRows = Math.ceil(ETA_BINS.length / perRow);
  const barsH = rows.length * (rowH + labelH + 4);
  const h = barsH + 14 + keyRows * 16;
  return (
    <Figure id="eta-bars" width={width} height={h} label="Cycles by Table 1's bins">
      {rows.map((r, i) => {
        let acc = 0;
        const y = 4 + i * (rowH + labelH + 4) + labelH;
        return (
          <g key={i} data-testid={r.paper ? 'eta-paper-bar' : 'eta-bar'}>
            <text
              x={narrow ? left : left - 6}
              y={narrow ? y - 3 : y + 13}
              textAnchor={narrow ? 'start' : 'end'}
              className={r.paper ? 'eta-bar-label paper' : 'eta-bar-label'}
            >
              {r.label}
            </text>
            {ETA_BINS.map((b) => {
              const v = r.parts[b] ?? 0;
              const x0 = left + acc * w;
              acc += v;
              return (
                <rect
                  key={b}
                  x={x0}
                  y={y}
                  width={Math.max(0, v * w)}
                  height={rowH}
                  fill={ETA_BIN_COLORS[b]}
                  className={r.paper ? 'paper' : undefined}
                >
                  <title>{`${ETA_BIN_LABELS[b]} ${pct(v)}`}</title>
                </rect>
              );
            })}
          </g>
        );
      })}
      {ETA_BINS.map((b, i) => (
        <g
          key={b}
          transform={`translate(${keyLeft + (i % perRow) * KEY_STEP},${barsH + 16 + Math.floor(i / perRow) * 16})`}
        >
          <rect width={10} height={10} y={-9} fill={ETA_BIN_COLORS[b]} />
          <text x={14} className="eta-key">
            {ETA_BIN_LABELS[b]}
          </text>
        </g>
      ))}
    </Figure>
  );
}

function Curves({ curves, width }: { curves: Curve[]; width: number }) {
  const h = 240;
  const pad = { l: 50, r: 150, t: 10, b: 34 };
  const w = Math.max(100, width - pad.l - pad.r);
  const maxT = Math.max(3000, ...curves.flatMap((c) => c.points.map((p) => p.throughput)));
  const x = (t: number) => pad.l + (t / maxT) * w;
  const y = (u: number) => pad.t + (1 - u) * (h - pad.t - pad.b);
  return (
    <Figure
      id="eta-curves"
      width={width}
      height={h}
      label="CPU utilisation against throughput (Fig 4)"
    >
      {[0, 0.25, 0.5, 0.75, 1].map((u) => (
        <g key={u}>
          <line x1={pad.l} x2={pad.l + w} y1={y(u)} y2={y(u)} className="eta-grid" />
          <text
            x={pad.l - 6}
            y={y(u) + 4}
            textAnchor="end"
            className="eta-key"
          >{`${u * 100}%`}</text>
        </g>
      ))}
      {[0, 1000, 2000, 3000]
        .filter((t) => t <= maxT)
        .map((t) => (
          <text key={t} x={x(t)} y={h - 18} textAnchor="middle" className="eta-key">
            {t}
          </text>
        ))}
      <text x={pad.l + w / 2} y={h - 4} textAnchor="middle" className="eta-key">
        throughput, Mb/s
      </text>
      {PAPER_PEAKS.map((p) => (
        <g key={p.label}>
          <line
            x1={x(p.throughput)}
            x2={x(p.throughput)}
            y1={pad.t}
            y2={h - pad.b}
            className="eta-peak"
          />
          <title>{`the paper's peak, ${p.label}: ${p.throughput} Mb/s`}</title>
        </g>
      ))}
      {curves.map((c, i) => (
        <g key={c.label} data-testid="eta-curve">
          <polyline
            points={c.points.map((p) => `${x(p.throughput)},${y(p.utilization)}`).join(' ')}
            fill="none"
            stroke={CURVE_COLORS[i % 4]}
            strokeWidth={2}
          />
          {c.points.map((p, k) => (
            <circle
              key={k}
              cx={x(p.throughput)}
              cy={y(p.utilization)}
              r={3}
              fill={CURVE_COLORS[i % 4]}
            />
          ))}
          <text
            x={pad.l + w + 8}
            y={pad.t + 14 + i * 16}
            fill={CURVE_COLORS[i % 4]}
            className="eta-key"
          >
            {c.label}
          </text>
        </g>
      ))}
      {PAPER_POINTS.map((p, k) => (
        <g key={k} data-testid="eta-paper-point">
          <rect
            x={x(p.throughput) - 4}
            y={y(p.utilization) - 4}
            width={8}
            height={8}
            className="eta-paper-point"
          />
          <title>{`the paper: ${p.label}, ${pct(p.utilization)} at ${p.throughput} Mb/s`}</title>
        </g>
      ))}
      <text x={pad.l + w + 8} y={pad.t + 14 + curves.length * 16 + 8} className="eta-key">
        □ the paper (§7, Table 1)
      </text>
      <text x={pad.l + w + 8} y={pad.t + 30 + curves.length * 16 + 8} className="eta-key">
        ┆ the paper's peaks
      </text>
    </Figure>
  );
}

export function EtaView() {
  const run = useRun();
  const cursor = useCursor();
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, run);
  const out = run?.output;
  const mhz = Number(paramAt(out?.parameters, 'system.eta.cpu_mhz') ?? 2800);
  const eta = paramAt(out?.parameters, 'system.eta.system') === 'eta-aio';
  const from = run ? laneWindowFrom(run.index, cursor) : 0;
  const lanes = useMemo(
    () => (run ? etaLanes(run.trace, mhz, from, from + LANE_WINDOW_PS) : null),
    [run, mhz, from],
  );
  const queues = useMemo(() => (run ? etaQueuesAt(run.trace, cursor) : null), [run, cursor]);
  const bars = useMemo(() => (out ? etaBinBars(out) : []), [out]);
  const curves = useMemo(() => (out ? etaCurves(out) : []), [out]);
  if (!run || !out) return null;
  return (
    <div className="eta-view" ref={ref} data-testid="eta-view">
      <h3>Two CPUs, 100 µs from the cursor</h3>
      {lanes && <Lanes lanes={lanes} from={from} width={width} eta={eta} />}
      <p className="eta-note">
        {eta
          ? 'Hatched: the PPE’s empty iterations (152 cycles each, §4.2). Ticks on the application’s lane: its signal armed, raised through the Kernel Agent and an IPI, delivered.'
          : 'Each CPU takes its two NICs’ moderated interrupts and runs its own userver.'}
      </p>
      <h3>{eta ? 'Descriptor queues and NIC rings at the cursor' : 'NIC rings at the cursor'}</h3>
      {queues && <Gauges queues={queues} width={width} eta={eta} />}
      <p className="eta-note">
        {eta
          ? 'TX: sends posted, complete once acknowledged; RX: receives posted, not yet filled (§5). A NIC’s rx: frames waiting for the PPE’s poll; tx: frames waiting for or on the wire.'
          : 'A NIC’s rx: frames waiting for its interrupt; tx: frames waiting for or on the wire.'}
      </p>
      <h3>Where the cycles go (Table 1)</h3>
      <Bars bars={bars} width={width} />
      {curves.length > 1 && (
        <>
          <h3>Utilisation against throughput (Fig 4)</h3>
          <Curves curves={curves} width={width} />
        </>
      )}
    </div>
  );
}
