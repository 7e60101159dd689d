/**
 * @file Keyboard use of the page: shortcuts that work wherever the focus is
 * (Space play/pause, → one step, R reset, F presentation mode, ? the list of
 * keys), except while a field owns the key or a focused button takes Space;
 * the "Skip to the view" link; and turning and zooming the 3D
 * view with the keyboard once it has the focus.
 */

/** Input types whose every key is typing. */
const TEXT_INPUTS = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password', 'date', 'time']);
/** How far one arrow press turns the view, in the pointer's pixels (see OrbitCamera.rotate). */
const TURN_PIXELS = 26;
/** How much one + or − press zooms. */
const ZOOM_FACTOR = 1.2;

/**
 * Whether the element with the focus needs `key` for itself: every key in a
 * text field; the arrows in a slider or a list; Space in a list.
 * @param {EventTarget | null} target
 * @param {string} key `KeyboardEvent.key`
 * @returns {boolean}
 */
export function fieldOwnsKey(target, key) {
  const element = /** @type {HTMLElement | null} */ (target);
  if (!element || !element.tagName) return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName;
  if (tag === 'TEXTAREA') return true;
  const arrow = key.startsWith('Arrow');
  if (tag === 'SELECT') return arrow || key === ' ';
  if (tag === 'INPUT') {
    const type = /** @type {HTMLInputElement} */ (element).type;
    if (TEXT_INPUTS.has(type)) return true;
    if (type === 'range' || type === 'radio') return arrow;
  }
  return false;
}

/** Input types that Space presses or ticks. */
const PRESSED_INPUTS = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'image', 'color']);

/**
 * Whether the focused element is a control that Space presses (a button, a
 * box, a disclosure): the key is the control's, not the page's.
 * @param {EventTarget | null} target
 * @returns {boolean}
 */
export function controlTakesSpace(target) {
  const element = /** @type {HTMLElement | null} */ (target);
  if (!element || !element.tagName) return false;
  const tag = element.tagName;
  if (tag === 'BUTTON' || tag === 'SUMMARY') return true;
  if (tag === 'INPUT') return PRESSED_INPUTS.has(/** @type {HTMLInputElement} */ (element).type);
  const role = element.getAttribute('role');
  return role === 'button' || role === 'checkbox' || role === 'switch';
}

/**
 * Installs the page-wide shortcuts on `document`.
 * @param {{togglePlay: () => void, step: () => void, reset: () => void, present: () => void, keys: () => void,
 *   canvas: HTMLElement}} actions canvas: while it has the focus, the arrows turn the view instead
 */
export function installShortcuts({ togglePlay, step, reset, present, keys, canvas }) {
  // The control last pressed with the pointer keeps the focus; Space after
  // that click still plays, as a lecturer at a laptop expects. A control
  // reached with the keyboard takes Space itself.
  /** @type {EventTarget | null} */
  let clicked = null;
  document.addEventListener('pointerdown', (event) => {
    clicked = /** @type {Element} */ (event.target).closest?.('button, summary, input, label') ?? null;
    const label = /** @type {HTMLLabelElement | null} */ (clicked?.tagName === 'LABEL' ? clicked : null);
    if (label) clicked = label.control;
  }, true);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Tab') clicked = null;
  }, true);
  /** @param {EventTarget | null} target */
  const takesSpace = (target) => controlTakesSpace(target) && target !== clicked;
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (fieldOwnsKey(event.target, event.key)) return;
    // Space presses the focused button (Step, Copy link, …): never Play instead.
    if (event.key === ' ' && takesSpace(event.target)) return;
    // An open dialog (help, keys) keeps its own keys.
    if (document.querySelector('dialog[open]')) return;
    let action = null;
    if (event.key === ' ') action = togglePlay;
    else if (event.key === 'ArrowRight' && event.target !== canvas) action = step;
    else if (event.key === 'r' || event.key === 'R') action = reset;
    else if (event.key === 'f' || event.key === 'F') action = present;
    else if (event.key === '?') action = keys;
    if (!action) return;
    // Space would also scroll the page.
    event.preventDefault();
    action();
  });
  // A focused element that does not take Space (the view, a clicked button)
  // would scroll or press on Space's keyup: the shortcut had it.
  document.addEventListener('keyup', (event) => {
    if (event.key === ' ' && !fieldOwnsKey(event.target, event.key) && !takesSpace(event.target) && !document.querySelector('dialog[open]')) event.preventDefault();
  });
}

/**
 * Lets the focused canvas turn (arrows), zoom (+ and −) and reset (0) the
 * view.
 * @param {HTMLElement} canvas focusable (tabindex="0")
 * @param {{rotate: (dx: number, dy: number) => void, zoom: (factor: number) => void}} camera
 * @param {{onChange: () => void, onReset: () => void}} handlers
 */
export function attachKeyboardOrbit(canvas, camera, { onChange, onReset }) {
  canvas.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const turns = {
      ArrowLeft: [-TURN_PIXELS, 0],
      ArrowRight: [TURN_PIXELS, 0],
      ArrowUp: [0, -TURN_PIXELS],
      ArrowDown: [0, TURN_PIXELS],
    };
    if (event.key in turns) {
      const [dx, dy] = turns[/** @type {keyof typeof turns} */ (event.key)];
      camera.rotate(dx, dy);
    } else if (event.key === '+' || event.key === '=') {
      camera.zoom(1 / ZOOM_FACTOR);
    } else if (event.key === '-' || event.key === '_') {
      camera.zoom(ZOOM_FACTOR);
    } else if (event.key === '0') {
      event.preventDefault();
      onReset();
      return;
    } else {
      return;
    }
    // The arrows would otherwise scroll the page, or step (see installShortcuts).
    event.preventDefault();
    onChange();
  });
}

/**
 * The "Skip to the view" link, the page's first Tab stop: it puts the focus
 * on the 3D view (a plain #view link would rewrite the page's link instead).
 * @param {HTMLElement} link
 * @param {HTMLElement} canvas focusable (tabindex="0")
 */
export function attachSkipLink(link, canvas) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    canvas.focus();
    canvas.scrollIntoView({ block: 'nearest' });
  });
}
