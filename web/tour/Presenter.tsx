// Presenter mode: large type, high contrast, clutter hidden, driven from the keyboard.
// ui.presenter puts a class on the document root that styles/presenter.css is scoped under. Keys:
// P toggles, Esc leaves, space plays or pauses (even with a button focused: in front of a class a
// stray focus must not turn space into "press that button again"). The arrows and number keys
// are the playback bar's and the tour's (TourPanel).
import { inOpenMenu, isTyping } from '../kit/keys';
import { useEffect } from 'react';
import { useStore, useStoreInstance } from '../run/store';
import { clearPresenterZoom, fitPresenterZoom } from './presenterZoom';
import './presenter.css';

/** The root class presenter mode sets (styles/presenter.css). */
export const PRESENTER_CLASS = 'presenter-mode';

/** Inputs whose keys presenter mode and the tour take as shortcuts (the tour's answers). */
export const CHOICE_INPUTS = ['radio', 'submit', 'reset'];

export function PresenterToggle() {
  const store = useStoreInstance();
  const presenter = useStore((s) => s.ui.presenter);

  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle(PRESENTER_CLASS, presenter);
    return () => root.classList.remove(PRESENTER_CLASS);
  }, [presenter]);

  // The views' drawings, magnified to readable labels (presenterZoom.ts): again for every tour
  // step (its highlight), every run shown, every change of views and every new window size.
  const tourStep = useStore((s) => s.ui.tourStep);
  const shown = useStore((s) => s.shown);
  const views = useStore((s) => s.ui.views);
  useEffect(() => {
    if (!presenter) return;
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      // Two frames: the dock and the page settle first.
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => {
          const page = document.querySelector('.scenario');
          const bar = document.querySelector('.playback');
          const dock = document.querySelector('[data-testid="tour-dock"]');
          if (!page) return;
          const top = bar ? bar.getBoundingClientRect().height + 8 : 0;
          const bottom = dock ? dock.getBoundingClientRect().top : window.innerHeight;
          // The panel at the top of the room stays there while the panels above it change size.
          const anchor = [...page.querySelectorAll('.panel')].find(
            (p) => p.getBoundingClientRect().bottom > top + 4,
          );
          const before = anchor?.getBoundingClientRect().top ?? 0;
          fitPresenterZoom(page, top, bottom);
          const moved = (anchor?.getBoundingClientRect().top ?? 0) - before;
          if (Math.abs(moved) > 1) window.scrollBy(0, moved);
        });
      });
    };
    fit();
    window.addEventListener('resize', fit);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', fit);
      clearPresenterZoom();
    };
  }, [presenter, tourStep, shown, views]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.defaultPrevented ||
        e.altKey ||
        e.ctrlKey ||
        e.metaKey ||
        isTyping(e.target, CHOICE_INPUTS)
      )
        return;
      const on = store.getState().ui.presenter;
      if (e.key === 'p' || e.key === 'P') {
        e.preventDefault();
        store.setUi({ presenter: !on });
      } else if (e.key === 'Escape' && on && !inOpenMenu(e.target)) {
        e.preventDefault();
        store.setUi({ presenter: false });
      } else if (e.key === ' ' && on) {
        // Capture phase: before a focused button would take the space as a click.
        e.preventDefault();
        store.setPlaying(!store.getState().playback.playing);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [store]);

  return (
    <button
      type="button"
      className={`btn btn-small presenter-toggle ${presenter ? 'on' : ''}`}
      aria-pressed={presenter}
      onClick={(e) => {
        store.setUi({ presenter: !presenter });
        // Leave the keyboard to the shortcuts, not to this button.
        e.currentTarget.blur();
      }}
      title={
        presenter
          ? 'Leave presenter mode (Esc)'
          : 'Presenter mode: large type, clutter hidden, keyboard driven (P)'
      }
      data-testid="presenter-toggle"
    >
      {presenter ? 'Leave presenter mode' : 'Presenter mode'}{' '}
      <kbd aria-hidden="true">{presenter ? 'Esc' : 'P'}</kbd>
    </button>
  );
}
