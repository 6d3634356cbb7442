// The packet inspector: the packet in ui.packet, its headers by layer, its
// descriptors and its journey through the machine as the trace records it. A journey step moves
// the cursor there and highlights where it happened (ui.highlight). Esc or × closes it.
// Everything shown comes from web/inspector/packetJourney.ts.
import { useCallback, useEffect, useMemo, useRef, useState, type SVGProps } from 'react';
import { useRun, useStore, useStoreInstance, useViewCursor } from '../run/store';
import {
  packetView,
  packetsInSlots,
  requestPackets,
  type FrameSegment,
  type JourneyStep,
  type PacketView,
} from './packetJourney';
import { formatUs } from '../kit/format';
import '../playback/nav.css';

/** Opens the inspector on a packet. */
export function useInspectPacket(): (packet: number) => void {
  const store = useStoreInstance();
  return (packet: number) => {
    if (packet > 0) store.setUi({ packet });
  };
}

/** A small button naming a packet that opens the inspector on it. */
export function PacketChip({
  packet,
  label,
  title,
}: {
  packet: number;
  label?: string;
  title?: string;
}) {
  const inspect = useInspectPacket();
  const open = useStore((s) => s.ui.packet === packet);
  return (
    <button
      type="button"
      className={`packet-chip ${open ? 'open' : ''}`}
      onClick={(e) => {
        // Inside clickable rows (the event log), the chip only opens the inspector.
        e.stopPropagation();
        inspect(packet);
      }}
      onKeyDown={(e) => e.stopPropagation()}
      title={title ?? `Inspect packet ${packet}: its headers, descriptors and journey`}
      data-testid="packet-chip"
      data-packet={packet}
    >
      {label ?? `packet ${packet}`}
    </button>
  );
}

/** The packets a ring's occupied slots hold at the cursor (send and return rings). */
export function RingPackets({
  ring,
  slots,
  nic = 0,
}: {
  ring: number;
  slots: readonly number[];
  nic?: number;
}) {
  const run = useRun();
  const cursor = useViewCursor();
  const list = useMemo(
    () => (run ? packetsInSlots(run.index, ring, slots, cursor, nic) : []),
    [run, ring, slots, cursor, nic],
  );
  if (!list.length) return null;
  const MAX = 6;
  return (
    <div className="ring-packets" data-testid={`ring-packets-${ring}`}>
      <span className="muted small">holds</span>
      {list.slice(0, MAX).map((p) => (
        <PacketChip
          key={p.packet}
          packet={p.packet}
          label={`packet ${p.packet} · slot ${p.slot}`}
        />
      ))}
      {list.length > MAX && <span className="muted small">+{list.length - MAX} more</span>}
    </div>
  );
}

/** The packets of one web request (the client's ask and the response's segments). */
export function RequestPacketChips({ request }: { request: number }) {
  const run = useRun();
  const packets = useMemo(() => (run ? requestPackets(run.trace, request) : []), [run, request]);
  if (!packets.length) return null;
  const MAX = 12;
  return (
    <div className="ring-packets" data-testid="request-packets">
      <span className="muted small">its packets</span>
      {packets.slice(0, MAX).map((p) => (
        <PacketChip key={p.packet} packet={p.packet} label={`${p.role} ${p.packet}`} />
      ))}
      {packets.length > MAX && <span className="muted small">+{packets.length - MAX} more</span>}
    </div>
  );
}

const SEGMENT_CLASS: Record<FrameSegment['layer'], string> = {
  Ethernet: 'seg-eth',
  IP: 'seg-ip',
  UDP: 'seg-l4',
  TCP: 'seg-l4',
  HTTP: 'seg-http',
  payload: 'seg-payload',
  padding: 'seg-pad',
  CRC: 'seg-eth',
};

/** The frame's bytes in wire order, drawn to scale (small parts kept visible). */
function FrameBar({ segments, total }: { segments: FrameSegment[]; total: number }) {
  const min = 0.035 * total;
  const widths = segments.map((s) => Math.max(s.bytes, min));
  const sum = widths.reduce((a, b) => a + b, 0);
  return (
    <div
      className="frame-bar"
      role="img"
      aria-label={`Frame of ${total} bytes: ${segments.map((s) => `${s.label} ${s.bytes} B`).join(', ')}`}
      data-testid="frame-bar"
    >
      {segments.map((s, i) => (
        <span
          key={i}
          className={`frame-seg ${SEGMENT_CLASS[s.layer]}`}
          style={{ width: `${(widths[i]! / sum) * 100}%` }}
          title={`${s.label}: ${s.bytes} B`}
        >
          {widths[i]! / sum > 0.12 ? `${s.label} ${s.bytes}` : s.bytes}
        </span>
      ))}
    </div>
  );
}

function Headers({ view }: { view: PacketView }) {
  return (
    <section className="pi-section" aria-labelledby="pi-h-headers">
      <h3 id="pi-h-headers">Headers by layer</h3>
      {view.segments.length > 0 && view.frameBytes !== null && (
        <FrameBar segments={view.segments} total={view.frameBytes} />
      )}
      {view.layers.length === 0 ? (
        <p className="muted small">No frame of this packet in the trace window.</p>
      ) : (
        <div className="pi-layers" data-testid="pi-layers">
          {view.layers.map((l) => (
            <div key={l.layer} className={`pi-layer layer-${l.layer.toLowerCase()}`}>
              <div className="pi-layer-name">{l.layer}</div>
              <dl>
                {l.fields.map((f) => (
                  <div key={f.name} className="pi-field">
                    <dt>{f.name}</dt>
                    <dd className="mono">{f.value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </div>
      )}
      {view.layersNote && <p className="muted small pi-note">{view.layersNote}</p>}
    </section>
  );
}

function Descriptors({ view, onJump }: { view: PacketView; onJump: (t: number) => void }) {
  return (
    <section className="pi-section" aria-labelledby="pi-h-desc">
      <h3 id="pi-h-desc">Descriptors and transfers</h3>
      {view.descriptors.length === 0 ? (
        <p className="muted small">No descriptor of this packet in the trace window.</p>
      ) : (
        <table className="pi-table" data-testid="pi-descriptors">
          <thead>
            <tr>
              <th scope="col">what</th>
              <th scope="col">ring / slot</th>
              <th scope="col">buffer</th>
              <th scope="col">bytes</th>
              <th scope="col">at</th>
            </tr>
          </thead>
          <tbody>
            {view.descriptors.map((d, i) => (
              <tr key={i} title={d.note}>
                <td>{d.what}</td>
                <td>
                  {d.where ?? '—'}
                  {d.note && <sup aria-label="matched by time"> †</sup>}
                </td>
                <td>{d.buffer ?? '—'}</td>
                <td className="mono">{d.bytes ?? '—'}</td>
                <td className="mono">
                  <button type="button" className="link-btn" onClick={() => onJump(d.time)}>
                    {formatUs(d.time)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view.descriptors.some((d) => d.note) && (
        <p className="muted small pi-note">
          † Not recorded with the packet: the NIC&apos;s index update at the same instant names the
          slot.
        </p>
      )}
    </section>
  );
}

function Journey({
  steps,
  current,
  selected,
  onPick,
}: {
  steps: JourneyStep[];
  current: number;
  selected: number | null;
  onPick: (s: JourneyStep) => void;
}) {
  return (
    <section className="pi-section" aria-labelledby="pi-h-journey">
      <h3 id="pi-h-journey">
        Journey{' '}
        <span className="muted small">· {steps.length} records · click a step to go there</span>
      </h3>
      <ol className="pi-journey" data-testid="pi-journey">
        {steps.map((s) => {
          const at = s.rec === current;
          return (
            <li key={s.rec}>
              <button
                type="button"
                className={`pi-step ${at ? 'at-cursor' : ''} ${s.rec === selected ? 'selected' : ''}`}
                aria-current={at ? 'step' : undefined}
                onClick={() => onPick(s)}
                title={s.details.map(([n, v]) => `${n} ${v}`).join(' · ')}
                data-testid="pi-step"
                data-rec={s.rec}
                data-time={s.time}
              >
                <span className="pi-step-time mono">{formatUs(s.time)}</span>
                <span className="pi-step-what">
                  {s.step && <span className="step">{s.step}</span>} {s.words}
                  {s.summary && <span className="pi-step-summary">: {s.summary}</span>}
                </span>
                <span className="pi-step-where" data-testid="pi-step-where">
                  {s.where}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function PacketInspector() {
  const packet = useStore((s) => s.ui.packet);
  // Keyed by packet: another packet starts with no step picked.
  return packet === null ? null : <InspectorPanel key={packet} packet={packet} />;
}

function InspectorPanel({ packet }: { packet: number }) {
  const store = useStoreInstance();
  const run = useRun();
  const cursor = useStore((s) => s.playback.cursor);
  const [selected, setSelected] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastHighlight = useRef<string[] | null>(null);
  const view = useMemo(
    () => (run ? packetView(run.index, run.output, packet) : null),
    [run, packet],
  );

  const close = useCallback(() => {
    const ui = store.getState().ui;
    // Clear the highlight only when it is still the one the inspector set.
    const ours = lastHighlight.current !== null && ui.highlight === lastHighlight.current;
    store.setUi(ours ? { packet: null, highlight: [] } : { packet: null });
    lastHighlight.current = null;
  }, [store]);

  useEffect(() => {
    const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    headingRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      close();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (back && document.contains(back)) back.focus();
    };
  }, [close]);

  if (!run || !view) return null;

  // The step at the cursor: the picked one while the cursor is on it, else the latest before.
  let current = -1;
  const pick = selected !== null ? view.steps.find((s) => s.rec === selected) : undefined;
  if (pick && pick.time === cursor) current = pick.rec;
  else for (const s of view.steps) if (s.time <= cursor) current = s.rec;

  const jump = (t: number) => {
    store.setPlaying(false);
    store.setCursor(t);
  };
  const onPick = (s: JourneyStep) => {
    setSelected(s.rec);
    jump(s.time);
    lastHighlight.current = s.highlight;
    store.setUi({ highlight: s.highlight });
  };
  const first = view.steps[0];
  const last = view.steps[view.steps.length - 1];

  return (
    <aside
      className="packet-inspector"
      role="dialog"
      aria-modal="false"
      aria-labelledby="pi-title"
      data-testid="packet-inspector"
      data-packet={packet}
    >
      <header className="pi-head">
        <div>
          <h2 id="pi-title" ref={headingRef} tabIndex={-1}>
            Packet {packet}
          </h2>
          <p className="pi-what" data-testid="pi-what">
            {view.found ? view.what : "not in this run's trace window"}
            {view.frameBytes !== null && <> · {view.frameBytes.toLocaleString('en-US')} B frame</>}
            {view.nic > 0 && <> · NIC {view.nic + 1}</>}
          </p>
          {first && last && (
            <p className="muted small">
              {formatUs(first.time)} → {formatUs(last.time)} in the trace window
            </p>
          )}
        </div>
        <button
          type="button"
          className="btn btn-icon pi-close"
          onClick={close}
          aria-label="Close the packet inspector (Esc)"
          title="Close (Esc)"
          data-testid="pi-close"
        >
          ×
        </button>
      </header>
      {view.found && (
        <>
          <Headers view={view} />
          <Descriptors view={view} onJump={jump} />
          <Journey steps={view.steps} current={current} selected={selected} onPick={onPick} />
        </>
      )}
    </aside>
  );
}

/**
 * Props that make a drawn packet (an SVG token) open the inspector: a button for the mouse and
 * the keyboard. Packet 0 (none) gets nothing.
 */
export function useInspectableProps(): (
  packet: number,
  what: string,
) => SVGProps<SVGGElement> & { 'data-packet'?: number } {
  const inspect = useInspectPacket();
  return (packet, what) =>
    packet > 0
      ? {
          role: 'button',
          tabIndex: 0,
          'aria-label': `${what}, packet ${packet}: inspect`,
          'data-packet': packet,
          onClick: () => inspect(packet),
          onKeyDown: (e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              inspect(packet);
            }
          },
        }
      : {};
}
