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
