// The banner a link that could not be opened as it was leaves on the page: what was wrong, in
// words naming the field and what it may be, and where the app went instead. Dismissible.
import { useState } from 'react';
import type { LinkFailure, LinkProblem } from './link';
import './links.css';

const FAILURE_TITLES: Record<LinkFailure, string> = {
  corrupt: 'This link is damaged',
  'too-long': 'This link is too long',
  'future-version': 'This link is from a newer nicsim',
  'unknown-scenario': 'This link names a scenario that does not exist here',
};

export function LinkBanner({
  failure,
  problems,
  outcome,
}: {
  /** Set when nothing of the link could be opened. */
  failure?: LinkFailure;
  problems: readonly LinkProblem[];
  /** Where the user is now, in a sentence. */
  outcome: string;
}) {
  const [open, setOpen] = useState(true);
  if (!open || problems.length === 0) return null;
  const title = failure ? FAILURE_TITLES[failure] : 'Part of this link could not be used';
  return (
    <div
      className={`notice link-banner ${failure ? 'notice-error' : 'notice-warn'}`}
      role="alert"
      data-testid="link-banner"
      data-reason={failure ?? 'partial'}
    >
      <div className="link-banner-text">
        <strong>{title}.</strong> {outcome}
        <ul className="error-list">
          {problems.map((p, i) => (
            <li key={i} data-field={p.field}>
              {p.message}
            </li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="link-banner-close"
        aria-label="Dismiss this message"
        data-testid="link-banner-dismiss"
        onClick={() => setOpen(false)}
      >
        ×
      </button>
    </div>
  );
}
