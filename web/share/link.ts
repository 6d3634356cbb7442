// Links that reopen one exact moment: "#v1.<payload>", where the payload is the state as compact
// JSON, deflated (raw, with the preset dictionary below) and written in base64url.
//
//   {"s": scenario id, "o": {parameter path: value} (only what differs from the scenario),
//    "t": time cursor in ps, "v": [open views] (only when not the scenario's own list),
//    "k": guided-tour step (0-based)}
//
// A link is input from outside: decodeLink validates it once and never throws. It answers with
// a state to open (dropping, with a plain message, any field that is wrong) or, when not even
// the scenario can be trusted, a reason and a message (the app then opens the gallery). What the
// core alone can judge (parameter names and ranges) is checked by the core when the page runs
// the overrides; linkRestore.ts drops what the core rejects, the same way.
import { VIEWS } from '../trace/records.gen';
import { deflateSync, inflateSync, strToU8 } from 'fflate';
import type { OverrideValue, Overrides } from '../run/overrides';
import type { PresetCard, Scenario } from '../scenarios/types';

export const LINK_VERSION = 1;
export const LINK_PREFIX = `#v${LINK_VERSION}.`;

/**
 * The longest link hash read, in characters after "#". A typical link is 60-200 characters; even
 * a Tigon partition with every handler moved stays under 400. Anything longer was padded or
 * joined with something else on its way, and is refused before it is decompressed.
 */
export const MAX_LINK_CHARS = 2000;
/** The longest decompressed payload, in bytes (guards against a small link that inflates hugely). */
export const MAX_PAYLOAD_BYTES = 8192;
/** At most this many overrides: the core has fewer than 200 parameters. */
export const MAX_OVERRIDES = 200;
/** The latest time cursor a link may carry: 1000 s of simulated time, in ps. */
export const MAX_CURSOR_PS = 1e15;
const MAX_TEXT = 200;
const MAX_VIEWS = 32;
const MAX_TOUR_STEP = 999;

/**
 * The view names a scenario may list: the core's allowed_views() (core-cpp/scenario/scenario.cpp,
 * also the "views" enum of scenarios/scenario.schema.json; link.test.ts checks they agree).
 */
export const LINK_VIEWS: readonly string[] = VIEWS.map((v) => v.id).sort();

/** The views a scenario opens with when it lists none (ScenarioPage shows these). */
export const DEFAULT_VIEWS: readonly string[] = ['diagram', 'rings', 'chart', 'events'];

/** The scenario's own list of views. */
export function scenarioViews(s: Pick<Scenario, 'views'>): readonly string[] {
  return s.views && s.views.length ? s.views : DEFAULT_VIEWS;
}

/** What a link restores. */
export interface LinkState {
  scenario: string;
  /** Parameter path → value: the changes from the scenario, as the knob panel sends them. */
  overrides: Overrides;
  /** Time cursor in ps, or null for the start of the run. */
  cursor: number | null;
  /** The open views in order, or null for the scenario's own list. */
  views: string[] | null;
  /** The guided tour's step (0-based), or null. */
  tourStep: number | null;
}

/** One thing wrong with a link, in words for the reader: the field and what it may be. */
export interface LinkProblem {
  /** "link", "scenario", "overrides", "overrides.<path>", "cursor", "views" or "tourStep". */
  field: string;
  message: string;
}

export type LinkFailure = 'corrupt' | 'too-long' | 'future-version' | 'unknown-scenario';

export type LinkResult =
  /** A state to open; `problems` lists what was dropped from the link to get it. */
  | { ok: true; state: LinkState; problems: LinkProblem[] }
  /** Nothing of the link can be opened; the nearest valid state is the gallery. */
  | { ok: false; reason: LinkFailure; problems: LinkProblem[] };

/** What decoding checks a link against: the scenarios of this build. */
export interface LinkCatalog {
  ids: readonly string[];
  /** Steps of the scenario's tour (null: it has none); undefined for an unknown id. */
  tour(id: string): number | null | undefined;
}

/** The catalogue of the presets' cards (their tour lengths counted when the app was built). */
export function linkCatalog(cards: readonly Pick<PresetCard, 'id' | 'tour'>[]): LinkCatalog {
  const byId = new Map(cards.map((c) => [c.id, c]));
  return {
    ids: cards.map((c) => c.id),
    tour: (id) => byId.get(id)?.tour,
  };
}

// The preset dictionary: fragments most links repeat, so a short state compresses to a short
// link. Part of format v1: changing one byte breaks every v1 link (link.test.ts pins it), so a
// new dictionary means a new version.
const DICTIONARY = strToU8(
  [
    'anatomy-of-a-receive anatomy-of-a-request pci-33-vs-66 pci-burst-efficiency pci-cost-model',
    'pci-dma-read pci-read-vs-write pci-two-nics send-ring-full sinic-cache-sizes sinic-fifo-size',
    'sinic-four-nics sinic-on-die sinic-slow-readers sinic-vnics sinic-zero-copy web-access-log',
    'web-bus-cycles web-cache-sizes web-cpu-bound-traces web-faster-cpu-or-bus web-nasa-cache',
    'web-one-or-two-caches web-replacement-and-blocks web-sendfile-vs-write web-two-nic-caches',
    'tigon-cpu-benchmark tigon-handler-profile tigon-one-or-two-cpus tigon-one-packet tigon-overlap',
    'tigon-partition tigon-scratch-pads tigon-udp-receive tigon-vs-asic udp-throughput',
    '"system.server.cpu_mhz":"system.host_cpu.ghz":"system.l2.kbytes":"system.sinic.zero_copy":',
    '"system.sinic.rx_fifo_kbytes":"system.sinic.vnics":"system.nic_cache.kbytes":',
    '"system.nic_cache.block_bytes":"system.nic_cache.replacement":"lru","lfu","fifo",',
    '"system.nics":2,"workload.trace":"nasa","worldcup","rice","ibm","berkeley",',
    '"system.bus.protocol":"pci-x","system.bus.width_bits":32,"system.bus.clock_mhz":33,66,133',
    '"system.link.rate_mbps":"system.nic.model":"asic","sinic","system.tigon.partition.',
    'send_data_ready":"a","receive_complete":"b","send_bd_ready":"a","receive_bd_ready":"b",',
    '"system.tigon.code_in_sram":true,"system.tigon.data_in_sram":false,"system.tigon.firmware":',
    '"release","bsd","parallel","release-sram-both","custom","system.nic.coalesce.send_bds":',
    '"system.nic.coalesce.receive_bds":"system.nic.coalesce.send_timer_us":',
    '"system.nic.coalesce.receive_timer_us":"run.duration_us":"workload.direction":"send",',
    '"receive","bidirectional","system.driver.receive_ring_size":"system.driver.send_ring_size":',
    '"v":["results","waveform","firmware","profile","diagram","rings","chart","events"],"k":',
    '"workload.datagram_bytes":1472,"system.driver.send_ring_size":',
    '{"s":"tigon-udp-send","o":{"workload.datagram_bytes":',
    '},"t":',
  ].join(''),
);

// ---------------------------------------------------------------------------------------------
// base64url (RFC 4648 §5, no padding)

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Bytes of a base64url text, or null when it is not one. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (const c of text) {
    const v = B64_INDEX.get(c);
    if (v === undefined) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** The link hash ("#v1.…") of a state. Times are whole picoseconds. */
export function encodeLink(state: LinkState): string {
  const o: Record<string, unknown> = { s: state.scenario };
  if (Object.keys(state.overrides).length) o.o = state.overrides;
  if (state.cursor !== null) o.t = Math.max(0, Math.round(state.cursor));
  if (state.views !== null) o.v = state.views;
  if (state.tourStep !== null) o.k = state.tourStep;
  return packLink(JSON.stringify(o));
}

/** A v1 link around any payload text (tests use it to build links with wrong fields). */
export function packLink(payload: string | Uint8Array): string {
  const bytes = typeof payload === 'string' ? strToU8(payload) : payload;
  const packed = deflateSync(bytes, { level: 9, dictionary: DICTIONARY });
  return LINK_PREFIX + toBase64Url(packed);
}

/**
 * The state a page shows, as a link would carry it: views equal to the scenario's own are left
 * out (null), so is a cursor when `withCursor` is false (the link opens at the start).
 */
export function linkStateOf(
  scenario: Scenario,
  page: {
    overrides: Readonly<Record<string, unknown>>;
    cursor: number;
    views: readonly string[] | null;
    tourStep: number | null;
  },
  withCursor: boolean,
): LinkState {
  const own = scenarioViews(scenario);
  const views =
    page.views && !(page.views.length === own.length && page.views.every((v, i) => v === own[i]))
      ? [...page.views]
      : null;
  return {
    scenario: scenario.id,
    overrides: { ...(page.overrides as Overrides) },
    cursor: withCursor ? Math.max(0, Math.round(page.cursor)) : null,
    views,
    tourStep: page.tourStep,
  };
}

/** A full address for the link: this page without "?embed=1", with the link as its hash. */
export function linkUrl(location: Pick<Location, 'origin' | 'pathname' | 'search'>, hash: string) {
  const params = new URLSearchParams(location.search);
  params.delete('embed');
  const search = params.toString();
  return `${location.origin}${location.pathname}${search ? `?${search}` : ''}${hash}`;
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** Does the hash look like a versioned link ("#v1.…", "#v2.…"), rather than a "#/" route? */
export function isLinkHash(hash: string): boolean {
  return /^#?v\d/i.test(hash);
}

const PATH = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const fail = (reason: LinkFailure, field: string, message: string): LinkResult => ({
  ok: false,
  reason,
  problems: [{ field, message }],
});
const quote = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** Validates a link hash once. Never throws. */
export function decodeLink(hash: string, catalog: LinkCatalog): LinkResult {
  try {
    return decode(hash, catalog);
  } catch {
    // Every step below checks its input; this only keeps the promise should one be missed.
    return fail('corrupt', 'link', 'The link could not be read.');
  }
}

function decode(hash: string, catalog: LinkCatalog): LinkResult {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.length > MAX_LINK_CHARS) {
    return fail(
      'too-long',
      'link',
      `The link is ${h.length} characters long; nicsim links are at most ${MAX_LINK_CHARS} (a typical one is under 200). It was probably joined with other text or altered on its way.`,
    );
  }
  const m = /^v(\d+)\.([\s\S]*)$/.exec(h);
  if (!m) {
    return fail(
      'corrupt',
      'link',
      `The link does not start with a format version and a dot ("#v${LINK_VERSION}.…"): it was cut or altered.`,
    );
  }
  const version = m[1]!;
  if (version !== String(LINK_VERSION)) {
    const n = Number(version);
    if (/^[1-9]\d*$/.test(version) && n > LINK_VERSION) {
      return fail(
        'future-version',
        'version',
        `The link was made by a newer nicsim (link format v${version}); this version reads format v${LINK_VERSION} only. Open it with the newer nicsim, or ask for a link from this one.`,
      );
    }
    return fail(
      'corrupt',
      'version',
      `There is no link format "v${version.slice(0, 12)}"; this version reads format v${LINK_VERSION}.`,
    );
  }
  const bytes = fromBase64Url(m[2]!);
  if (!bytes || bytes.length === 0) {
    return fail(
      'corrupt',
      'link',
      'The link\'s data is not base64url text (letters, digits, "-" and "_" only, not cut short): it was cut or altered.',
    );
  }
  let raw: Uint8Array;
  try {
    raw = inflateSync(bytes, { dictionary: DICTIONARY });
  } catch {
    return fail(
      'corrupt',
      'link',
      "The link's data does not decompress: it was cut short or altered on its way.",
    );
  }
  if (raw.length > MAX_PAYLOAD_BYTES) {
    return fail(
      'too-long',
      'link',
      `The link's data is ${raw.length} bytes once decompressed; at most ${MAX_PAYLOAD_BYTES} are read.`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return fail('corrupt', 'link', "The link's data is not readable text (JSON): it was altered.");
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return fail(
      'corrupt',
      'link',
      "The link's data must be an object with the fields s (scenario), o, t, v and k.",
    );
  }
  return checkFields(doc as Record<string, unknown>, catalog);
}

function checkFields(doc: Record<string, unknown>, catalog: LinkCatalog): LinkResult {
  const id = doc.s;
  if (typeof id !== 'string' || id.length === 0 || id.length > 100) {
    return fail(
      'corrupt',
      'scenario',
      'The link names no scenario: field s must be a scenario id (text of 1 to 100 characters).',
    );
  }
  const tour = catalog.tour(id);
  if (tour === undefined) {
    return fail(
      'unknown-scenario',
      'scenario',
      `There is no scenario "${quote(id).slice(1, -1)}" in this version of nicsim; choose one from the gallery.`,
    );
  }
  const problems: LinkProblem[] = [];
  for (const k of Object.keys(doc)) {
    if (!['s', 'o', 't', 'v', 'k'].includes(k)) {
      problems.push({
        field: k === '' ? '""' : k.slice(0, 20), // an empty name still names the field
        message: `The field "${k.slice(0, 20)}" is not part of a v${LINK_VERSION} link (fields: s, o, t, v, k); it was ignored.`,
      });
    }
  }
  return {
    ok: true,
    state: {
      scenario: id,
      overrides: checkOverrides(doc.o, problems),
      cursor: checkCursor(doc.t, problems),
      views: checkViews(doc.v, problems),
      tourStep: checkTourStep(doc.k, tour, problems),
    },
    problems,
  };
}

function checkOverrides(o: unknown, problems: LinkProblem[]): Overrides {
  const out: Overrides = {};
  if (o === undefined) return out;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    problems.push({
      field: 'overrides',
      message:
        'The settings (field o) must be an object of parameter path → value; the scenario opens with its own settings.',
    });
    return out;
  }
  const entries = Object.entries(o);
  if (entries.length > MAX_OVERRIDES) {
    problems.push({
      field: 'overrides',
      message: `The link changes ${entries.length} settings; at most ${MAX_OVERRIDES} are read. The scenario opens with its own settings.`,
    });
    return out;
  }
  for (const [path, v] of entries) {
    if (path.length > 100 || !PATH.test(path)) {
      problems.push({
        field: 'overrides',
        message: `${quote(path)} is not a parameter path (lower-case words joined by dots, such as system.bus.clock_mhz); that setting was dropped.`,
      });
      continue;
    }
    if (!(
      v === null ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (typeof v === 'string' && v.length <= MAX_TEXT)
    )) {
      problems.push({
        field: `overrides.${path}`,
        message: `${path}: ${quote(v)} is not a value a parameter takes (a number, a choice of up to ${MAX_TEXT} characters, true or false); the scenario's own value is used.`,
      });
      continue;
    }
    out[path] = v as OverrideValue;
  }
  return out;
}

function checkCursor(t: unknown, problems: LinkProblem[]): number | null {
  if (t === undefined) return null;
  if (typeof t === 'number' && Number.isSafeInteger(t) && t >= 0 && t <= MAX_CURSOR_PS) return t;
  problems.push({
    field: 'cursor',
    message: `The time cursor (field t) must be a whole number of picoseconds from 0 to ${MAX_CURSOR_PS.toExponential()}, not ${quote(t)}; the cursor starts at the beginning of the run.`,
  });
  return null;
}

function checkViews(v: unknown, problems: LinkProblem[]): string[] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v) || v.length > MAX_VIEWS) {
    problems.push({
      field: 'views',
      message: `The open views (field v) must be a list of at most ${MAX_VIEWS} view names; the scenario's own views are shown.`,
    });
    return null;
  }
  const out: string[] = [];
  const unknown: string[] = [];
  for (const name of v) {
    if (typeof name === 'string' && LINK_VIEWS.includes(name)) {
      if (!out.includes(name)) out.push(name);
    } else unknown.push(quote(name));
  }
  if (unknown.length) {
    problems.push({
      field: 'views',
      message: `${unknown.length === 1 ? 'This view is' : 'These views are'} not known and ${unknown.length === 1 ? 'was' : 'were'} left out: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}. Views: ${LINK_VIEWS.join(', ')}.`,
    });
    // Nothing left of a list that named views: the scenario's own list is nearest.
    if (out.length === 0) return null;
  }
  return out;
}

function checkTourStep(k: unknown, tour: number | null, problems: LinkProblem[]): number | null {
  if (k === undefined || k === null) return null;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k > MAX_TOUR_STEP) {
    problems.push({
      field: 'tourStep',
      message: `The tour step (field k) must be a whole number${tour ? ` from 1 to ${tour}` : ''}, not ${quote(k)}; the tour was not started.`,
    });
    return null;
  }
  if (tour === null) {
    problems.push({
      field: 'tourStep',
      message: `The link opens step ${k + 1} of a guided tour, but this scenario has no tour; the page opens without one.`,
    });
    return null;
  }
  if (k >= tour) {
    problems.push({
      field: 'tourStep',
      message: `The link opens step ${k + 1} of the guided tour, which has steps 1 to ${tour}; the tour was not started.`,
    });
    return null;
  }
  return k;
}
