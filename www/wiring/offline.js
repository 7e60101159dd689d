// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The published site's service worker, from the page's side
 * (`cargo xtask dist` writes it as `sw.js` at the site's root; its code is
 * xtask/src/site/sw.js). Registered a moment after the first view settled, so its
 * background download of the whole release never competes with the page's
 * own loading. A development page (no site root) has none.
 *
 * When a new deployment's worker has installed beside the one that serves
 * this page, the notice strip says so with a Reload button; the page
 * reloads when the new worker takes over, so it never runs on two builds.
 */

import { showNoticeWithButton } from '../ui/banner.js';

/**
 * @param {import('../state/release.js').Release} release
 * @param {(state: string) => void} onState for the tests: "controlled" once the worker serves this page
 */
export async function keepOffline(release, onState) {
  if (release.siteRoot === null || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const hadController = container.controller !== null;
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    // The first visit's worker takes the page over without a reload; a new
    // build's worker takes over only when asked, and then the page follows.
    if (hadController && !reloading) {
      reloading = true;
      window.location.reload();
    } else {
      onState('controlled');
    }
  });
  /** @param {ServiceWorker} waiting */
  const offer = (waiting) =>
    showNoticeWithButton('A new version of ContactLab is ready.', { text: 'Reload', onClick: () => waiting.postMessage('skip-waiting') });
  try {
    const registration = await container.register(`${release.siteRoot}sw.js`);
    if (registration.waiting && hadController) offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed' && container.controller) offer(installing);
      });
    });
    await container.ready;
    if (container.controller) onState('controlled');
  } catch {
    // No offline copy (private browsing, a host that refuses workers): the
    // page itself works as before.
    onState('unavailable');
  }
}
