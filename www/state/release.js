/**
 * @file Which release this page is, and what to do with a link that names
 * another (`#v=0.1.0&…`). DOM-free, so `node --test` checks it.
 *
 * A page built by `cargo xtask dist` says its version, build and the
 * site's root in `<meta>` tags; the development server's page has none and
 * takes its version from the core (Cargo.toml's), marked as a development
 * build. Every link the page writes names its version and points at the
 * site's root; the root page sends a link of an older release that the
 * site still holds to that release's folder (`v/<version>/`), where it
 * shows what it showed when it was made.
 */

/** A release's version as a link may name it: 0.2.0 or 0.2.0-rc.1 (xtask/src/dist.rs `check_version`). */
const VERSION_PATTERN = /^\d{1,9}\.\d{1,9}\.\d{1,9}(-[0-9A-Za-z.-]{1,40})?$/;

/**
 * @typedef {object} Release
 * @property {string} version
 * @property {string | null} build the build id of a published page, null in development
 * @property {string | null} siteRoot the site's root relative to this page ('' or '../../'), null in development
 */

/**
 * Reads the page's release from its `<meta>` tags.
 * @param {(name: string) => string | null} meta the content of `<meta name=…>`, or null
 * @param {string} coreVersion the core's own version, for a development page
 * @returns {Release}
 */
export function readRelease(meta, coreVersion) {
  const version = meta('contactlab-version');
  if (version === null) return { version: coreVersion, build: null, siteRoot: null };
  return { version, build: meta('contactlab-build'), siteRoot: meta('contactlab-site-root') ?? '' };
}

/** @param {string} text @returns {boolean} */
export function isVersion(text) {
  return VERSION_PATTERN.test(text);
}

/**
 * What to do with the version a link names.
 * - `open`: show it here (no version, or this page's own);
 * - `redirect`: the site holds that release: open the link in `v/<version>/`;
 * - `notice`: show it here, and say why (`message`).
 * @param {{linked: string | null, release: Release, siteVersions: string[] | null}} facts
 *   linked: the link's `v` (raw text, untrusted), null when it has none;
 *   siteVersions: the releases the site holds (versions.json), null when unknown
 * @returns {{action: 'open'} | {action: 'redirect', version: string} | {action: 'notice', message: string, changelog: boolean}}
 */
export function versionDecision({ linked, release, siteVersions }) {
  if (linked === null || linked === release.version) return { action: 'open' };
  const here = `ContactLab ${release.version}`;
  if (!isVersion(linked)) {
    return { action: 'notice', message: `v=${JSON.stringify(linked)} in the link is not a version; it opens with ${here}.`, changelog: false };
  }
  if (siteVersions?.includes(linked)) return { action: 'redirect', version: linked };
  const opens = release.siteRoot === null ? `it opens in this development build of ${here}` : `this site no longer has that release, so it opens with ${here}`;
  return {
    action: 'notice',
    message: `This link was made with ContactLab ${linked}; ${opens}, whose numbers may differ from what its sender saw.`,
    changelog: true,
  };
}

/**
 * The address of a release's page for a link's hash.
 * @param {string} siteRootUrl the site's root as an absolute URL (ending in '/')
 * @param {string} version a checked version
 * @param {string} hash with its '#'
 */
export function releaseUrl(siteRootUrl, version, hash) {
  return `${siteRootUrl}v/${version}/${hash}`;
}
