// The preset scenarios, bundled from the repository's scenarios/ folder.
import type { Scenario, ScenarioEntry } from './types';

const files = import.meta.glob<string>(
  ['../../scenarios/*.json', '!../../scenarios/*.schema.json'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);

export function parseScenarioFiles(raw: Record<string, string>): {
  entries: ScenarioEntry[];
  problems: string[];
} {
  const entries: ScenarioEntry[] = [];
  const problems: string[] = [];
  for (const [path, text] of Object.entries(raw)) {
    const file = path.slice(path.lastIndexOf('/') + 1);
    if (file.endsWith('.schema.json')) continue;
    try {
      const scenario = JSON.parse(text) as Scenario;
      if (typeof scenario.id !== 'string' || !scenario.id) {
        problems.push(`${file}: no "id"`);
        continue;
      }
      entries.push({ id: scenario.id, text, scenario, file });
    } catch (err) {
      problems.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  entries.sort((a, b) => a.scenario.title.localeCompare(b.scenario.title));
  return { entries, problems };
}

const parsed = parseScenarioFiles(files);

export const SCENARIOS: readonly ScenarioEntry[] = parsed.entries;
export const SCENARIO_PROBLEMS: readonly string[] = parsed.problems;

export function scenarioById(id: string): ScenarioEntry | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
