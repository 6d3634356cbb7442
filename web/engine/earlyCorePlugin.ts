// Starts compiling the core's WebAssembly module from index.html itself, before the app's code
// has downloaded and run, on any address that opens a page which runs the core (every address
// but the gallery's, as routeChunks' preloadRoute guesses): the compile then overlaps the app's
// JavaScript instead of waiting for it, and compile.ts takes the promise (EARLY_CORE_GLOBAL).
import type { Plugin } from 'vite';

/** The window property the inline script leaves its compile promise on. */
export const EARLY_CORE_GLOBAL = '__nicsimEarlyCore';

/** The inline script for a wasm file at `url` (relative to the page). */
export function earlyCoreScript(url: string): string {
  const u = JSON.stringify(url);
  // The gallery's own addresses ("", "#", "#/") compile nothing: it never runs the core.
  return (
    `if(!/^#?\\/?$/.test(location.hash)&&typeof WebAssembly==='object'&&WebAssembly.compileStreaming)` +
    `window.${EARLY_CORE_GLOBAL}=WebAssembly.compileStreaming(fetch(${u})).catch(function(){return null});`
  );
}

export function earlyCorePlugin(): Plugin {
  return {
    name: 'nicsim-early-core',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const wasm = Object.values(ctx.bundle ?? {}).find(
          (f) => f.type === 'asset' && /nicsim_core-[^/]*\.wasm$/.test(f.fileName),
        );
        if (!wasm) return []; // a build without the wasm core: the workers report it
        return [
          {
            tag: 'script',
            children: earlyCoreScript(`./${wasm.fileName}`),
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}
