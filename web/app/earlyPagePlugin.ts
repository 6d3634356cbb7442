// Starts fetching a page's code from index.html itself, before the app's first script has
// downloaded and run: on any address but the gallery's (as routeChunks' preloadRoute guesses),
// <link rel="modulepreload"> for the chunks of the page it opens (the scenario page, or the A/B
// page for #/ab/…) and for the file of the preset it names (#/s/<id>, #/ab/<id>). preloadRoute
// imports the same files once the first script runs; the browser has them, compiled, by then.
// Measured in headless Chromium here: without it, the scenario page's chunks (about 470 KB) were
// asked for only once the first script (about 450 KB) had run, and came 150-250 ms after it.
import type { Plugin } from 'vite';

/** The chunk files (relative to the page) each kind of page needs, and each preset's file. */
export interface EarlyPageFiles {
  scenario: string[];
  ab: string[];
  presets: Record<string, string>;
}

/** The inline script for these files. */
export function earlyPageScript(files: EarlyPageFiles): string {
  const f = JSON.stringify(files);
  // The gallery's own addresses ("", "#", "#/") load nothing more.
  return (
    `(function(h,f){if(/^#?\\/?$/.test(h))return;` +
    `var m=/^#\\/?(s|ab)\\/([^/?#]+)\\/?$/.exec(h),id=null;` +
    `try{id=m?decodeURIComponent(m[2]):null}catch(e){}` +
    `var l=(m&&m[1]==='ab'?f.ab:f.scenario).slice();` +
    `if(id!==null&&Object.prototype.hasOwnProperty.call(f.presets,id))l.push(f.presets[id]);` +
    `l.forEach(function(u){var k=document.createElement('link');k.rel='modulepreload';` +
    `k.crossOrigin='';k.href=u;document.head.appendChild(k)})})(location.hash,${f});`
  );
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  imports: string[];
  isEntry: boolean;
}

/** The files of the build's chunks a page needs, from the bundle (entry chunks left out). */
export function earlyPageFiles(bundle: Record<string, { type: string }>): EarlyPageFiles {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (facade: RegExp): string[] => {
    const root = chunks.find((c) => c.facadeModuleId !== null && facade.test(c.facadeModuleId));
    if (!root) return [];
    const out: string[] = [];
    const visit = (c: ChunkLike) => {
      if (c.isEntry || out.includes(`./${c.fileName}`)) return;
      out.push(`./${c.fileName}`);
      for (const i of c.imports) {
        const d = byFile.get(i);
        if (d) visit(d);
      }
    };
    visit(root);
    return out;
  };
  const presets: Record<string, string> = {};
  for (const c of chunks) {
    // The presets are imported as text (web/scenarios: `?raw`), so the id carries that query.
    const m =
      c.facadeModuleId && /[/\\]scenarios[/\\]([^/\\?]+)\.json(\?.*)?$/.exec(c.facadeModuleId);
    if (m && m[1] !== 'scenario.schema') presets[m[1]!] = `./${c.fileName}`;
  }
  return {
    scenario: closure(/[/\\]web[/\\]app[/\\]ScenarioPage\.tsx$/),
    ab: closure(/[/\\]web[/\\]app[/\\]AbPage\.tsx?$/),
    presets,
  };
}

export function earlyPagePlugin(): Plugin {
  return {
    name: 'nicsim-early-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return [];
        const files = earlyPageFiles(ctx.bundle);
        if (files.scenario.length === 0 && files.ab.length === 0) return [];
        // At the head's end: the charset must stay within the page's first 1024 bytes.
        return [{ tag: 'script', children: earlyPageScript(files), injectTo: 'head' }];
      },
    },
  };
}
