// Reading the scenario files' texts into entries: the build's preset catalogue (catalogPlugin.ts),
// a preset loaded with its page (index.ts) and the tests' eager list (eager.ts) all read them so.
import type { Scenario, ScenarioEntry } from './types';

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
