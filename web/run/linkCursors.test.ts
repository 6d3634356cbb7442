import { describe, expect, it } from 'vitest';
import { Store, doneState } from './store';
import { linkCursors } from './linkCursors';
import { fixtureRun } from '../engine/fixture';
import { decodeTrace } from '../trace/trace';

describe('linkCursors: one cursor for the A/B view', () => {
  const f = fixtureRun();
  const run = () => doneState(f.output, decodeTrace(f.trace));
  const start = f.output.trace.start_ps;

  it('moves B with A and A with B', () => {
    const a = new Store();
    const b = new Store();
    linkCursors(a, b);
    a.setRun(run());
    b.setRun(run());
    for (let i = 0; i < 4; i++) a.stepForward();
    const t = a.getState().playback.cursor;
    expect(t).toBeGreaterThan(start);
    expect(b.getState().playback.cursor).toBe(t);
    b.stepBack();
    expect(a.getState().playback.cursor).toBe(b.getState().playback.cursor);
    expect(a.getState().playback.cursor).toBeLessThan(t);
  });

  it('a run landing on one side joins the other side’s cursor instead of resetting it', () => {
    const a = new Store();
    const b = new Store();
    linkCursors(a, b);
    a.setRun(run());
    for (let i = 0; i < 6; i++) a.stepForward();
    const t = a.getState().playback.cursor;
    b.setRun(run());
    expect(b.getState().playback.cursor).toBe(t);
    expect(a.getState().playback.cursor).toBe(t);
    // A re-run of A keeps both where they were.
    a.setRun(run());
    expect(a.getState().playback.cursor).toBe(t);
    expect(b.getState().playback.cursor).toBe(t);
  });

  it('follows playback ticks and stops following once unlinked', () => {
    const a = new Store();
    const b = new Store();
    const unlink = linkCursors(a, b);
    a.setRun(run());
    b.setRun(run());
    a.setPlaying(true);
    a.tick(1);
    const t = a.getState().playback.cursor;
    expect(t).toBeGreaterThan(start);
    expect(b.getState().playback.cursor).toBe(t);
    expect(b.getState().playback.playing).toBe(false);
    unlink();
    a.tick(1);
    expect(a.getState().playback.cursor).toBeGreaterThan(t);
    expect(b.getState().playback.cursor).toBe(t);
  });

  it('a cursor outside one side’s window is clamped there without echoing back', () => {
    const a = new Store();
    const b = new Store();
    linkCursors(a, b);
    a.setRun(run());
    // B's recorded window ends earlier.
    const shorter = {
      ...f.output,
      trace: { ...f.output.trace, end_ps: start + (f.output.trace.end_ps - start) / 4 },
    };
    const tr = decodeTrace(f.trace);
    b.setRun(doneState(shorter, { ...tr, length: 1 }));
    const end = a.window()!.end;
    a.setCursor(end);
    expect(a.getState().playback.cursor).toBe(end);
    expect(b.getState().playback.cursor).toBe(b.window()!.end);
    expect(b.window()!.end).toBeLessThan(end);
  });
});
