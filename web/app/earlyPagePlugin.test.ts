import { describe, expect, it } from 'vitest';
import { earlyPageFiles, earlyPageScript, type EarlyPageFiles } from './earlyPagePlugin';

const FILES: EarlyPageFiles = {
  scenario: ['./assets/ScenarioPage-1.js', './assets/shared-2.js'],
  ab: ['./assets/AbPage-3.js', './assets/shared-2.js'],
  presets: { 'udp-throughput': './assets/udp-throughput-4.js' },
};

/** Runs the inline script at address `hash`; returns the modulepreload links it added. */
function runAt(hash: string): string[] {
  const added: { rel: string; href: string; crossOrigin: string }[] = [];
  const document = {
    createElement: () => ({ rel: '', href: '', crossOrigin: '' }),
    head: { appendChild: (l: (typeof added)[number]) => added.push(l) },
  };
  new Function('location', 'document', earlyPageScript(FILES))({ hash }, document);
  for (const l of added) {
    expect(l.rel).toBe('modulepreload');
    expect(l.crossOrigin).toBe('');
  }
  return added.map((l) => l.href);
}

describe('earlyPageScript', () => {
  it("preloads the scenario page's chunks and the preset's file an address names", () => {
    expect(runAt('#/s/udp-throughput')).toEqual([
      ...FILES.scenario,
      './assets/udp-throughput-4.js',
    ]);
    expect(runAt('#/ab/udp-throughput')).toEqual([...FILES.ab, './assets/udp-throughput-4.js']);
    // A link or an opened file: the page's code only.
    expect(runAt('#v1.abc')).toEqual(FILES.scenario);
    expect(runAt('#/f/mine')).toEqual(FILES.scenario);
  });

  it('adds nothing for a preset it does not know, nor on the gallery', () => {
    expect(runAt('#/s/no-such-preset')).toEqual(FILES.scenario);
    expect(runAt('#/s/%E0%A4%A')).toEqual(FILES.scenario); // not decodable
    expect(runAt('#/s/toString')).toEqual(FILES.scenario);
    for (const hash of ['', '#', '#/']) expect(runAt(hash)).toEqual([]);
  });
});

describe('earlyPageFiles', () => {
  it("follows a page chunk's static imports, leaving the entry out", () => {
    const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = []) => ({
      type: 'chunk',
      fileName,
      facadeModuleId,
      imports,
      isEntry: fileName.startsWith('index'),
    });
    const bundle = Object.fromEntries(
      [
        chunk('index-0.js', '/r/web/main.tsx'),
        chunk('ScenarioPage-1.js', '/r/web/app/ScenarioPage.tsx', ['index-0.js', 'shared-2.js']),
        chunk('shared-2.js', null, ['index-0.js']),
        chunk('AbPage-3.js', '/r/web/app/AbPage.ts', ['shared-2.js']),
        // As web/scenarios imports a preset: its text, by a `?raw` query.
        chunk('udp-throughput-4.js', '/r/scenarios/udp-throughput.json?raw'),
        { type: 'asset', fileName: 'core.wasm' },
      ].map((c) => [c.fileName, c]),
    );
    expect(earlyPageFiles(bundle)).toEqual({
      scenario: ['./ScenarioPage-1.js', './shared-2.js'],
      ab: ['./AbPage-3.js', './shared-2.js'],
      presets: { 'udp-throughput': './udp-throughput-4.js' },
    });
  });
});
