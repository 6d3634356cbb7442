// "Share": copy a link to the scenario with its settings and views (the cursor at the start), or
// to this very moment (with the time cursor). Without a usable clipboard the link appears in a
// read-only field, selected, for the user to copy.
import { useEffect, useRef, useState } from 'react';
import { encodeLink, linkStateOf, linkUrl } from './link';
import { formatTime } from '../kit/format';
import { closeMenuOnEscape } from '../kit/keys';
import type { Overrides } from '../run/overrides';
import type { Scenario } from '../scenarios/types';
import { ViewVisibleContext, useStore, useStoreInstance, useViewCursor } from '../run/store';
import '../export/export.css';
import './links.css';

type Copied = { url: string; moment: boolean; how: 'clipboard' | 'field' };

/** Writes the text to the clipboard; false when the page may not (no API, not allowed). */
async function toClipboard(text: string): Promise<boolean> {
  try {
    if (!window.isSecureContext || !navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function ShareMenu({
  scenario,
  requested,
  unavailable,
}: {
  scenario: Scenario;
  /** The overrides asked for (used until a run is shown; then the shown run's). */
  requested: Overrides;
  /** Why the page cannot be linked (a scenario opened from a file lives in this tab only). */
  unavailable?: string;
}) {
  const run = useStore((s) => s.shown);
  // The cursor is read when a link is made; the menu's label follows it only while open.
  const store = useStoreInstance();
  const [open, setOpen] = useState(false);
  const views = useStore((s) => s.ui.views);
  const tourStep = useStore((s) => s.ui.tourStep);
  const [copied, setCopied] = useState<Copied | null>(null);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (copied?.how === 'field') {
      field.current?.focus();
      field.current?.select();
    }
  }, [copied]);

  const copy = async (moment: boolean) => {
    const state = linkStateOf(
      scenario,
      {
        overrides: run ? run.overrides : requested,
        cursor: store.getState().playback.cursor,
        views,
        tourStep,
      },
      moment,
    );
    const url = linkUrl(window.location, encodeLink(state));
    const ok = await toClipboard(url);
    setCopied({ url, moment, how: ok ? 'clipboard' : 'field' });
  };

  const noMoment = unavailable ?? (run ? undefined : 'run the scenario first');
  return (
    <details
      className="export-menu share-menu"
      data-testid="share-menu"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      onKeyDown={closeMenuOnEscape}
    >
      <summary className="btn btn-small">
        Share <span aria-hidden="true">▾</span>
      </summary>
      <div className="export-items share-items" role="group" aria-label="Share">
        <button
          type="button"
          className="export-item"
          disabled={!!unavailable}
          title={unavailable}
          onClick={() => void copy(false)}
          data-testid="copy-link"
        >
          Copy link
          <span className="share-sub">this scenario with its settings and views</span>
        </button>
        <button
          type="button"
          className="export-item"
          disabled={!!noMoment}
          title={noMoment}
          onClick={() => void copy(true)}
          data-testid="copy-link-moment"
        >
          Copy link to this moment
          <span className="share-sub">
            the same, with the time cursor at{' '}
            <ViewVisibleContext.Provider value={open}>
              <CursorTime />
            </ViewVisibleContext.Provider>
          </span>
        </button>
        {unavailable && <p className="share-note">{unavailable}</p>}
        {copied && (
          <div className="share-result" data-testid="share-result" data-how={copied.how}>
            <p role="status" className="share-note">
              {copied.how === 'clipboard'
                ? `Copied ${copied.moment ? 'the link to this moment' : 'the link'} to the clipboard.`
                : 'The browser did not let the page use the clipboard: copy the selected link below (Ctrl+C or ⌘C).'}
            </p>
            <input
              ref={field}
              className="share-field mono"
              readOnly
              value={copied.url}
              aria-label={copied.moment ? 'Link to this moment' : 'Link to this scenario'}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="share-link-text"
            />
          </div>
        )}
      </div>
    </details>
  );
}

function CursorTime() {
  return <>{formatTime(useViewCursor())}</>;
}
