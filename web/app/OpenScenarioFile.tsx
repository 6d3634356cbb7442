// "Open a scenario file…": a file input (and a drop zone on the gallery). The engine validates
// the text; a valid file opens as a custom scenario page, an invalid one lists the engine's
// messages (path + message). Whatever the file, the app keeps working.
import { useCallback, useRef, useState, type DragEvent, type ReactNode } from 'react';
import {
  checkScenarioFile,
  fileHref,
  saveCustom,
  type FileCheck,
  type FileLike,
} from '../scenarios/custom';
import type { ValidationError } from '../engine/types';

export interface FileProblem {
  file: string;
  message: string;
  errors: ValidationError[];
}

export interface ScenarioFileOpener {
  /** Opens the system file chooser. */
  choose: () => void;
  /** Checks and opens a file (from the input or a drop). */
  openFile: (file: FileLike) => Promise<void>;
  /** The hidden <input type=file>; render it once. */
  input: ReactNode;
  /** Name of the file being checked, or null. */
  checking: string | null;
  problem: FileProblem | null;
  dismiss: () => void;
}

function defaultOpen(check: Extract<FileCheck, { ok: true }>): void {
  saveCustom(check.entry);
  const href = fileHref(check.entry.id);
  if (window.location.hash !== href) window.location.hash = href;
}

export function useScenarioFileOpener(
  onOpened: (check: Extract<FileCheck, { ok: true }>) => void = defaultOpen,
): ScenarioFileOpener {
  const inputRef = useRef<HTMLInputElement>(null);
  const [checking, setChecking] = useState<string | null>(null);
  const [problem, setProblem] = useState<FileProblem | null>(null);
  const latest = useRef(0);

  const openFile = useCallback(
    async (file: FileLike) => {
      const n = ++latest.current;
      setChecking(file.name);
      setProblem(null);
      let res: FileCheck;
      try {
        res = await checkScenarioFile(file);
      } catch (err) {
        res = {
          ok: false,
          message: `“${file.name}” could not be opened: ${err instanceof Error ? err.message : String(err)}`,
          errors: [],
        };
      }
      if (n !== latest.current) return;
      setChecking(null);
      if (res.ok) onOpened(res);
      else setProblem({ file: file.name, message: res.message, errors: res.errors });
    },
    [onOpened],
  );

  const input = (
    <input
      ref={inputRef}
      type="file"
      accept=".json,application/json"
      hidden
      data-testid="scenario-file-input"
      aria-label="Scenario file"
      onChange={(e) => {
        const f = e.currentTarget.files?.[0];
        // Clear it so that choosing the same file again still reports.
        e.currentTarget.value = '';
        if (f) void openFile(f);
      }}
    />
  );

  return {
    choose: () => inputRef.current?.click(),
    openFile,
    input,
    checking,
    problem,
    dismiss: () => setProblem(null),
  };
}

/** The engine's verdict on a file that did not open. */
export function FileProblemPanel({
  problem,
  onDismiss,
}: {
  problem: FileProblem;
  onDismiss: () => void;
}) {
  return (
    <div className="notice notice-error file-problem" role="alert" data-testid="file-errors">
      <div className="file-problem-head">
        <strong>{problem.message}</strong>
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      {problem.errors.length > 0 && (
        <ul className="error-list">
          {problem.errors.map((e, i) => (
            <li key={i} data-testid="file-error">
              <code>{e.path || '(file)'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Drag-and-drop handlers for an area that accepts a scenario file. */
export function useFileDrop(opener: ScenarioFileOpener): {
  over: boolean;
  handlers: {
    onDragOver: (e: DragEvent<HTMLElement>) => void;
    onDragLeave: (e: DragEvent<HTMLElement>) => void;
    onDrop: (e: DragEvent<HTMLElement>) => void;
  };
} {
  const [over, setOver] = useState(false);
  return {
    over,
    handlers: {
      onDragOver: (e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      },
      onDragLeave: (e) => {
        // Leaving for a child element is not leaving the area.
        if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
        setOver(false);
      },
      onDrop: (e) => {
        e.preventDefault();
        setOver(false);
        const f = e.dataTransfer.files[0];
        if (f) void opener.openFile(f);
      },
    },
  };
}

/** The gallery's drop zone with its "Open a scenario file…" button (the whole page accepts a drop). */
export function FileDropZone({ opener, over }: { opener: ScenarioFileOpener; over: boolean }) {
  return (
    <div className={`dropzone ${over ? 'over' : ''}`} data-testid="dropzone">
      <div className="dz-head">
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" className="dz-icon">
          <path d="M6 2h8l5 5v13a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z" />
          <path d="M14 2v5h5" />
          <path d="M12 11v7M9 15l3 3 3-3" />
        </svg>
        <strong>Your own scenario</strong>
      </div>
      <p className="dz-text muted">
        Drop a scenario <code>.json</code> on this page (at most 1&nbsp;MB) or choose one. The
        engine checks it; it opens as a custom scenario in this tab, beside the presets.
      </p>
      <button
        type="button"
        className="btn"
        onClick={opener.choose}
        disabled={opener.checking !== null}
        data-testid="open-file"
      >
        {opener.checking ? `Checking ${opener.checking}…` : 'Open a scenario file…'}
      </button>
      {opener.input}
    </div>
  );
}
