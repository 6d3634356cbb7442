import { describe, expect, it } from 'vitest';
import { abHref, parseHash, scenarioHref } from './route';

const ids = ['udp-throughput', 'ring-lag'];

describe('parseHash', () => {
  it('opens the gallery for an empty hash or #/', () => {
    expect(parseHash('', ids)).toEqual({ view: 'gallery' });
    expect(parseHash('#', ids)).toEqual({ view: 'gallery' });
    expect(parseHash('#/', ids)).toEqual({ view: 'gallery' });
  });

  it('opens a known scenario', () => {
    expect(parseHash('#/s/udp-throughput', ids)).toEqual({
      view: 'scenario',
      id: 'udp-throughput',
    });
    expect(parseHash('#/s/ring-lag/', ids)).toEqual({ view: 'scenario', id: 'ring-lag' });
    expect(parseHash(scenarioHref('ring-lag'), ids)).toEqual({ view: 'scenario', id: 'ring-lag' });
  });

  it('falls back to the gallery naming an unknown id and the allowed ids', () => {
    const r = parseHash('#/s/nope', ids);
    expect(r.view).toBe('gallery');
    if (r.view !== 'gallery') return;
    expect(r.problem).toContain('"nope"');
    expect(r.problem).toContain('udp-throughput, ring-lag');
  });

  it('opens an opened scenario file by id, whatever the id', () => {
    expect(parseHash('#/file/my-test', ids)).toEqual({ view: 'file', id: 'my-test' });
    expect(parseHash('#/file/a%20b/', ids)).toEqual({ view: 'file', id: 'a b' });
    expect(parseHash('#/file/%E0%A4%A', ids)).toMatchObject({ view: 'gallery' });
  });

  it('opens the A/B view of a known scenario, and names the known ids otherwise', () => {
    expect(parseHash('#/ab/ring-lag', ids)).toEqual({ view: 'ab', id: 'ring-lag' });
    expect(parseHash(`${abHref('udp-throughput')}/`, ids)).toEqual({
      view: 'ab',
      id: 'udp-throughput',
    });
    for (const h of ['#/ab/nope', '#/ab/', '#/ab/%E0%A4%A', '#/ab/a/b']) {
      const r = parseHash(h, ids);
      expect(r.view, h).toBe('gallery');
      expect(r.view === 'gallery' && r.problem, h).toBeTruthy();
    }
    const r = parseHash('#/ab/nope', ids);
    expect(r.view === 'gallery' && r.problem).toContain('udp-throughput, ring-lag');
  });

  it('reports a malformed hash', () => {
    for (const h of ['#/x/y', '#/s', '#/s/a/b', '#garbage', '#/file/', '#/file/a/b']) {
      const r = parseHash(h, ids);
      expect(r.view, h).toBe('gallery');
      expect(r.view === 'gallery' && r.problem, h).toBeTruthy();
    }
  });

  it('reports an empty id and broken percent-encoding', () => {
    expect(parseHash('#/s/', ids)).toMatchObject({
      view: 'gallery',
      problem: expect.stringContaining('names no scenario'),
    });
    expect(parseHash('#/s/%E0%A4%A', ids)).toMatchObject({
      view: 'gallery',
      problem: expect.stringContaining('not valid'),
    });
  });
});
