// The server's bottleneck (the thesis §4.2, §4.5): the busy fractions of the PCI bus, the host CPU
// and the disk over the measured window, the busiest named as the core names it
// (web_bottleneck), and why in the thesis's terms. The bus bar is split into the cycle categories
// of Figs 4.6/4.7 (as the bus view shows them). With a sweep, a table gives each point's
// bottleneck; the run shown is the sweep point picked (model/bottleneck.ts).
import { useRun } from '../run/store';
import {
  RESOURCES,
  RESOURCE_LABELS,
  bottleneckOf,
  describeBottleneck,
  sweepBottlenecks,
  thesisNote,
  type Bottleneck,
  type Resource,
} from './bottleneck';
import { barFromResults, stackSegments, type UtilBar } from '../bus';
import { paramAt, type RunOutput } from '../engine/types';
import { formatNumber } from '../kit/format';
import { ALERT, BUS_CATEGORY_COLORS, CPU_TASK_COLORS, DISK_COLOR } from '../kit/palette';
import { SweepPointPicker, sweepPointLabel } from '../charts';
import './request.css';

export const RESOURCE_COLORS: Record<Resource, string> = {
  bus: BUS_CATEGORY_COLORS[0]!,
  cpu: CPU_TASK_COLORS[0],
  disk: DISK_COLOR,
};

const pct = (v: number) => `${formatNumber(+(v * 100).toFixed(1))}%`;

const BAR_W = 420;
const BAR_H = 22;

/** One resource's busy fraction; the bus's split into its cycle categories when known. */
function UtilRow({ r, b, bus }: { r: Resource; b: Bottleneck; bus: UtilBar | null }) {
  const u = Math.min(1, Math.max(0, b.utilization[r]));
  const limit = b.limit === r;
  return (
    <div
      className={`bn-row ${limit ? 'limit' : ''}`}
      data-testid={`bottleneck-${r}`}
      data-utilization={b.utilization[r].toFixed(4)}
    >
      <span className="bn-label">
        {RESOURCE_LABELS[r]}
        {limit && <span className="bn-tag">bottleneck</span>}
      </span>
      <svg
        viewBox={`0 0 ${BAR_W} ${BAR_H}`}
        preserveAspectRatio="none"
        className="bn-bar"
        aria-hidden="true"
      >
        <rect x={0} y={0} width={BAR_W} height={BAR_H} rx={3} className="bn-track" />
        {r === 'bus' && bus ? (
          stackSegments(bus).map((s) => (
            <rect
              key={s.category}
              x={s.y0 * BAR_W}
              y={0}
              width={(s.y1 - s.y0) * BAR_W}
              height={BAR_H}
              fill={BUS_CATEGORY_COLORS[s.category]}
            />
          ))
        ) : (
          <rect x={0} y={0} width={u * BAR_W} height={BAR_H} fill={RESOURCE_COLORS[r]} />
        )}
        {limit && (
          <rect
            x={1}
            y={1}
            width={BAR_W - 2}
            height={BAR_H - 2}
            rx={3}
            fill="none"
            stroke={ALERT}
            strokeWidth={2.5}
          />
        )}
      </svg>
      <span className="bn-value mono">{pct(b.utilization[r])}</span>
    </div>
  );
}

function SweepTable({ output }: { output: RunOutput }) {
  const points = sweepBottlenecks(output.sweep);
  const param = output.sweep_spec?.parameter;
  if (!param || points.length < 2) return null;
  const series = output.sweep_spec?.series_parameter ?? null;
  const current = paramAt(output.parameters, param);
  const currentSeries = series ? paramAt(output.parameters, series) : undefined;
  return (
    <table className="bn-sweep" data-testid="bottleneck-sweep">
      <caption>Across the sweep (measured window of each run)</caption>
      <thead>
        <tr>
          <th scope="col">{series ? 'point' : 'sweep point'}</th>
          {RESOURCES.map((r) => (
            <th key={r} scope="col">
              {RESOURCE_LABELS[r]}
            </th>
          ))}
          <th scope="col">bottleneck</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => {
          const shown =
            String(p.value) === String(current) &&
            (!series || String(p.series) === String(currentSeries));
          return (
            <tr
              key={`${String(p.series)}:${String(p.value)}`}
              className={shown ? 'shown' : ''}
              aria-current={shown ? 'true' : undefined}
            >
              <th scope="row">
                {sweepPointLabel(param, p.value, output.parameters)}
                {series && p.series !== undefined ? ` · ${String(p.series)}` : ''}
              </th>
              {RESOURCES.map((r) => (
                <td key={r} className={`mono ${p.bottleneck.limit === r ? 'limit' : ''}`}>
                  {pct(p.bottleneck.utilization[r])}
                </td>
              ))}
              <td>{RESOURCE_LABELS[p.bottleneck.limit]}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function BottleneckView() {
  const run = useRun();
  if (!run)
    return <div className="placeholder">The bottleneck appears when the simulation has run.</div>;
  const b = bottleneckOf(run.output.results);
  if (!b)
    return (
      <div className="placeholder" data-testid="bottleneck-empty">
        This run reports no bus, CPU and disk busy fractions: the bottleneck panel reads the
        full-system web server.
      </div>
    );
  const r = run.output.results;
  const bus = barFromResults(r);
  const note = thesisNote(run.output.parameters);
  const description = describeBottleneck(b);
  return (
    <div
      className="bottleneck"
      data-testid="bottleneck-view"
      data-limit={b.limit}
      aria-describedby="bn-description"
    >
      <p id="bn-description" className="sr-only">
        {description}
      </p>
      <div className="bn-layout">
        <div className="bn-main">
          <div className="bn-name">
            Bottleneck: <b data-testid="bottleneck-name">{RESOURCE_LABELS[b.limit]}</b>
            <SweepPointPicker output={run.output} label="Run shown" />
          </div>
          <p className="bn-why" data-testid="bottleneck-why">
            {b.why}
          </p>
          <div className="bn-rows">
            {RESOURCES.map((res) => (
              <UtilRow key={res} r={res} b={b} bus={bus} />
            ))}
          </div>
          <p className="bn-facts small muted">
            Busy fractions of the measured window.
            {b.contentShare !== null && b.overheadShare !== null && (
              <>
                {' '}
                The bus&apos;s busy cycles: content {pct(b.contentShare)}, overhead{' '}
                {pct(b.overheadShare)} (the bus view splits them by category).
              </>
            )}
            {b.fileCacheHitRate !== null && <> File-cache hit rate {pct(b.fileCacheHitRate)}.</>}
            {b.contentReduction !== null && b.contentReduction > 0 && (
              <> The NIC cache sent {pct(b.contentReduction)} of the content.</>
            )}
            {r.web_throughput && (
              <> Throughput {formatNumber(+r.web_throughput.value.toFixed(1))} Mb/s of content.</>
            )}
          </p>
          {note && <p className="bn-thesis small">{note}</p>}
        </div>
        <SweepTable output={run.output} />
      </div>
    </div>
  );
}
