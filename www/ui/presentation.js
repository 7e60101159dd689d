/**
 * @file Presentation mode, for a lecture hall: the page goes full screen,
 * the control panel steps aside, text grows (a class on <html>, see
 * style.css) and the contact glyphs grow (the page asks `glyphScale()`).
 * Full screen is a request the browser may refuse; the mode works without it.
 */

/** How much larger contact glyphs are drawn in presentation mode: thicker more than longer. */
const GLYPH_SCALE = { radius: 2.4, length: 1.6 };

/** Presentation mode on and off. */
export class Presentation {
  /**
   * @param {{button: HTMLElement, onChange: (presenting: boolean) => void}} options
   *   onChange: after the mode changed (redraw with other glyph sizes)
   */
  constructor({ button, onChange }) {
    this.button = button;
    this.onChange = onChange;
    this.presenting = false;
    /** Others that follow the mode (a lesson ends with it). @type {Array<(presenting: boolean) => void>} */
    this.listeners = [];
    button.addEventListener('click', () => this.toggle());
    // Leaving full screen (Esc, the browser's own button) ends the mode.
    document.addEventListener('fullscreenchange', () => {
      if (!document.fullscreenElement && this.presenting) this.set(false);
    });
  }

  toggle() {
    this.set(!this.presenting);
  }

  /** @param {boolean} presenting */
  set(presenting) {
    if (presenting === this.presenting) return;
    this.presenting = presenting;
    document.documentElement.classList.toggle('presenting', presenting);
    this.button.setAttribute('aria-pressed', String(presenting));
    this.button.textContent = presenting ? 'Leave presentation' : 'Present';
    document.body.dataset.presenting = String(presenting);
    const root = document.documentElement;
    if (presenting && !document.fullscreenElement && root.requestFullscreen) {
      // Refused without a user gesture or in a frame; the mode stays on.
      root.requestFullscreen().catch(() => {});
    } else if (!presenting && document.fullscreenElement) {
      document.exitFullscreen().catch(() => {});
    }
    this.onChange(presenting);
    for (const listener of this.listeners) listener(presenting);
  }

  /** @param {(presenting: boolean) => void} listener called after each change of the mode */
  addListener(listener) {
    this.listeners.push(listener);
  }

  /** @returns {{radius: number, length: number}} factors for the contact glyphs' sizes */
  glyphScale() {
    return this.presenting ? GLYPH_SCALE : { radius: 1, length: 1 };
  }
}
