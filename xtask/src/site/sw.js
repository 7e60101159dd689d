/**
 * @file The site's service worker (`cargo xtask dist` writes it as
 * `SITE/sw.js`, with `BUILD` and `PRECACHE` above this code).
 *
 * - Install: every file of the current release (the page, its scripts,
 *   styles, both wasm modules, the paper-fine meshes, the help texts) and
 *   the root files go into this build's cache, so after one visit the page
 *   works with the network off. Each is fetched past the HTTP cache: a
 *   host's 10-minute cache must not put an older page into a newer build's
 *   cache.
 * - Fetch: anything in a cache is answered from it (asset paths carry the
 *   build's hash, so a cached file is never stale for the page that asks);
 *   anything else from the network, and a release's folder `v/…` that was
 *   visited is kept for the next time offline.
 * - Update: a new deployment is a new `sw.js`; it installs beside the old
 *   one and waits. The page then shows "new version — reload" and, when the
 *   reader asks, tells it to take over (`skip-waiting`); the page reloads
 *   on `controllerchange`. Until then the open page keeps its own build's
 *   cache: two builds are never mixed.
 */

/* global BUILD, PRECACHE */

const CACHE_PREFIX = 'contactlab-';
const BUILD_CACHE = `${CACHE_PREFIX}build-${BUILD}`;
/** Earlier releases' folders, kept as visited; they never change. */
const RELEASES_CACHE = `${CACHE_PREFIX}releases`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(BUILD_CACHE);
      await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })));
      // The first visit has no page of an older build to protect.
      if (!self.registration.active) await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== BUILD_CACHE && name !== RELEASES_CACHE) await caches.delete(name);
      }
      // The page of the first visit is controlled at once, so it works
      // offline without a second visit.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
  else if (event.data === 'build') event.source?.postMessage({ build: BUILD });
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(answer(request));
});

/** @param {Request} request */
async function answer(request) {
  const build = await caches.open(BUILD_CACHE);
  const cached = (await build.match(request, { ignoreSearch: true })) ?? (await caches.match(request, { cacheName: RELEASES_CACHE, ignoreSearch: true }));
  if (cached) return cached;
  try {
    const response = await fetch(request);
    const path = new URL(request.url).pathname;
    const scope = new URL(self.registration.scope).pathname;
    if (response.ok && path.startsWith(`${scope}v/`)) {
      const releases = await caches.open(RELEASES_CACHE);
      await releases.put(request, response.clone());
    }
    return response;
  } catch (error) {
    // Offline and never fetched: a page request gets the current release's
    // page rather than the browser's error page.
    if (request.mode === 'navigate') {
      const page = await build.match('./');
      if (page) return page;
    }
    throw error;
  }
}
