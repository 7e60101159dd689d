/**
 * @file One setting's control: a range slider (linear or logarithmic) and a
 * number field for typing an exact value, kept in step. The value is
 * committed when the slider is released or the field is left, so a drag does
 * not rebuild the scene at every pixel.
 */

import { isValid } from './parameters.js';

/** Positions of a logarithmic slider. */
const LOG_POSITIONS = 1000;

/** A slider with a typed-entry field for one entry of parameters.js. */
export class Slider {
  /**
   * @param {HTMLElement} container where the control is appended
   * @param {import('./parameters.js').Parameter} parameter
   * @param {{onCommit: (value: number) => void, onInvalid: (message: string) => void}} handlers
   */
  constructor(container, parameter, { onCommit, onInvalid }) {
    this.parameter = parameter;
    const p = parameter;
    const root = document.createElement('div');
    root.className = 'slider';
    root.title = p.help;
    root.innerHTML = `
      <div class="slider-head">
        <label for="${p.id}-range">${p.label}</label>
        <span class="slider-value">
          <input type="number" id="${p.id}-value" inputmode="decimal" aria-label="${p.label} value">
          <span class="unit">${p.unit}</span>
        </span>
      </div>
      <input type="range" id="${p.id}-range" data-key="${p.key}">`;
    container.append(root);
    this.range = /** @type {HTMLInputElement} */ (root.querySelector('input[type=range]'));
    this.field = /** @type {HTMLInputElement} */ (root.querySelector('input[type=number]'));
    if (p.log) {
      this.range.min = '0';
      this.range.max = String(LOG_POSITIONS);
      this.range.step = '1';
      this.field.step = 'any';
    } else {
      this.range.min = String(p.min);
      this.range.max = String(p.max);
      this.range.step = String(p.step);
      this.field.step = String(p.step);
    }
    this.field.min = String(p.min);
    this.field.max = String(p.max);
    /** @type {number | null} */
    this.value = null;

    this.range.addEventListener('input', () => {
      this.field.value = String(this.fromRange());
    });
    this.range.addEventListener('change', () => {
      const value = this.fromRange();
      this.value = value;
      this.field.value = String(value);
      onCommit(value);
    });
    this.field.addEventListener('change', () => {
      const value = Number(this.field.value);
      if (this.field.value.trim() === '' || !isValid(p, value)) {
        onInvalid(`${p.label}: "${this.field.value}" is not ${p.integer ? 'a whole number' : 'a number'} from ${p.min} to ${p.max}; kept ${this.field.placeholder && this.value === null ? "the scene's value" : this.value}.`);
        this.show(this.value, this.sceneValue);
        return;
      }
      this.value = value;
      this.range.value = String(this.toRange(value));
      onCommit(value);
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
  }

  /** @returns {number} the slider position as a setting value */
  fromRange() {
    const p = this.parameter;
    const position = Number(this.range.value);
    if (!p.log) return p.integer ? Math.round(position) : position;
    const value = p.min * (p.max / p.min) ** (position / LOG_POSITIONS);
    // Three significant digits keep the values in links short and readable.
    return Math.min(p.max, Math.max(p.min, Number(value.toPrecision(3))));
  }

  /** @param {number} value @returns {number} */
  toRange(value) {
    const p = this.parameter;
    if (!p.log) return value;
    return Math.round((Math.log(value / p.min) / Math.log(p.max / p.min)) * LOG_POSITIONS);
  }

  /** @param {boolean} disabled */
  setDisabled(disabled) {
    this.range.disabled = disabled;
    this.field.disabled = disabled;
  }
}
