import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { SHORTCUTS, ShortcutSheet, opensSheet } from './ShortcutSheet';

const keys = SHORTCUTS.flatMap((g) => g.items.flatMap((s) => s.keys));

describe('the keyboard-shortcut sheet', () => {
  it('lists every shortcut the app answers', () => {
    // PlaybackBar, NavControls, Presenter, TourPanel, the menus, EventLog, Chart, the inspector.
    for (const k of [
      '?',
      'Esc',
      'Space',
      'K',
      '→',
      '.',
      '←',
      ',',
      'Shift+→',
      'P',
      'R',
      'Page Down',
      '1–9',
      '↑',
      'Home',
    ])
      expect(keys, k).toContain(k);
  });

  it('is a dialog named by its heading, closed by a button', () => {
    const html = renderToStaticMarkup(<ShortcutSheet />);
    expect(html).toMatch(/^<dialog[^>]*aria-labelledby="shortcuts-title"/);
    expect(html).toContain('<h2 id="shortcuts-title" tabindex="-1">Keyboard shortcuts</h2>');
    expect(html).toContain('<form method="dialog">');
  });

  it('opens on ? outside text fields only', () => {
    const base = { ctrlKey: false, metaKey: false, altKey: false, target: null };
    expect(opensSheet({ ...base, key: '?' })).toBe(true);
    expect(opensSheet({ ...base, key: '/' })).toBe(false);
    expect(opensSheet({ ...base, key: '?', ctrlKey: true })).toBe(false);
  });
});
