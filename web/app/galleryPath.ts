// The gallery's path for a beginner: the groups, the "start here" steps and the paper of each
// preset, all read from the scenario files (their tags and the seed numbers their sources cite),
// so a new preset joins its group and cites its paper without a list here to update.
import type { PresetCard, Scenario } from '../scenarios/types';

export interface Paper {
  seed: string;
  /** On a card: authors and venue, short. */
  short: string;
  /** In the footer and README. */
  full: string;
}

/** The papers presets cite by seed number (web/BIBLIOGRAPHY.md). */
export const PAPERS: Record<string, Paper> = {
  '000': {
    seed: '000',
    short: 'Kim, MS thesis, Rice 2003',
    full: 'Hyong-Youb Kim, “Improving Networking Server Performance with Programmable Network Interfaces”, MS thesis, Rice University, 2003',
  },
  '001': {
    seed: '001',
    short: 'Brecht et al., EuroSys 2006',
    full: 'Tim Brecht, G. (John) Janakiraman, Brian Lynn, Vikram Saletore, Yoshio Turner, “Evaluating Network Processing Efficiency with Processor Partitioning and Asynchronous I/O”, EuroSys 2006',
  },
  '002': {
    seed: '002',
    short: 'Nahum et al., SIGMETRICS 1997',
    full: 'Erich Nahum, David Yates, Jim Kurose, Don Towsley, “Cache Behavior of Network Protocols”, ACM SIGMETRICS 1997',
  },
  '003': {
    seed: '003',
    short: 'Binkert et al., ASPLOS 2006',
    full: 'Nathan L. Binkert, Ali G. Saidi, Steven K. Reinhardt, “Integrated Network Interfaces for High-Bandwidth TCP/IP”, ASPLOS XII, 2006',
  },
  '004': {
    seed: '004',
    short: 'Freimuth et al., USENIX 2005',
    full: 'Doug Freimuth, Elbert Hu, Jason LaVoie, Ronald Mraz, Erich Nahum, Prashant Pradhan, John Tracey, “Server Network Scalability and TCP Offload”, USENIX Annual Technical Conference 2005',
  },
};

export interface Group {
  id: string;
  title: string;
  blurb: string;
  /** A preset belongs to the group of its first tag that is one of these. */
  tags: readonly string[];
}

/** Mechanisms, in the order a course meets them: host and NIC, the bus, the NIC's CPUs, a full server, an integrated NIC, a networking core. */
export const GROUPS: readonly Group[] = [
  {
    id: 'rings',
    title: 'Descriptor rings',
    blurb:
      'How the driver and the NIC hand buffers to each other: producer and consumer indexes, the mailbox, interrupts.',
    tags: ['descriptor rings'],
  },
  {
    id: 'pci',
    title: 'The PCI bus',
    blurb: 'DMA over the I/O bus: address and data phases, bursts, arbitration, the bus clock.',
    tags: ['PCI'],
  },
  {
    id: 'tigon',
    title: 'Tigon-2 firmware',
    blurb:
      'The programmable NIC’s two CPUs, their handlers, scratch pads and the partition of work.',
    tags: ['Tigon'],
  },
  {
    id: 'web',
    title: 'The NIC data cache and a web server',
    blurb:
      'A full server on PCI: requests, file traces, and a cache on the NIC that saves bus cycles.',
    tags: ['NIC cache', 'web'],
  },
  {
    id: 'sinic',
    title: 'SINIC: a NIC beside the CPU',
    blurb: 'A simple NIC integrated with the processor, its virtual NICs (VNICs) and zero copy.',
    tags: ['SINIC'],
  },
  {
    id: 'offload',
    title: 'TCP offload: what crosses the bus',
    blurb:
      'A conventional NIC against an offload adapter: descriptors, headers and ACKs on the bus, descriptor batching, and the memory wall.',
    tags: ['TCP offload'],
  },
  {
    id: 'eta',
    title: 'ETA+AIO: a core that only does networking',
    blurb:
      'One CPU a polling packet engine, the other the application, talking through doorbell and event queues; against a best-practice baseline.',
    tags: ['ETA+AIO'],
  },
  {
    id: 'protocache',
    title: 'Protocol code in the host caches',
    blurb:
      'TCP/IP and UDP/IP packets through the CPU’s L1 and L2 caches: hot, cold, ideal, bigger, more associative, re-linked.',
    tags: ['protocol cache'],
  },
];

const START = /^start here (\d+)$/;

export function groupOf(s: Pick<Scenario, 'tags'>): Group | undefined {
  for (const t of s.tags ?? []) {
    const g = GROUPS.find((x) => x.tags.includes(t));
    if (g) return g;
  }
  return undefined;
}

/** Its place on the "start here" path (1, 2, …), from a "start here N" tag. */
export function startStepOf(s: Pick<Scenario, 'tags'>): number | undefined {
  for (const t of s.tags ?? []) {
    const m = START.exec(t);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The tags a reader filters by and sees: all but the path's own. */
export function visibleTags(s: Pick<Scenario, 'tags'>): string[] {
  return (s.tags ?? []).filter((t) => !START.test(t));
}

/**
 * The paper a preset follows: the seed its sources and parameter notes cite most (worked out
 * from the whole file when the app is built: a preset's card holds the seed).
 */
export function paperOf(s: Pick<Scenario, 'reference' | 'parameter_notes'>): Paper | undefined {
  const text = JSON.stringify([s.reference ?? [], s.parameter_notes ?? {}]);
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/seed (\d{3})/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  let best: string | undefined;
  for (const [seed, n] of counts) if (!best || n > counts.get(best)!) best = seed;
  return best ? PAPERS[best] : undefined;
}

/** The paper of a preset's card. */
export function paperOfCard(c: Pick<PresetCard, 'paper'>): Paper | undefined {
  return c.paper === null ? undefined : PAPERS[c.paper];
}

/** Every paper the given presets follow, in seed order. */
export function papersUsed(cards: readonly Pick<PresetCard, 'paper'>[]): Paper[] {
  const seeds = new Set<string>();
  for (const c of cards) {
    const p = paperOfCard(c);
    if (p) seeds.add(p.seed);
  }
  return [...seeds].sort().map((s) => PAPERS[s]!);
}

export interface GalleryFilter {
  tag: string;
  q: string;
}

/** Reads the filter from the gallery's address, "#/?tag=PCI&q=cache". */
export function filterFromHash(hash: string): GalleryFilter {
  const i = hash.indexOf('?');
  const p = new URLSearchParams(i >= 0 ? hash.slice(i + 1) : '');
  return { tag: p.get('tag') ?? '', q: p.get('q') ?? '' };
}

export function hashForFilter(f: GalleryFilter): string {
  const p = new URLSearchParams();
  if (f.tag) p.set('tag', f.tag);
  if (f.q.trim()) p.set('q', f.q);
  const s = p.toString();
  return s ? `#/?${s}` : '#/';
}

/** Search by text over title, summary and tags; every word must match somewhere. */
export function matches(
  s: Pick<Scenario, 'title' | 'summary' | 'tags'>,
  f: GalleryFilter,
): boolean {
  if (f.tag && !visibleTags(s).includes(f.tag)) return false;
  const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [s.title, s.summary, ...visibleTags(s)].join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

/**
 * Every tag the cards show, alphabetically. `known`: tags already in that order (the presets',
 * sorted by the build); when they hold every tag, their order is taken as it is, without a
 * collation (a page's first costs about 40 ms).
 */
export function allTags(
  cards: readonly Pick<PresetCard, 'scenario'>[],
  known: readonly string[] = [],
): string[] {
  const set = new Set<string>();
  for (const c of cards) for (const t of visibleTags(c.scenario)) set.add(t);
  const inKnownOrder = known.filter((t) => set.has(t));
  if (inKnownOrder.length === set.size) return inKnownOrder;
  return [...set].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}
