// Every preset's text at once, for tests that need them all synchronously. The app never imports
// this module (scenarios.test.ts checks): it loads a preset's text with its page (index.ts).
import { parseScenarioFiles } from './parse';
import type { ScenarioEntry } from './types';

const files = import.meta.glob<string>(
  ['../../scenarios/*.json', '!../../scenarios/*.schema.json'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);

const parsed = parseScenarioFiles(files);

export const SCENARIOS: readonly ScenarioEntry[] = parsed.entries;
export const SCENARIO_PROBLEMS: readonly string[] = parsed.problems;

export function scenarioById(id: string): ScenarioEntry | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
