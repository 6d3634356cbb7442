// When a moved knob runs. A slider's first step runs at once; while it keeps moving (dragged, or
// an arrow key held) runs start at most every `throttleMs`, and not over a run still in flight,
// so a long run can finish and be seen; `debounceMs` after the last change, the last position
// runs whatever is in flight. A committed change (Enter, leaving a field, letting go of a slider,
// picking a choice) runs at once. The last change always runs.
import type { Overrides } from '../run/overrides';

export interface LiveRunOptions {
  /** Quiet time after the last change before it runs. */
  debounceMs?: number;
  /** Least time between two runs started during a drag. */
  throttleMs?: number;
  now?: () => number;
}

export const DEBOUNCE_MS = 200;
export const THROTTLE_MS = 300;

export class LiveRunner {
  private pending: Overrides | null = null;
  private debounceTimer: ReturnType<typeof setTimeout> | null = null;
  private throttleTimer: ReturnType<typeof setTimeout> | null = null;
  private lastStart = -Infinity;
  /** The knob moves as a slider does (runs between its steps, not only after them). */
  private sliding = false;
  /** A slider's run was held back because one was in flight. */
  private held = false;
  private readonly debounceMs: number;
  private readonly throttleMs: number;
  private readonly now: () => number;

  /**
   * `start` runs an overrides object (the page's run(), which cancels what is in flight);
   * `busy` says whether a run is in flight.
   */
  constructor(
    private readonly start: (overrides: Overrides) => void,
    private readonly busy: () => boolean,
    opts: LiveRunOptions = {},
  ) {
    this.debounceMs = opts.debounceMs ?? DEBOUNCE_MS;
    this.throttleMs = opts.throttleMs ?? THROTTLE_MS;
    this.now = opts.now ?? (() => performance.now());
  }

  /** The overrides waiting to run, if any. */
  get waiting(): Overrides | null {
    return this.pending;
  }

  /** A knob moved to `overrides`; `sliding` for a slider (see above), else after a pause only. */
  change(overrides: Overrides, sliding = false): void {
    this.pending = overrides;
    this.sliding = sliding;
    this.clearDebounce();
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      this.flush();
    }, this.debounceMs);
    if (sliding) this.armThrottle();
  }

  /** Runs what waits now. */
  flush(): void {
    this.clearDebounce();
    this.clearThrottle();
    this.held = false;
    const o = this.pending;
    if (!o) return;
    this.pending = null;
    this.lastStart = this.now();
    this.start(o);
  }

  /** The pointer let go of the slider: its last position runs now. */
  release(): void {
    this.sliding = false;
    this.flush();
  }

  /** The run in flight ended: a slider held back goes on. */
  idle(): void {
    if (this.held && this.pending && this.sliding) {
      this.held = false;
      this.armThrottle();
    }
  }

  /** Drops what waits (something else ran the page: a tour step, a link, Reset all). */
  cancel(): void {
    this.clearDebounce();
    this.clearThrottle();
    this.pending = null;
    this.held = false;
    this.sliding = false;
  }

  private armThrottle(): void {
    if (this.throttleTimer !== null) return;
    const wait = Math.max(0, this.lastStart + this.throttleMs - this.now());
    this.throttleTimer = setTimeout(() => {
      this.throttleTimer = null;
      if (!this.pending || !this.sliding) return;
      if (this.busy()) {
        this.held = true;
        return;
      }
      this.flush();
    }, wait);
  }

  private clearDebounce(): void {
    if (this.debounceTimer !== null) clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
  }

  private clearThrottle(): void {
    if (this.throttleTimer !== null) clearTimeout(this.throttleTimer);
    this.throttleTimer = null;
  }
}
