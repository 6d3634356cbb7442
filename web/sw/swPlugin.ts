// Builds the service worker (web/sw/sw.ts) into the site's root as sw.js once `vite build` has
// written everything: the list of files to precache is what the build actually wrote (the app
// shell, its hashed JS and CSS, the engine worker and the wasm core), and the cache's version is
// a hash of those files' names and of index.html, so every build that changes anything gets a
// new cache and the old one is deleted when it activates.
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithOxc, type Plugin, type ResolvedConfig } from 'vite';

const SOURCE = fileURLToPath(new URL('./sw.ts', import.meta.url));

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

/** The site-relative URLs to precache: the shell and every built asset (not the public extras). */
export function precacheList(files: readonly string[]): string[] {
  const assets = files.filter((f) => f.startsWith('assets/')).sort();
  return ['./', 'index.html', ...assets];
}

export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'nicsim-service-worker',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const files = (await filesUnder(outDir))
        .map((f) => relative(outDir, f).split(sep).join('/'))
        .filter((f) => f !== 'sw.js');
      if (!files.includes('index.html')) return;
      const precache = precacheList(files);
      const hash = createHash('sha256');
      hash.update(precache.join('\n'));
      hash.update(await readFile(join(outDir, 'index.html')));
      const version = hash.digest('hex').slice(0, 16);
      const { code } = await transformWithOxc(await readFile(SOURCE, 'utf8'), SOURCE, {
        lang: 'ts',
      });
      const js = code
        .replace('__NICSIM_SW_VERSION__', version)
        .replace(/(['"])__NICSIM_SW_PRECACHE__\1/, () => JSON.stringify(JSON.stringify(precache)))
        .replace(/^export \{\};?\s*$/m, '');
      await writeFile(join(outDir, 'sw.js'), js);
    },
  };
}
