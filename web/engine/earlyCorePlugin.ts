// Starts the core from index.html itself, before the app's code has downloaded and run, on any
// address that opens a page which runs the core (every address but the gallery's, as
// routeChunks' preloadRoute guesses):
//   - compiles its WebAssembly module while it downloads: the compile overlaps the app's
//     JavaScript instead of waiting for it, and compile.ts takes the promise (EARLY_CORE_GLOBAL);
//   - starts the pool's engine workers (poolSize.ts: one per core): a worker takes about 250 ms
//     to start its thread and load its script and the core's glue, measured in headless
//     Chromium here, which then overlaps the app's first script (about 450 KB) rather than
//     follows it. The pool takes them (compile.ts: takeEarlyWorker) and gives them the module
//     as it would a worker of its own.
import type { Plugin } from 'vite';
import { MAX_POOL_SIZE } from './poolSize.ts';

/** The window property the inline script leaves its compile promise on. */
export const EARLY_CORE_GLOBAL = '__nicsimEarlyCore';
/** ... and the engine workers it started (a worker whose script failed is marked failed). */
export const EARLY_WORKERS_GLOBAL = '__nicsimEarlyWorkers';
/** The name the pool gives its engine workers (as seen in the browser's tools). */
export const ENGINE_WORKER_NAME = 'nicsim-engine';

// The gallery's own addresses ("", "#", "#/") start nothing: it never runs the core.
const NOT_GALLERY = `!/^#?\\/?$/.test(location.hash)`;

/** The inline script that compiles the wasm file at `url`. */
export function earlyCoreScript(url: string): string {
  const u = JSON.stringify(url);
  return (
    `if(${NOT_GALLERY}&&typeof WebAssembly==='object'&&WebAssembly.compileStreaming)` +
    `window.${EARLY_CORE_GLOBAL}=WebAssembly.compileStreaming(fetch(${u})).catch(function(){return null});`
  );
}

/**
 * The inline script that starts the engine workers, the worker's script at `url`: as many as
 * poolSizeFor(navigator.hardwareConcurrency) gives.
 */
export function earlyWorkersScript(url: string): string {
  return (
    `(function(){if(!(${NOT_GALLERY})||typeof Worker!=='function')return;` +
    `var h=navigator.hardwareConcurrency,` +
    `n=Math.min(${MAX_POOL_SIZE},Math.max(1,typeof h==='number'&&isFinite(h)?Math.floor(h):1)),` +
    `l=window.${EARLY_WORKERS_GLOBAL}=[],f=function(e){this.nicsimFailed=true;e.preventDefault()};` +
    `for(var i=0;i<n;i++)try{var w=new Worker(${JSON.stringify(url)},` +
    `{type:'module',name:${JSON.stringify(ENGINE_WORKER_NAME)}});w.addEventListener('error',f);` +
    `l.push(w)}catch(e){}})();`
  );
}

export function earlyCorePlugin(): Plugin {
  return {
    name: 'nicsim-early-core',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.values(ctx.bundle ?? {});
        const wasm = files.find(
          (f) => f.type === 'asset' && /nicsim_core-[^/]*\.wasm$/.test(f.fileName),
        );
        if (!wasm) return []; // a build without the wasm core: the workers report it
        // The engine worker (web/engine/worker.ts), bundled on its own.
        const worker = files.find((f) => /(^|\/)worker-[^/]*\.js$/.test(f.fileName));
        return [
          {
            tag: 'script',
            children: earlyCoreScript(`./${wasm.fileName}`),
            injectTo: 'head-prepend',
          },
          // At the head's end, a few ms later: the charset must stay in the page's first 1024
          // bytes.
          ...(worker
            ? [
                {
                  tag: 'script',
                  children: earlyWorkersScript(`./${worker.fileName}`),
                  injectTo: 'head' as const,
                },
              ]
            : []),
        ];
      },
    },
  };
}
