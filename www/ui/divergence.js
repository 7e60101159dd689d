/**
 * @file The divergence guard's side on the page. The core pauses a run that
 * blew up (a time step far too large, too few solver iterations, no
 * friction…) at the step that diverged, and its record says why; the page
 * then shows that message with a button that puts back the scene's own
 * time step, friction and solver iterations (the settings a blow-up comes
 * from; the schema's defaults) and replays.
 */

/** The URL keys of the settings that a restore puts back to their defaults. */
export const RESTORED_KEYS = ['dt', 'mu', 'iters'];

/**
 * The settings with the time step, friction and iterations back at the
 * schema's defaults (null: the scene's own value); the others as they were.
 * @param {Record<string, any>} settings
 * @param {Array<{id: string, url_key: string, default: any}>} schema
 * @returns {Record<string, any>} a new object
 */
export function restoredSettings(settings, schema) {
  const restored = { ...settings };
  for (const entry of schema) if (RESTORED_KEYS.includes(entry.url_key)) restored[entry.id] = entry.default;
  return restored;
}

/**
 * Whether a restore would change anything.
 * @param {Record<string, any>} settings
 * @param {Array<{id: string, url_key: string, default: any}>} schema
 */
export function canRestore(settings, schema) {
  return schema.some((entry) => RESTORED_KEYS.includes(entry.url_key) && settings[entry.id] !== entry.default);
}

/**
 * Shows or hides the strip that says the run diverged.
 * @param {HTMLElement} strip `#diverged`, with a `.message` and a button
 * @param {string | null} message the record's `diverged`, or null
 * @param {{step: number, restorable: boolean}} context
 */
export function showDivergence(strip, message, { step, restorable }) {
  strip.hidden = message === null;
  if (message === null) return;
  strip.querySelector('.message').textContent = `The simulation blew up at step ${step} and was stopped: ${message}`;
  const button = /** @type {HTMLButtonElement} */ (strip.querySelector('button'));
  button.hidden = !restorable;
}
