#!/usr/bin/env node
// Generates the trace contract's code from its one definition, core-cpp/trace/trace_kinds.json:
//   core-cpp/trace/gen/trace_kinds.gen.hpp  the C++ recording API (kinds, tables, one typed
//                                           record builder per kind)
//   web/trace/records.gen.ts                the TypeScript decoder's data and typed accessors
// Plain Node, no dependencies. Files are written only when their text changes, so builds that
// depend on them do not rebuild for nothing.
//   node core-cpp/scripts/gen-trace.mjs            write what is stale
//   node core-cpp/scripts/gen-trace.mjs --check    exit 1 when a file on disk is stale
//   ... --cpp-only / --ts-only                     limit to one output
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const DEFINITION = join(ROOT, 'core-cpp', 'trace', 'trace_kinds.json');
export const CPP_OUT = join(ROOT, 'core-cpp', 'trace', 'gen', 'trace_kinds.gen.hpp');
export const TS_OUT = join(ROOT, 'web', 'trace', 'records.gen.ts');
const REGENERATE = 'node core-cpp/scripts/gen-trace.mjs';
const COLUMNS = ['a', 'b', 'c', 'd', 'e'];
const TYPES = new Set(['u32', 'u64', 'enum', 'bits', 'component']);
const UNITS = new Set(['id', 'count', 'bytes', 'ps', 'ns', 'per-mille', 'index', 'value']);
// What a view needs besides a list of trace kinds.
const VIEW_NEEDS = new Set(['any record', 'series or sweep', 'never']);
const CPP_KEYWORDS = new Set(['register', 'delete', 'new', 'default', 'switch', 'case', 'class']);

/** "MAC receive queue" -> "mac_receive_queue". */
function snake(name) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
function camel(id) {
  return id.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** Checks the definition and lays its fields out on the five 32-bit columns. */
export function load(text) {
  const def = JSON.parse(text);
  const errors = [];
  const roles = new Set(def.roles);
  const kindNames = new Set();
  for (const [tname, t] of Object.entries(def.tables)) {
    if (!Array.isArray(t.entries) || t.entries.length === 0)
      errors.push(`table ${tname}: entries must be a non-empty list`);
  }
  def.kinds.forEach((k, id) => {
    k.id = id;
    if (!/^[A-Z][A-Za-z0-9]*$/.test(k.name)) errors.push(`kind ${id}: bad name ${k.name}`);
    if (kindNames.has(k.name)) errors.push(`kind ${k.name}: defined twice`);
    kindNames.add(k.name);
    let column = 0;
    const ids = new Set();
    for (const f of k.fields) {
      f.words = f.words ?? 1;
      f.column = column;
      column += f.words;
      f.cpp = f.id ?? snake(f.name);
      f.ts = camel(f.cpp);
      const where = `${k.name}.${f.name}`;
      if (ids.has(f.cpp)) errors.push(`${where}: two fields named ${f.cpp}`);
      ids.add(f.cpp);
      if (CPP_KEYWORDS.has(f.cpp)) errors.push(`${where}: ${f.cpp} is a C++ keyword; give an id`);
      if (!TYPES.has(f.type)) errors.push(`${where}: type must be one of ${[...TYPES]}`);
      if ((f.type === 'u64') !== (f.words === 2))
        errors.push(`${where}: u64 fields take two words, others one`);
      if (['enum', 'bits', 'component'].includes(f.type) && !def.tables[f.table])
        errors.push(`${where}: unknown table ${f.table}`);
      if (f.unit !== undefined && !UNITS.has(f.unit))
        errors.push(`${where}: unit must be one of ${[...UNITS]}`);
      if (f.role !== undefined && !roles.has(f.role))
        errors.push(`${where}: unknown role ${f.role}`);
    }
    if (column > 5) errors.push(`${k.name}: fields take ${column} words, a record has 5`);
  });
  const viewIds = new Set();
  for (const v of def.views ?? []) {
    if (!/^[a-z][a-z0-9]*$/.test(v.id ?? '')) errors.push(`view ${v.id}: bad id`);
    if (viewIds.has(v.id)) errors.push(`view ${v.id}: defined twice`);
    viewIds.add(v.id);
    if (typeof v.title !== 'string' || !v.title) errors.push(`view ${v.id}: no title`);
    if (Array.isArray(v.needs)) {
      for (const k of v.needs) if (!kindNames.has(k)) errors.push(`view ${v.id}: unknown kind ${k}`);
    } else if (!VIEW_NEEDS.has(v.needs)) {
      errors.push(`view ${v.id}: needs is a list of kinds or one of ${[...VIEW_NEEDS].join(', ')}`);
    }
  }
  if (errors.length) throw new Error(`${relative(ROOT, DEFINITION)}:\n  ${errors.join('\n  ')}`);
  return def;
}

const cstr = (s) => JSON.stringify(s); // JSON strings are valid C++ string literals for our text

// ---------------------------------------------------------------------------------------------
// C++

function cppFieldType(def, f) {
  if (f.type === 'u64') return 'std::uint64_t';
  if (f.type === 'enum' && def.tables[f.table].cpp) return `::nicsim::${def.tables[f.table].cpp}`;
  return 'std::uint32_t';
}

export function generateCpp(def) {
  const o = [];
  o.push(
    `// Generated by core-cpp/scripts/gen-trace.mjs from core-cpp/trace/trace_kinds.json: do not`,
    `// edit (the build regenerates it; by hand: ${REGENERATE}).`,
    `#pragma once`,
    `#include <cstdint>`,
    ``,
    `namespace nicsim {`,
    ``,
    `// Kind ids are positions in the definition: append only (saved traces and links use them).`,
    `enum class TraceKind : std::uint16_t {`,
  );
  for (const k of def.kinds) o.push(`  ${k.name} = ${k.id},`);
  o.push(`  Count = ${def.kinds.length}`, `};`, ``);
  o.push(`inline constexpr const char* kTraceKindNames[] = {`);
  for (const k of def.kinds) o.push(`    ${cstr(k.name)},`);
  o.push(`};`, ``);

  for (const [tname, t] of Object.entries(def.tables)) {
    const names = t.entries.map((e) => e[0]);
    const texts = t.entries.map((e) => e[1] ?? e[0]);
    o.push(`// Table ${tname}: ${t.doc}`);
    if (t.cpp) {
      o.push(`enum class ${t.cpp} : std::uint16_t {`);
      names.forEach((n, i) => o.push(`  ${n} = ${i},`));
      o.push(`  Count = ${names.length}`, `};`);
    }
    const cname = tname[0].toUpperCase() + tname.slice(1);
    o.push(`inline constexpr int k${cname}Count = ${names.length};`);
    o.push(`inline constexpr const char* k${cname}Ids[] = {${names.map(cstr).join(', ')}};`);
    o.push(`inline constexpr const char* k${cname}Names[] = {${texts.map(cstr).join(', ')}};`);
    o.push(``);
  }
  // The component list as an X-macro, for code that walks it (the tour's part names).
  o.push(`#define NICSIM_COMPONENTS(X) \\`);
  o.push(
    def.tables.component.entries.map((e) => `  X(${e[0]}, ${cstr(e[1])})`).join(' \\\n') + '\n',
  );

  o.push(
    `// One record builder per kind: set fields by name, then hand it to TraceRecorder::record or`,
    `// SimContext::record with the component and the cause id, e.g.`,
    `//   ctx.record(Component::Nic, rec::MacTxStart().packet(p).frame_bytes(n), cause);`,
    `namespace rec {`,
    ``,
  );
  for (const k of def.kinds) {
    o.push(`// ${k.step ? `${k.step}: ` : ''}${k.doc}.`);
    if (k.note) o.push(`// ${k.note}`);
    o.push(`struct ${k.name} {`);
    o.push(`  static constexpr ::nicsim::TraceKind kind = ::nicsim::TraceKind::${k.name};`);
    o.push(`  std::uint32_t w[5] = {0, 0, 0, 0, 0};`);
    for (const f of k.fields) {
      const type = cppFieldType(def, f);
      const what = [
        f.name,
        f.unit,
        f.table ? `${f.type === 'bits' ? 'bits of ' : ''}table ${f.table}` : undefined,
        f.role ? `names a ${f.role}` : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      o.push(`  // ${COLUMNS[f.column]}${f.words === 2 ? COLUMNS[f.column + 1] : ''}: ${what}`);
      if (f.words === 2) {
        o.push(
          `  ${k.name}& ${f.cpp}(${type} v) {`,
          `    w[${f.column}] = static_cast<std::uint32_t>(v);`,
          `    w[${f.column + 1}] = static_cast<std::uint32_t>(v >> 32);`,
          `    return *this;`,
          `  }`,
        );
      } else {
        o.push(
          `  ${k.name}& ${f.cpp}(${type} v) {`,
          `    w[${f.column}] = static_cast<std::uint32_t>(v);`,
          `    return *this;`,
          `  }`,
        );
      }
    }
    o.push(`};`, ``);
  }
  o.push(`}  // namespace rec`, ``);
  o.push(
    `// The views the app can show, as a scenario's "views" names them (its registry adds the rest).`,
    `inline constexpr const char* kViewIds[] = {`,
  );
  for (const v of def.views ?? []) o.push(`    ${cstr(v.id)},`);
  o.push(`};`, ``, `}  // namespace nicsim`, ``);
  return o.join('\n');
}

// ---------------------------------------------------------------------------------------------
// TypeScript

function tsFieldDef(f) {
  const parts = [
    `name: ${JSON.stringify(f.name)}`,
    `id: '${f.ts}'`,
    `type: '${f.type}'`,
    `column: ${f.column}`,
    `words: ${f.words}`,
  ];
  if (f.unit) parts.push(`unit: '${f.unit}'`);
  if (f.table) parts.push(`table: '${f.table}'`);
  if (f.role) parts.push(`role: '${f.role}'`);
  if (f.columnNames) parts.push(`columnNames: ${JSON.stringify(f.columnNames)}`);
  return `{ ${parts.join(', ')} }`;
}

function tsRead(f) {
  const col = COLUMNS[f.column];
  if (f.words === 2) return `t.${col}[i]! + t.${COLUMNS[f.column + 1]}[i]! * 4294967296`;
  return `t.${col}[i]!`;
}

export function generateTs(def) {
  const o = [];
  const roles = def.roles;
  o.push(
    `// Generated by core-cpp/scripts/gen-trace.mjs from core-cpp/trace/trace_kinds.json: do not`,
    `// edit (npm scripts regenerate it; by hand: ${REGENERATE}).`,
    `/* eslint-disable */`,
    ``,
    `/** The columns a decoded trace has (web/trace/trace.ts Trace satisfies it). */`,
    `export interface TraceColumns {`,
    `  readonly kind: Uint16Array;`,
    ...COLUMNS.map((c) => `  readonly ${c}: Uint32Array;`),
    `}`,
    ``,
    `export type Role = ${roles.map((r) => `'${r}'`).join(' | ')};`,
    `export const ROLES: readonly Role[] = [${roles.map((r) => `'${r}'`).join(', ')}];`,
    `export type FieldType = 'u32' | 'u64' | 'enum' | 'bits' | 'component';`,
    `export type TableName = ${Object.keys(def.tables)
      .map((t) => `'${t}'`)
      .join(' | ')};`,
    ``,
    `export interface FieldDef {`,
    `  /** As the papers name it (shown in the event log). */`,
    `  readonly name: string;`,
    `  /** Accessor name. */`,
    `  readonly id: string;`,
    `  readonly type: FieldType;`,
    `  /** First column: 0 = a … 4 = e. */`,
    `  readonly column: number;`,
    `  /** 2: a 64-bit value, low word in column, high word in column + 1. */`,
    `  readonly words: 1 | 2;`,
    `  readonly unit?: 'id' | 'count' | 'bytes' | 'ps' | 'ns' | 'per-mille' | 'index' | 'value';`,
    `  readonly table?: TableName;`,
    `  /** The entity this field names. */`,
    `  readonly role?: Role;`,
    `  /** Names of the two columns of a two-word field. */`,
    `  readonly columnNames?: readonly [string, string];`,
    `}`,
    ``,
    `export interface KindDef {`,
    `  readonly id: number;`,
    `  readonly name: string;`,
    `  /** Step of the thesis' send (S1–S6) or receive (R1–R4) sequence. */`,
    `  readonly step?: string;`,
    `  readonly doc: string;`,
    `  /** More about the kind, where there is more to say. */`,
    `  readonly note?: string;`,
    `  readonly fields: readonly FieldDef[];`,
    `  /** The ring of the descriptor its descriptor-role field names a slot of. */`,
    `  readonly descriptorRing?: string;`,
    `}`,
    ``,
    `export interface TableDef {`,
    `  readonly doc: string;`,
    `  /** Identifiers (the C++ enumerators). */`,
    `  readonly ids: readonly string[];`,
    `  /** Names for people. */`,
    `  readonly names: readonly string[];`,
    `  /** A third column where the table has one (component labels, Tigon event short names). */`,
    `  readonly extra?: readonly string[];`,
    `}`,
    ``,
    `export const TABLES: Readonly<Record<TableName, TableDef>> = {`,
  );
  for (const [tname, t] of Object.entries(def.tables)) {
    const ids = t.entries.map((e) => e[0]);
    const names = t.entries.map((e) => e[1] ?? e[0]);
    const extra = t.entries.some((e) => e.length > 2) ? t.entries.map((e) => e[2] ?? '') : null;
    o.push(`  ${tname}: {`);
    o.push(`    doc: ${JSON.stringify(t.doc)},`);
    o.push(`    ids: ${JSON.stringify(ids)},`);
    o.push(`    names: ${JSON.stringify(names)},`);
    if (extra) o.push(`    extra: ${JSON.stringify(extra)},`);
    o.push(`  },`);
  }
  o.push(`};`, ``);

  o.push(`export const KINDS: readonly KindDef[] = [`);
  for (const k of def.kinds) {
    o.push(`  {`);
    o.push(`    id: ${k.id},`, `    name: '${k.name}',`);
    if (k.step) o.push(`    step: '${k.step}',`);
    o.push(`    doc: ${JSON.stringify(k.doc)},`);
    if (k.note) o.push(`    note: ${JSON.stringify(k.note)},`);
    if (k.descriptorRing) o.push(`    descriptorRing: '${k.descriptorRing}',`);
    o.push(`    fields: [`);
    for (const f of k.fields) o.push(`      ${tsFieldDef(f)},`);
    o.push(`    ],`, `  },`);
  }
  o.push(`];`, ``);

  o.push(`/** Kind ids by name, e.g. K.BusTxnStart === 4. */`, `export const K = {`);
  for (const k of def.kinds) o.push(`  ${k.name}: ${k.id},`);
  o.push(`} as const;`, `export type KindName = keyof typeof K;`, ``);

  o.push(
    `/** For each role, the column (0 = a … 4 = e) of the field that names it, by kind; -1: none. */`,
    `export const ROLE_COLUMN: Readonly<Record<Role, Int8Array>> = {`,
  );
  for (const r of roles) {
    const cols = def.kinds.map((k) => {
      const f = k.fields.find((x) => x.role === r);
      return f ? f.column : -1;
    });
    o.push(`  ${r}: Int8Array.from(${JSON.stringify(cols)}),`);
  }
  o.push(`};`, ``);
  o.push(
    `/** The value of column c (0 = a … 4 = e) of record i. */`,
    `export function column(t: TraceColumns, c: number, i: number): number {`,
    `  switch (c) {`,
    ...COLUMNS.map((col, ci) => `    case ${ci}:\n      return t.${col}[i]!;`),
    `    default:`,
    `      return -1;`,
    `  }`,
    `}`,
    ``,
    `/** The entity of the given role record i names (e.g. its packet id), or -1 if its kind names none. */`,
    `export function roleValue(t: TraceColumns, i: number, role: Role): number {`,
    `  const c = ROLE_COLUMN[role][t.kind[i]!];`,
    `  return c === undefined || c < 0 ? -1 : column(t, c, i);`,
    `}`,
    `/** Whether records of this kind name an entity of the given role. */`,
    `export function kindHasRole(kind: number, role: Role): boolean {`,
    `  return (ROLE_COLUMN[role][kind] ?? -1) >= 0;`,
    `}`,
    ``,
    `// Typed accessors, one object per kind: Kind.field(trace, i) reads record i's field (no`,
    `// allocation; the caller checks the kind, e.g. with Kind.is(trace, i)).`,
  );
  for (const k of def.kinds) {
    o.push(`/** ${k.step ? `${k.step}: ` : ''}${k.doc}.${k.note ? ` ${k.note}` : ''} */`);
    o.push(`export const ${k.name} = {`);
    o.push(`  kind: ${k.id},`);
    o.push(`  is: (t: TraceColumns, i: number): boolean => t.kind[i] === ${k.id},`);
    for (const f of k.fields) {
      const what = [f.name, f.unit, f.table ? `table ${f.table}` : undefined]
        .filter(Boolean)
        .join(', ');
      o.push(`  /** ${what} */`);
      o.push(`  ${f.ts}: (t: TraceColumns, i: number): number => ${tsRead(f)},`);
    }
    o.push(`} as const;`);
  }
  o.push(
    ``,
    `/** Every view the app can show, in the page's order: id (as scenarios and links name it), title,`,
    ` * and the trace kinds that give it something to draw. web/views/registry.ts adds the rest. */`,
    `export const VIEWS = [`,
  );
  for (const v of def.views ?? [])
    o.push(
      `  { id: ${JSON.stringify(v.id)}, title: ${JSON.stringify(v.title)}, needs: ${
        Array.isArray(v.needs) ? `[${v.needs.map((k) => JSON.stringify(k)).join(', ')}]` : JSON.stringify(v.needs)
      } },`,
    );
  o.push(
    `] as const satisfies readonly { id: string; title: string; needs: readonly string[] | string }[];`,
    `export type ViewId = (typeof VIEWS)[number]['id'];`,
    ``,
  );
  return o.join('\n');
}

// ---------------------------------------------------------------------------------------------

export function generateAll() {
  const def = load(readFileSync(DEFINITION, 'utf8'));
  return [
    { path: CPP_OUT, text: generateCpp(def), lang: 'cpp' },
    { path: TS_OUT, text: generateTs(def), lang: 'ts' },
  ];
}

/** Writes the generated files that are missing or stale; for build scripts. Returns 0 or 1. */
export function generate({ quiet = true } = {}) {
  const status = main([]);
  if (!quiet && status === 0) console.error('gen-trace: generated files are up to date');
  return status;
}

function main(argv) {
  const check = argv.includes('--check');
  const only = argv.includes('--cpp-only') ? 'cpp' : argv.includes('--ts-only') ? 'ts' : null;
  let outputs;
  try {
    outputs = generateAll().filter((x) => !only || x.lang === only);
  } catch (e) {
    console.error(`gen-trace: ${e.message}`);
    return 1;
  }
  let stale = 0;
  for (const { path, text } of outputs) {
    const old = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (old === text) continue;
    if (check) {
      console.error(
        `gen-trace: ${relative(ROOT, path)} is ${old === null ? 'missing' : 'stale'}: ` +
          `regenerate it with \`${REGENERATE}\``,
      );
      stale++;
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  return stale ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
