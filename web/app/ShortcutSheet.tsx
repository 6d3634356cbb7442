// The keyboard-shortcut sheet: `?` opens it anywhere (but in a text field), Esc or Close shuts
// it and focus goes back where it was. A modal <dialog>: the browser keeps focus inside it and
// names it to assistive technology by its heading.
import { useCallback, useEffect, useRef } from 'react';
import { isTyping } from '../kit/keys';

export interface Shortcut {
  keys: string[];
  what: string;
}

/** Every shortcut the app answers, by where it works (the handlers cite this list). */
export const SHORTCUTS: ReadonlyArray<{ where: string; items: readonly Shortcut[] }> = [
  {
    where: 'Anywhere',
    items: [
      { keys: ['?'], what: 'Show this list of shortcuts' },
      { keys: ['Esc'], what: 'Close an open menu (Share, Views, Download) or this list' },
    ],
  },
  {
    where: 'Playback',
    items: [
      { keys: ['Space', 'K'], what: 'Play or pause' },
      { keys: ['→', '.'], what: 'Step to the next event' },
      { keys: ['←', ','], what: 'Step back to the previous event' },
      {
        keys: ['Shift+→', 'Shift+←'],
        what: 'Step to the next or previous event of the chosen kind',
      },
    ],
  },
  {
    where: 'Event log',
    items: [
      { keys: ['Tab'], what: 'Enter the log (one stop), then leave it' },
      { keys: ['↑', '↓', 'Home', 'End'], what: 'Move between its rows' },
      { keys: ['Enter', 'Space'], what: 'Move the time cursor to that event' },
    ],
  },
  {
    where: 'Guided tour',
    items: [
      { keys: ['Page Down', 'Page Up'], what: 'Next or previous step' },
      { keys: ['1–9'], what: 'Go to that step' },
      { keys: ['A', 'B', 'C', 'D'], what: 'Answer a prediction' },
      { keys: ['R'], what: 'Reveal the answer' },
      { keys: ['Esc'], what: 'Leave the tour' },
    ],
  },
  {
    where: 'Presenter mode',
    items: [
      { keys: ['P'], what: 'Turn presenter mode on or off' },
      { keys: ['→', '←'], what: 'Next or previous tour step' },
      { keys: ['Space'], what: 'Play or pause' },
      { keys: ['Esc'], what: 'Leave presenter mode' },
    ],
  },
  {
    where: 'Charts',
    items: [
      { keys: ['←', '→', 'Home', 'End'], what: 'Move between the points of a focused chart' },
      { keys: ['Esc'], what: 'Hide the point’s values' },
    ],
  },
  {
    where: 'Packet inspector',
    items: [{ keys: ['Esc'], what: 'Close the inspector' }],
  },
];

/** True for the key that opens the sheet: `?` typed outside a text field. */
export function opensSheet(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>,
): boolean {
  if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey) return false;
  return !e.target || !isTyping(e.target);
}

export function ShortcutSheet() {
  const dialog = useRef<HTMLDialogElement>(null);
  const back = useRef<HTMLElement | null>(null);

  const open = useCallback(() => {
    const d = dialog.current;
    if (!d || d.open) return;
    back.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    d.showModal();
    // Start at the top: the heading, not the Close button at the bottom of a long list.
    d.querySelector<HTMLElement>('h2')?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !opensSheet(e)) return;
      e.preventDefault();
      open();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="shortcut-sheet"
      aria-labelledby="shortcuts-title"
      data-testid="shortcut-sheet"
      onClose={() => {
        if (back.current && document.contains(back.current)) back.current.focus();
      }}
      onKeyDown={(e) => {
        // Esc closes the sheet only: no tour, presenter mode or inspector behind it hears it.
        if (e.key === 'Escape') e.stopPropagation();
      }}
    >
      <h2 id="shortcuts-title" tabIndex={-1}>
        Keyboard shortcuts
      </h2>
      {/* The list scrolls on a short screen: focusable, so the arrow keys scroll it too. */}
      <div className="shortcut-groups" tabIndex={0} role="region" aria-label="Every shortcut">
        {SHORTCUTS.map((g) => (
          <section key={g.where} aria-labelledby={`shortcuts-${g.where.replace(/\W+/g, '-')}`}>
            <h3 id={`shortcuts-${g.where.replace(/\W+/g, '-')}`}>{g.where}</h3>
            <dl>
              {g.items.map((s) => (
                <div key={s.what} className="shortcut">
                  <dt>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="muted"> or </span>}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <form method="dialog">
        <button type="submit" className="btn btn-small" data-testid="shortcuts-close">
          Close
        </button>
      </form>
    </dialog>
  );
}

/** A button that opens the sheet, for those who do not know about `?`. */
export function ShortcutButton() {
  return (
    <button
      type="button"
      className="btn btn-small btn-ghost shortcut-button"
      aria-keyshortcuts="?"
      title="Keyboard shortcuts (?)"
      data-testid="shortcuts-open"
      onClick={() =>
        window.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }))
      }
    >
      Shortcuts <kbd aria-hidden="true">?</kbd>
    </button>
  );
}
