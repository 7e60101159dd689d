/**
 * @file Presets for the paper's results (`Playground.presets()`): one pick
 * sets the scene, the settings and the step of one of the paper's tables
 * 6–8 or figures 30–34; while the page shows exactly that, the compare
 * table puts the paper's numbers beside ours.
 */

/**
 * @typedef {object} Preset
 * @property {string} id
 * @property {string} title
 * @property {string} source
 * @property {string} scene
 * @property {Array<[string, string]>} settings link pairs; the others are defaults
 * @property {number} step
 * @property {{columns: string[], rows: Array<[string, Array<number | null>]>} | null} paper
 */

/**
 * Fills the preset picker, grouped by what the paper shows.
 * @param {HTMLSelectElement} picker its first option is the "choose…" prompt
 * @param {Preset[]} presets
 */
export function fillPresetPicker(picker, presets) {
  const prompt = picker.options[0];
  const tables = document.createElement('optgroup');
  tables.label = 'Tables and sections (with the paper\u2019s numbers)';
  const figures = document.createElement('optgroup');
  figures.label = 'Figures (no numbers printed)';
  for (const preset of presets) {
    const option = document.createElement('option');
    option.value = preset.id;
    option.textContent = preset.title;
    option.title = preset.source;
    (preset.paper ? tables : figures).append(option);
  }
  picker.replaceChildren(prompt, ...[tables, figures].filter((group) => group.children.length > 0));
  picker.disabled = presets.length === 0;
}

/**
 * The preset the page shows exactly: same built-in scene, the same value of
 * every setting but the method (the compare table runs every method), and
 * the same step.
 * @param {Preset[]} presets
 * @param {Map<string, Record<string, any>>} presetSettings each preset's settings object, read by the core
 * @param {{sceneId: string, file: any, settings: Record<string, any>}} config what is shown
 * @param {number} step
 * @param {string} methodSetting the method's setting id
 * @returns {Preset | null}
 */
export function matchingPreset(presets, presetSettings, config, step, methodSetting) {
  if (config.file) return null;
  return (
    presets.find((preset) => {
      const settings = presetSettings.get(preset.id);
      if (!settings || preset.scene !== config.sceneId || preset.step !== step) return false;
      return Object.keys(settings).every((id) => id === methodSetting || settings[id] === config.settings[id]);
    }) ?? null
  );
}
