import { useEffect, useId, useMemo, useState } from 'react';
import { PRESET_TAGS, loadPreset } from '../scenarios';
import type { PresetCard } from '../scenarios/types';
import {
  GROUPS,
  allTags,
  filterFromHash,
  groupOf,
  hashForFilter,
  matches,
  paperOfCard,
  startStepOf,
  visibleTags,
  type GalleryFilter,
} from './galleryPath';
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

/**
 * A pointer or the focus on a card: fetch the page's code and the preset's file before the click
 * asks for them.
 */
function prefetchPage(e: { target: EventTarget }) {
  const el = e.target instanceof Element ? e.target.closest('a') : null;
  if (!el) return;
  if (el.classList.contains('card-ab')) void loadAbPage();
  else if (el.classList.contains('card')) void loadScenarioPage();
  else return;
  if (el.dataset.preset) void loadPreset(el.dataset.preset);
}

interface Props {
  scenarios: readonly PresetCard[];
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
        <GalleryPath scenarios={scenarios} />
      )}
      <PredictionTally />
    </div>
  );
}

/** The filter lives in the address ("#/?tag=…&q=…") so a filtered gallery can be shared. */
function useGalleryFilter(): [GalleryFilter, (f: GalleryFilter) => void] {
  const [filter, setFilterState] = useState(() => filterFromHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setFilterState(filterFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const setFilter = (f: GalleryFilter) => {
    setFilterState(f);
    // replaceState: typing a search is not a page of history, and fires no hashchange.
    const url = `${window.location.pathname}${window.location.search}${hashForFilter(f)}`;
    window.history.replaceState(window.history.state, '', url);
  };
  return [filter, setFilter];
}

function GalleryPath({ scenarios }: { scenarios: readonly PresetCard[] }) {
  const [filter, setFilter] = useGalleryFilter();
  const searchId = useId();
  const tagId = useId();
  const tags = useMemo(() => allTags(scenarios, PRESET_TAGS), [scenarios]);
  const filtering = filter.tag !== '' || filter.q.trim() !== '';
  const shown = scenarios.filter((s) => matches(s.scenario, filter));
  const start = scenarios
    .filter((s) => startStepOf(s.scenario) !== undefined)
    .sort((a, b) => startStepOf(a.scenario)! - startStepOf(b.scenario)!);
  const groups = GROUPS.map((g) => ({
    group: g,
    entries: shown.filter((s) => groupOf(s.scenario)?.id === g.id),
  }));
  const other = shown.filter((s) => !groupOf(s.scenario));
  return (
    <>
      {!filtering && (
        <section className="start-here" aria-labelledby="start-here-title">
          <h2 id="start-here-title">Start here</h2>
          <p className="muted">
            From one packet leaving the host to a whole server: each step adds one part of the
            machine.
          </p>
          <ol className="start-steps">
            {start.map((s) => (
              <li key={s.id}>
                <a href={scenarioHref(s.id)} data-testid={`start-${s.id}`}>
                  <span className="start-title">{s.scenario.title}</span>
                  <span className="start-group">{groupOf(s.scenario)?.title}</span>
                </a>
              </li>
            ))}
          </ol>
        </section>
      )}
      <div role="search" className="gallery-filter" aria-label="Filter the scenarios">
        <label htmlFor={searchId}>Search</label>
        <input
          id={searchId}
          type="search"
          value={filter.q}
          placeholder="title, summary or tag"
          onChange={(e) => setFilter({ ...filter, q: e.target.value })}
          data-testid="gallery-search"
        />
        <label htmlFor={tagId}>Tag</label>
        <select
          id={tagId}
          value={filter.tag}
          onChange={(e) => setFilter({ ...filter, tag: e.target.value })}
          data-testid="gallery-tag"
        >
          <option value="">any tag</option>
          {tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <span role="status" className="gallery-count muted" data-testid="gallery-count">
          {filtering
            ? `${shown.length} of ${scenarios.length} scenarios`
            : `${scenarios.length} scenarios`}
        </span>
        {filtering && (
          <button type="button" className="btn" onClick={() => setFilter({ tag: '', q: '' })}>
            Clear
          </button>
        )}
      </div>
      {shown.length === 0 && (
        <p className="empty">No scenario matches. Clear the filter to see all.</p>
      )}
      {groups.map(
        ({ group, entries }) =>
          entries.length > 0 && (
            <section key={group.id} className="gallery-group" aria-labelledby={`group-${group.id}`}>
              <h2 id={`group-${group.id}`}>{group.title}</h2>
              <p className="muted group-blurb">{group.blurb}</p>
              <Cards entries={entries} label={group.title} />
            </section>
          ),
      )}
      {other.length > 0 && (
        <section className="gallery-group" aria-labelledby="group-other">
          <h2 id="group-other">Other scenarios</h2>
          <Cards entries={other} label="Other scenarios" />
        </section>
      )}
    </>
  );
}

/** Step-by-step presets first within a group, then by title (the order they come in). */
function cardOrder(a: PresetCard, b: PresetCard): number {
  const sa = startStepOf(a.scenario) ?? Infinity;
  const sb = startStepOf(b.scenario) ?? Infinity;
  if (sa !== sb) return sa - sb;
  const ka = visibleTags(a.scenario).includes('step by step') ? 0 : 1;
  const kb = visibleTags(b.scenario).includes('step by step') ? 0 : 1;
  // Else as they come: the presets are in title order (the build's), and the sort is stable.
  return ka - kb;
}

function Cards({ entries, label }: { entries: readonly PresetCard[]; label: string }) {
  return (
    <ul className="cards" aria-label={label} onPointerOver={prefetchPage} onFocus={prefetchPage}>
      {[...entries].sort(cardOrder).map((s) => {
        const paper = paperOfCard(s);
        const step = startStepOf(s.scenario);
        return (
          <li key={s.id} className="card-cell">
            <a
              className="card"
              href={scenarioHref(s.id)}
              data-testid={`card-${s.id}`}
              data-preset={s.id}
            >
              <span className="card-title">
                {step !== undefined && (
                  <span className="card-step" title="A step of the start-here path">
                    <span className="sr-only">Start here, step </span>
                    {step}
                  </span>
                )}
                {s.scenario.title}
              </span>
              <span className="card-summary">{s.scenario.summary}</span>
              <span className="card-foot">
                <span className="tags">
                  {visibleTags(s.scenario).map((t) => (
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
                {paper && (
                  <cite className="card-cite" data-testid={`cite-${s.id}`} title={paper.full}>
                    {paper.short}
                  </cite>
                )}
              </span>
              <span className="card-open" aria-hidden="true">
                Open →
              </span>
            </a>
            <AbLink entry={s} />
          </li>
        );
      })}
    </ul>
  );
}

/** The A/B view of a scenario whose file declares a comparison. */
function AbLink({ entry }: { entry: PresetCard }) {
  const c = comparisonOf(entry.scenario);
  if (!c) return null;
  return (
    <a
      className="card-ab"
      href={abHref(entry.id)}
      data-testid={`card-ab-${entry.id}`}
      data-preset={entry.id}
      aria-label={`A/B view of ${entry.scenario.title}: ${c.a.label} against ${c.b.label}`}
      title={`${c.a.label} against ${c.b.label}, side by side with the same seed`}
    >
      A/B view →
    </a>
  );
}
