import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  LINK_VIEWS,
  MAX_CURSOR_PS,
  MAX_LINK_CHARS,
  decodeLink,
  encodeLink,
  fromBase64Url,
  isLinkHash,
  linkCatalog,
  linkStateOf,
  linkUrl,
  packLink,
  toBase64Url,
  type LinkCatalog,
  type LinkResult,
  type LinkState,
} from './link';
import { PRESETS as CARDS } from '../scenarios';
import { scenarioById } from '../scenarios/eager';
import type { Overrides } from '../run/overrides';

const PRESETS = linkCatalog(CARDS);
// The presets, plus one scenario with a five-step tour (tours arrive with the classroom work).
const CATALOG: LinkCatalog = {
  // Every preset carries a tour; 'untoured' stands for a scenario without one.
  ids: [...PRESETS.ids, 'toured', 'untoured'],
  tour: (id) => (id === 'toured' ? 5 : id === 'untoured' ? null : PRESETS.tour(id)),
};

/** A small seeded generator (mulberry32): the same cases on every run. */
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

const WORD_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789_';
const TEXT_CHARS = [...'abcXYZ 019-_.,"\\/{}[]:#%?&=+é漢字ß\u00a0\n\t', '😀', '\u{1f680}'];

function word(r: Rng): string {
  let w = r.pick([...'abcdefghijklmnopqrstuvwxyz']);
  for (let i = r.int(0, 12); i > 0; i--) w += r.pick([...WORD_CHARS]);
  return w;
}

function value(r: Rng): Overrides[string] {
  switch (r.int(0, 5)) {
    case 0:
      return r.int(-1e9, 1e9);
    case 1: {
      const v = (r.next() - 0.5) * 10 ** r.int(-6, 12);
      return v === 0 ? 1 : v;
    }
    case 2: {
      let s = '';
      for (let i = r.int(0, 30); i > 0; i--) s += r.pick(TEXT_CHARS);
      return s;
    }
    case 3:
      return r.next() < 0.5;
    case 4:
      return null;
    default:
      return r.pick(['release', 'parallel', 'pci-x', 'bidirectional']);
  }
}

function randomState(r: Rng): LinkState {
  const scenario = r.pick(CATALOG.ids);
  const overrides: Overrides = {};
  for (let i = r.int(0, 6); i > 0; i--) {
    const path = [r.pick(['system', 'workload', 'run']), word(r)];
    for (let j = r.int(0, 2); j > 0; j--) path.push(word(r));
    overrides[path.join('.')] = value(r);
  }
  const views =
    r.next() < 0.4
      ? null
      : [...LINK_VIEWS].sort(() => r.next() - 0.5).slice(0, r.int(0, LINK_VIEWS.length));
  const tour = CATALOG.tour(scenario);
  return {
    scenario,
    overrides,
    cursor:
      r.next() < 0.3 ? null : r.pick([0, r.int(0, 1e9), Math.floor(r.next() * MAX_CURSOR_PS)]),
    views,
    tourStep: tour && r.next() < 0.7 ? r.int(0, tour - 1) : null,
  };
}

/** What a decoded state must be, whatever link it came from. */
function expectValid(res: LinkResult): void {
  if (!res.ok) {
    expect(['corrupt', 'too-long', 'future-version', 'unknown-scenario']).toContain(res.reason);
    expect(res.problems.length).toBeGreaterThan(0);
  }
  for (const p of res.problems) {
    expect(typeof p.field).toBe('string');
    expect(p.message.length).toBeGreaterThan(10);
  }
  if (!res.ok) return;
  const s = res.state;
  expect(CATALOG.ids).toContain(s.scenario);
  expect(Object.getPrototypeOf(s.overrides)).toBe(Object.prototype);
  for (const [path, v] of Object.entries(s.overrides)) {
    expect(path).toMatch(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);
    expect(
      v === null ||
        typeof v === 'boolean' ||
        typeof v === 'string' ||
        (typeof v === 'number' && Number.isFinite(v)),
    ).toBe(true);
  }
  if (s.cursor !== null) {
    expect(Number.isSafeInteger(s.cursor) && s.cursor >= 0 && s.cursor <= MAX_CURSOR_PS).toBe(true);
  }
  if (s.views !== null) {
    for (const v of s.views) expect(LINK_VIEWS).toContain(v);
    expect(new Set(s.views).size).toBe(s.views.length);
  }
  if (s.tourStep !== null) {
    const tour = CATALOG.tour(s.scenario);
    expect(tour).not.toBeNull();
    expect(s.tourStep).toBeGreaterThanOrEqual(0);
    expect(s.tourStep).toBeLessThan(tour!);
  }
}

const state = (over: Partial<LinkState> = {}): LinkState => ({
  scenario: 'tigon-udp-send',
  overrides: {},
  cursor: null,
  views: null,
  tourStep: null,
  ...over,
});

function problemOf(res: LinkResult, field: string): string {
  const p = res.problems.find((q) => q.field === field);
  expect(p, `a problem on ${field} in ${JSON.stringify(res.problems)}`).toBeTruthy();
  return p!.message;
}

describe('the link format', () => {
  it('lists the same views as the core (the schema generated from it)', () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
    ) as { properties: { views: { items: { enum: string[] } } } };
    expect([...LINK_VIEWS].sort()).toEqual([...schema.properties.views.items.enum].sort());
  });

  it('still reads a link made by the first v1 build (format and dictionary are pinned)', () => {
    const res = decodeLink('#v1.I0urhYEB4dQGMd_YwNTA0MjYxNSsFgA', CATALOG);
    expect(res).toEqual({
      ok: true,
      problems: [],
      state: state({
        overrides: { 'workload.datagram_bytes': 800, 'system.tigon.firmware': 'release' },
        cursor: 3_050_123_456,
      }),
    });
  });

  it('keeps typical links to real presets short', () => {
    const send = encodeLink(
      state({
        overrides: { 'workload.datagram_bytes': 800, 'system.tigon.firmware': 'release' },
        cursor: 3_050_123_456,
      }),
    );
    expect(send.startsWith('#v1.')).toBe(true);
    expect(send.length).toBeLessThan(60);
    // Every handler moved to the other CPU: the longest state a preset's own panel makes.
    const partition: Overrides = { 'system.tigon.firmware': 'custom' };
    for (const e of [
      'send_data_ready',
      'receive_complete',
      'send_bd_ready',
      'receive_bd_ready',
      'mailbox',
      'update_send_consumer',
      'update_return_producer',
      'dma_read_complete',
      'dma_write_complete',
    ])
      partition[`system.tigon.partition.${e}`] = 'b';
    const long = encodeLink(
      state({
        scenario: 'tigon-partition',
        overrides: partition,
        cursor: 3_000_555_000,
        views: ['firmware', 'profile', 'events', 'timeline'],
      }),
    );
    expect(long.length).toBeLessThan(300);
    for (const hash of [send, long]) expect(decodeLink(hash, PRESETS).ok).toBe(true);
  });

  it('base64url round-trips every byte length and refuses other text', () => {
    const r = rng(7);
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, () => r.int(0, 255));
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    }
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull(); // a length of 4k + 1 is never base64
    expect(fromBase64Url('ab=c')).toBeNull();
  });

  it('tells link hashes from routes', () => {
    expect(isLinkHash('#v1.abc')).toBe(true);
    expect(isLinkHash('#v2.abc')).toBe(true);
    expect(isLinkHash('#/s/udp-throughput')).toBe(false);
    expect(isLinkHash('')).toBe(false);
  });

  it('leaves out views equal to the scenario and the cursor of a plain link', () => {
    const s = scenarioById('tigon-udp-send')!.scenario;
    const page = {
      overrides: { 'workload.datagram_bytes': 800 },
      cursor: 1234.6,
      views: [...s.views!],
      tourStep: null,
    };
    expect(linkStateOf(s, page, false)).toEqual(
      state({ overrides: { 'workload.datagram_bytes': 800 } }),
    );
    expect(linkStateOf(s, page, true).cursor).toBe(1235);
    expect(linkStateOf(s, { ...page, views: ['chart'] }, true).views).toEqual(['chart']);
  });

  it('builds the address without embed mode', () => {
    const loc = { origin: 'https://x.org', pathname: '/nicsim/', search: '?embed=1&lang=en' };
    expect(linkUrl(loc, '#v1.abc')).toBe('https://x.org/nicsim/?lang=en#v1.abc');
    expect(linkUrl({ ...loc, search: '?embed=1' }, '#v1.abc')).toBe('https://x.org/nicsim/#v1.abc');
  });
});

describe('a bad link opens the nearest valid state and says why', () => {
  it('corrupt data: base64, deflate, JSON, not an object', () => {
    const good = encodeLink(state({ cursor: 5 }));
    for (const hash of [
      '#v1.',
      '#v1.abc$def',
      '#v1.abcde',
      '#v1.AAAAAAAA',
      good.slice(0, good.length - 6),
      packLink('{"s": "tigon-udp-send", '),
      packLink('[1,2,3]'),
      packLink('"tigon-udp-send"'),
      '#v1',
      '#vX.abc',
    ]) {
      const res = decodeLink(hash, CATALOG);
      expect(res, hash).toMatchObject({ ok: false, reason: 'corrupt' });
    }
  });

  it('bytes that are not UTF-8 are corrupt, not garbled text', () => {
    // {"s":"<0xff>"}: read leniently it would be the scenario "\ufffd".
    const bytes = Uint8Array.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const res = decodeLink(packLink(bytes), CATALOG);
    expect(res).toMatchObject({ ok: false, reason: 'corrupt' });
    expect(problemOf(res, 'link')).toContain('JSON');
  });

  it('too long, checked before anything is decompressed', () => {
    const res = decodeLink(`#v1.${'A'.repeat(MAX_LINK_CHARS)}`, CATALOG);
    expect(res).toMatchObject({ ok: false, reason: 'too-long' });
    expect(problemOf(res, 'link')).toContain(`at most ${MAX_LINK_CHARS}`);
    // A short link that inflates past the payload limit.
    const bomb = packLink(`{"s":"tigon-udp-send","x":"${'a'.repeat(20000)}"}`);
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARS);
    expect(decodeLink(bomb, CATALOG)).toMatchObject({ ok: false, reason: 'too-long' });
  });

  it('a future version names both versions', () => {
    const res = decodeLink('#v2.AAAA', CATALOG);
    expect(res).toMatchObject({ ok: false, reason: 'future-version' });
    expect(problemOf(res, 'version')).toMatch(/format v2.*format v1/);
    expect(decodeLink('#v0.AAAA', CATALOG)).toMatchObject({ ok: false, reason: 'corrupt' });
    expect(decodeLink('#v01.AAAA', CATALOG)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('an unknown or missing scenario', () => {
    const res = decodeLink(encodeLink(state({ scenario: 'no-such-thing' })), CATALOG);
    expect(res).toMatchObject({ ok: false, reason: 'unknown-scenario' });
    expect(problemOf(res, 'scenario')).toContain('"no-such-thing"');
    expect(decodeLink(packLink('{"o":{}}'), CATALOG)).toMatchObject({
      ok: false,
      reason: 'corrupt',
    });
    expect(decodeLink(packLink('{"s":42}'), CATALOG)).toMatchObject({ ok: false });
  });

  it('unknown views are dropped, naming the allowed ones; none left means the scenario’s', () => {
    const res = decodeLink(encodeLink(state({ views: ['chart', 'nope', 'chart'] })), CATALOG);
    expect(res.ok && res.state.views).toEqual(['chart']);
    expect(problemOf(res, 'views')).toMatch(/"nope".*Views: bottleneck, bus/);
    const none = decodeLink(packLink('{"s":"tigon-udp-send","v":["x",3]}'), CATALOG);
    expect(none.ok && none.state.views).toBeNull();
    const notList = decodeLink(packLink('{"s":"tigon-udp-send","v":"chart"}'), CATALOG);
    expect(notList.ok && notList.state.views).toBeNull();
    expect(problemOf(notList, 'views')).toContain('list');
  });

  it('settings that are not parameter paths or values are dropped one by one', () => {
    const res = decodeLink(
      packLink(
        JSON.stringify({
          s: 'tigon-udp-send',
          o: {
            'workload.datagram_bytes': 800,
            __proto__x: 1,
            'System.Bus': 1,
            'system.bus.clock_mhz': { a: 1 },
            'system.nic.model': 'x'.repeat(500),
            'run.seed': 3,
          },
        }),
      ),
      CATALOG,
    );
    expect(res.ok && res.state.overrides).toEqual({
      'workload.datagram_bytes': 800,
      'run.seed': 3,
    });
    expect(problemOf(res, 'overrides.system.bus.clock_mhz')).toContain('system.bus.clock_mhz');
    expect(res.problems).toHaveLength(4);
    const proto = decodeLink(
      packLink('{"s":"tigon-udp-send","o":{"__proto__":{"polluted":1}}}'),
      CATALOG,
    );
    expect(proto.ok && proto.state.overrides).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const notObject = decodeLink(packLink('{"s":"tigon-udp-send","o":[1]}'), CATALOG);
    expect(notObject.ok && notObject.state.overrides).toEqual({});
    expect(problemOf(notObject, 'overrides')).toContain('parameter path');
  });

  it('a bad cursor or tour step is dropped with its allowed range', () => {
    for (const t of [-1, 1.5, 1e16, '12', null]) {
      const res = decodeLink(packLink(JSON.stringify({ s: 'tigon-udp-send', t })), CATALOG);
      expect(res.ok && res.state.cursor).toBeNull();
      expect(problemOf(res, 'cursor')).toContain('from 0 to 1e+15');
    }
    const noTour = decodeLink(encodeLink(state({ scenario: 'untoured', tourStep: 2 })), CATALOG);
    expect(noTour.ok && noTour.state.tourStep).toBeNull();
    expect(problemOf(noTour, 'tourStep')).toContain('no tour');
    const past = decodeLink(encodeLink(state({ scenario: 'toured', tourStep: 5 })), CATALOG);
    expect(problemOf(past, 'tourStep')).toContain('steps 1 to 5');
    const ok = decodeLink(encodeLink(state({ scenario: 'toured', tourStep: 4 })), CATALOG);
    expect(ok.ok && ok.state.tourStep).toBe(4);
  });

  it('unknown fields are ignored and said so', () => {
    const res = decodeLink(packLink('{"s":"tigon-udp-send","zz":1}'), CATALOG);
    expect(res.ok).toBe(true);
    expect(problemOf(res, 'zz')).toContain('not part of a v1 link');
  });
});

describe('property: links round-trip and corruptions never throw', () => {
  it('encode → decode gives the same state (1500 random states)', () => {
    const r = rng(20250107);
    for (let i = 0; i < 1500; i++) {
      const s = randomState(r);
      const hash = encodeLink(s);
      expect(hash.length).toBeLessThan(MAX_LINK_CHARS);
      const res = decodeLink(hash, CATALOG);
      expect(res, hash).toEqual({ ok: true, state: s, problems: [] });
    }
  });

  const JUNK = [...'AZaz09-_+/=.#%~ é', '\u0000', '😀'];

  function corrupt(r: Rng, hash: string): string {
    const at = r.int(0, hash.length);
    switch (r.int(0, 7)) {
      case 0: // truncation
        return hash.slice(0, r.int(0, hash.length - 1));
      case 1: // a character replaced
        return hash.slice(0, at) + r.pick(JUNK) + hash.slice(at + 1);
      case 2: // a character inserted
        return hash.slice(0, at) + r.pick(JUNK) + hash.slice(at);
      case 3: // a character deleted
        return hash.slice(0, at) + hash.slice(at + 1);
      case 4: // another version
        return (
          r.pick([
            '#v0.',
            '#v2.',
            '#v10.',
            '#V1.',
            '#v1',
            '#v01.',
            '#v.',
            '#v123456789012345678901.',
          ]) + hash.slice(4)
        );
      case 5: {
        // bits flipped inside the compressed bytes (still valid base64url)
        const bytes = fromBase64Url(hash.slice(4))!;
        for (let k = r.int(1, 3); k > 0; k--)
          bytes[r.int(0, bytes.length - 1)]! ^= 1 << r.int(0, 7);
        return '#v1.' + toBase64Url(bytes);
      }
      case 6: // repeated past the limit
        return hash + hash.slice(4).repeat(Math.ceil(MAX_LINK_CHARS / (hash.length - 3)));
      default: {
        // well-formed compression, fields of random types
        const anything = () =>
          r.pick<unknown>([
            null,
            -1,
            0.5,
            2 ** 60,
            'x',
            'tigon-udp-send',
            true,
            [],
            ['chart', 1],
            {},
            { 'a.b': [] },
            { 'system.bus.clock_mhz': 66 },
          ]);
        const doc: Record<string, unknown> = {};
        for (const k of ['s', 'o', 't', 'v', 'k', 'q']) if (r.next() < 0.7) doc[k] = anything();
        return packLink(JSON.stringify(doc));
      }
    }
  }

  it('6000 random corruptions end in an error or a valid state, never an exception', () => {
    const r = rng(7);
    let errors = 0;
    for (let i = 0; i < 6000; i++) {
      const bad = corrupt(r, encodeLink(randomState(r)));
      let res: LinkResult | undefined;
      expect(() => {
        res = decodeLink(bad, CATALOG);
      }, bad).not.toThrow();
      expectValid(res!);
      if (!res!.ok || res!.problems.length) errors++;
    }
    // Most corruptions are caught (the rest happen to spell another valid state).
    expect(errors).toBeGreaterThan(4000);
  });
});
