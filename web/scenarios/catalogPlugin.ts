// The preset catalogue as a module of the build ("virtual:nicsim-presets"): each preset's card,
// read from scenarios/*.json when the app is built (or served, or tested), so the gallery, the
// links and the footer have what they need without the 58 files' texts in the first script
// (they load with their pages: index.ts). No copy of the files' fields is kept by hand.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { allTags, paperOf } from '../app/galleryPath.ts';
import { parseScenarioFiles } from './parse.ts';
import type { PresetCard, PresetCatalogue, ScenarioEntry } from './types';

export const PRESETS_MODULE = 'virtual:nicsim-presets';
const RESOLVED = `\0${PRESETS_MODULE}`;

/** A preset's card: the few fields the first script reads, from its whole file. */
export function cardOf(entry: ScenarioEntry): PresetCard {
  const s = entry.scenario;
  // The steps of its guided tour ("tour": [steps]), which a link's tour step is checked against.
  const tour = Array.isArray(s.tour) && s.tour.length > 0 ? s.tour.length : null;
  return {
    id: entry.id,
    file: entry.file,
    scenario: {
      id: s.id,
      title: s.title,
      summary: s.summary,
      ...(s.tags !== undefined ? { tags: s.tags } : {}),
      ...(s.views !== undefined ? { views: s.views } : {}),
      ...(s.compare !== undefined ? { compare: s.compare } : {}),
    },
    tour,
    paper: paperOf(s)?.seed ?? null,
  };
}

/** The catalogue of the scenario files in `dir` (the schema aside). */
export function presetCatalogue(dir: string): PresetCatalogue {
  const raw: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.json') && !f.endsWith('.schema.json'))
      raw[f] = readFileSync(path.join(dir, f), 'utf8');
  }
  const { entries, problems } = parseScenarioFiles(raw);
  const cards = entries.map(cardOf);
  return { cards, problems, tags: allTags(cards) };
}

/** `dir`: the scenarios folder. */
export function presetCataloguePlugin(dir: string): Plugin {
  const isScenarioFile = (f: string) =>
    path.dirname(path.resolve(f)) === path.resolve(dir) && f.endsWith('.json');
  return {
    name: 'nicsim-preset-catalogue',
    resolveId(id) {
      return id === PRESETS_MODULE ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const catalogue = presetCatalogue(dir);
      for (const c of catalogue.cards) this.addWatchFile(path.join(dir, c.file));
      return `export default ${JSON.stringify(catalogue)};`;
    },
    // A scenario file added, changed or removed while the dev server runs: the catalogue again.
    configureServer(server) {
      server.watcher.add(dir);
      const changed = (f: string) => {
        if (!isScenarioFile(f)) return;
        const mod = server.moduleGraph.getModuleById(RESOLVED);
        if (!mod) return;
        server.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('add', changed);
      server.watcher.on('change', changed);
      server.watcher.on('unlink', changed);
    },
  };
}
