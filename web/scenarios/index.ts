// The preset scenarios: their catalogue, built from the repository's scenarios/ folder with the
// app (catalogPlugin.ts), and each file's text, loaded when a page opens the preset. The texts
// are most of the app's script by size; parsed all at start they delayed a preset's first view.
import catalogue from 'virtual:nicsim-presets';
import { parseScenarioFiles } from './parse';
import type { PresetCard, PresetCatalogue, ScenarioEntry } from './types';
import { changes } from './changes';

const CATALOGUE = catalogue as PresetCatalogue;

// Both in the order the build gave them (collated by Node's ICU): sorting again here would be
// the page's first collation, which costs about 40 ms while the page opens (loading the
// collation data), measured in headless Chromium here.
/** Every preset's card, in title order. */
export const PRESETS: readonly PresetCard[] = CATALOGUE.cards;
/** Every tag the presets' cards show, in allTags' order. */
export const PRESET_TAGS: readonly string[] = CATALOGUE.tags;
/** The scenario files the build could not read. */
export const PRESET_PROBLEMS: readonly string[] = CATALOGUE.problems;

export function presetCard(id: string): PresetCard | undefined {
  return PRESETS.find((c) => c.id === id);
}

// One small chunk per file, fetched on demand.
const texts = import.meta.glob<string>(
  ['../../scenarios/*.json', '!../../scenarios/*.schema.json'],
  { query: '?raw', import: 'default' },
);

const loaded = new Map<string, ScenarioEntry>();
const failed = new Map<string, string>();
const loading = new Map<string, Promise<ScenarioEntry | undefined>>();
const presetChanges = changes();

/** Calls `l` whenever a preset has loaded or failed to (for useSyncExternalStore). */
export const subscribePresets = presetChanges.subscribe;

/** Changes whenever a preset has loaded or failed to. */
export const presetsVersion = presetChanges.version;

/** A preset's entry once its file has loaded; undefined before, and for an unknown id. */
export function presetEntry(id: string): ScenarioEntry | undefined {
  return loaded.get(id);
}

/** Why a preset's file could not be loaded, if it could not. */
export function presetFailure(id: string): string | undefined {
  return failed.get(id);
}

/**
 * Loads a preset's file (once; every caller shares the load). Resolves with its entry, or
 * undefined for an unknown id or a file that could not be loaded (presetFailure says why).
 */
export function loadPreset(id: string): Promise<ScenarioEntry | undefined> {
  const known = loaded.get(id);
  if (known) return Promise.resolve(known);
  const pending = loading.get(id);
  if (pending) return pending;
  const card = presetCard(id);
  const path = card && `../../scenarios/${card.file}`;
  const load = path ? texts[path] : undefined;
  if (!card || !load) return Promise.resolve(undefined);
  // The file's entry, or why there is none.
  const p = load()
    .then(
      (text) =>
        parseScenarioFiles({ [path!]: text }).entries[0] ?? `${card.file} could not be read`,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    )
    .then((result) => {
      loading.delete(id);
      if (typeof result === 'string') failed.set(id, result);
      else {
        loaded.set(id, result);
        failed.delete(id);
      }
      presetChanges.notify();
      return typeof result === 'string' ? undefined : result;
    });
  loading.set(id, p);
  return p;
}
