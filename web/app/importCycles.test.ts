// No cycle of value imports among web/'s modules. Features are used through their index.ts, and
// an index that pulls in a component which imports another feature's index can close a loop; in
// a loop a module may run before one it reads at its top level (a constant read as undefined:
// the playback speed once became NaN that way). Type-only imports are erased and do not count.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm' && name !== 'node_modules' && name !== 'scripts') sources(p, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"](\.[^'"]+)['"]/g;

/** The value imports of one module, resolved to files. */
function valueImports(file: string, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (m[1]) continue;
    const clause = m[2]!.trim();
    const names = clause.startsWith('{') ? clause.slice(1, -1).split(',') : [clause];
    if (names.map((n) => n.trim()).every((n) => !n || n.startsWith('type '))) continue;
    const base = path.resolve(path.dirname(file), m[3]!);
    const hit = ['.ts', '.tsx', '/index.ts'].map((e) => base + e).find((c) => known.has(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** The first cycle found by depth-first search, as a list of files, or null. */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (v: string): string[] | null => {
    state.set(v, 'open');
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (state.get(w) === 'open') return [...stack.slice(stack.indexOf(w)), w];
      if (!state.has(w)) {
        const c = visit(w);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(v, 'done');
    return null;
  };
  for (const v of graph.keys()) {
    if (state.has(v)) continue;
    const c = visit(v);
    if (c) return c;
  }
  return null;
}

describe('web/ module graph', () => {
  it('finds a planted cycle', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycle(g)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', ['b']]]))).toBeNull();
  });

  it('has no cycle of value imports', () => {
    const files = sources(WEB);
    const known = new Set(files);
    const graph = new Map(files.map((f) => [f, valueImports(f, known)]));
    const cycle = findCycle(graph)?.map((f) => path.relative(WEB, f));
    expect(cycle ?? null).toBeNull();
  });
});
