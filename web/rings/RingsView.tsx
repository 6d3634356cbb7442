import { useMemo } from 'react';
import { arc } from 'd3';
import { useRun, useViewCursor } from '../run/store';
import { ringsAt, type RingCopyState } from './rings';
import { occupiedRanges } from './RingBar';
import { formatTime } from '../kit/format';
import { RING_COLORS } from '../kit/palette';
import { RingPackets } from '../inspector';

const R_OUT = 46;
const R_IN = 32;
const SIZE = 124;

const ROLE: Record<number, { producer: string; consumer: string; what: string }> = {
  0: { producer: 'driver', consumer: 'NIC', what: 'packets to send' },
  1: { producer: 'driver', consumer: 'NIC', what: 'empty receive buffers' },
  2: { producer: 'NIC', consumer: 'driver', what: 'received packets' },
};

function angle(i: number, size: number): number {
  return (i / size) * 2 * Math.PI;
}

// A producer (P, outside the slots) or consumer (C, inside) index marker on the ring.
function RingPointer(props: {
  index: number;
  size: number;
  r: number;
  tip: number;
  label: 'P' | 'C';
}) {
  const from = pointer(props.index, props.size, props.r);
  const at = pointer(props.index, props.size, props.tip);
  return (
    <g className={`ring-ptr ${props.label === 'P' ? 'ptr-p' : 'ptr-c'}`}>
      <line x1={from.x} y1={from.y} x2={at.x} y2={at.y} />
      <circle cx={at.x} cy={at.y} r={6.5} />
      <text x={at.x} y={at.y + 3.2} textAnchor="middle">
        {props.label}
      </text>
    </g>
  );
}

function pointer(i: number, size: number, r: number): { x: number; y: number } {
  const a = angle(i, size) - Math.PI / 2;
  return { x: Math.cos(a) * r, y: Math.sin(a) * r };
}

/** One ring copy drawn as a circle of slots; occupied slots shaded; P and C pointers. */
export function RingCircle({
  st,
  color,
  label,
}: {
  st: RingCopyState;
  color: string;
  label: string;
}) {
  const slotArc = useMemo(
    () =>
      arc<{ a0: number; a1: number }>()
        .innerRadius(R_IN)
        .outerRadius(R_OUT)
        .startAngle((d) => d.a0)
        .endAngle((d) => d.a1),
    [],
  );
  const c = SIZE / 2;
  if (!st.known || st.size <= 0) {
    // The core records every ring copy when the trace window opens, so this shows only for a
    // trace without those records: an empty ring, no made-up state.
    return (
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        className="ring-circle unknown"
        role="img"
        aria-label={`${label}: no index recorded`}
        data-testid="ring-unknown"
      >
        <circle
          cx={c}
          cy={c}
          r={(R_IN + R_OUT) / 2}
          className="ring-unknown"
          strokeWidth={R_OUT - R_IN}
        />
        <text x={c} y={c + 4} textAnchor="middle" className="ring-center-sub">
          no index
        </text>
      </svg>
    );
  }
  const { size, producer, consumer, occupied } = st;
  const discrete = size <= 64;
  const pad = discrete ? Math.min(0.02, (Math.PI / size) * 0.25) : 0;
  const ranges = occupiedRanges(consumer, occupied, size);
  return (
    <svg
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      className="ring-circle"
      role="img"
      aria-label={`${label}: producer ${producer}, consumer ${consumer}, ${occupied} of ${size} slots in use`}
      data-testid="ring-circle"
      data-occupied={occupied}
    >
      <g transform={`translate(${c}, ${c})`}>
        <path d={slotArc({ a0: 0, a1: 2 * Math.PI }) ?? ''} className="ring-track" />
        {discrete
          ? Array.from({ length: size }, (_, i) => {
              const occ = ranges.some(([a, b]) => i >= a && i < b);
              return (
                <path
                  key={i}
                  d={slotArc({ a0: angle(i, size) + pad, a1: angle(i + 1, size) - pad }) ?? ''}
                  className={occ ? 'ring-slot occ' : 'ring-slot'}
                  style={occ ? { fill: color } : undefined}
                />
              );
            })
          : ranges.map(([a, b]) => (
              <path
                key={a}
                d={slotArc({ a0: angle(a, size), a1: angle(b, size) }) ?? ''}
                className="ring-slot occ"
                style={{ fill: color }}
              />
            ))}
        <RingPointer index={producer % size} size={size} r={R_OUT} tip={R_OUT + 8} label="P" />
        <RingPointer index={consumer % size} size={size} r={R_IN} tip={R_IN - 8} label="C" />
        <text x={0} y={-1} textAnchor="middle" className="ring-center">
          {occupied}
        </text>
        <text x={0} y={11} textAnchor="middle" className="ring-center-sub">
          of {size}
        </text>
      </g>
    </svg>
  );
}

function CopyFacts({ st, other }: { st: RingCopyState; other: RingCopyState }) {
  if (!st.known) return <div className="copy-facts muted">—</div>;
  const pDiff = other.known && other.producer !== st.producer;
  const cDiff = other.known && other.consumer !== st.consumer;
  return (
    <div className="copy-facts mono">
      <span className={pDiff ? 'diff' : ''}>P {st.producer}</span>
      <span className={cDiff ? 'diff' : ''}>C {st.consumer}</span>
    </div>
  );
}

export function RingsView() {
  const run = useRun();
  const cursor = useViewCursor();
  const rings = useMemo(() => (run ? ringsAt(run.index, cursor) : null), [run, cursor]);
  if (!rings)
    return <div className="placeholder">The rings appear when the simulation has run.</div>;
  return (
    <div className="rings" data-testid="rings-view">
      {rings.map((r) => {
        const role = ROLE[r.ring]!;
        return (
          <div
            className={`ring-row ${r.lagging ? 'lagging' : ''}`}
            key={r.ring}
            data-testid={`ring-${r.name}`}
            data-lagging={r.lagging}
          >
            <div className="ring-head">
              <span className="ring-name">
                <span className="chip" style={{ background: RING_COLORS[r.ring] }} />
                {r.name} ring
              </span>
              <span className="ring-role">
                {role.producer} → {role.consumer}: {role.what}
              </span>
              {r.lagging && (
                <span
                  className="lag-badge"
                  title="The two copies differ: the other side has not been told yet"
                >
                  copies differ
                </span>
              )}
            </div>
            <div className="ring-copies">
              <figure>
                <RingCircle
                  st={r.host}
                  color={RING_COLORS[r.ring]!}
                  label={`${r.name} ring, host copy`}
                />
                <figcaption>
                  host copy <CopyFacts st={r.host} other={r.nic} />
                </figcaption>
              </figure>
              <figure>
                <RingCircle
                  st={r.nic}
                  color={RING_COLORS[r.ring]!}
                  label={`${r.name} ring, NIC copy`}
                />
                <figcaption>
                  NIC copy <CopyFacts st={r.nic} other={r.host} />
                </figcaption>
              </figure>
            </div>
            {/* The packets in the producer's slots (send: the driver's; return: the NIC's). */}
            {r.ring !== 1 && (
              <RingPackets ring={r.ring} slots={(r.ring === 0 ? r.host : r.nic).slots} />
            )}
            {r.host.known && r.nic.known && (
              <div className="ring-since muted">
                updated {formatTime(Math.max(r.host.since, r.nic.since))}
              </div>
            )}
          </div>
        );
      })}
      <p className="rings-note muted">
        P = producer index, C = consumer index; shaded slots hold descriptors produced and not yet
        consumed. Each side learns the other’s index only when told (mailbox write, index DMA), so
        the copies may briefly differ.
      </p>
    </div>
  );
}
