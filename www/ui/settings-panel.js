/**
 * @file The settings controls of the left panel, built from the core's
 * lists: the method picker (with its one-line summary) from
 * `Playground.methods()`, and one control per entry of
 * `Playground.settingsSchema()` (a slider with typed entry for numbers, a
 * field for whole numbers with a huge range such as the seed, a checkbox for
 * switches). It only shows settings and reports edits; wiring/controls.js
 * has the run controller replay them.
 */

import { Slider } from './slider.js';

/** The method picker's group labels, by the facade's method `kind`. */
const METHOD_GROUPS = {
  local: "The paper's methods (one pair of tetrahedra at a time)",
  region: 'Region methods (whole contact regions)',
  reference: 'The answer',
  engine: 'Engines people ship (downloaded when chosen)',
};

/** The engine-mode switch's words for the `engine` setting's choices. */
const ENGINE_MODES = {
  ours: 'contacts at our poses',
  own: "the engine's own run",
};

/** Method picker and one control per setting, shown from and edited into a settings object. */
export class SettingsPanel {
  /**
   * @param {{methods: Array<{id: string, name: string, summary: string, reads: string[], kind?: string,
   *   printed?: string, paper_code?: boolean}>,
   *   schema: import('./slider.js').SchemaEntry[],
   *   check: (id: string, text: string) => Promise<{value: any} | {problem: string}>,
   *   onChange: (id: string, value: any) => void,
   *   onInvalid: (message: string) => void}} options
   */
  constructor({ methods, schema, check, onChange, onInvalid }) {
    this.methods = methods;
    this.schema = schema;
    this.methodEntry = schema.find((entry) => entry.kind === 'method') ?? null;
    this.methodPicker = /** @type {HTMLSelectElement} */ (document.getElementById('method-picker'));
    this.methodDescription = document.getElementById('method-description');
    // The "printed / paper's code" switch: the picker lists the printed
    // methods; the switch selects a method's `@paper-code` variant
    // (docs/design/reference-code.md) where it has one.
    this.variantPicker = /** @type {HTMLSelectElement} */ (document.getElementById('method-variant'));
    // The engines' switch beside the picker: the one setting the engines
    // read (their entries' `reads`), shown only while an engine is chosen.
    this.engineMode = /** @type {HTMLSelectElement | null} */ (document.getElementById('engine-mode'));
    this.engineSetting = methods.find((m) => m.kind === 'engine')?.reads?.[0] ?? null;

    this.fillMethodPicker(onChange);

    /** @type {Map<string, Slider>} */
    this.sliders = new Map();
    /** @type {Map<string, HTMLInputElement>} */
    this.switches = new Map();
    /** @type {Map<string, HTMLSelectElement>} */
    this.choices = new Map();
    this.buildControls({ check, onChange, onInvalid });
  }

  /**
   * The method picker, grouped by how the methods work (the registry's
   * order within each group); `data-kind` names the group for the browser
   * tests.
   * @param {(id: string, value: any) => void} onChange
   */
  fillMethodPicker(onChange) {
    /** @type {Map<string, HTMLOptGroupElement>} */
    const groups = new Map();
    for (const method of this.methods.filter((m) => !m.paper_code)) {
      const kind = method.kind ?? 'local';
      if (!groups.has(kind)) {
        const group = document.createElement('optgroup');
        group.label = METHOD_GROUPS[kind] ?? kind;
        groups.set(kind, group);
      }
      const option = document.createElement('option');
      option.value = method.id;
      option.textContent = method.name;
      option.title = method.summary;
      option.dataset.kind = kind;
      groups.get(kind)?.append(option);
    }
    this.methodPicker.replaceChildren(...groups.values());
    this.methodPicker.disabled = this.methodEntry === null;
    const pick = () => {
      if (!this.methodEntry) return;
      const method = this.chosenMethod();
      this.describeMethod(method);
      onChange(this.methodEntry.id, method);
    };
    this.methodPicker.addEventListener('change', pick);
    this.variantPicker?.addEventListener('change', pick);
  }

  /**
   * One control per schema entry: the engines' switch, a slider, a
   * checkbox or a picker.
   * @param {{check: (id: string, text: string) => Promise<{value: any} | {problem: string}>,
   *   onChange: (id: string, value: any) => void, onInvalid: (message: string) => void}} handlers
   */
  buildControls({ check, onChange, onInvalid }) {
    const container = /** @type {HTMLElement} */ (document.getElementById('sliders'));
    container.replaceChildren();
    for (const entry of this.schema) {
      if (entry.id === this.engineSetting && this.engineMode) {
        this.fillEngineMode(entry, onChange);
      } else if (entry.kind === 'number' || entry.kind === 'integer') {
        this.sliders.set(
          entry.id,
          new Slider(container, entry, {
            onCommit: (value) => onChange(entry.id, value),
            check: (text) => check(entry.id, text),
            onInvalid,
          }),
        );
      } else if (entry.kind === 'bool') {
        this.switches.set(entry.id, checkbox(container, entry, onChange));
      } else if (entry.kind === 'choice') {
        this.choices.set(entry.id, choicePicker(container, entry, onChange));
      }
    }
  }

  /**
   * The engines' switch beside the method picker, for the setting they read.
   * @param {import('./slider.js').SchemaEntry} entry
   * @param {(id: string, value: any) => void} onChange
   */
  fillEngineMode(entry, onChange) {
    const select = /** @type {HTMLSelectElement} */ (this.engineMode);
    select.replaceChildren(
      ...(entry.choices ?? []).map((choice) => {
        const option = document.createElement('option');
        option.value = choice;
        option.textContent = ENGINE_MODES[choice] ?? choice;
        return option;
      }),
    );
    select.addEventListener('change', () => onChange(entry.id, select.value));
    this.choices.set(entry.id, select);
  }

  /**
   * Shows `settings`.
   * @param {Record<string, any>} settings
   * @param {(entry: import('./slider.js').SchemaEntry) => (number | null)} sceneValue
   *   what null stands for in a nullable setting (the loaded scene's own value)
   */
  show(settings, sceneValue) {
    const method = this.methodEntry ? settings[this.methodEntry.id] : null;
    if (method !== null) {
      const entry = this.methods.find((m) => m.id === method);
      this.methodPicker.value = entry?.printed ?? method;
      if (this.variantPicker) this.variantPicker.value = entry?.paper_code ? 'paper-code' : 'printed';
      this.describeMethod(method);
    }
    // A setting some method reads but this one does not is marked, so a
    // visitor knows why moving it changes nothing.
    const current = this.methods.find((m) => m.id === method);
    const readBySome = new Set(this.methods.flatMap((m) => m.reads ?? []));
    for (const [id, slider] of this.sliders) {
      slider.show(settings[id], sceneValue(slider.entry));
      const unused = current && readBySome.has(id) && !(current.reads ?? []).includes(id);
      slider.setNote(unused ? `${current.name} does not use this setting.` : null);
    }
    for (const [id, box] of this.switches) box.checked = Boolean(settings[id]);
    for (const [id, select] of this.choices) select.value = settings[id] ?? '';
  }

  /**
   * The method id the picker and the switch name together: the picked
   * method, or its `@paper-code` variant when the switch says so and it has
   * one.
   * @returns {string}
   */
  chosenMethod() {
    const printed = this.methodPicker.value;
    const wantCode = this.variantPicker?.value === 'paper-code';
    return (wantCode && this.paperCodeVariant(printed)?.id) || printed;
  }

  /**
   * The `@paper-code` variant of the printed method `printed`, if it has one.
   * @param {string} printed
   */
  paperCodeVariant(printed) {
    return this.methods.find((m) => m.paper_code && m.printed === printed);
  }

  /** @param {string} id */
  describeMethod(id) {
    this.methodDescription.textContent = this.methods.find((m) => m.id === id)?.summary ?? '';
    // The switch only means something for a method with a variant.
    const entry = this.methods.find((m) => m.id === id);
    if (this.variantPicker) this.variantPicker.disabled = !this.paperCodeVariant(entry?.printed ?? id);
    if (this.engineMode) this.engineMode.hidden = entry?.kind !== 'engine';
    if (this.variantPicker) this.variantPicker.hidden = entry?.kind === 'engine';
  }
}

/**
 * A switch's checkbox, appended to `container`.
 * @param {HTMLElement} container
 * @param {import('./slider.js').SchemaEntry} entry
 * @param {(id: string, value: any) => void} onChange
 * @returns {HTMLInputElement}
 */
function checkbox(container, entry, onChange) {
  const label = document.createElement('label');
  label.className = 'check';
  label.title = entry.help;
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = `${entry.url_key}-check`;
  label.append(box, ` ${entry.label}`);
  container.append(label);
  box.addEventListener('change', () => onChange(entry.id, box.checked));
  return box;
}

/**
 * A picker whose options are the schema's choices (the mesher), appended
 * to `container`.
 * @param {HTMLElement} container
 * @param {import('./slider.js').SchemaEntry} entry
 * @param {(id: string, value: any) => void} onChange
 * @returns {HTMLSelectElement}
 */
function choicePicker(container, entry, onChange) {
  const label = document.createElement('label');
  label.className = 'choice';
  label.title = entry.help;
  const select = document.createElement('select');
  select.id = `${entry.url_key}-choice`;
  // A nullable choice (the mesher) defaults to the scene's own, which
  // a user's file may set differently from the built-in scenes.
  if (entry.nullable) {
    const option = document.createElement('option');
    option.value = '';
    option.textContent = "scene's";
    select.append(option);
  }
  for (const choice of entry.choices ?? []) {
    const option = document.createElement('option');
    option.value = choice;
    option.textContent = choice;
    select.append(option);
  }
  label.append(`${entry.label} `, select);
  container.append(label);
  select.addEventListener('change', () => onChange(entry.id, select.value === '' ? null : select.value));
  return select;
}
