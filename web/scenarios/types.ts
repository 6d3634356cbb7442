// The parts of the scenario format (scenarios/*.json) the UI reads.

export interface ReferenceValue {
  id: string;
  source: string;
  description: string;
  metric?: string;
  at?: Record<string, unknown>;
  expected?: unknown;
  unit?: string;
  comparison?: string;
  tolerance?: number;
  kind?: string;
  /** A prediction that misses at steady state: why, from the mechanism. */
  known_miss?: string;
}

/** A note is a string, or an object that may mark the value as a modelling choice. */
export type ParameterNote =
  string | { note?: string; text?: string; source?: string; chosen?: boolean };

export interface ScenarioChart {
  x?: string;
  y: string;
  /** Further y metrics the viewer can switch the sweep chart to. */
  also?: string[];
  limit?: string;
}

/** A metric a tour step shows live: its name (the main run) or a sweep point's. */
export type TourMetric = string | { metric: string; at?: Record<string, unknown> };

/** A tour step's question to the class, the variant to run, and what to reveal. */
export interface TourPredict {
  question: string;
  choices?: string[];
  /** Parameter path → value: the variant "Run it" runs (the same overrides a knob sends). */
  set?: Record<string, unknown>;
  /** What happened; its numbers come from `metrics`, live from the run, never from this text. */
  reveal: string;
  metrics?: TourMetric[];
}

/** One step of a scenario's guided tour (validated by the core: scenario/tour.cpp). */
export interface TourStep {
  title: string;
  text: string;
  /** Cursor time, µs, within the scenario's trace window. */
  at_us?: number;
  /** Parts of the machine to highlight (core component names and the diagram's parts). */
  highlight?: string[];
  /** A view to scroll to (one the scenario opens). */
  view?: string;
  /** true (default): the step pauses playback; false: it plays from at_us. */
  pause?: boolean;
  metrics?: TourMetric[];
  predict?: TourPredict;
}

export interface Scenario {
  format?: number;
  id: string;
  title: string;
  summary: string;
  notice?: string[];
  tags?: string[];
  views?: string[];
  chart?: ScenarioChart;
  parameter_notes?: Record<string, ParameterNote>;
  reference?: ReferenceValue[];
  sweep?: {
    parameter: string;
    values: unknown[];
    series?: { parameter: string; values: unknown[] };
  };
  tour?: TourStep[];
  [key: string]: unknown;
}

export interface ScenarioEntry {
  id: string;
  /** The file's text exactly, sent to the engine as is. */
  text: string;
  scenario: Scenario;
  file: string;
  /** Where it comes from: a bundled preset (default) or a file the user opened. */
  origin?: 'preset' | 'file';
  /** For opened files: a number that changes each time a file is opened (to reopen the page). */
  loadId?: number;
}

/**
 * What the app's first script knows of a preset without loading its file: what its gallery card
 * shows, what a link to it is checked against, the paper it follows. Built from scenarios/*.json
 * when the app is built (catalogPlugin.ts); the file itself loads with its page (index.ts).
 */
export interface PresetCard {
  id: string;
  file: string;
  /** The file's fields a card shows and filters by, and its A/B block; nothing else. */
  scenario: Pick<Scenario, 'id' | 'title' | 'summary' | 'tags' | 'views'> & { compare?: unknown };
  /** Steps of its guided tour, or null without one. */
  tour: number | null;
  /** The seed number of the paper it follows (galleryPath's paperOf), or null. */
  paper: string | null;
}

/** The catalogue of the presets: their cards, in title order, and the files that could not be read. */
export interface PresetCatalogue {
  /** In title order (parseScenarioFiles'). */
  cards: PresetCard[];
  problems: string[];
  /** Every tag the cards show, in allTags' order. */
  tags: string[];
}

export interface NormalizedNote {
  text: string;
  chosen: boolean;
}

export function normalizeNote(n: ParameterNote | undefined): NormalizedNote | null {
  if (n === undefined || n === null) return null;
  if (typeof n === 'string') {
    const m = /^\s*\(?chosen\)?\s*[:—-]?\s*/i.exec(n);
    const chosen = !!m && m[0].length > 0 && /chosen/i.test(m[0]);
    return { text: chosen ? n.slice(m![0].length) : n, chosen };
  }
  const text = [n.note ?? n.text ?? '', n.source ?? ''].filter(Boolean).join(' — ');
  return { text, chosen: !!n.chosen };
}
