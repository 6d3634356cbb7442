// A count of changes and who to tell about them: the external store React's
// useSyncExternalStore reads (the presets' files as they load, the files opened in this tab).

export interface Changes {
  /** Counts one change and calls every listener. */
  notify(): void;
  /** Calls `l` on every change; returns the unsubscribe. */
  subscribe(l: () => void): () => void;
  /** Changes with every change (the snapshot). */
  version(): number;
}

export function changes(): Changes {
  const listeners = new Set<() => void>();
  let version = 0;
  return {
    notify() {
      version++;
      for (const l of [...listeners]) l();
    },
    subscribe(l) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
    version: () => version,
  };
}
