import { isTyping } from '../kit/keys';
import { useEffect, useState } from 'react';
import { SPEED_MAX, SPEED_MIN, useStore, useStoreInstance } from '../run/store';
import { formatInstant, formatSpeed, formatTime, timeUnitFor } from '../kit/format';
import { NavControls, NavNote } from './NavControls';

const LOG_MIN = Math.log10(SPEED_MIN);
const LOG_MAX = Math.log10(SPEED_MAX);

/** Slider position (0..1000) ↔ speed on a logarithmic scale. */
export function speedFromSlider(v: number): number {
  const raw = 10 ** (LOG_MIN + ((LOG_MAX - LOG_MIN) * v) / 1000);
  // Snap to 1-2-5 steps near them so the labels read cleanly.
  const decade = 10 ** Math.floor(Math.log10(raw) + 1e-9);
  for (const m of [1, 2, 5, 10]) {
    if (Math.abs(raw - m * decade) / (m * decade) < 0.04) return m * decade;
  }
  return raw;
}

export function sliderFromSpeed(speed: number): number {
  return ((Math.log10(speed) - LOG_MIN) / (LOG_MAX - LOG_MIN)) * 1000;
}

export function PlaybackBar() {
  const store = useStoreInstance();
  // Playback works on the shown run, also while a new run computes.
  const done = useStore((s) => s.shown !== null);
  const { cursor, playing, speed } = useStore((s) => s.playback);
  const breakpoints = useStore((s) => s.nav.breakpoints.length);
  const win = done ? store.window() : null;
  // The navigation row (step to a kind, breakpoints) opens below the bar on demand, so that the
  // bar itself keeps to one row above the stage.
  const [navOpen, setNavOpen] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (
        e.target instanceof HTMLInputElement &&
        e.target.type === 'range' &&
        e.key.startsWith('Arrow')
      )
        return;
      if (e.key === ' ' || e.key === 'k') {
        if (e.target instanceof HTMLButtonElement && e.key === ' ') return;
        e.preventDefault();
        store.setPlaying(!store.getState().playback.playing);
      } else if (e.key === 'ArrowRight' || e.key === '.') {
        e.preventDefault();
        store.stepForward();
      } else if (e.key === 'ArrowLeft' || e.key === ',') {
        e.preventDefault();
        store.stepBack();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  const span = win ? win.end - win.start : 0;
  const unit = timeUnitFor(Math.max(span, 1));
  const digits = unit.unit === 'ps' ? 0 : 3;

  return (
    <div
      className="playback"
      role="group"
      aria-label="Playback"
      data-testid="playback"
      onKeyDown={(e) => {
        // Esc closes the navigation row from inside it, back on its button.
        if (e.key !== 'Escape' || !navOpen || !(e.target instanceof Element)) return;
        if (!e.target.closest('.pb-nav, .pb-more')) return;
        e.preventDefault();
        setNavOpen(false);
        e.currentTarget.querySelector<HTMLButtonElement>('.pb-more')?.focus();
      }}
    >
      <div className="pb-buttons">
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => store.stepBack()}
          disabled={!done}
          aria-label="Step back to the previous event"
          title="Previous event (←)"
          data-testid="step-back"
        >
          <svg viewBox="0 0 20 20" aria-hidden="true">
            <rect x="4" y="4" width="2.4" height="12" rx="1" />
            <path d="M16 4.5v11L7.8 10z" />
          </svg>
        </button>
        <button
          type="button"
          className="btn btn-icon btn-primary"
          onClick={() => store.setPlaying(!playing)}
          disabled={!done}
          aria-label={playing ? 'Pause' : 'Play'}
          title={playing ? 'Pause (space)' : 'Play (space)'}
          data-testid="play"
          aria-pressed={playing}
        >
          {playing ? (
            <svg viewBox="0 0 20 20" aria-hidden="true">
              <rect x="5" y="4" width="3.4" height="12" rx="1" />
              <rect x="11.6" y="4" width="3.4" height="12" rx="1" />
            </svg>
          ) : (
            <svg viewBox="0 0 20 20" aria-hidden="true">
              <path d="M6 4l10 6-10 6z" />
            </svg>
          )}
        </button>
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => store.stepForward()}
          disabled={!done}
          aria-label="Step to the next event"
          title="Next event (→)"
          data-testid="step-forward"
        >
          <svg viewBox="0 0 20 20" aria-hidden="true">
            <path d="M4 4.5v11L12.2 10z" />
            <rect x="13.6" y="4" width="2.4" height="12" rx="1" />
          </svg>
        </button>
      </div>
      <div className="pb-time" aria-live="off">
        <span className="pb-time-label">simulated time</span>
        <output className="pb-time-value mono" data-testid="sim-time" data-ps={cursor}>
          {done ? formatInstant(cursor) : '—'}
        </output>
      </div>
      <div className="pb-scrub">
        <input
          type="range"
          aria-label="Simulated time within the recorded window"
          min={win?.start ?? 0}
          max={win?.end ?? 1}
          step="any"
          value={done ? cursor : 0}
          disabled={!done}
          onChange={(e) => {
            store.setPlaying(false);
            store.setCursor(Number(e.currentTarget.value));
          }}
          data-testid="scrub"
          style={{
            ['--fill' as string]: `${span > 0 && win ? ((cursor - win.start) / span) * 100 : 0}%`,
          }}
        />
        <div className="pb-scrub-labels mono">
          <span>{win ? formatTime(win.start) : ''}</span>
          <span>
            {win
              ? `${((cursor - win.start) / unit.scale).toFixed(digits)} / ${(span / unit.scale).toFixed(digits)} ${unit.unit}`
              : 'recorded window'}
            {/* Dropped in a narrow bar: the slider's own name says it. */}
            {win && <span className="pb-window-words"> of the recorded window</span>}
          </span>
          <span>{win ? formatTime(win.end) : ''}</span>
        </div>
      </div>
      <label className="pb-speed">
        <span className="pb-speed-label">
          speed{' '}
          <output className="mono" data-testid="speed-value">
            {formatSpeed(speed)}
          </output>
        </span>
        <input
          type="range"
          min={0}
          max={1000}
          step={1}
          value={sliderFromSpeed(speed)}
          onChange={(e) => store.setSpeed(speedFromSlider(Number(e.currentTarget.value)))}
          aria-label="Playback speed, simulated time per second (logarithmic)"
          aria-valuetext={formatSpeed(speed)}
          title="1 ns/s to 1 ms/s, logarithmic"
          data-testid="speed"
        />
      </label>
      <button
        type="button"
        className="btn btn-small pb-more"
        aria-expanded={navOpen}
        aria-controls="pb-nav"
        onClick={() => setNavOpen((o) => !o)}
        title="Step to an event of a kind, breakpoints, idle stretches, the packet inspector"
        data-testid="nav-toggle"
      >
        Navigate
        {breakpoints > 0 && (
          <span className="pb-more-count">
            {' · '}
            {breakpoints} breakpoint{breakpoints === 1 ? '' : 's'}
          </span>
        )}
        <span className="pb-more-caret" aria-hidden="true">
          {navOpen ? '▴' : '▾'}
        </span>
      </button>
      <NavNote />
      <NavControls open={navOpen} />
    </div>
  );
}
