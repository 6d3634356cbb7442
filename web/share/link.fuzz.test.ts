// A deterministic mutation fuzzer of the link decoder (link.ts): links built from every preset
// (its tour's questions and A/B variants as settings, views, cursor, tour step) are mutated at
// three layers — the hash text, the compressed bytes, the JSON inside — and every result must be
// a valid state or a named error, never the decoder's catch-all (which means something threw),
// never slow. Inputs that give a new kind of answer join the corpus, a behavioural stand-in for
// coverage. `npm run fuzz -- --target link --seconds N` runs it for N seconds
// (NICSIM_FUZZ_SECONDS); the suite runs a fixed number of inputs. Past failures
// (core-cpp/fuzz/crashes/link/, one link per file) are replayed first.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LINK_VIEWS,
  MAX_CURSOR_PS,
  decodeLink,
  encodeLink,
  fromBase64Url,
  linkCatalog,
  packLink,
  toBase64Url,
  type LinkResult,
  type LinkState,
} from './link';
import { PRESETS } from '../scenarios';
import { SCENARIOS } from '../scenarios/eager';
import type { Overrides } from '../run/overrides';

const CATALOG = linkCatalog(PRESETS);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CRASHES = path.join(ROOT, 'core-cpp', 'fuzz', 'crashes', 'link');
const FINDINGS = path.join(ROOT, 'build', 'fuzz', 'findings', 'link');

const SECONDS = Number(process.env.NICSIM_FUZZ_SECONDS ?? 0);
// chosen: about five seconds in the suite on a loaded machine.
const SUITE_INPUTS = 4000;
// chosen: a decode takes well under a millisecond; a second, at the best of three tries (the
// machine may be busy), is a hang.
const SLOW_MS = 1000;

/** mulberry32: the same inputs on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

/** Links of every preset: plain, and with what its tour and variants change. */
function seedLinks(): string[] {
  const out: string[] = [];
  for (const e of SCENARIOS) {
    const s = e.scenario as unknown as Record<string, unknown>;
    const base: LinkState = {
      scenario: e.id,
      overrides: {},
      cursor: null,
      views: null,
      tourStep: null,
    };
    out.push(encodeLink(base));
    const sets: Overrides[] = [];
    for (const step of Array.isArray(s.tour) ? s.tour : []) {
      const set = (step as { predict?: { set?: Overrides } }).predict?.set;
      if (set) sets.push(set);
    }
    for (const side of Object.values((s.compare ?? {}) as Record<string, { set?: Overrides }>)) {
      if (side?.set) sets.push(side.set);
    }
    const tour = CATALOG.tour(e.id);
    sets.forEach((overrides, i) =>
      out.push(
        encodeLink({
          ...base,
          overrides,
          cursor: 1000 * 1000 * (i + 1),
          views: LINK_VIEWS.slice(i % 3, (i % 3) + 3),
          tourStep: tour ? i % tour : null,
        }),
      ),
    );
  }
  return out;
}

// Tokens the JSON layer splices in: the format's fields and values at their edges.
const TOKENS = [
  '"s":',
  '"o":',
  '"t":',
  '"v":',
  '"k":',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  '\\u0000',
  '\\ud800',
  'null',
  'true',
  '-1',
  '1e308',
  '9007199254740993',
  '1e15',
  '0.5',
  '"__proto__"',
  '"constructor"',
  '"system.bus.clock_mhz"',
  '"chart"',
  '[[[[[[[[[[[[[[[[',
  '😀',
  '\u00e9',
];
const HASH_JUNK = [...'AZaz09-_+/=.#%~ é', '\u0000', '😀', 'v1.', '#v1.'];

/** The payload of a link that decodes, rebuilt from its state (the dictionary is link.ts's). */
function payloadOf(hash: string): string | null {
  try {
    const res = decodeLink(hash, CATALOG);
    if (!res.ok) return null;
    return JSON.stringify({
      s: res.state.scenario,
      ...(Object.keys(res.state.overrides).length ? { o: res.state.overrides } : {}),
      ...(res.state.cursor !== null ? { t: res.state.cursor } : {}),
      ...(res.state.views !== null ? { v: res.state.views } : {}),
      ...(res.state.tourStep !== null ? { k: res.state.tourStep } : {}),
    });
  } catch {
    return null;
  }
}

function mutateText(r: Rng, text: string, junk: readonly string[], other: string): string {
  const at = r.int(0, text.length);
  switch (r.int(0, 7)) {
    case 0:
      return text.slice(0, r.int(0, Math.max(0, text.length - 1)));
    case 1:
      return text.slice(0, at) + r.pick(junk) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + r.pick(junk) + text.slice(at);
    case 3:
      return text.slice(0, at) + text.slice(at + r.int(1, 8));
    case 4: {
      // a piece of another input spliced in
      const from = r.int(0, other.length);
      return text.slice(0, at) + other.slice(from, from + r.int(1, 40)) + text.slice(at);
    }
    case 5: {
      // a piece repeated
      const piece = text.slice(at, at + r.int(1, 12));
      return text.slice(0, at) + piece.repeat(r.int(2, 64)) + text.slice(at);
    }
    case 6:
      return text.slice(0, at) + String.fromCharCode(r.int(0, 0xffff)) + text.slice(at);
    default:
      return text + r.pick(junk);
  }
}

function mutate(r: Rng, corpus: readonly string[]): string {
  const hash = r.pick(corpus);
  const other = r.pick(corpus);
  let out = hash;
  for (let n = r.int(1, 4); n > 0; n--) {
    switch (r.int(0, 2)) {
      case 0: // the hash text
        out = mutateText(r, out, HASH_JUNK, other);
        break;
      case 1: {
        // the compressed bytes, still valid base64url
        const bytes = fromBase64Url(out.replace(/^#v1\./, ''));
        if (!bytes || bytes.length === 0) break;
        for (let k = r.int(1, 3); k > 0; k--) {
          const i = r.int(0, bytes.length - 1);
          bytes[i] = r.next() < 0.5 ? bytes[i]! ^ (1 << r.int(0, 7)) : r.int(0, 255);
        }
        out = '#v1.' + toBase64Url(bytes);
        break;
      }
      default: {
        // the JSON inside, recompressed
        const payload = payloadOf(out) ?? payloadOf(hash);
        if (payload === null) break;
        out = packLink(mutateText(r, payload, TOKENS, payloadOf(other) ?? other));
      }
    }
  }
  return out;
}

const FIELDS = /^(link|version|scenario|overrides|overrides\..*|cursor|views|tourStep|.{1,20})$/;

/** What is wrong with a decoder's answer, or null. */
function check(res: LinkResult): string | null {
  if (res.problems.some((p) => p.message === 'The link could not be read.')) {
    return 'the decoder threw (its catch-all answered)';
  }
  for (const p of res.problems) {
    if (typeof p.field !== 'string' || !FIELDS.test(p.field)) return `problem field ${p.field}`;
    if (typeof p.message !== 'string' || p.message.length < 10) return 'a problem without words';
  }
  if (!res.ok) {
    if (!['corrupt', 'too-long', 'future-version', 'unknown-scenario'].includes(res.reason))
      return `unnamed reason ${String(res.reason)}`;
    return res.problems.length ? null : 'an error without a problem';
  }
  const s = res.state;
  if (!CATALOG.ids.includes(s.scenario)) return `unknown scenario ${s.scenario}`;
  if (Object.getPrototypeOf(s.overrides) !== Object.prototype) return 'overrides prototype';
  for (const [p, v] of Object.entries(s.overrides)) {
    if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/.test(p)) return `override path ${p}`;
    if (!(
      v === null ||
      typeof v === 'boolean' ||
      typeof v === 'string' ||
      (typeof v === 'number' && Number.isFinite(v))
    ))
      return `override value of ${p}`;
  }
  if (
    s.cursor !== null &&
    !(Number.isSafeInteger(s.cursor) && s.cursor >= 0 && s.cursor <= MAX_CURSOR_PS)
  )
    return `cursor ${s.cursor}`;
  if (s.views !== null) {
    if (s.views.some((v) => !LINK_VIEWS.includes(v))) return 'unknown view';
    if (new Set(s.views).size !== s.views.length) return 'a view twice';
  }
  if (s.tourStep !== null) {
    const tour = CATALOG.tour(s.scenario);
    if (!tour || !Number.isInteger(s.tourStep) || s.tourStep < 0 || s.tourStep >= tour)
      return `tour step ${s.tourStep}`;
  }
  // What was opened, shared again, opens the same.
  const again = decodeLink(encodeLink(s), CATALOG);
  if (!again.ok || again.problems.length || JSON.stringify(again.state) !== JSON.stringify(s))
    return 'the decoded state does not survive a new link';
  return null;
}

/** Decodes one input; on a failure keeps the input and says where. */
function attempt(hash: string): { res: LinkResult | null; failure: string | null } {
  const t0 = performance.now();
  let res: LinkResult | null = null;
  let failure: string | null;
  try {
    res = decodeLink(hash, CATALOG);
    failure = check(res);
  } catch (e) {
    failure = `threw ${String(e)}`;
  }
  let ms = performance.now() - t0;
  for (let retry = 0; retry < 2 && !failure && ms > SLOW_MS; retry++) {
    const t1 = performance.now();
    decodeLink(hash, CATALOG);
    ms = Math.min(ms, performance.now() - t1);
  }
  if (!failure && ms > SLOW_MS) failure = `took ${ms.toFixed(0)} ms`;
  if (failure) {
    mkdirSync(FINDINGS, { recursive: true });
    const file = path.join(FINDINGS, `link-${Date.now()}.txt`);
    writeFileSync(file, hash);
    console.log(`link fuzz: ${failure}; reproducer: ${path.relative(ROOT, file)}`);
  }
  return { res, failure };
}

describe('link decoder fuzzing', () => {
  it('replays the committed crashes', () => {
    let files: string[] = [];
    try {
      files = readdirSync(CRASHES).filter((f) => !f.startsWith('.') && f !== 'README.md');
    } catch {
      // none yet
    }
    for (const f of files) {
      const { failure } = attempt(readFileSync(path.join(CRASHES, f), 'utf8').trim());
      expect(failure, f).toBeNull();
    }
  });

  it(
    'mutated preset links give a valid state or a named error',
    () => {
      const seeds = seedLinks();
      expect(seeds.length).toBeGreaterThanOrEqual(SCENARIOS.length);
      const corpus = [...seeds];
      const seen = new Set<string>();
      const r = rng(20261125);
      const deadline = SECONDS > 0 ? Date.now() + SECONDS * 1000 : Infinity;
      let n = 0;
      for (; SECONDS > 0 ? Date.now() < deadline : n < SUITE_INPUTS; n++) {
        const hash = n < seeds.length ? seeds[n]! : mutate(r, corpus);
        const { res, failure } = attempt(hash);
        expect(failure, hash).toBeNull();
        // A new kind of answer (outcome and the fields it names) joins the corpus.
        const kind = res!.ok
          ? `ok ${res!.problems.map((p) => p.field.replace(/\..*/, '.')).join(' ')}`
          : `${res!.reason} ${res!.problems[0]?.message.slice(0, 30)}`;
        if (!seen.has(kind)) {
          seen.add(kind);
          if (corpus.length < 5000) corpus.push(hash);
        }
      }
      console.log(`link fuzz: ${n} links, ${seen.size} kinds of answer, corpus ${corpus.length}`);
    },
    SECONDS > 0 ? (SECONDS + 120) * 1000 : 120_000,
  );
});
