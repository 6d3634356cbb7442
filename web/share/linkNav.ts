// Where an address leads: a "#/" route (route.ts) or a "#v1." link (link.ts), and embed mode.
import {
  decodeLink,
  isLinkHash,
  type LinkCatalog,
  type LinkFailure,
  type LinkProblem,
} from './link';
import type { OpenedLink } from './linkRestore';
import { parseHash, type Route } from '../app/route';

/** A link that could not be opened at all, and where the app went instead. */
export interface FailedLink {
  reason: LinkFailure;
  problems: LinkProblem[];
  /** True when the page the user had open stayed (a bad link pasted while working). */
  keptPage: boolean;
  serial: number;
}

export interface Nav {
  route: Route;
  /** The hash this page stands for (kept when a bad link leaves the page as it was). */
  hash: string;
  link?: OpenedLink;
  failed?: FailedLink;
}

let serial = 0;

/**
 * The page for an address. A link that opens nothing leads to the gallery, or, when a scenario
 * page is already open, leaves that page as it is (the user's view is never lost to a bad link).
 */
export function navigate(
  hash: string,
  ids: readonly string[],
  catalog: LinkCatalog,
  previous?: Nav,
): Nav {
  if (!isLinkHash(hash)) return { route: parseHash(hash, ids), hash };
  const res = decodeLink(hash, catalog);
  serial++;
  if (res.ok) {
    return {
      route: { view: 'scenario', id: res.state.scenario },
      hash,
      link: { state: res.state, problems: res.problems, serial },
    };
  }
  const failed = { reason: res.reason, problems: res.problems, serial };
  if (previous && previous.route.view !== 'gallery') {
    return { ...previous, failed: { ...failed, keptPage: true } };
  }
  return { route: { view: 'gallery' }, hash, failed: { ...failed, keptPage: false } };
}

/** Embed mode (`?embed=1` before the hash): the scenario and its controls, no site chrome. */
export function isEmbed(search: string): boolean {
  const v = new URLSearchParams(search).get('embed');
  return v === '1' || v === 'true';
}

/** The same page outside embed mode (for "open in nicsim"). */
export function withoutEmbed(location: Pick<Location, 'href'>): string {
  const url = new URL(location.href);
  url.searchParams.delete('embed');
  return url.href;
}
