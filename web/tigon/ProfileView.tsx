// The handler profile in the form of the thesis's Fig 3.5: each event handler's share of the
// firmware's time, largest first, with runs per packet and the CPU it runs on; the scenario's
// reference values as ticks beside the bars; and CPU A against CPU B with the thesis's 47%/53%.
import { useMemo, useRef } from 'react';
import { useWidth } from '../kit/useWidth';
import { useRun, type DoneRun } from '../run/store';
import { paramAt } from '../engine/types';
import { formatNumber } from '../kit/format';
import {
  THESIS_CPU_A_SHARE,
  cpuWords,
  isProfile,
  profileLayout,
  profileModel,
  sharePct,
  type ProfileLayout,
  type ProfileModel,
  type ProfileReference,
} from './profile';
import { inkOn, tigonEventColor, TIGON_CPU_COLORS } from './tigonPalette';
import './tigon.css';

const MIN_SEGMENT_TEXT_W = 110;

function refTitle(ref: ProfileReference, what: string): string {
  const tol = ref.tolerance !== undefined ? ` ± ${formatNumber(ref.tolerance * 100)}%` : '';
  return `${what}: expected ${sharePct(ref.expected)}${tol} (${ref.source}) — ${ref.pass ? 'simulated value within' : 'simulated value outside'}`;
}

function runsText(runs: number | null): string {
  if (runs === null) return '';
  const v = +runs.toFixed(2);
  return ` · ${formatNumber(v)} ${v === 1 ? 'run' : 'runs'}/packet`;
}

/** The profile as SVG (pure: a model and a width in, markup out). */
export function ProfileSvg({ model, width }: { model: ProfileModel; width: number }) {
  // A handler's full name where it fits (at 15 px, about 9.2 px a character), else its short
  // name alone (the row's tooltip and the legend give the full one): never cut at the edge.
  const chars = (n: number) => Math.ceil(n * 9.2) + 20;
  const fullW = chars(Math.max(...model.rows.map((r) => r.short.length + 1 + r.label.length)));
  const full = fullW <= width * 0.45;
  // Runs per packet and the CPU beside each share when there is room (a half-width A/B column
  // has room for the share alone).
  const wide = width - (full ? fullW : 0) >= 560;
  const l: ProfileLayout = profileLayout(model, {
    width,
    labelW: full
      ? Math.max(200, fullW)
      : chars(
          Math.max(4, ...model.rows.map((r) => r.short.length), model.cpuAShare !== null ? 14 : 0) *
            1.1,
        ),
    valueW: wide ? 270 : 96,
  });
  const summary = model.rows
    .map((r) => `${r.label} ${sharePct(r.share)} on ${cpuWords(r.cpu)}`)
    .join('; ');
  return (
    <svg
      className="prof-svg"
      viewBox={`0 0 ${l.width} ${l.height}`}
      width={l.width}
      height={l.height}
      role="img"
      aria-label={`Share of handler time by event, largest first: ${summary}`}
      data-testid="profile-svg"
    >
      <g className="prof-axis">
        {l.axis.map((t) => (
          <g key={t.label}>
            <line x1={t.x} x2={t.x} y1={l.top - 8} y2={l.plotBottom - 4} />
            <text x={t.x} y={l.top - 12} textAnchor="middle">
              {t.label}
            </text>
          </g>
        ))}
      </g>
      {l.rows.map((r) => {
        const color = tigonEventColor(r.event);
        const mid = r.y + r.h / 2;
        return (
          <g
            key={r.name}
            data-testid="profile-row"
            data-event={r.short}
            data-share={r.share.toFixed(4)}
            data-cpu={r.cpu}
          >
            <title>
              {`${r.label} (${r.short}): ${sharePct(r.share)} of handler time${runsText(r.runs)}, on ${cpuWords(r.cpu)}`}
            </title>
            <text x={l.labelW - 12} y={mid + 5} textAnchor="end" className="prof-label">
              <tspan className="prof-short">{r.short}</tspan>
              {full ? ` ${r.label}` : ''}
            </text>
            <rect
              x={r.x0}
              y={r.y}
              width={Math.max(1, r.x1 - r.x0)}
              height={r.h}
              fill={color}
              className="prof-bar"
            />
            {r.ticks.map((t, i) => (
              <line
                key={i}
                x1={t.x}
                x2={t.x}
                y1={r.y - 4}
                y2={r.y + r.h + 4}
                className={`prof-ref${t.ref.pass ? '' : ' fail'}`}
                data-testid="profile-ref"
              >
                <title>{refTitle(t.ref, r.label)}</title>
              </line>
            ))}
            <text x={r.labelX} y={mid + 5} className="prof-value">
              <tspan className="prof-pct">{sharePct(r.share)}</tspan>
              {wide && (
                <tspan className="prof-extra">
                  {runsText(r.runs)} · {cpuWords(r.cpu)}
                </tspan>
              )}
            </text>
          </g>
        );
      })}
      {l.cpuBar && (
        <g data-testid="profile-cpu-bar" data-a={l.cpuBar.a.toFixed(4)}>
          <text
            x={l.labelW - 12}
            y={l.cpuBar.y + l.cpuBar.h / 2 + 5}
            textAnchor="end"
            className="prof-label"
          >
            <tspan className="prof-short">CPU A vs CPU B</tspan>
          </text>
          <text x={Math.min(l.cpuBar.x0, 8)} y={l.cpuBar.y - 10} className="prof-heading">
            Share of handler time by CPU
          </text>
          <rect
            x={l.cpuBar.x0}
            y={l.cpuBar.y}
            width={Math.max(0, l.cpuBar.xSplit - l.cpuBar.x0)}
            height={l.cpuBar.h}
            fill={TIGON_CPU_COLORS[0]}
          />
          <rect
            x={l.cpuBar.xSplit}
            y={l.cpuBar.y}
            width={Math.max(0, l.cpuBar.x1 - l.cpuBar.xSplit)}
            height={l.cpuBar.h}
            fill={TIGON_CPU_COLORS[1]}
          />
          {l.cpuBar.xSplit - l.cpuBar.x0 >= MIN_SEGMENT_TEXT_W && (
            <text
              x={l.cpuBar.x0 + 10}
              y={l.cpuBar.y + l.cpuBar.h / 2 + 5}
              className="prof-cpu-text"
              fill={inkOn(TIGON_CPU_COLORS[0])}
            >
              CPU A {sharePct(l.cpuBar.a)}
            </text>
          )}
          {l.cpuBar.x1 - l.cpuBar.xSplit >= MIN_SEGMENT_TEXT_W && (
            <text
              x={l.cpuBar.x1 - 10}
              y={l.cpuBar.y + l.cpuBar.h / 2 + 5}
              textAnchor="end"
              className="prof-cpu-text"
              fill={inkOn(TIGON_CPU_COLORS[1])}
            >
              CPU B {sharePct(1 - l.cpuBar.a)}
            </text>
          )}
          <line
            x1={l.cpuBar.refX}
            x2={l.cpuBar.refX}
            y1={l.cpuBar.y - 6}
            y2={l.cpuBar.y + l.cpuBar.h + 6}
            className="prof-thesis"
            data-testid="profile-thesis-mark"
          >
            <title>{`The thesis (PARALLEL, Table 3.4): CPU A ${Math.round(THESIS_CPU_A_SHARE * 100)}%, CPU B ${Math.round((1 - THESIS_CPU_A_SHARE) * 100)}%`}</title>
          </line>
          <text
            x={l.cpuBar.refX}
            y={l.cpuBar.y + l.cpuBar.h + 22}
            textAnchor="middle"
            className="prof-thesis-text"
          >
            thesis: A {Math.round(THESIS_CPU_A_SHARE * 100)}% / B{' '}
            {Math.round((1 - THESIS_CPU_A_SHARE) * 100)}%
          </text>
          {l.cpuBar.ticks.map((t, i) => (
            <line
              key={i}
              x1={t.x}
              x2={t.x}
              y1={l.cpuBar!.y - 6}
              y2={l.cpuBar!.y + l.cpuBar!.h + 6}
              className={`prof-ref${t.ref.pass ? '' : ' fail'}`}
              data-testid="profile-ref"
            >
              <title>{refTitle(t.ref, 'CPU A share')}</title>
            </line>
          ))}
        </g>
      )}
    </svg>
  );
}

function firmwareLine(model: ProfileModel): string {
  const name = (model.firmware ?? 'unknown').toUpperCase();
  switch (model.family) {
    case 'single':
      return `${name} firmware: every handler runs on CPU A`;
    case 'parallel':
      return `${name} firmware: CPUs as in Table 3.4`;
    case 'custom':
      return `${name} firmware: CPUs as the partition parameters say`;
    case 'dynamic':
      return `${name} firmware: either CPU runs any handler`;
    default:
      return `${name} firmware`;
  }
}

export function ProfileView() {
  const run = useRun();
  if (!run)
    return (
      <div className="placeholder">The handler profile appears when the simulation has run.</div>
    );
  return <ProfileRun run={run} />;
}

function ProfileRun({ run }: { run: DoneRun }) {
  const m = useMemo(() => profileModel(run.output), [run]);
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, m, 960, 320);
  if (!isProfile(m)) {
    const nicModel = paramAt(run.output.parameters, 'system.nic.model');
    const text =
      m === 'not-tigon' ? (
        <>
          This run does not use the Tigon
          {typeof nicModel === 'string' ? ` (the NIC model is “${nicModel}”)` : ''}, so there are no
          firmware handlers to profile. Set <code>system.nic.model</code> to <code>tigon</code>.
        </>
      ) : m === 'no-profile' ? (
        <>The core reported no handler shares (tigon_share_…) for this run.</>
      ) : (
        <>No firmware handler ran in the measured window, so there are no shares to compare.</>
      );
    return (
      <p className="tg-message" data-testid="profile-message">
        {text}
      </p>
    );
  }
  const hasRefs = m.rows.some((r) => r.references.length > 0) || m.cpuReferences.length > 0;
  return (
    <div className="profile" data-testid="profile-view" ref={ref}>
      <p className="tg-sub">
        <b>{firmwareLine(m)}.</b> Each handler&apos;s share of the firmware&apos;s time in the
        measured window, largest first, as in Fig 3.5 of the thesis.
      </p>
      <ProfileSvg model={m} width={width} />
      <ul className="legend prof-key">
        {hasRefs && (
          <li>
            <span className="ref-mark" aria-hidden="true" /> the scenario&apos;s reference value
            (red when the simulated value misses it)
          </li>
        )}
        {m.cpuAShare !== null && (
          <li>
            <span className="thesis-mark" aria-hidden="true" /> the thesis&apos;s split under
            PARALLEL firmware: CPU A {Math.round(THESIS_CPU_A_SHARE * 100)}%, CPU B{' '}
            {Math.round((1 - THESIS_CPU_A_SHARE) * 100)}%
          </li>
        )}
      </ul>
    </div>
  );
}
