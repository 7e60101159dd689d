/**
 * @file The contacts by keyboard: beside the view, a picker of the shown
 * frame's touching body pairs (worst first) and a listbox of the chosen
 * pair's contacts, each named in one line with what the hover tooltip says
 * (ui/tooltip.js words both), and the chosen contact's details. The chosen
 * contact is ringed in the view (wiring/view.js) while the visitor uses
 * the list, so it is the tooltip for those who do not use a mouse.
 *
 * Why a listbox beside the view and not keys on the canvas: the canvas
 * already gives the arrows, + / − and 0 to the camera, and a screen reader
 * in browse mode takes the arrows for itself; a focusable listbox switches
 * it to focus mode, where Up/Down/Home/End are the list's, and a listbox is
 * a widget every screen reader knows how to announce. One
 * `aria-activedescendant` keeps the focus on the list itself (no focus
 * moves to rebuild when a new step replaces the options). Only one pair's
 * contacts are in the DOM at a time: the Wall has hundreds of pairs and
 * thousands of contacts.
 */

import { contactPairs, worstPairsFirst } from '../state/contact-pairs.js';
import { contactDetails, contactSentence, detailRows, fillDetailList } from './tooltip.js';

/** While playing, the list is rebuilt at most this often (the last frame always shows). */
const PLAYING_INTERVAL_MS = 250;

/**
 * @typedef {object} ContactBrowserElements
 * @property {HTMLElement} section
 * @property {HTMLSelectElement} pair the body pair picker
 * @property {HTMLElement} list role="listbox"
 * @property {HTMLElement} details the chosen contact's details
 * @property {HTMLElement} none the note shown when nothing touches
 */

/** The pair picker, the contact listbox and the chosen contact's details. */
export class ContactBrowser {
  /**
   * @param {{elements: ContactBrowserElements, layout: import('../render/contacts.js').ContactLayout,
   *   featureKinds: string[], onHighlight: (index: number | null) => void}} options
   *   onHighlight: the contact to ring in the view (an index into the frame's contacts), or none
   */
  constructor({ elements, layout, featureKinds, onHighlight }) {
    this.elements = elements;
    this.layout = layout;
    this.featureKinds = featureKinds;
    this.onHighlight = onHighlight;
    /** The shown frame's contacts and the scene's body names. */
    this.contacts = new Float32Array(0);
    /** @type {string[]} */
    this.bodyNames = [];
    /** @type {import('../state/contact-pairs.js').ContactPair[]} */
    this.pairs = [];
    /** The chosen pair as "a:b"; null: the worst. @type {string | null} */
    this.pairKey = null;
    /** The chosen contact's place in its pair's list, from 0. */
    this.position = 0;
    /** Whether the view rings the chosen contact: from the list's first use until Escape or another scene. */
    this.active = false;
    /** What the picker and the list last showed, so an unchanged frame leaves the DOM alone. */
    this.shownPairs = '';
    this.shownList = '';
    this.lastRender = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.pendingRender = null;
    this.wire();
  }

  /**
   * A new frame: keeps the chosen pair while it still touches (the place in
   * it clamped to its contacts), else the worst pair.
   * @param {Float32Array} contacts `contactBuffer()`
   * @param {string[]} bodyNames the scene's body names (a scene file's: text only)
   * @param {boolean} playing while playing the list is rebuilt a few times a second
   */
  showFrame(contacts, bodyNames, playing) {
    this.contacts = contacts;
    this.bodyNames = bodyNames;
    if (!playing || performance.now() - this.lastRender >= PLAYING_INTERVAL_MS) {
      this.render();
      return;
    }
    this.pendingRender ??= setTimeout(() => this.render(), PLAYING_INTERVAL_MS);
  }

  /** Another scene: back to its worst pair, and no ring until the list is used again. */
  reset() {
    this.pairKey = null;
    this.position = 0;
    this.active = false;
  }

  /** @returns {import('../state/contact-pairs.js').ContactPair | null} */
  chosenPair() {
    return this.pairs.find((p) => `${p.a}:${p.b}` === this.pairKey) ?? null;
  }

  render() {
    if (this.pendingRender !== null) clearTimeout(this.pendingRender);
    this.pendingRender = null;
    this.lastRender = performance.now();
    this.pairs = worstPairsFirst(contactPairs(this.contacts, this.layout));
    if (!this.chosenPair()) {
      this.pairKey = this.pairs.length > 0 ? `${this.pairs[0].a}:${this.pairs[0].b}` : null;
      this.position = 0;
    }
    const pair = this.chosenPair();
    if (pair) this.position = Math.min(this.position, pair.contacts.length - 1);
    this.renderPairs();
    this.renderList();
    this.renderChosen();
  }

  /** The picker's options, one per touching pair; rebuilt only when they change. */
  renderPairs() {
    const { pair: select, list, details, none } = this.elements;
    const name = (i) => this.bodyNames[i] ?? `body ${i}`;
    const labels = this.pairs.map((p) => {
      const judged = p.right + p.wrong > 0 ? `, ${p.wrong} wrong` : p.unjudged > 0 ? ', no oracle' : '';
      return `${name(p.a)} → ${name(p.b)}: ${p.contacts.length} contact${p.contacts.length === 1 ? '' : 's'}${judged}`;
    });
    const signature = this.pairs.map((p, i) => `${p.a}:${p.b}=${labels[i]}`).join('\n');
    if (signature !== this.shownPairs) {
      this.shownPairs = signature;
      select.replaceChildren(
        asFragment(this.pairs, (p, i) => {
          const option = document.createElement('option');
          option.value = `${p.a}:${p.b}`;
          // Body names come from a scene file: text, not markup.
          option.textContent = labels[i];
          return option;
        }),
      );
    }
    if (this.pairKey !== null) select.value = this.pairKey;
    const empty = this.pairs.length === 0;
    select.disabled = empty;
    list.hidden = empty;
    details.hidden = empty;
    none.hidden = !empty;
  }

  /** The chosen pair's contacts as options; rebuilt only when they change. */
  renderList() {
    const { list } = this.elements;
    const pair = this.chosenPair();
    const contacts = pair?.contacts ?? [];
    const sentences = contacts.map((index, k) =>
      contactSentence(contactDetails(this.contacts, this.layout, index, { bodyNames: this.bodyNames, featureKinds: this.featureKinds }), k + 1, contacts.length),
    );
    const signature = contacts.map((index, k) => `${index}=${sentences[k]}`).join('\n');
    if (signature === this.shownList) return;
    this.shownList = signature;
    list.replaceChildren(
      asFragment(contacts, (index, k) => {
        const option = document.createElement('li');
        option.id = `contact-option-${k}`;
        option.setAttribute('role', 'option');
        option.dataset.contact = String(index);
        option.textContent = sentences[k];
        return option;
      }),
    );
  }

  /** Marks the chosen option, fills the details and tells the view what to ring. */
  renderChosen() {
    const { list, details } = this.elements;
    const pair = this.chosenPair();
    const index = pair ? pair.contacts[this.position] : undefined;
    for (const option of list.children) option.setAttribute('aria-selected', String(option.id === `contact-option-${this.position}`));
    const option = document.getElementById(`contact-option-${this.position}`);
    if (option && index !== undefined) {
      list.setAttribute('aria-activedescendant', option.id);
      if (document.activeElement === list) option.scrollIntoView({ block: 'nearest' });
      const shown = contactDetails(this.contacts, this.layout, index, { bodyNames: this.bodyNames, featureKinds: this.featureKinds });
      const title = document.createElement('p');
      title.className = 'tip-title';
      title.textContent = `Contact ${this.position + 1} of ${pair?.contacts.length}: ${shown.bodies}`;
      const rows = document.createElement('dl');
      fillDetailList(rows, detailRows(shown));
      details.replaceChildren(title, rows);
    } else {
      list.removeAttribute('aria-activedescendant');
      details.replaceChildren();
    }
    this.onHighlight(this.active && index !== undefined ? index : null);
  }

  /**
   * Chooses a contact of the chosen pair, or another pair.
   * @param {number} position place in the pair's list, clamped
   * @param {string | null} [pairKey] another pair
   */
  choose(position, pairKey = this.pairKey) {
    if (pairKey !== this.pairKey) {
      this.pairKey = pairKey;
      this.renderPairs();
      this.renderList();
    }
    const count = this.chosenPair()?.contacts.length ?? 0;
    this.position = Math.max(0, Math.min(position, count - 1));
    this.active = true;
    this.renderChosen();
  }

  /** @param {number} by pairs to move in the worst-first order */
  movePair(by) {
    const at = this.pairs.findIndex((p) => `${p.a}:${p.b}` === this.pairKey);
    const next = this.pairs[Math.max(0, Math.min(at + by, this.pairs.length - 1))];
    if (next) this.choose(0, `${next.a}:${next.b}`);
  }

  wire() {
    const { pair: select, list } = this.elements;
    select.addEventListener('change', () => this.choose(0, select.value));
    list.addEventListener('focus', () => {
      if (!this.active) this.choose(this.position);
    });
    list.addEventListener('click', (event) => {
      const option = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('[role="option"]'));
      if (option) this.choose(Number(option.id.replace('contact-option-', '')));
    });
    list.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const count = this.chosenPair()?.contacts.length ?? 0;
      /** @type {Record<string, () => void>} */
      const keys = {
        ArrowDown: () => this.choose(this.position + 1),
        ArrowUp: () => this.choose(this.position - 1),
        Home: () => this.choose(0),
        End: () => this.choose(count - 1),
        PageDown: () => this.movePair(1),
        PageUp: () => this.movePair(-1),
        Escape: () => {
          this.active = false;
          this.renderChosen();
        },
      };
      const action = keys[event.key];
      if (!action) return;
      // The list's keys, not the page's shortcuts or its scrolling.
      event.preventDefault();
      action();
    });
  }
}

/**
 * The elements `make` builds from `items`, in one fragment: spread into a
 * call they would pass its argument limit for a pair with 100 000 contacts.
 * @template T
 * @param {T[]} items
 * @param {(item: T, index: number) => Node} make
 * @returns {DocumentFragment}
 */
function asFragment(items, make) {
  const fragment = document.createDocumentFragment();
  items.forEach((item, i) => fragment.append(make(item, i)));
  return fragment;
}
