/**
 * @file The address bar: writes what the run controller says the link holds
 * (release, scene, settings, step) with the view's part, reads a link that
 * was opened or edited and shows what it names, and copies the link.
 * Parsing and formatting are state/page-state.js's, the release rules
 * state/release.js's; this is where they meet `window.location` and the
 * history.
 *
 * A visitor's scene file and contact file travel in the link, packed
 * (ui/scene-file.js); a link longer than LONG_LINK is still written and
 * copied, and the page says plainly which file makes it that long.
 *
 * A link names the release that wrote it (`v=`) and points at the site's
 * root, whichever release's page wrote it; the root page sends a link of
 * an older release that the site holds to that release's folder.
 */

import { clearNotice, showError, showNotice, showNoticeWithLink } from '../ui/banner.js';
import { copyText } from '../ui/export.js';
import { LONG_LINK, fileSceneTitle, unpackSceneText } from '../ui/scene-file.js';
import { formatHash, parseHash } from '../state/page-state.js';
import { withContacts } from './page-config.js';
import { releaseUrl, versionDecision } from '../state/release.js';

/** Browsers throttle replaceState; while playing the link is written at most this often. */
const HASH_INTERVAL_MS = 250;

/** @typedef {import('./page-config.js').PageConfig} PageConfig */

/** Keeps the link in step with the page, and the page with an opened link. */
export class PageLink {
  /**
   * @param {{controller: import('../state/run-controller.js').RunController,
   *   session: import('../session.js').Session,
   *   sceneIds: string[], sceneTitles: string[],
   *   schema: any[],
   *   viewState: () => import('./view.js').ViewState,
   *   showLinkView: (state: import('./view.js').ViewState) => void,
   *   firstFrame: Promise<void>,
   *   onWritesChange: () => void,
   *   onWritten: () => void,
   *   release: import('../state/release.js').Release,
   *   onEmbed: (embed: boolean) => void,
   *   onLesson?: (value: string) => void}} options
   *   viewState: the view's part of the link as it is now;
   *   showLinkView: a link was read: the view takes its part;
   *   firstFrame: resolves when the first frame is drawn (a benchmark times it);
   *   onWritesChange: a link write started or ended (the page is not ready meanwhile);
   *   onWritten: the address bar was written;
   *   release: this page's release (its version goes into every link);
   *   onEmbed: a link asked for (or left) the embedded view;
   *   onLesson: a link names a lesson (`lesson=`, wiring/lessons.js), which then shows its steps' links
   */
  constructor({ controller, session, sceneIds, sceneTitles, schema, viewState, showLinkView, firstFrame, onWritesChange, onWritten, release, onEmbed, onLesson }) {
    this.controller = controller;
    this.session = session;
    this.sceneIds = sceneIds;
    /** The built-in scenes' titles, which a visitor's file is never named by. */
    this.sceneTitles = sceneTitles;
    this.schema = schema;
    this.viewState = viewState;
    this.showLinkView = showLinkView;
    this.firstFrame = firstFrame;
    this.onWritesChange = onWritesChange;
    this.onWritten = onWritten;
    this.release = release;
    this.onEmbed = onEmbed;
    this.onLesson = onLesson ?? null;
    /** The embedded view: kept in every link this page writes. */
    this.embed = false;
    /** Link writes waiting for the worker's pairs. */
    this.pendingWrites = 0;
    /** A #bench link is open: it stays as the benchmark driver wrote it. */
    this.bench = false;
    this.timer = 0;
    this.sequence = 0;
    /** The core's pairs for a settings object, asked once per settings object. */
    this.pairsCache = new WeakMap();
    /** Files whose long link was already pointed out. */
    this.warnedFiles = new Set();
    /** What the current history entry names (its hash without the camera); null before the first write. */
    this.entryKey = /** @type {string | null} */ (null);
    /** The current entry was pushed by a run forward that is still running. */
    this.runEntry = false;
    /** A link was opened and not written yet: its first write rewrites its entry. */
    this.restoring = true;

    window.addEventListener('hashchange', () => {
      const hash = window.location.hash;
      const benchHash = new URLSearchParams(hash.replace(/^#/, '')).has('bench');
      // A benchmark times a freshly loaded page, never one that has run.
      if (benchHash && !this.bench) {
        window.location.reload();
        return;
      }
      // Leaving a benchmark: its result goes, and the link follows the page again.
      if (this.bench && !benchHash) {
        this.bench = false;
        document.getElementById('bench-result')?.remove();
      }
      this.apply(hash);
    });
  }

  /** @param {Record<string, any>} settings @returns {Promise<Array<[string, string]>>} */
  settingPairs(settings) {
    if (!this.pairsCache.has(settings)) this.pairsCache.set(settings, this.session.settingsToPairs(settings));
    return this.pairsCache.get(settings);
  }

  /**
   * Writes what the controller says the link holds, plus the view: at once,
   * or at most four times a second while playing or when `throttle` (a
   * camera drag), since browsers throttle replaceState.
   * @param {boolean} [throttle]
   * @returns {Promise<void>}
   */
  async write(throttle = false) {
    if (this.bench) return;
    if (throttle || this.controller.run === 'playing') {
      // The timer writes what is on screen then, playing or not: the
      // address bar follows a run at a modest rate.
      if (!this.timer) {
        this.timer = window.setTimeout(() => {
          this.timer = 0;
          this.writeNow();
        }, HASH_INTERVAL_MS);
      }
      return;
    }
    return this.writeNow();
  }

  /**
   * Writes the link of what is on screen at once. A change of what the link
   * names (the scene, a setting, the step; not the camera) is a new history
   * entry, so Back undoes it; a run of Play or Run to step is one entry,
   * rewritten while it runs; the state a link (or Back) opened rewrites its
   * own entry.
   * @returns {Promise<void>}
   */
  async writeNow() {
    if (this.bench) return;
    clearTimeout(this.timer);
    this.timer = 0;
    const link = this.controller.link();
    if (!link || link.step === null) return;
    const config = /** @type {PageConfig} */ (link.config);
    const sequence = ++this.sequence;
    this.pendingWrites++;
    try {
      const pairs = await this.settingPairs(config.settings);
      // A later write supersedes this one.
      if (sequence !== this.sequence) return;
      const contacts = config.contacts ? { packed: config.contacts.packed, name: config.contacts.name, poses: config.contacts.posesPacked, posesName: config.contacts.posesName } : null;
      const hash = formatHash(
        { version: this.release.version, embed: this.embed, scene: config.sceneId, file: config.file?.packed ?? null, contacts, settings: config.settings, step: link.step, ...this.viewState() },
        pairs,
      );
      this.record(hash);
      this.onWritten();
      const files = filesInLink(config);
      const key = `${config.file?.packed ?? ''} ${contacts?.packed ?? ''} ${contacts?.poses ?? ''}`;
      if (files && hash.length > LONG_LINK && !this.warnedFiles.has(key)) {
        this.warnedFiles.add(key);
        showNotice(`${files} ${files.includes(' and ') ? 'are' : 'is'} too big for a dependable link: the link is ${hash.length} characters long, and some mail and chat programs cut links above ${LONG_LINK}.`);
      }
    } catch (error) {
      showError(`Could not write the link: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.pendingWrites--;
      this.onWritesChange();
    }
  }

  /**
   * Puts `hash` in the address bar: a new history entry when it names
   * another state than the entry's, else in place.
   * @param {string} hash
   */
  record(hash) {
    const key = historyKey(hash);
    const run = this.controller.run;
    const push = !this.restoring && this.entryKey !== null && key !== this.entryKey && !this.runEntry;
    if (push) window.history.pushState(null, '', hash);
    else if (hash !== window.location.hash) window.history.replaceState(null, '', hash);
    this.entryKey = key;
    // A run forward keeps rewriting the entry it pushed until it stops.
    if (run === 'playing') this.runEntry ||= push;
    else this.runEntry = false;
    // The opened link's first write names its state (a replay's goal); a
    // change after it is the visitor's.
    this.restoring = false;
  }

  /**
   * Reads a link and shows what it names, replayed from step 0.
   * @param {string} hash
   */
  async apply(hash) {
    // A lesson's link names the lesson only; its steps' links say the rest.
    const lesson = new URLSearchParams(hash.replace(/^#/, '')).get('lesson');
    if (lesson !== null && this.onLesson) {
      this.onLesson(lesson);
      return;
    }
    const parsed = await parseHash(hash, { sceneIds: this.sceneIds, schema: this.schema, core: this.session });
    const { state, problems } = parsed;
    const decision = versionDecision({ linked: state.version, release: this.release, siteVersions: await this.siteVersions(state.version) });
    if (decision.action === 'redirect') {
      window.location.replace(releaseUrl(this.siteRootUrl(), decision.version, hash.startsWith('#') ? hash : `#${hash}`));
      return;
    }
    // The link (typed, opened, or reached with Back or Forward) has its
    // history entry already: showing it rewrites that entry.
    this.restoring = true;
    this.runEntry = false;
    this.embed = state.embed;
    this.onEmbed(state.embed);
    /** @type {PageConfig['file']} */
    let file = null;
    let text = null;
    if (state.file) {
      try {
        text = await unpackSceneText(state.file);
        file = { packed: state.file, title: fileSceneTitle(text, null, this.sceneTitles), name: 'the scene file in the link', fromLink: true };
      } catch (error) {
        problems.push(`${error instanceof Error ? error.message : String(error)}; showing the ${state.scene} instead`);
      }
    }
    /** @type {import('./page-config.js').ContactsConfig | null} */
    let contacts = null;
    if (state.contacts) {
      const linked = state.contacts;
      try {
        const text = await unpackSceneText(linked.packed, 'contacts');
        const posesText = linked.poses === null ? null : await unpackSceneText(linked.poses, 'poses');
        contacts = { text, name: linked.name, posesText, posesName: linked.posesName, packed: linked.packed, posesPacked: linked.poses, fromLink: true };
      } catch (error) {
        problems.push(`${error instanceof Error ? error.message : String(error)}; showing the method's contacts instead of the contact file's`);
      }
    }
    const notices = [];
    if (decision.action === 'notice') notices.push(decision.message);
    if (problems.length > 0) notices.push(`Some of the link was not understood, so defaults are used there: ${problems.join('; ')}.`);
    if (notices.length === 0) clearNotice();
    else if (decision.action === 'notice' && decision.changelog) showNoticeWithLink(notices.join(' '), { text: 'What changed', href: `${this.siteRootUrl()}CHANGELOG.txt` });
    else showNotice(notices.join(' '));
    this.showLinkView(state);
    /** @type {PageConfig} */
    const config = withContacts({ scene: file ? { text } : { id: state.scene }, settings: state.settings, sceneId: state.scene, file }, contacts);
    if (parsed.bench) {
      this.bench = true;
      this.controller.open(config, 0);
      await this.controller.settled();
      // The bench mode's code is loaded only in that mode.
      const { runBench } = await import('../bench.js');
      await runBench({ session: this.session, state, bench: parsed.bench, firstFrame: this.firstFrame });
      return;
    }
    // A link without a step shows the scene at its measure step (where the
    // paper measures it), not an empty step 0.
    this.controller.open(config, parsed.stepGiven ? state.step : 'measure');
  }

  /**
   * The releases the site holds, from its versions.json; asked only when a
   * link names a release other than this page's, and null where unknown
   * (the development server, or offline with no copy).
   * @param {string | null} linked
   * @returns {Promise<string[] | null>}
   */
  async siteVersions(linked) {
    if (linked === null || linked === this.release.version || this.release.siteRoot === null) return null;
    try {
      const response = await fetch(`${this.siteRootUrl()}versions.json`, { cache: 'no-cache' });
      if (!response.ok) return null;
      const listed = await response.json();
      return Array.isArray(listed?.versions) ? listed.versions.filter((v) => typeof v === 'string') : null;
    } catch {
      return null;
    }
  }

  /** The site's root as an absolute URL: where every link points. */
  siteRootUrl() {
    return new URL(this.release.siteRoot ?? '', window.location.href).href.replace(/[?#].*$/, '');
  }

  /**
   * The link to what is on screen: the site's root with the hash, whichever
   * release's folder this page is in.
   * @param {{embed?: boolean}} [options] embed: the embedded view's link (true) or the full page's (false); default: as shown
   */
  async shareableLink({ embed } = {}) {
    await this.writeNow();
    return this.linkFromHash(window.location.hash, { embed });
  }

  /**
   * The site's root with `hash`, with or without the embedded view.
   * @param {string} hash
   * @param {{embed?: boolean}} [options] default: as shown
   */
  linkFromHash(hash, { embed } = {}) {
    const params = new URLSearchParams(hash.replace(/^#/, ''));
    if (embed ?? this.embed) params.set('embed', '1');
    else params.delete('embed');
    return `${this.siteRootUrl()}#${params.toString().replace(/%2C/g, ',')}`;
  }

  /** Writes the link at once and puts it on the clipboard, saying how that went. */
  async copy() {
    const link = await this.shareableLink();
    const copied = await copyText(link);
    const files = filesInLink(/** @type {PageConfig | undefined} */ (this.controller.link()?.config));
    const long = link.length > LONG_LINK ? ` It is ${link.length} characters long${files ? ` (${files.replace(/^Your/, 'your')} ${files.includes(' and ') ? 'are' : 'is'} in it)` : ''}; some mail and chat programs cut links above ${LONG_LINK}.` : '';
    const step = new URLSearchParams(new URL(link).hash.replace(/^#/, '')).get('step');
    const named = step === null ? 'The link' : `The link to step ${step}`;
    showNotice(`${copied ? `${named} is on the clipboard.` : 'The browser refused the clipboard; copy the address bar instead.'}${long}`);
  }
}

/**
 * The visitor's files a configuration's link carries, in words ("Your
 * scene file and contact file"), or '' when it carries none.
 * @param {PageConfig | undefined} config
 */
function filesInLink(config) {
  const files = [];
  if (config?.file) files.push('scene file');
  if (config?.contacts) files.push(config.contacts.posesPacked ? 'contact file and its poses file' : 'contact file');
  return files.length === 0 ? '' : `Your ${files.join(' and ')}`;
}

/**
 * What a history entry stands for: the hash without the parts that follow
 * a drag (the camera, the explode slider), which rewrite the entry instead.
 * @param {string} hash
 */
function historyKey(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  params.delete('cam');
  params.delete('explode');
  return params.toString();
}
