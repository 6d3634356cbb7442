/// <reference lib="webworker" />
// The service worker: after the first visit the app works offline. The build (swPlugin.ts)
// replaces the two placeholders below with the build's version and the files it wrote.
//
// Strategy, by request:
// - The page itself (a navigation, index.html): network first, the cached copy when offline.
//   index.html is the one file whose name does not change between builds; asking the network
//   first means an online visitor always gets the latest build together with the hashed assets
//   it names, never an old page that names assets a newer deploy removed.
// - Hashed build assets (assets/*: the JS, the CSS, the engine worker, the wasm core, one small
//   chunk per preset's scenario file): cache first. A hashed name never changes content.
// - Anything else of this origin: stale-while-revalidate (answer from the cache at once, refresh
//   it in the background).
// The cache's name carries the build's version; activating a new version deletes the others.
export {};
declare const self: ServiceWorkerGlobalScope;

const VERSION: string = '__NICSIM_SW_VERSION__';
const PRECACHE: string[] = JSON.parse('__NICSIM_SW_PRECACHE__') as string[];
const PREFIX = 'nicsim-';
const CACHE = `${PREFIX}${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // A hashed asset's name never changes content, so the copy the HTTP cache holds (the page
      // has just loaded the wasm core, its worker and its code) is this build's: taking it saves
      // a second download of each on the first visit. The page itself is revalidated with the
      // server, so its copy matches this build exactly.
      await cache.addAll(
        PRECACHE.map(
          (u) => new Request(u, { cache: u.startsWith('assets/') ? 'default' : 'no-cache' }),
        ),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

const scope = new URL(self.registration.scope);

function isAsset(url: URL): boolean {
  return url.pathname.startsWith(`${scope.pathname}assets/`);
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(new URL('./', scope).href, response.clone());
    return response;
  } catch (err) {
    const cached =
      (await cache.match(new URL('./', scope).href, { ignoreVary: true })) ??
      (await cache.match(new URL('index.html', scope).href, { ignoreVary: true }));
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  // ignoreVary: the server may answer `Vary: Origin`, and a module script's request carries an
  // Origin header that the precache's request did not.
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function staleWhileRevalidate(event: FetchEvent): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(event.request, { ignoreVary: true });
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }
  return fresh;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (
    request.mode === 'navigate' ||
    url.pathname === scope.pathname ||
    url.pathname.endsWith('/index.html')
  )
    event.respondWith(networkFirst(request));
  else if (isAsset(url)) event.respondWith(cacheFirst(request));
  else event.respondWith(staleWhileRevalidate(event));
});
