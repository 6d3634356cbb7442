// The pages load on demand, but their stylesheets load with the app shell from styles.ts, in
// one order (see there): a stylesheet missing from it would load later with its page and win
// over the shell's rules of equal specificity, a cascade that depends on which page came first.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const APP = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(APP, '..');
// The shell's own sheets, imported by main.tsx after the features' ones.
const SHELL = ['app/app.css', 'app/a11y.css'];

function stylesheets(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm' && name !== 'node_modules') stylesheets(p, out);
    } else if (name.endsWith('.css')) out.push(path.relative(WEB, p).split(path.sep).join('/'));
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^import\s+['"](\.[^'"]+\.css)['"];?$/gm)].map((m) =>
    path
      .relative(WEB, path.resolve(path.dirname(file), m[1]!))
      .split(path.sep)
      .join('/'),
  );
}

describe('stylesheets', () => {
  it('styles.ts imports every stylesheet of web/ but the shell’s own, once', () => {
    const listed = importsOf(path.join(APP, 'styles.ts'));
    const expected = stylesheets(WEB).filter((f) => !SHELL.includes(f));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  it('main.tsx loads them before the app and the shell’s sheets after', () => {
    const main = readFileSync(path.join(WEB, 'main.tsx'), 'utf8');
    const at = (s: string) => main.indexOf(s);
    expect(at("import './app/styles';")).toBeGreaterThan(-1);
    expect(at("import './app/styles';")).toBeLessThan(at("import { App } from './app/App';"));
    expect(at("import { App } from './app/App';")).toBeLessThan(at("import './app/app.css';"));
    expect(at("import './app/app.css';")).toBeLessThan(at("import './app/a11y.css';"));
  });
});
