// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The Embed button's `<iframe>` snippet, for slides and course pages
 * (Moodle, Canvas, a lecture's HTML slides). DOM-free, so `node --test`
 * checks it. The snippet is HTML that someone pastes into their page, and
 * its title may quote a user's scene file, so every value is escaped as an
 * attribute.
 */

/** The size a slide can hold beside its text; the page fits any size. */
const WIDTH = 960;
const HEIGHT = 600;

/**
 * Escapes text for a double-quoted HTML attribute.
 * @param {string} text
 */
export function escapeAttribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');
}

/**
 * The snippet: the embedded view of `src` (a link with `embed=1`), titled
 * for screen readers, allowed to go full screen (Present), lazily loaded
 * so a long course page does not start every simulation at once.
 * @param {string} src
 * @param {string} title
 */
export function embedSnippet(src, title) {
  return (
    `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" width="${WIDTH}" height="${HEIGHT}" ` +
    `style="border:0;max-width:100%" allow="fullscreen; clipboard-write" loading="lazy"></iframe>`
  );
}
