/**
 * @file One numeric setting's control, built from its entry in the core's
 * settings schema: a range slider (linear or logarithmic) and a number field
 * for typing an exact value, kept in step. The value is committed when the
 * slider is released or the field is left, so a drag does not replay the
 * scene at every pixel. Typed text is checked by the core
 * (`Playground.checkSetting`), which words a refusal as the CLI does.
 */

/** Positions of a logarithmic slider. */
const LOG_POSITIONS = 1000;
/** A whole-number setting with more values than this gets a field only (the seed). */
const MAX_SLIDER_POSITIONS = 10000;

/**
 * A settings schema entry (`Playground.settingsSchema()`).
 * @typedef {object} SchemaEntry
 * @property {string} id
 * @property {string} label
 * @property {string} unit
 * @property {'number' | 'integer' | 'bool' | 'method' | 'choice'} kind
 * @property {string[]} [choices] the allowed values of a 'choice'
 * @property {number | null} min
 * @property {number | null} max
 * @property {any} default
 * @property {boolean} log
 * @property {boolean} nullable null means "the scene's own value" (or, when `relative`, the default relative to the bodies' size)
 * @property {boolean} [relative] null stands for a length relative to the bodies' size
 * @property {string} url_key
 * @property {string} help
 */

/** A slider with a typed-entry field for one numeric schema entry. */
export class Slider {
  /**
   * @param {HTMLElement} container where the control is appended
   * @param {SchemaEntry} entry
   * @param {{onCommit: (value: number | null) => void,
   *   check: (text: string) => Promise<{value: any} | {problem: string}>,
   *   onInvalid: (message: string) => void}} handlers
   */
  constructor(container, entry, { onCommit, check, onInvalid }) {
    this.entry = entry;
    const name = entry.url_key;
    this.root = document.createElement('div');
    this.root.className = 'slider';
    this.root.title = entry.help;
    this.root.dataset.setting = entry.id;
    this.root.innerHTML = `
      <div class="slider-head">
        <label for="${name}-value" id="${name}-label"></label>
        <span class="slider-value">
          <input type="number" id="${name}-value" inputmode="decimal">
          <span class="unit"></span>
        </span>
      </div>
      <input type="range" id="${name}-range" data-key="${name}" aria-labelledby="${name}-label">
      <p class="slider-note" hidden></p>`;
    // Labels and units come from the core: text, not markup. The label
    // names the number field (for=) and, by aria-labelledby, the range too:
    // unnamed, a screen reader would say "slider" and nothing else.
    this.root.querySelector('label').textContent = entry.label;
    this.root.querySelector('.unit').textContent = entry.unit;
    this.note = /** @type {HTMLElement} */ (this.root.querySelector('.slider-note'));
    container.append(this.root);
    this.range = /** @type {HTMLInputElement} */ (this.root.querySelector('input[type=range]'));
    this.field = /** @type {HTMLInputElement} */ (this.root.querySelector('input[type=number]'));
    this.field.setAttribute('aria-label', `${entry.label} value`);
    this.setBounds();
    /** @type {number | null} */
    this.value = null;
    /** @type {number | null} */
    this.sceneValue = null;
    /** @type {HTMLButtonElement | null} */
    this.sceneButton = entry.nullable ? this.sceneValueButton(onCommit) : null;
    this.listen({ onCommit, check, onInvalid });
  }

  /** The slider's and the field's range and step, from the entry; a huge whole-number range gets the field only. */
  setBounds() {
    const entry = this.entry;
    const integer = entry.kind === 'integer';
    const min = Number(entry.min);
    const max = Number(entry.max);
    const step = integer ? 1 : sliderStep(min, max);
    if (integer && !entry.log && max - min > MAX_SLIDER_POSITIONS) {
      this.range.hidden = true;
      this.root.classList.add('field-only');
    }
    if (entry.log) {
      this.range.min = '0';
      this.range.max = String(LOG_POSITIONS);
      this.range.step = '1';
    } else {
      this.range.min = String(min);
      this.range.max = String(max);
      this.range.step = String(step);
    }
    this.field.step = integer ? '1' : 'any';
    this.field.min = String(min);
    this.field.max = String(max);
  }

  /**
   * The button that gives a nullable setting the scene's value back.
   * Emptying the field does too, but nobody guesses that: a button says it.
   * @param {(value: number | null) => void} onCommit
   * @returns {HTMLButtonElement}
   */
  sceneValueButton(onCommit) {
    const entry = this.entry;
    const name = entry.url_key;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small scene-value';
    button.id = `${name}-scene-value`;
    const label = entry.label.toLowerCase();
    button.textContent = entry.relative ? 'auto' : "scene's";
    const what = entry.relative ? 'its default relative to the bodies\' size' : "the scene's own value";
    button.title = `Reset the ${label} to ${what}`;
    button.setAttribute('aria-label', `Reset the ${label} to ${entry.relative ? 'its size-relative default' : "the scene's value"}`);
    button.hidden = true;
    button.addEventListener('click', () => {
      this.show(null, this.sceneValue);
      onCommit(null);
    });
    this.root.querySelector('.slider-value').append(button);
    return button;
  }

  /**
   * The slider shows the value while dragged and commits it when released;
   * typed text is checked by the core, and a refusal keeps the value.
   * @param {{onCommit: (value: number | null) => void,
   *   check: (text: string) => Promise<{value: any} | {problem: string}>,
   *   onInvalid: (message: string) => void}} handlers
   */
  listen({ onCommit, check, onInvalid }) {
    const entry = this.entry;
    this.range.addEventListener('input', () => {
      this.field.value = String(this.fromRange());
      this.sayValue(this.fromRange());
    });
    this.range.addEventListener('change', () => {
      const value = this.fromRange();
      this.value = value;
      this.field.value = String(value);
      this.sayValue(value);
      onCommit(value);
    });
    this.field.addEventListener('change', async () => {
      const text = this.field.value;
      // An empty field of a nullable setting means "the scene's value";
      // the core says whether that is allowed.
      const answer = await check(text);
      if ('problem' in answer) {
        const unset = entry.relative ? 'the size-relative default' : "the scene's value";
        const kept = this.value === null ? unset : String(this.value);
        onInvalid(`${entry.label}: ${answer.problem}; kept ${kept}.`);
        this.show(this.value, this.sceneValue);
        return;
      }
      this.value = answer.value;
      if (answer.value !== null) this.range.value = String(this.toRange(answer.value));
      this.sayValue(answer.value ?? this.sceneValue);
      onCommit(answer.value);
    });
  }

  /**
   * Shows a value; null shows the scene's own value as a placeholder.
   * @param {number | null} value
   * @param {number | null} [sceneValue] what null stands for, when known
   */
  show(value, sceneValue = null) {
    this.value = value;
    this.sceneValue = sceneValue;
    const shown = value ?? sceneValue;
    this.field.value = value === null ? '' : String(value);
    this.field.placeholder = value === null ? (sceneValue === null ? "scene's" : String(sceneValue)) : '';
    if (shown !== null) this.range.value = String(this.toRange(shown));
    this.sayValue(shown);
    if (this.sceneButton) this.sceneButton.hidden = value === null;
  }

  /**
   * What a screen reader says for the slider: the setting's value and unit.
   * A logarithmic slider's own value is a position from 0 to 1000, which
   * means nothing to a listener.
   * @param {number | null} value null: not known yet
   */
  sayValue(value) {
    if (value === null) this.range.removeAttribute('aria-valuetext');
    else this.range.setAttribute('aria-valuetext', `${value}${this.entry.unit ? ` ${this.entry.unit}` : ''}`);
  }

  /**
   * Marks a setting the current method does not read.
   * @param {string | null} note why, or null when it is read
   */
  setNote(note) {
    this.note.hidden = note === null;
    this.note.textContent = note ?? '';
    this.root.classList.toggle('unused', note !== null);
  }

  /** @returns {number} the slider position as a setting value */
  fromRange() {
    const entry = this.entry;
    const position = Number(this.range.value);
    if (!entry.log) return entry.kind === 'integer' ? Math.round(position) : position;
    const min = Number(entry.min);
    const max = Number(entry.max);
    const value = min * (max / min) ** (position / LOG_POSITIONS);
    // Three significant digits keep the values in links short and readable.
    return Math.min(max, Math.max(min, Number(value.toPrecision(3))));
  }

  /** @param {number} value @returns {number} */
  toRange(value) {
    const entry = this.entry;
    if (!entry.log) return value;
    const min = Number(entry.min);
    const max = Number(entry.max);
    return Math.round((Math.log(value / min) / Math.log(max / min)) * LOG_POSITIONS);
  }
}

/**
 * A round slider step giving about a hundred positions or more over the range.
 * @param {number} min
 * @param {number} max
 * @returns {number}
 */
function sliderStep(min, max) {
  const span = max - min;
  if (!(span > 0)) return 1;
  return 10 ** Math.floor(Math.log10(span / 100));
}
