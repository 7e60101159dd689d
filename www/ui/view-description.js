/**
 * @file The view told in words (issue 28), on the page: a section beside
 * the view that the canvas points to (aria-describedby its short summary,
 * aria-details the whole section). It gives the scene and its bodies, the
 * worst pairs, and every touching body pair to browse in a closed
 * <details>, a page of pairs at a time. The sentences are
 * view-words.js's; body names come from scene files, so everything
 * goes in as text.
 *
 * Only the short summary is a live region, announced politely: at every
 * paused step, and at most once a second while playing (a screen reader
 * would otherwise be handed a new sentence every frame). The rest is
 * written at the same moments but is not live: it is there to browse.
 */

import { contactPairs, worstPairsFirst } from '../state/contact-pairs.js';
import { pairSentence, sceneSentence, summarySentence, worstSentence } from './view-words.js';

/** While playing, the description changes at most this often. */
export const PLAYING_INTERVAL_MS = 1000;
/** How many pairs the list shows at first, and how many more each "more" adds. */
export const PAIRS_PAGE = 50;

/** Keeps the description beside the view current with what the view shows. */
export class ViewDescription {
  /**
   * @param {{elements: ReturnType<typeof import('../wiring/elements.js').viewWordsElements>,
   *   layout: import('../render/contacts.js').ContactLayout, featureKinds: string[]}} options
   *   layout and featureKinds: the catalogue's contact layout and feature-kind labels
   */
  constructor({ elements, layout, featureKinds }) {
    this.elements = elements;
    this.layout = layout;
    this.featureKinds = featureKinds;
    /** @type {import('../state/run-controller.js').Shown | null} what was last written */
    this.written = null;
    /** @type {import('../state/run-controller.js').Shown | null} what the view shows */
    this.latest = null;
    this.lastWrittenAt = -Infinity;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.wasPlaying = false;
    /** How many pairs the list shows; back to one page for another scene. */
    this.listed = PAIRS_PAGE;
    /** @type {unknown} the scene the list was paged in */
    this.listedScene = null;
    /** @type {{pairs: import('../state/contact-pairs.js').ContactPair[], context: import('./view-words.js').WordsContext} | null} */
    this.described = null;
    elements.pairs.addEventListener('toggle', () => this.writeList());
    elements.more.addEventListener('click', () => {
      const first = this.listed;
      this.listed += PAIRS_PAGE;
      this.writeList();
      // The reader goes on where the new pairs begin, not at the button below them.
      const item = /** @type {HTMLElement | undefined} */ (elements.list.children[first]);
      if (item) {
        item.tabIndex = -1;
        item.focus();
      }
    });
  }

  /**
   * The view shows a frame, or the run state changed: the description
   * follows at once when not playing, else at most once a second.
   * @param {import('../state/run-controller.js').Shown | null} shown
   * @param {'idle' | 'playing' | 'replaying'} run
   */
  show(shown, run) {
    this.latest = shown;
    if (!shown) return;
    const playing = run === 'playing';
    const paused = this.wasPlaying && !playing;
    this.wasPlaying = playing;
    if (playing) {
      this.schedule();
    } else if (paused || shown !== this.written) {
      this.cancelTimer();
      this.write(shown);
    }
  }

  /** While playing: writes now if a second has passed, else once it has. */
  schedule() {
    if (this.timer !== null) return;
    const wait = this.lastWrittenAt + PLAYING_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      // Play was just pressed: the frame on screen was told already.
      if (this.latest && this.latest !== this.written) this.write(this.latest);
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.wasPlaying && this.latest && this.latest !== this.written) this.write(this.latest);
    }, wait);
  }

  cancelTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** @param {import('../state/run-controller.js').Shown} shown */
  write(shown) {
    this.written = shown;
    this.lastWrittenAt = performance.now();
    const info = shown.scene.info;
    /** @type {{name: string, fixed: boolean}[]} */
    const bodies = info.bodies;
    const pairs = contactPairs(shown.frame.contacts, this.layout);
    // Every contact carries the headline oracle's verdict (the geometric
    // oracle's where the scene has none of its own): said as the core gives it.
    const hasOracle = pairs.every((pair) => pair.unjudged === 0);
    const context = { bodyNames: bodies.map((b) => b.name), featureKinds: this.featureKinds, hasOracle };
    if (shown.scene !== this.listedScene) {
      this.listedScene = shown.scene;
      this.listed = PAIRS_PAGE;
    }
    this.described = { pairs, context };
    const { summary, scene, worst, pairsTitle } = this.elements;
    summary.textContent = summarySentence({ step: shown.step, pairs, record: shown.frame.record, hasOracle });
    scene.textContent = sceneSentence({ title: info.title, bodies, hasOracle });
    worst.textContent = hasOracle ? worstSentence(worstPairsFirst(pairs), context.bodyNames) : '';
    worst.hidden = worst.textContent === '';
    pairsTitle.textContent = pairs.length === 0 ? 'No touching pairs to list' : `Every touching pair (${pairs.length})`;
    this.writeList();
  }

  /**
   * The pairs, in the core's order (on a stack, bottom to top), a page at
   * a time; written only while the list is open, so a closed list costs
   * nothing while playing.
   */
  writeList() {
    const { pairs: details, list, more } = this.elements;
    if (!details.open || !this.described) return;
    const { pairs, context } = this.described;
    const shown = pairs.slice(0, this.listed);
    list.replaceChildren(
      ...shown.map((pair) => {
        const item = document.createElement('li');
        item.textContent = pairSentence(pair, context);
        return item;
      }),
    );
    const rest = pairs.length - shown.length;
    more.hidden = rest <= 0;
    more.textContent = `${rest} more pairs: show the next ${Math.min(rest, PAIRS_PAGE)}`;
  }
}
