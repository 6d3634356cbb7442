// Hash routing: "#/" gallery ("#/?tag=…&q=…" filtered), "#/s/<scenario id>" scenario page, "#/file/<id>" a scenario file
// the user opened in this tab (whether it is still loaded is the app's business), "#/ab/<scenario
// id>" the A/B view of a scenario's two variants.

export type Route =
  | { view: 'gallery'; problem?: string }
  | { view: 'scenario'; id: string }
  | { view: 'file'; id: string }
  | { view: 'ab'; id: string };

/** Parses location.hash against the known scenario ids. Anything wrong falls back to the gallery with a message. */
export function parseHash(hash: string, ids: readonly string[]): Route {
  let h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h === '' || h === '/') return { view: 'gallery' };
  const allowed = ids.length ? ids.join(', ') : '(none)';
  if (!h.startsWith('/')) h = `/${h}`;
  // The gallery with a filter: "#/?tag=PCI&q=cache" (read by the gallery itself).
  if (h.startsWith('/?')) return { view: 'gallery' };
  const f = /^\/file\/([^/?#]+)\/?$/.exec(h);
  if (f) {
    try {
      return { view: 'file', id: decodeURIComponent(f[1]!) };
    } catch {
      return {
        view: 'gallery',
        problem: `The file id in "#${hash.replace(/^#/, '')}" is not valid URL text.`,
      };
    }
  }
  const ab = /^\/ab\/([^/?#]*)\/?$/.exec(h);
  if (ab) {
    let id: string;
    try {
      id = decodeURIComponent(ab[1]!);
    } catch {
      id = '';
    }
    if (ids.includes(id)) return { view: 'ab', id };
    return {
      view: 'gallery',
      problem: `The A/B view "#${hash.replace(/^#/, '')}" names no known scenario. Known ids: ${allowed}.`,
    };
  }
  const m = /^\/s\/([^/?#]*)\/?$/.exec(h);
  if (!m) {
    return {
      view: 'gallery',
      problem: `The address "#${hash.replace(/^#/, '')}" is not a page of this site. Use #/ for the gallery or #/s/<id> for a scenario; ids: ${allowed}.`,
    };
  }
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return {
      view: 'gallery',
      problem: `The scenario id in "#${hash.replace(/^#/, '')}" is not valid URL text. Known ids: ${allowed}.`,
    };
  }
  if (!id)
    return { view: 'gallery', problem: `The address names no scenario. Known ids: ${allowed}.` };
  if (!ids.includes(id)) {
    return { view: 'gallery', problem: `There is no scenario "${id}". Known ids: ${allowed}.` };
  }
  return { view: 'scenario', id };
}

export function scenarioHref(id: string): string {
  return `#/s/${encodeURIComponent(id)}`;
}

export function abHref(id: string): string {
  return `#/ab/${encodeURIComponent(id)}`;
}
