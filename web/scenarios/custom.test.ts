import { describe, expect, it, vi } from 'vitest';
import {
  MAX_SCENARIO_FILE_BYTES,
  checkScenarioFile,
  customById,
  customEntry,
  fileHref,
  saveCustom,
  sizeProblem,
  type FileLike,
} from './custom';
import { SCENARIOS } from './eager';

function file(name: string, text: string, size = text.length): FileLike {
  return { name, size, text: () => Promise.resolve(text) };
}

const VALID = SCENARIOS[0]!.text.replace(/"id":\s*"[^"]+"/, '"id": "my-copy"');

describe('opening a scenario file', () => {
  it('refuses a file over 1 MB before reading or validating it', async () => {
    const validate = vi.fn(() => Promise.resolve([]));
    const text = vi.fn(() => Promise.resolve('{}'));
    const res = await checkScenarioFile(
      { name: 'huge.json', size: MAX_SCENARIO_FILE_BYTES + 1, text },
      validate,
    );
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.message).toContain('huge.json');
      expect(res.message).toContain('at most 1 MB');
      expect(res.errors).toEqual([]);
    }
    expect(text).not.toHaveBeenCalled();
    expect(validate).not.toHaveBeenCalled();
    expect(sizeProblem('ok.json', MAX_SCENARIO_FILE_BYTES)).toBeNull();
  });

  it('returns the core’s messages for an invalid file', async () => {
    const errors = [
      {
        path: '',
        message: "scenario is not valid JSON: syntax error at line 3, column 10 near '1,,'",
      },
    ];
    const res = await checkScenarioFile(file('bad.json', '{\n "a": [1,,2]\n}'), () =>
      Promise.resolve(errors),
    );
    expect(res).toEqual({
      ok: false,
      message: 'The engine rejected “bad.json” (1 problem).',
      errors,
    });
  });

  it('reports an engine failure as a message, not a crash', async () => {
    const res = await checkScenarioFile(file('a.json', '{}'), () =>
      Promise.reject(new Error('worker crashed')),
    );
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.message).toContain('worker crashed');
  });

  it('builds a custom entry (not a preset) for a valid file', async () => {
    const validate = vi.fn(() => Promise.resolve([]));
    const res = await checkScenarioFile(file('mine.json', VALID), validate);
    expect(validate).toHaveBeenCalledWith(VALID);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.entry.id).toBe('my-copy');
    expect(res.entry.origin).toBe('file');
    expect(res.entry.text).toBe(VALID);
    expect(res.entry.file).toBe('mine.json');
    expect(SCENARIOS.some((s) => s.id === 'my-copy')).toBe(false);
  });

  it('keeps opened files by id, each opening with a new load id', () => {
    const a = customEntry(VALID, 'mine.json');
    const b = customEntry(VALID, 'mine.json');
    expect(b.loadId).not.toBe(a.loadId);
    saveCustom(a);
    expect(customById('my-copy')).toBe(a);
    expect(customById('nothing-here')).toBeUndefined();
    expect(fileHref('my copy')).toBe('#/file/my%20copy');
  });
});
