/**
 * @file The page state that lives in the URL hash (`#scene=pillar&…`), so a
 * link reproduces what its sender saw. Parameters this file does not know
 * are kept untouched when it writes, so later additions coexist.
 */

/** The scene shown when the link names none. */
export const DEFAULT_SCENE = 'pillar';

/** @returns {URLSearchParams} the current hash parameters */
function readParams() {
  return new URLSearchParams(window.location.hash.replace(/^#/, ''));
}

/**
 * The scene id the hash asks for, or the default when it names none.
 * @returns {string}
 */
export function sceneFromHash() {
  return readParams().get('scene') || DEFAULT_SCENE;
}

/**
 * Writes the scene id into the hash.
 * @param {string} sceneId
 * @param {{replace?: boolean}} [options] replace: correct the current history
 *   entry instead of adding one (used when the page fixes a bad link)
 */
export function writeSceneToHash(sceneId, { replace = false } = {}) {
  const params = readParams();
  params.set('scene', sceneId);
  const hash = `#${params.toString()}`;
  if (hash === window.location.hash) return;
  if (replace) {
    // replaceState does not fire hashchange, which is what a correction wants.
    window.history.replaceState(null, '', hash);
  } else {
    window.location.hash = hash;
  }
}
