import { describe, expect, it } from 'vitest';
import { encodeLink, type LinkCatalog } from './link';
import { isEmbed, navigate, withoutEmbed } from './linkNav';

const IDS = ['udp-throughput', 'pci-dma-read'];
const CATALOG: LinkCatalog = { ids: IDS, tour: (id) => (IDS.includes(id) ? null : undefined) };
const link = encodeLink({
  scenario: 'pci-dma-read',
  overrides: { 'system.bus.clock_mhz': 66 },
  cursor: 5,
  views: ['waveform'],
  tourStep: null,
});

describe('navigate', () => {
  it('routes as before and opens links', () => {
    expect(navigate('#/s/udp-throughput', IDS, CATALOG).route).toEqual({
      view: 'scenario',
      id: 'udp-throughput',
    });
    expect(navigate('#/', IDS, CATALOG).route).toEqual({ view: 'gallery' });
    expect(navigate('#/file/x', IDS, CATALOG).route).toEqual({ view: 'file', id: 'x' });
    const nav = navigate(link, IDS, CATALOG);
    expect(nav.route).toEqual({ view: 'scenario', id: 'pci-dma-read' });
    expect(nav.link?.state.overrides).toEqual({ 'system.bus.clock_mhz': 66 });
    expect(nav.failed).toBeUndefined();
    // The same link opened twice is two openings (the page restores it again).
    expect(navigate(link, IDS, CATALOG).link!.serial).not.toBe(nav.link!.serial);
  });

  it('a link that opens nothing leads to the gallery, or keeps an open scenario page', () => {
    const first = navigate('#v2.AAAA', IDS, CATALOG);
    expect(first.route).toEqual({ view: 'gallery' });
    expect(first.failed).toMatchObject({ reason: 'future-version', keptPage: false });

    const page = navigate(link, IDS, CATALOG);
    const after = navigate('#v1.%%%', IDS, CATALOG, page);
    expect(after.route).toBe(page.route);
    expect(after.link).toBe(page.link);
    expect(after.hash).toBe(link);
    expect(after.failed).toMatchObject({ reason: 'corrupt', keptPage: true });

    const fromGallery = navigate('#v1.%%%', IDS, CATALOG, first);
    expect(fromGallery.failed?.keptPage).toBe(false);
  });
});

describe('embed mode', () => {
  it('is ?embed=1 (or true) before the hash', () => {
    expect(isEmbed('?embed=1')).toBe(true);
    expect(isEmbed('?a=2&embed=true')).toBe(true);
    expect(isEmbed('?embed=0')).toBe(false);
    expect(isEmbed('')).toBe(false);
  });

  it('"open in nicsim" is the same address without it', () => {
    expect(withoutEmbed({ href: 'https://x.org/n/?embed=1#/s/pci-dma-read' })).toBe(
      'https://x.org/n/#/s/pci-dma-read',
    );
    expect(withoutEmbed({ href: `https://x.org/?lang=en&embed=1${link}` })).toBe(
      `https://x.org/?lang=en${link}`,
    );
  });
});
