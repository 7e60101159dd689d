// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Plays a lesson (state/lesson.js) in presentation mode: a panel
 * beside the view (never over it, so it covers no contact) with the step's
 * title and text, Previous and Next buttons, and ← / → (and Page Up / Page
 * Down, which a presenter's clicker sends) to move between steps. A step's
 * highlight is a circle over the view, following the camera. Every text of
 * a lesson is set with textContent: a lesson file is untrusted.
 *
 * While a lesson is open the panel also counts how many of the drawn
 * contacts project inside the view (`data-contacts`, `data-in-view`) and how
 * many of those lie under the legend, the headline, the toolbar or a message
 * strip (`data-covered`), so a lesson's author and the tests can see that a
 * step's camera shows them.
 */

import { projectToScreen } from '../render/screen.js';
import { fieldOwnsKey } from './keyboard.js';

/** What lies over the view (legend, headline, toolbar, message strips): a contact under one is hidden. */
const OVERLAYS = '.stage > .legend, .stage > .headline, .stage > .view-tools, .stage > .banner';

/** Keys that move to the next and the previous step. */
const NEXT_KEYS = ['ArrowRight', 'PageDown'];
const PREVIOUS_KEYS = ['ArrowLeft', 'PageUp'];

/**
 * @typedef {object} LessonPanelElements
 * @property {HTMLElement} panel
 * @property {HTMLElement} title
 * @property {HTMLElement} position "Step 2 of 5"
 * @property {HTMLElement} stepTitle
 * @property {HTMLElement} text
 * @property {HTMLButtonElement} previous
 * @property {HTMLButtonElement} next
 * @property {HTMLButtonElement} close
 * @property {HTMLElement} mark the highlight's circle, over the view
 * @property {HTMLElement} markLabel
 * @property {HTMLCanvasElement} canvas the 3D view
 */

/** The lesson on screen, if any, and its panel. */
export class LessonPlayer {
  /**
   * @param {{elements: LessonPanelElements,
   *   presentation: import('./presentation.js').Presentation,
   *   showLink: (hash: string) => void,
   *   drawn: () => {viewProjection: Float32Array, instances: Float32Array, stride: number}}} options
   *   showLink: show the page state a step's link names;
   *   drawn: what the view last drew (for the highlight and the contacts-in-view count)
   */
  constructor({ elements, presentation, showLink, drawn }) {
    this.elements = elements;
    this.presentation = presentation;
    this.showLink = showLink;
    this.drawn = drawn;
    /** @type {import('../state/lesson.js').Lesson | null} */
    this.lesson = null;
    this.index = 0;
    this.frameRequest = 0;
    this.lastKey = '';
    /** The step's readout rows wait for its frame before the readout scrolls to them. */
    this.lookPending = false;

    elements.previous.addEventListener('click', () => this.go(this.index - 1));
    elements.next.addEventListener('click', () => this.go(this.index + 1));
    elements.close.addEventListener('click', () => this.close());
    // Ahead of the page's shortcuts (→ steps the simulation) and of the
    // focused view's (the arrows turn it): in a lesson they move between steps.
    window.addEventListener(
      'keydown',
      (event) => {
        if (!this.lesson || event.ctrlKey || event.metaKey || event.altKey) return;
        if (fieldOwnsKey(event.target, event.key) || document.querySelector('dialog[open]')) return;
        const delta = NEXT_KEYS.includes(event.key) ? 1 : PREVIOUS_KEYS.includes(event.key) ? -1 : 0;
        if (delta === 0) return;
        event.preventDefault();
        event.stopPropagation();
        this.go(this.index + delta);
      },
      { capture: true },
    );
    // Leaving presentation mode (its button, F, Esc) ends the lesson too.
    presentation.addListener((presenting) => {
      if (!presenting && this.lesson) this.close();
    });
  }

  /**
   * Opens a lesson at its first step (or `start`), in presentation mode.
   * @param {import('../state/lesson.js').Lesson} lesson
   * @param {number} [start]
   */
  open(lesson, start = 0) {
    this.lesson = lesson;
    const { panel, title } = this.elements;
    title.textContent = lesson.title;
    panel.hidden = false;
    document.documentElement.classList.add('lesson');
    this.presentation.set(true);
    this.go(start, true);
    this.watch();
  }

  /** Closes the lesson; the page keeps showing the last step's state. */
  close() {
    if (!this.lesson) return;
    this.lesson = null;
    this.markLook([]);
    this.elements.panel.hidden = true;
    this.elements.mark.hidden = true;
    document.documentElement.classList.remove('lesson');
    cancelAnimationFrame(this.frameRequest);
    this.presentation.set(false);
  }

  /**
   * Shows step `index` (clamped to the lesson's steps).
   * @param {number} index
   * @param {boolean} [force] show it even when it is the step on screen
   */
  go(index, force = false) {
    const lesson = this.lesson;
    if (!lesson) return;
    const clamped = Math.max(0, Math.min(lesson.steps.length - 1, index));
    if (clamped === this.index && !force) return;
    this.index = clamped;
    const step = lesson.steps[clamped];
    const { panel, position, stepTitle, text, previous, next } = this.elements;
    position.textContent = `Step ${clamped + 1} of ${lesson.steps.length}`;
    stepTitle.textContent = step.title;
    stepTitle.hidden = step.title === '';
    const paragraphs = step.text.split(/\n\s*\n/).map((paragraph) => {
      const p = document.createElement('p');
      p.textContent = paragraph.trim();
      return p;
    });
    text.replaceChildren(...paragraphs);
    text.scrollTop = 0;
    previous.disabled = clamped === 0;
    next.disabled = clamped === lesson.steps.length - 1;
    panel.dataset.step = String(clamped + 1);
    panel.dataset.steps = String(lesson.steps.length);
    delete panel.dataset.inView;
    delete panel.dataset.contacts;
    this.lastKey = '';
    this.markLook(step.look);
    this.lookPending = step.look.length > 0;
    this.showLink(step.link);
  }

  /**
   * Marks the readout rows a step points at.
   * @param {string[]} look row ids; "standing" is the Pillar's standing line
   */
  markLook(look) {
    for (const row of document.querySelectorAll('.lesson-look')) row.classList.remove('lesson-look');
    for (const id of look) lookElement(id)?.classList.add('lesson-look');
  }

  /** Scrolls the readout so the first marked row is in sight. */
  scrollToLook() {
    const lesson = this.lesson;
    const first = lesson ? lookElement(lesson.steps[this.index].look[0] ?? '') : null;
    const panel = first?.closest('.panel');
    if (!first || !panel) return;
    panel.scrollTop += first.getBoundingClientRect().top - panel.getBoundingClientRect().top - 12;
  }

  /** Each frame while a lesson is open: places the highlight and counts the contacts in view. */
  watch() {
    cancelAnimationFrame(this.frameRequest);
    const tick = () => {
      if (!this.lesson) return;
      this.update();
      this.frameRequest = requestAnimationFrame(tick);
    };
    this.frameRequest = requestAnimationFrame(tick);
  }

  update() {
    const lesson = this.lesson;
    if (!lesson) return;
    if (this.lookPending && document.body.dataset.ready === 'true') {
      this.lookPending = false;
      this.scrollToLook();
    }
    const { viewProjection, instances, stride } = this.drawn();
    const { canvas, mark, markLabel, panel } = this.elements;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    const origin = canvas.getBoundingClientRect();
    const overlays = [...document.querySelectorAll(OVERLAYS)].map((element) => element.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    // Only when something moved: the camera, the contacts, the canvas or what lies over it.
    const key = `${this.index}|${origin.left},${origin.top},${width}x${height}|${overlays.map((r) => `${r.left},${r.top},${r.right},${r.bottom}`).join(';')}|${Array.from(viewProjection).join(',')}|${instances.length}|${instances[0]}|${instances[instances.length - 1]}`;
    if (key === this.lastKey) return;
    this.lastKey = key;

    const highlight = lesson.steps[this.index].highlight;
    const centre = highlight ? projectToScreen(viewProjection, highlight.at, width, height) : null;
    if (highlight && centre) {
      // The circle's size: the farthest of three points a radius away along the axes.
      let radius = 0;
      for (let axis = 0; axis < 3; axis++) {
        const edge = [...highlight.at];
        edge[axis] += highlight.radius;
        const p = projectToScreen(viewProjection, edge, width, height);
        if (p) radius = Math.max(radius, Math.hypot(p.x - centre.x, p.y - centre.y));
      }
      radius = Math.max(radius, 12);
      mark.style.left = `${canvas.offsetLeft + centre.x - radius}px`;
      mark.style.top = `${canvas.offsetTop + centre.y - radius}px`;
      mark.style.width = mark.style.height = `${2 * radius}px`;
      markLabel.textContent = highlight.label;
      markLabel.hidden = highlight.label === '';
      mark.hidden = false;
      // The label goes on the circle's left where the right would cut it off.
      mark.classList.toggle('label-left', centre.x + radius + markLabel.offsetWidth + 12 > width);
    } else {
      mark.hidden = true;
    }

    let inView = 0;
    let covered = 0;
    const count = Math.floor(instances.length / stride);
    for (let i = 0; i < count; i++) {
      const p = projectToScreen(viewProjection, [instances[i * stride], instances[i * stride + 1], instances[i * stride + 2]], width, height);
      if (!p || p.x < 0 || p.x > width || p.y < 0 || p.y > height) continue;
      inView++;
      const x = origin.left + p.x;
      const y = origin.top + p.y;
      if (overlays.some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) covered++;
    }
    panel.dataset.contacts = String(count);
    panel.dataset.inView = String(inView);
    panel.dataset.covered = String(covered);
  }
}

/** @param {string} id a readout row's id, or "standing" @returns {HTMLElement | null} */
function lookElement(id) {
  if (id === '') return null;
  return document.getElementById(id === 'standing' ? 'pillar-status' : `row-${id}`);
}
