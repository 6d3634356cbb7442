// The Tigon's firmware (thesis Ch. 3): CPU A and CPU B on a time axis, each handler run a bar in
// its event's colour and each semaphore spin hatched; at the playback cursor, each CPU's event
// register (nine bits, PRI's pick outlined, bits outside the CPU's mask greyed) and the handler
// it runs; beside it the DMA and MAC queues and the SRAM's contention. Click or drag the lanes to
// move the cursor; the buttons step from one handler start to the next.
import { memo, useMemo, useRef, useState } from 'react';
import { useMeasuredWidth } from '../kit/useWidth';
import { useRun, useStoreInstance, type DoneRun, useViewCursor } from '../run/store';
import { TIGON_EVENTS } from '../trace/traceKinds';
import {
  CPU_NAMES,
  cachedFirmwareIndex,
  cpuNow,
  lanesModel,
  nextHandlerStart,
  pathName,
  prevHandlerStart,
  queuesAt,
  registerAt,
  runningAt,
  sramAt,
  sramNote,
  tigonSetup,
  type CpuNow,
  type FirmwareIndex,
  type LanesModel,
  type QueueState,
  type RegisterState,
  type SramSample,
  type TigonSetup,
} from './firmware';
import { formatNumber, formatTime } from '../kit/format';
import { inkOn, tigonEventColor } from './tigonPalette';
import { useCursorDrag } from '../kit/useCursorDrag';
import { ALERT, SPIN_PAPER } from '../kit/palette';
import { windowOf } from '../bus';
import './tigon.css';

export const LANE_LABEL_W = 112;
const AXIS_H = 26;
const LANE_H = 44;
const LANE_GAP = 12;

/** "PARALLEL firmware: Table 3.4's partition" and the like. */
export function firmwareWords(setup: Pick<TigonSetup, 'firmware' | 'family'>): string {
  const name = (setup.firmware ?? 'unknown').toUpperCase();
  switch (setup.family) {
    case 'single':
      return `${name} firmware: every handler runs on CPU A`;
    case 'parallel':
      return `${name} firmware: the events split between the CPUs as in Table 3.4`;
    case 'custom':
      return `${name} firmware: the events split as the partition parameters say`;
    case 'dynamic':
      return `${name} firmware: either CPU takes any pending event, one at a time under the semaphore`;
    default:
      return `${name} firmware`;
  }
}

function lanesHeight(n: number): number {
  return AXIS_H + n * (LANE_H + LANE_GAP);
}

function laneY(i: number): number {
  return AXIS_H + i * (LANE_H + LANE_GAP);
}

function runTitle(
  cpu: number,
  event: number,
  path: number,
  start: number,
  end: number,
  count: number,
  busy: number,
) {
  const ev = TIGON_EVENTS[event];
  const name = ev ? `${ev.label} (${ev.short})` : `event ${event}`;
  if (count > 1)
    return `CPU ${CPU_NAMES[cpu]}: ${count} runs of ${name}, ${formatTime(busy, 2)} in all, from ${formatTime(start)}`;
  return `CPU ${CPU_NAMES[cpu]}: ${name}, path ${pathName(path)}, ${formatTime(start)} → ${formatTime(end)} (${formatTime(end - start, 2)})`;
}

/** The lanes without the cursor (memoised: redrawn when the run, width or zoom change). */
export const FirmwareLanesSvg = memo(function FirmwareLanesSvg({
  model,
  sub,
}: {
  model: LanesModel;
  /** Second line under each lane's name (e.g. "19% busy"), by CPU. */
  sub: readonly string[];
}) {
  const height = lanesHeight(model.lanes.length);
  return (
    <g>
      <defs>
        <pattern
          id="fw-spin-hatch"
          width="6"
          height="6"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <rect width="6" height="6" fill={SPIN_PAPER} />
          <line x1="0" y1="0" x2="0" y2="6" stroke={ALERT} strokeWidth="2.5" />
        </pattern>
      </defs>
      <g className="fw-axis" transform={`translate(${LANE_LABEL_W},0)`}>
        {model.ticks.map((t) => (
          <g key={t.x}>
            <line x1={t.x} x2={t.x} y1={AXIS_H - 6} y2={height - LANE_GAP / 2} />
            <text x={t.x} y={AXIS_H - 10} textAnchor={t.anchor}>
              {t.label}
            </text>
          </g>
        ))}
      </g>
      <text x={LANE_LABEL_W - 10} y={AXIS_H - 10} textAnchor="end" className="fw-lane-sub">
        {model.unit}
      </text>
      {model.lanes.map((lane, i) => {
        const y = laneY(i);
        return (
          <g
            key={lane.cpu}
            data-testid={`fw-lane-${CPU_NAMES[lane.cpu]}`}
            data-runs={lane.bars.reduce((s, b) => s + b.count, 0)}
          >
            <text x={8} y={y + 19} className="fw-lane-label">
              CPU {CPU_NAMES[lane.cpu]}
            </text>
            <text x={8} y={y + 36} className="fw-lane-sub">
              {sub[lane.cpu] ?? ''}
            </text>
            <g transform={`translate(${LANE_LABEL_W},0)`}>
              <rect x={0} y={y} width={model.width} height={LANE_H} className="fw-lane-track" />
              {lane.spins.map((s, k) => (
                <rect
                  key={`s${k}`}
                  x={s.x0}
                  y={y + 4}
                  width={s.x1 - s.x0}
                  height={LANE_H - 8}
                  fill="url(#fw-spin-hatch)"
                  className="fw-spin"
                  data-testid="fw-spin"
                >
                  <title>
                    {`CPU ${CPU_NAMES[lane.cpu]} spins on the semaphore for ${TIGON_EVENTS[s.span.event]?.label ?? 'an event'}: ${formatTime(s.span.end - s.span.start, 2)}`}
                  </title>
                </rect>
              ))}
              {lane.bars.map((b) => {
                const fill = tigonEventColor(b.event);
                return (
                  <g key={b.run.rec} data-testid="fw-bar" data-event={TIGON_EVENTS[b.event]?.short}>
                    <rect
                      x={b.x0}
                      y={y + 2}
                      width={b.x1 - b.x0}
                      height={LANE_H - 4}
                      fill={fill}
                      className="fw-bar"
                    >
                      <title>
                        {runTitle(
                          lane.cpu,
                          b.event,
                          b.run.path,
                          b.run.start,
                          b.run.end,
                          b.count,
                          b.busy,
                        )}
                      </title>
                    </rect>
                    {b.labelled && fitsLabel(b.x1 - b.x0, TIGON_EVENTS[b.event]?.short) && (
                      <text
                        x={(b.x0 + b.x1) / 2}
                        y={y + LANE_H / 2 + 5}
                        textAnchor="middle"
                        className="fw-bar-text"
                        fill={inkOn(fill)}
                      >
                        {TIGON_EVENTS[b.event]?.short}
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          </g>
        );
      })}
    </g>
  );
});

/** A handler's short name fits inside its bar (13 px bold capitals: about 9.6 px each). */
function fitsLabel(width: number, short: string | undefined): boolean {
  return width >= (short?.length ?? 0) * 9.6 + 6;
}

/** The outline of the run under the cursor and the cursor line (cheap: redrawn every frame). */
function CursorLayer({
  model,
  cursor,
  ix,
}: {
  model: LanesModel;
  cursor: number;
  ix: FirmwareIndex;
}) {
  const height = lanesHeight(model.lanes.length);
  const inView = cursor >= model.t0 && cursor <= model.t1;
  const cx = model.x(cursor);
  return (
    <g transform={`translate(${LANE_LABEL_W},0)`} pointerEvents="none">
      {model.lanes.map((lane, i) => {
        const run = runningAt(ix, lane.cpu, cursor);
        if (!run) return null;
        const x0 = Math.max(0, model.x(run.start));
        const x1 = Math.min(model.width, Math.max(x0 + 1.5, model.x(run.end)));
        return (
          <rect
            key={lane.cpu}
            x={x0}
            y={laneY(i) + 2}
            width={x1 - x0}
            height={LANE_H - 4}
            fill="none"
            className="fw-bar now"
          />
        );
      })}
      {inView && (
        <line x1={cx} x2={cx} y1={AXIS_H - 4} y2={height - LANE_GAP / 2} className="fw-cursor" />
      )}
    </g>
  );
}

export function EventLegend() {
  return (
    <ul className="legend fw-legend" aria-label="Event colours">
      {TIGON_EVENTS.map((e, i) => (
        <li key={e.name} title={e.label}>
          <span className="chip" style={{ background: tigonEventColor(i) }} />
          <b>{e.short}</b> <span className="muted">{e.label}</span>
        </li>
      ))}
      <li>
        <span className="chip chip-spin" /> spinning on the semaphore
      </li>
    </ul>
  );
}

function NowLine({ now }: { now: CpuNow }) {
  const ev = now.run ? TIGON_EVENTS[now.run.event] : null;
  return (
    <span className={`fw-now ${now.state}`} data-testid={`fw-now-${CPU_NAMES[now.cpu]}`}>
      {now.state === 'running' && now.run && (
        <>
          <span className="chip" style={{ background: tigonEventColor(now.run.event) }} />
          Running <b>{ev?.short}</b> — {now.text}
        </>
      )}
      {now.state === 'spinning' && <>Spinning: {now.text}</>}
      {now.state === 'idle' && <>Idle: in the dispatch loop</>}
    </span>
  );
}

/** One CPU's event register: nine bit cells, highest bit first (where PRI looks first). */
export function RegisterRow({ reg, now }: { reg: RegisterState; now: CpuNow }) {
  const cpu = CPU_NAMES[reg.cpu];
  const pickEv = reg.pick !== null ? TIGON_EVENTS[reg.pick] : null;
  return (
    <div
      className={`fw-reg${reg.unknown ? ' unknown' : ''}`}
      role="group"
      aria-label={`CPU ${cpu} event register`}
      data-testid={`fw-reg-${cpu}`}
      data-bits={reg.unknown ? '' : reg.bits}
      data-pick={pickEv?.short ?? ''}
    >
      <div className="fw-reg-head">
        <span className="fw-cpu">CPU {cpu}</span>
        <NowLine now={now} />
      </div>
      <ol className="fw-cells">
        {reg.cells.map((c) => {
          const color = tigonEventColor(c.event);
          const state = c.masked
            ? 'masked'
            : reg.unknown
              ? 'unknown'
              : c.pending
                ? 'pending'
                : 'clear';
          const words = c.masked
            ? `not handled by CPU ${cpu}`
            : reg.unknown
              ? 'not known yet'
              : c.pending
                ? c.pick
                  ? now.state === 'running'
                    ? 'pending; PRI takes it when the handler ends'
                    : 'pending; PRI takes it next'
                  : 'pending'
                : 'clear';
          return (
            <li
              key={c.event}
              className={`fw-cell ${state}${c.pick ? ' pick' : ''}`}
              style={
                c.pending && !c.masked ? { background: color, color: inkOn(color) } : undefined
              }
              data-testid="fw-cell"
              data-event={c.short}
              data-state={state}
              data-pick={c.pick ? 'yes' : undefined}
              aria-label={`bit ${c.event}, ${c.label}: ${words}`}
              title={`bit ${c.event}: ${c.label} — ${words}`}
            >
              {c.pick && (
                <span className="fw-pri" aria-hidden="true">
                  PRI ▾
                </span>
              )}
              <span className="fw-bit" aria-hidden="true">
                {c.event}
              </span>
              <span className="fw-short" aria-hidden="true">
                {c.short}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="fw-reg-note">
        {reg.known
          ? `${pickEv ? `PRI picks ${pickEv.label} (the highest pending bit)` : 'Nothing pending'} · last change ${formatTime(reg.since ?? 0)}`
          : reg.unknown
            ? 'Not known yet: the trace window opened mid-run, and this register has not changed since'
            : 'Nothing pending since the run started'}
      </p>
    </div>
  );
}

export function Meter({
  label,
  value,
  max,
  text,
  testId,
  color,
  valueText,
}: {
  label: string;
  value: number;
  max: number;
  text: string;
  testId: string;
  color?: string;
  valueText: string;
}) {
  const f = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div className="fw-meter" data-testid={testId} data-value={value}>
      <span>{label}</span>
      <div
        className="fw-meter-track"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
        aria-valuetext={valueText}
      >
        <div
          className="fw-meter-fill"
          style={{ width: `${(f * 100).toFixed(2)}%`, background: color }}
        />
      </div>
      <span className="fw-meter-value">{text}</span>
    </div>
  );
}

export function QueueMeters({
  queues,
  dmaCapacity,
}: {
  queues: QueueState[];
  dmaCapacity: number | null;
}) {
  return (
    <section className="fw-box" aria-labelledby="fw-h-queues">
      <h3 id="fw-h-queues">Queues at the cursor</h3>
      {queues.map((q) => {
        const dma = q.name === 'dmaRead' || q.name === 'dmaWrite';
        const cap = dma && dmaCapacity ? dmaCapacity : Math.max(4, q.max);
        const d = q.depth === null ? '?' : String(q.depth);
        return (
          <Meter
            key={q.name}
            label={q.label}
            value={q.depth ?? 0}
            max={cap}
            text={dma && dmaCapacity ? `${d} / ${dmaCapacity}` : d}
            valueText={
              q.depth === null
                ? 'not known yet'
                : `${q.depth} waiting${dma && dmaCapacity ? ` of ${dmaCapacity}` : ''}`
            }
            testId={`fw-queue-${q.name}`}
          />
        );
      })}
      <p className="fw-meter-note">
        DMA queues count the requests not yet done (capacity {dmaCapacity ?? 'unknown'}); the MAC
        queues, frames waiting (scale: the most in the trace window, at least 4).
        {queues.some((q) => q.depth === null) &&
          ' “?”: not known until its first change, as the trace window opened mid-run.'}
      </p>
    </section>
  );
}

export function SramMeter({
  sample,
  meanUtil,
  meanWaitNs,
  cpusNow = [],
}: {
  sample: SramSample | null;
  /** What each shown CPU does at the cursor (the note must not contradict them). */
  cpusNow?: readonly CpuNow[];
  meanUtil: number | undefined;
  meanWaitNs: number | undefined;
}) {
  const u = sample?.utilization ?? 0;
  const waitNs = (sample?.waitPs ?? 0) / 1000;
  return (
    <section className="fw-box" aria-labelledby="fw-h-sram">
      <h3 id="fw-h-sram">SRAM contention at the cursor</h3>
      <Meter
        label="utilisation"
        value={+(u * 100).toFixed(1)}
        max={100}
        text={sample ? `${(u * 100).toFixed(0)}%` : '—'}
        valueText={sample ? `${(u * 100).toFixed(0)} percent` : 'no sample yet'}
        testId="fw-sram-util"
        color={u > 0.8 ? ALERT : undefined}
      />
      <Meter
        label="wait per access"
        value={+waitNs.toFixed(1)}
        max={Math.max(100, Math.ceil(waitNs / 50) * 50)}
        text={sample ? `${formatNumber(+waitNs.toFixed(1))} ns` : '—'}
        valueText={sample ? `${waitNs.toFixed(1)} nanoseconds` : 'no sample yet'}
        testId="fw-sram-wait"
        color={u > 0.8 ? ALERT : undefined}
      />
      <p className="fw-meter-note">
        {sramNote(sample, cpusNow)}
        {meanUtil !== undefined &&
          ` Over the run: ${(meanUtil * 100).toFixed(0)}% busy${meanWaitNs !== undefined ? `, ${formatNumber(+meanWaitNs.toFixed(1))} ns wait per access` : ''}.`}
      </p>
    </section>
  );
}

/** Which CPUs get a lane: CPU B is hidden when the firmware runs on CPU A only. */
export function shownCpus(setup: TigonSetup, ix: FirmwareIndex): number[] {
  if (setup.family === 'single') return [0];
  if (setup.family === 'unknown' && !ix.cpuSeen[1]) return [0];
  return [0, 1];
}

function Message({ children }: { children: React.ReactNode }) {
  return (
    <p className="tg-message" data-testid="fw-message">
      {children}
    </p>
  );
}

export function FirmwareView() {
  const run = useRun();
  if (!run)
    return (
      <div className="placeholder">The firmware view appears when the simulation has run.</div>
    );
  return <FirmwareRun run={run} />;
}

function FirmwareRun({ run }: { run: DoneRun }) {
  const store = useStoreInstance();
  const cursor = useViewCursor();
  const win = useMemo(() => windowOf(run), [run]);
  const setup = useMemo(() => tigonSetup(run.output.system), [run]);
  const ix = useMemo(() => cachedFirmwareIndex(run.trace, win.start, win.end), [run, win]);
  const plotRef = useRef<HTMLDivElement>(null);
  // The lanes are drawn once, at the measured width (see useMeasuredWidth).
  const measured = useMeasuredWidth(plotRef, ix, 900, 360);
  const width = measured ?? 900;
  const [span, setSpan] = useState<number | null>(null); // null: the whole window

  const full = Math.max(1, win.end - win.start);
  const spanPs = span === null ? full : Math.min(full, span);
  const zoomed = spanPs < full;
  // Zoomed in, the view follows the cursor (centred, kept inside the window).
  const t0 = zoomed
    ? Math.min(win.end - spanPs, Math.max(win.start, cursor - spanPs / 2))
    : win.start;
  const cpus = useMemo(() => shownCpus(setup, ix), [setup, ix]);
  const plotW = Math.max(200, width - LANE_LABEL_W - 8);
  // Laid out only once measured: not at the guessed width first and again at the real one.
  const model = useMemo(
    () => (measured === null ? null : lanesModel(ix, cpus, t0, t0 + spanPs, plotW)),
    [measured, ix, cpus, t0, spanPs, plotW],
  );
  const r = run.output.results;
  const sub = useMemo(() => {
    const u = [r.tigon_cpu_a_utilization?.value, r.tigon_cpu_b_utilization?.value];
    return u.map((v) => (v === undefined ? '' : `${(v * 100).toFixed(0)}% busy`));
  }, [r]);

  // Zoomed in, a drag pans the lanes; at the whole window it follows the pointer. A click puts
  // the cursor where it landed.
  const seek = (t: number) => {
    store.setPlaying(false);
    store.setCursor(t);
  };
  const hit = useCursorDrag({
    cursor,
    seek,
    // The lanes that take the pointer are drawn only with a model.
    dragTo: (start, dx, x) => (zoomed ? start - dx / (plotW / spanPs) : model!.invert(x)),
    clickTo: (x) => model!.invert(x),
  });

  if (!setup.tigon && ix.tigonRecords === 0) {
    const nicModel = run.output.system?.nic_model;
    return (
      <Message>
        This run does not use the Tigon
        {typeof nicModel === 'string' ? ` (the NIC model is “${nicModel}”)` : ''}, so there is no
        firmware to show. Set <code>system.nic.model</code> to <code>tigon</code> to see its two
        CPUs dispatch events.
      </Message>
    );
  }
  if (ix.tigonRecords === 0)
    return (
      <Message>
        The trace window ({formatTime(win.start)} → {formatTime(win.end)}) holds no firmware
        activity: no handler ran and no event register changed. Widen <code>run.trace</code> or send
        some traffic.
      </Message>
    );

  const regs = cpus.map((c) => registerAt(ix, c, cursor, setup.masks[c === 1 ? 1 : 0]));
  const nows = cpus.map((c) => cpuNow(ix, c, cursor));
  const next = nextHandlerStart(ix, cursor);
  const prev = prevHandlerStart(ix, cursor);
  const cap = run.output.system?.rings?.dma_queue_depth;
  const height = lanesHeight(cpus.length); // a lane per CPU shown

  const goto = (t: number | null) => {
    if (t !== null) seek(t);
  };
  const zoomBy = (f: number) => {
    const s = Math.min(full, Math.max(full / 512, Math.max(1, spanPs * f)));
    setSpan(s >= full ? null : s);
  };
  const busyLanes = (model?.lanes ?? []).map(
    (l) => `CPU ${CPU_NAMES[l.cpu]} ${l.bars.length} handler runs`,
  );

  return (
    <div className="firmware" data-testid="firmware-view">
      <p className="tg-sub">
        <b>{firmwareWords(setup)}.</b>{' '}
        {cpus.length === 1 &&
          'CPU B runs no firmware here, so only CPU A has a lane and a register.'}
      </p>
      <div className="fw-toolbar">
        <div className="seg" role="group" aria-label="Step by handler">
          <button
            type="button"
            onClick={() => goto(prev)}
            disabled={prev === null}
            data-testid="fw-prev"
            title="Move the cursor to the previous handler start"
          >
            ◀ previous handler
          </button>
          <button
            type="button"
            onClick={() => goto(next)}
            disabled={next === null}
            data-testid="fw-next"
            title="Move the cursor to the next handler start"
          >
            next handler ▶
          </button>
        </div>
        <div className="seg" role="group" aria-label="Zoom the lanes">
          <button
            type="button"
            onClick={() => zoomBy(0.5)}
            disabled={spanPs <= full / 512}
            aria-label="Zoom in around the cursor"
          >
            +
          </button>
          <button type="button" onClick={() => zoomBy(2)} disabled={!zoomed} aria-label="Zoom out">
            −
          </button>
          <button type="button" onClick={() => setSpan(null)} className={zoomed ? '' : 'on'}>
            whole window
          </button>
        </div>
        <span className="fw-time" data-testid="fw-cursor-time">
          cursor {formatTime(cursor)}
        </span>
        <span className="muted small">click or drag the lanes to move the cursor</span>
      </div>
      <div className="fw-lanes-wrap" ref={plotRef}>
        {model && (
          <svg
            className="fw-lanes"
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`Handler runs from ${formatTime(model.t0)} to ${formatTime(model.t1)}: ${busyLanes.join(', ')}`}
            data-testid="fw-lanes"
          >
            <FirmwareLanesSvg model={model} sub={sub} />
            <CursorLayer model={model} cursor={cursor} ix={ix} />
            <rect
              x={LANE_LABEL_W}
              y={0}
              width={plotW}
              height={height}
              fill="transparent"
              {...hit}
              data-testid="fw-hit"
            />
          </svg>
        )}
      </div>
      <EventLegend />
      <div className="fw-now-grid">
        <section className="fw-box" aria-labelledby="fw-h-regs">
          <h3 id="fw-h-regs">Event registers at the cursor ({formatTime(cursor)})</h3>
          {regs.map((reg, i) => (
            <RegisterRow key={reg.cpu} reg={reg} now={nows[i]!} />
          ))}
          <p className="fw-reg-note">
            Lit: the event is pending and this CPU may handle it. Greyed: outside the CPU&apos;s
            mask. Outlined: the highest set bit, the one PRI hands to the dispatch loop.
          </p>
        </section>
        <div>
          <QueueMeters
            queues={queuesAt(ix, cursor)}
            dmaCapacity={typeof cap === 'number' ? cap : null}
          />
          <SramMeter
            sample={sramAt(ix, cursor)}
            cpusNow={nows}
            meanUtil={r.tigon_sram_utilization?.value}
            meanWaitNs={r.tigon_sram_wait_ns?.value}
          />
        </div>
      </div>
    </div>
  );
}
