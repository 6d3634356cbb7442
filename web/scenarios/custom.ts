// Scenario files the user opens ("Open a scenario file…"). They are not presets: they live in
// this tab only (memory, mirrored to sessionStorage so a reload keeps the page) and open at
// #/file/<id>. The core validates the text; the UI only reads a file that the core accepted.
import { EnginePool } from '../engine/pool';
import type { ValidationError } from '../engine/types';
import type { Scenario, ScenarioEntry } from './types';
import { changes } from './changes';

/** Largest scenario file the app reads. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

const STORAGE_PREFIX = 'nicsim.file.';

const entries = new Map<string, ScenarioEntry>();
const fileChanges = changes();
let loads = 0;

export const subscribeCustom = fileChanges.subscribe;

/** Changes whenever a file is opened (for useSyncExternalStore). */
export const customVersion = fileChanges.version;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Builds the entry of a file the core has accepted. */
export function customEntry(text: string, fileName: string): ScenarioEntry {
  const scenario = JSON.parse(text) as Scenario;
  return {
    id: String(scenario.id),
    text,
    scenario: {
      ...scenario,
      title: typeof scenario.title === 'string' ? scenario.title : String(scenario.id),
      summary: typeof scenario.summary === 'string' ? scenario.summary : '',
    },
    file: fileName,
    origin: 'file',
    loadId: ++loads,
  };
}

export function saveCustom(entry: ScenarioEntry): void {
  entries.set(entry.id, entry);
  try {
    storage()?.setItem(
      STORAGE_PREFIX + entry.id,
      JSON.stringify({ text: entry.text, file: entry.file }),
    );
  } catch {
    // Storage full or disabled: the file still opens, it just does not survive a reload.
  }
  fileChanges.notify();
}

export function customById(id: string): ScenarioEntry | undefined {
  const known = entries.get(id);
  if (known) return known;
  try {
    const raw = storage()?.getItem(STORAGE_PREFIX + id);
    if (!raw) return undefined;
    const { text, file } = JSON.parse(raw) as { text: string; file: string };
    const entry = customEntry(text, file);
    if (entry.id !== id) return undefined;
    entries.set(id, entry);
    return entry;
  } catch {
    return undefined;
  }
}

export function fileHref(id: string): string {
  return `#/file/${encodeURIComponent(id)}`;
}

export type FileCheck =
  { ok: true; entry: ScenarioEntry } | { ok: false; message: string; errors: ValidationError[] };

/** "2.4 MB", "812 KB". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/** The size check, before the file is read. */
export function sizeProblem(name: string, size: number): string | null {
  if (size <= MAX_SCENARIO_FILE_BYTES) return null;
  return `“${name}” is ${formatBytes(size)}; scenario files can be at most 1 MB. Nothing was opened.`;
}

let checker: EnginePool | null = null;

/**
 * An engine pool of its own (one worker, from the module the app compiled once), so that
 * checking a file neither waits for nor cancels the scenario page's run.
 */
function fileChecker(): EnginePool {
  checker ??= new EnginePool(1);
  return checker;
}

export interface FileLike {
  name: string;
  size: number;
  text(): Promise<string>;
}

/** Reads a file, asks the core to validate it, and builds its entry when it is valid. */
export async function checkScenarioFile(
  file: FileLike,
  validate: (text: string) => Promise<ValidationError[]> = (t) => fileChecker().validate(t),
): Promise<FileCheck> {
  const tooBig = sizeProblem(file.name, file.size);
  if (tooBig) return { ok: false, message: tooBig, errors: [] };
  let text: string;
  try {
    text = await file.text();
  } catch (err) {
    return {
      ok: false,
      message: `“${file.name}” could not be read: ${err instanceof Error ? err.message : String(err)}`,
      errors: [],
    };
  }
  let errors: ValidationError[];
  try {
    errors = await validate(text);
  } catch (err) {
    return {
      ok: false,
      message: `The engine could not check “${file.name}”: ${err instanceof Error ? err.message : String(err)}`,
      errors: [],
    };
  }
  if (errors.length > 0) {
    return {
      ok: false,
      message: `The engine rejected “${file.name}” (${errors.length} problem${errors.length === 1 ? '' : 's'}).`,
      errors,
    };
  }
  try {
    return { ok: true, entry: customEntry(text, file.name) };
  } catch (err) {
    // The core accepted it, so this should not happen; say so rather than fail silently.
    return {
      ok: false,
      message: `“${file.name}” was accepted by the engine but could not be read here: ${err instanceof Error ? err.message : String(err)}`,
      errors: [],
    };
  }
}
