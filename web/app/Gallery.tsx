import type { ScenarioEntry } from '../scenarios/types';
import { abHref, scenarioHref } from './route';
import { comparisonOf } from '../compare';
import {
  FileDropZone,
  FileProblemPanel,
  useFileDrop,
  useScenarioFileOpener,
} from './OpenScenarioFile';
import { loadAbPage, loadScenarioPage } from './routeChunks';
import { PredictionTally } from './PredictionTally';

/** A pointer or the focus on a card: fetch the page's code before the click asks for it. */
function prefetchPage(e: { target: EventTarget }) {
  const el = e.target instanceof Element ? e.target.closest('a') : null;
  if (!el) return;
  if (el.classList.contains('card-ab')) void loadAbPage();
  else if (el.classList.contains('card')) void loadScenarioPage();
}

interface Props {
  scenarios: readonly ScenarioEntry[];
  /** Why the address fell back to the gallery. */
  problem?: string;
  loadProblems?: readonly string[];
}

const VIEW_LABELS: Record<string, string> = {
  diagram: 'system diagram',
  rings: 'rings',
  chart: 'chart',
  events: 'event log',
  waveform: 'bus waveform',
  bus: 'bus utilisation',
  request: 'request path',
};

export function Gallery({ scenarios, problem, loadProblems = [] }: Props) {
  const opener = useScenarioFileOpener();
  const drop = useFileDrop(opener);
  return (
    <div className={`gallery ${drop.over ? 'drop-over' : ''}`} {...drop.handlers}>
      {problem && (
        <div className="notice notice-error" role="alert" data-testid="route-problem">
          <strong>Page not found.</strong> {problem}
        </div>
      )}
      <div className="gallery-top">
        <section className="gallery-intro">
          <h1>Watch a packet cross the machine</h1>
          <p>
            Each scenario runs the simulator on a server with a descriptor-ring network interface:
            the driver posts descriptors, the NIC fetches them and the data by DMA over the I/O bus,
            frames cross the Ethernet wire, and interrupts tell the host what has been done. Pick a
            scenario, press play, and step through the events.
          </p>
        </section>
        <FileDropZone opener={opener} over={drop.over} />
      </div>
      {opener.problem && <FileProblemPanel problem={opener.problem} onDismiss={opener.dismiss} />}
      {loadProblems.length > 0 && (
        <div className="notice notice-warn" role="status">
          Some scenario files could not be read: {loadProblems.join('; ')}
        </div>
      )}
      {scenarios.length === 0 ? (
        <p className="empty">No scenarios are bundled with this build.</p>
      ) : (
        <ul
          className="cards"
          aria-label="Scenarios"
          onPointerOver={prefetchPage}
          onFocus={prefetchPage}
        >
          {scenarios.map((s) => (
            <li key={s.id} className="card-cell">
              <a className="card" href={scenarioHref(s.id)} data-testid={`card-${s.id}`}>
                <span className="card-title">{s.scenario.title}</span>
                <span className="card-summary">{s.scenario.summary}</span>
                <span className="card-foot">
                  <span className="tags">
                    {(s.scenario.tags ?? []).map((t) => (
                      <span className="tag" key={t}>
                        {t}
                      </span>
                    ))}
                  </span>
                  {s.scenario.views && s.scenario.views.length > 0 && (
                    <span className="card-views">
                      {s.scenario.views.map((v) => VIEW_LABELS[v] ?? v).join(' · ')}
                    </span>
                  )}
                </span>
                <span className="card-open" aria-hidden="true">
                  Open →
                </span>
              </a>
              <AbLink entry={s} />
            </li>
          ))}
        </ul>
      )}
      <PredictionTally />
    </div>
  );
}

/** The A/B view of a scenario whose file declares a comparison. */
function AbLink({ entry }: { entry: ScenarioEntry }) {
  const c = comparisonOf(entry.scenario);
  if (!c) return null;
  return (
    <a
      className="card-ab"
      href={abHref(entry.id)}
      data-testid={`card-ab-${entry.id}`}
      aria-label={`A/B view of ${entry.scenario.title}: ${c.a.label} against ${c.b.label}`}
      title={`${c.a.label} against ${c.b.label}, side by side with the same seed`}
    >
      A/B view →
    </a>
  );
}
