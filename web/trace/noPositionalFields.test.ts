// Trace records are read by field name, through the accessors generated from
// core-cpp/trace/trace_kinds.json (web/trace/records.gen.ts), never by column (.a … .e): a column
// means something different for every kind. eslint.config.js has the same rule; this test makes
// `npm test` fail too. Only the decoder (web/trace/trace.ts) and web/trace/ see the columns;
// tests may build and read traces by column.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const rel = path.relative(WEB, p).split(path.sep).join('/');
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm' && name !== 'node_modules' && rel !== 'trace') sources(p, out);
    } else if (
      /\.(ts|tsx)$/.test(name) &&
      !/\.test\.tsx?$/.test(name) &&
      rel !== 'trace/trace.ts'
    ) {
      out.push(p);
    }
  }
  return out;
}

// A trace is named trace, tr, t or *trace*/*Trace* (idx.trace, traceA, …) throughout web/.
const TRACE = String.raw`(?:\bt|\btr|\w*[tT]race\w*)`;
const POSITIONAL: Array<[string, RegExp]> = [
  ['a column read (trace.a)', new RegExp(String.raw`${TRACE}\s*\.\s*[a-e]\b(?!\s*[:(])`)],
  ['a column read (trace["a"])', new RegExp(String.raw`${TRACE}\s*\[\s*['"][a-e]['"]\s*\]`)],
  [
    'columns destructured from a trace',
    new RegExp(String.raw`\{[^{}]*\b[a-e]\b[^{}]*\}\s*=\s*(?:\w+\.)?${TRACE}\s*[;\n]`),
  ],
];

/** The source without comments (a comment may name a column). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function offences(text: string): string[] {
  const src = code(text);
  return POSITIONAL.filter(([, re]) => re.test(src)).map(([what]) => what);
}

describe('no code in web/ reads a trace field by its column', () => {
  it('the check sees a planted read', () => {
    expect(offences('const x = trace.a[i]!;')).toEqual(['a column read (trace.a)']);
    expect(offences('const y = idx.trace.d[rec]!;')).toHaveLength(1);
    expect(offences("const z = tr['e'][i];")).toEqual(['a column read (trace["a"])']);
    expect(offences('const { time, a, b } = trace;\n')).toEqual([
      'columns destructured from a trace',
    ]);
    expect(offences('// trace.a[i] in a comment\nconst w = DmaQueued.dma(trace, i);')).toEqual([]);
    expect(offences('const v = cmp.a.label + stores.b;')).toEqual([]);
  });

  const files = sources(WEB);
  it('finds the sources', () => expect(files.length).toBeGreaterThan(50));
  for (const f of files) {
    const rel = path.relative(WEB, f);
    it(rel, () => expect(offences(readFileSync(f, 'utf8'))).toEqual([]));
  }
});
