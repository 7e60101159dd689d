/**
 * @file The settings controls of the left panel: the method picker with its
 * one-line description, a slider for every entry of parameters.js, and the
 * seed field. It only shows settings and reports edits; main.js decides
 * what an edit does (apply from the next step, or rebuild).
 */

import { PARAMETERS, SEED } from './parameters.js';
import { Slider } from './slider.js';

/** Method picker, sliders and seed field, shown from and edited into a settings object. */
export class SettingsPanel {
  /**
   * @param {{methods: Array<{id: string, name: string, description: string}>,
   *   onChange: (edit: (settings: any) => void) => void,
   *   onInvalid: (message: string) => void}} options
   *   onChange receives a function that applies the edit to a settings object
   */
  constructor({ methods, onChange, onInvalid }) {
    this.methods = methods;
    this.methodPicker = /** @type {HTMLSelectElement} */ (document.getElementById('method-picker'));
    this.methodDescription = document.getElementById('method-description');
    this.seed = /** @type {HTMLInputElement} */ (document.getElementById('seed'));

    this.methodPicker.replaceChildren(
      ...methods.map((method) => {
        const option = document.createElement('option');
        option.value = method.id;
        option.textContent = method.name;
        option.title = method.description;
        return option;
      }),
    );
    this.methodPicker.disabled = false;
    this.methodPicker.addEventListener('change', () => {
      const method = this.methodPicker.value;
      this.describeMethod(method);
      onChange((settings) => {
        settings.method = method;
      });
    });

    const container = document.getElementById('sliders');
    /** @type {Map<string, Slider>} */
    this.sliders = new Map(
      PARAMETERS.map((parameter) => [
        parameter.key,
        new Slider(container, parameter, {
          onCommit: (value) => onChange((settings) => parameter.set(settings, value)),
          onInvalid,
        }),
      ]),
    );

    this.seed.addEventListener('change', () => {
      const value = Number(this.seed.value);
      if (this.seed.value.trim() === '' || !Number.isInteger(value) || value < SEED.min || value > SEED.max) {
        onInvalid(`Seed: "${this.seed.value}" is not a whole number from ${SEED.min} to ${SEED.max}; kept ${this.shownSeed}.`);
        this.seed.value = String(this.shownSeed);
        return;
      }
      onChange((settings) => {
        settings.seed = value;
      });
    });
  }

  /**
   * Shows `settings`; `sceneDt` and `sceneFriction` are what a null time
   * step and a null friction stand for.
   * @param {any} settings
   * @param {number | null} sceneDt
   * @param {number | null} sceneFriction
   */
  show(settings, sceneDt, sceneFriction) {
    this.methodPicker.value = settings.method;
    this.describeMethod(settings.method);
    for (const parameter of PARAMETERS) {
      const sceneValue = parameter.key === 'dt' ? sceneDt : parameter.key === 'mu' ? sceneFriction : null;
      this.sliders.get(parameter.key).show(parameter.get(settings), sceneValue);
    }
    this.seed.value = String(settings.seed);
    this.shownSeed = settings.seed;
  }

  /** @param {string} id */
  describeMethod(id) {
    this.methodDescription.textContent = this.methods.find((m) => m.id === id)?.description ?? '';
  }
}
