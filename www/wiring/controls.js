/**
 * @file The left panel: the paper's presets, the scene picker and scene
 * files, the method and settings (ui/settings-panel.js) or a visitor's
 * contact file in the method's place (ui/contact-file.js), the run buttons
 * with "Run to step" and the replay strip, the shown scene's description,
 * sharing and exporting, and help. It turns clicks into requests to the run
 * controller and puts the configuration the controller works toward (the
 * one the link names) back into the controls.
 */

import { clearNotice, showError, showNotice } from '../ui/banner.js';
import { restoredSettings } from '../ui/divergence.js';
import { contactsCsv, contactsJson, downloadCanvas, downloadText } from '../ui/export.js';
import { fillPresetPicker, matchingPreset } from '../ui/presets.js';
import { CONTACTS_OPTION, importedName } from '../ui/contact-file.js';
import { fileSceneDescription, fileSceneTitle, packSceneText, wireSceneFileInputs } from '../ui/scene-file.js';
import { fillScenePicker } from '../ui/scene-picker.js';
import { SettingsPanel } from '../ui/settings-panel.js';
import { DEFAULT_SCENE } from '../state/page-state.js';
import { FILE_OPTION, withContacts } from './page-config.js';

/** @typedef {import('./page-config.js').PageConfig} PageConfig */
/** @typedef {import('../ui/presets.js').Preset} Preset */

/** The left panel's controls, wired to the run controller. */
export class ControlPanel {
  /**
   * @param {{elements: import('./elements.js').ControlElements,
   *   controller: import('../state/run-controller.js').RunController,
   *   session: import('../session.js').Session,
   *   catalogue: any,
   *   terms: import('./page-config.js').ConfigTerms,
   *   canvas: HTMLCanvasElement,
   *   forgetCamera: () => void,
   *   onPresetOpened: (preset: Preset) => void,
   *   onChecksChange: () => void,
   *   copyLink: () => void,
   *   copyEmbed: () => void}} options
   *   catalogue: the core's (scenes, methods, schema, presets, defaults);
   *   canvas: the 3D view, for "View PNG";
   *   forgetCamera: a newly picked scene or file is framed afresh;
   *   onPresetOpened: a preset was picked (the comparison takes its step);
   *   onChecksChange: a typed value went to the core or came back (the page is not ready meanwhile);
   *   copyLink: "Copy link" was clicked;
   *   copyEmbed: "Embed" was clicked
   */
  constructor({ elements, controller, session, catalogue, terms, canvas, forgetCamera, onPresetOpened, onChecksChange, copyLink, copyEmbed }) {
    this.elements = elements;
    this.controller = controller;
    this.session = session;
    this.catalogue = catalogue;
    this.terms = terms;
    this.forgetCamera = forgetCamera;
    this.onPresetOpened = onPresetOpened;
    /** Typed values the core has not judged yet. */
    this.pendingChecks = 0;
    /** The configuration the controls last showed. @type {PageConfig | null} */
    this.controlsConfig = null;
    /** @type {Preset[]} */
    this.presets = catalogue.presets ?? [];
    /** Each preset's settings object, read by the core from its pairs (see loadPresets). */
    this.presetSettings = new Map();

    fillScenePicker(elements.scenePicker, catalogue.scenes);
    fillPresetPicker(elements.presetPicker, this.presets);
    this.settingsPanel = new SettingsPanel({
      methods: catalogue.methods,
      schema: catalogue.schema,
      check: async (id, text) => {
        // Until the core has answered, the typed value is neither refused nor replayed.
        this.pendingChecks++;
        onChecksChange();
        try {
          return await session.checkSetting(id, text);
        } finally {
          this.pendingChecks--;
          onChecksChange();
        }
      },
      onChange: (id, value) => this.changeSetting(id, value),
      onInvalid: (message) => showNotice(message),
    });

    this.wireScenes();
    this.wireRunButtons();
    this.wireShareAndHelp(canvas, copyLink, copyEmbed);
  }

  /** Asks the core for every preset's settings object; a preset it refuses cannot be picked. */
  async loadPresets() {
    await Promise.all(
      this.presets.map(async (preset) => {
        const { settings, problems } = await this.session.settingsFromPairs(preset.settings);
        if (problems.length === 0) this.presetSettings.set(preset.id, settings);
      }),
    );
  }

  // ---- requests ---------------------------------------------------------

  wireScenes() {
    const { scenePicker, presetPicker, fileInput, openFile, contactsInput, openContacts, restoreSettings } = this.elements;
    const controller = this.controller;
    scenePicker.addEventListener('change', () => {
      clearNotice();
      if (scenePicker.value === FILE_OPTION) return;
      const current = controller.config;
      if (!current) return;
      this.forgetCamera();
      controller.open({ scene: { id: scenePicker.value }, settings: current.settings, sceneId: scenePicker.value, file: null }, 'measure');
    });

    presetPicker.addEventListener('change', () => {
      const preset = this.presets.find((p) => p.id === presetPicker.value);
      const settings = preset && this.presetSettings.get(preset.id);
      if (!preset || !settings) return;
      clearNotice();
      this.forgetCamera();
      const methodSetting = this.terms.methodSetting;
      // The method shown stays: the paper's tables cover every method.
      const method = controller.config?.settings[methodSetting] ?? settings[methodSetting];
      /** @type {PageConfig} */
      const config = { scene: { id: preset.scene }, settings: { ...settings, [methodSetting]: method }, sceneId: preset.scene, file: null };
      controller.open(config, preset.step);
      this.onPresetOpened(preset);
    });

    // Either button and the drop target take a scene file, a contact file
    // (with its poses file), or both: what each file is is read from it.
    wireSceneFileInputs({
      pickers: [
        { input: fileInput, button: openFile },
        { input: contactsInput, button: openContacts },
      ],
      dropTarget: document.body,
      onFiles: (files) => this.openFiles(files),
      onError: (message) => showError(message),
    });

    restoreSettings.addEventListener('click', () => {
      const current = /** @type {PageConfig | null} */ (controller.config);
      if (!current) return;
      clearNotice();
      controller.change({ ...current, settings: restoredSettings(current.settings, this.terms.schema) });
    });
  }

  wireRunButtons() {
    const { playButtons, stepButtons, reset, replayCancel, runToForm, runToStep } = this.elements;
    const controller = this.controller;
    // While playing or running to a step these buttons read "Pause" or "Stop".
    for (const button of playButtons) button.addEventListener('click', () => this.togglePlay());
    for (const button of stepButtons) button.addEventListener('click', () => controller.stepOnce());
    reset.addEventListener('click', () => controller.reset());
    replayCancel.addEventListener('click', () => controller.cancel());
    runToForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const step = Number(runToStep.value);
      if (!Number.isInteger(step) || step < 0 || step > 100000) {
        showNotice(`Run to step: "${runToStep.value}" is not a whole number from 0 to 100000.`);
        return;
      }
      controller.runTo(step);
    });
  }

  /**
   * @param {HTMLCanvasElement} canvas
   * @param {() => void} copyLink
   * @param {() => void} copyEmbed
   */
  wireShareAndHelp(canvas, copyLink, copyEmbed) {
    const { copyLink: copyButton, copyEmbed: embedButton, exportCsv, exportJson, exportPng, openHelp: helpButton, helpDialog } = this.elements;
    const controller = this.controller;
    copyButton.addEventListener('click', () => copyLink());
    embedButton.addEventListener('click', () => copyEmbed());
    exportCsv.addEventListener('click', () =>
      this.exportContacts((contacts) => downloadText(`${this.exportName()}.csv`, contactsCsv(contacts), 'text/csv')),
    );
    exportJson.addEventListener('click', () =>
      this.exportContacts((contacts) => {
        const shown = controller.shown;
        const context = { scene: shown?.scene.info?.id ?? '', step: shown?.step ?? 0, settings: shown?.config.settings ?? {} };
        downloadText(`${this.exportName()}.json`, contactsJson(contacts, context), 'application/json');
      }),
    );
    exportPng.addEventListener('click', () => downloadCanvas(canvas, `${this.exportName()}.png`));

    // The help's text is fetched when it is first asked for, not with the
    // page: the default page's first load stays within its budget.
    const showHelp = (/** @type {string} */ topic) =>
      import('../ui/help.js')
        .then(({ openHelp }) => openHelp(helpDialog, topic, this.catalogue.methods))
        .catch((error) => showNotice(`The help could not be loaded: ${error instanceof Error ? error.message : String(error)}`));
    // Every "?" on the page (left panel, plots) opens its topic.
    document.addEventListener('click', (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest?.('[data-help]');
      if (!button) return;
      const topic = button.getAttribute('data-help');
      const method = controller.config?.settings[this.terms.methodSetting] ?? '';
      // A contact file in the method's place is no method: the help opens at its top.
      const methodTopic = /** @type {PageConfig | null} */ (controller.config)?.contacts ? '' : `method:${method}`;
      showHelp(topic === 'method' ? methodTopic : topic);
    });
    helpButton.addEventListener('click', () => showHelp(''));
  }

  togglePlay() {
    if (this.controller.run === 'playing') this.controller.pause();
    else this.controller.play();
  }

  /**
   * One setting edited: the same scene with the new settings, replayed to
   * the current step.
   * @param {string} id setting id
   * @param {any} value
   */
  changeSetting(id, value) {
    const current = /** @type {PageConfig | null} */ (this.controller.config);
    if (!current) return;
    // The picker's entry of the file shown is no method.
    if (id === this.terms.methodSetting && value === CONTACTS_OPTION) return;
    // A method picked while a contact file is shown: the method's contacts
    // again, the file dropped (even the method the file replaced).
    if (current.contacts && id === this.terms.methodSetting) {
      clearNotice();
      this.controller.change(withContacts({ ...current, settings: { ...current.settings, [id]: value } }, null));
      return;
    }
    if (current.settings[id] === value) return;
    this.controller.change({ ...current, settings: { ...current.settings, [id]: value } });
  }

  /**
   * Files opened or dropped together: a scene file, a contact file (with
   * the poses file it names), or a scene file and a contact file on it.
   * @param {Array<{name: string, text: string}>} files
   */
  async openFiles(files) {
    const { sortOpenedFiles } = await import('../ui/opened-files.js');
    const { scene, contacts, poses, problem } = sortOpenedFiles(files);
    if (problem) {
      showNotice(problem);
      return;
    }
    if (!contacts) {
      if (scene) this.controller.open(await this.sceneFileConfig(scene.text, scene.name), 'measure');
      return;
    }
    const current = /** @type {PageConfig | null} */ (this.controller.config);
    if (!current && !scene) {
      showNotice(`"${contacts.name}" holds contacts on a scene: open the scene first.`);
      return;
    }
    const base = scene ? await this.sceneFileConfig(scene.text, scene.name) : withContacts(/** @type {PageConfig} */ (current), null);
    /** @type {import('./page-config.js').ContactsConfig} */
    const file = {
      text: contacts.text,
      name: contacts.name,
      posesText: poses?.text ?? null,
      posesName: poses?.name ?? null,
      packed: await packSceneText(contacts.text),
      posesPacked: poses ? await packSceneText(poses.text) : null,
    };
    clearNotice();
    // From step 0, where the file's contacts start; Play walks its steps.
    this.controller.open(withContacts(base, file), 0);
  }

  /**
   * What opening a scene file shows: the file with its own settings.
   * @param {string} text
   * @param {string} name
   * @returns {Promise<PageConfig>}
   */
  async sceneFileConfig(text, name) {
    const current = /** @type {PageConfig | null} */ (this.controller.config);
    const packed = await packSceneText(text);
    this.forgetCamera();
    // The file's own settings: the defaults, whose "scene's value" settings
    // take what the file says; nothing of the case shown before (its
    // perturbation, seed, …) but the method under study.
    const methodSetting = this.terms.methodSetting;
    const settings = { ...this.catalogue.defaults };
    if (current) settings[methodSetting] = current.settings[methodSetting];
    return {
      scene: { text },
      settings,
      sceneId: current?.sceneId ?? DEFAULT_SCENE,
      file: { packed, title: fileSceneTitle(text, name, this.catalogue.scenes.map((scene) => scene.title)), name },
      contacts: null,
    };
  }

  /** @param {(contacts: any[]) => void} save */
  async exportContacts(save) {
    try {
      save(await this.session.contacts());
    } catch (error) {
      showError(`Could not export the contacts: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  exportName() {
    const shown = this.controller.shown;
    const config = /** @type {PageConfig | null} */ (shown?.config ?? null);
    const name = config?.file ? 'scene-file' : (config?.sceneId ?? 'scene');
    const method = config?.contacts ? 'imported' : (config?.settings[this.terms.methodSetting] ?? '');
    return `contactlab-${name}-${method}-step${shown?.step ?? 0}`;
  }

  // ---- showing what the controller says -----------------------------------

  /**
   * A new configuration is shown: its scene's description, and for another
   * scene than before, its measure step in "Run to step".
   * @param {import('../state/run-controller.js').Shown} shown
   * @param {boolean} newScene the view framed its camera for another scene
   */
  showScene(shown, newScene) {
    const { info, bodies } = shown.scene;
    // "Run to step" starts at the step where the paper measures this scene;
    // while a link's long replay shows step 0, at the step it goes to (Go
    // carries on there after a Cancel).
    const replayGoal = this.controller.run === 'replaying' ? this.controller.link()?.step : null;
    if (newScene) this.elements.runToStep.value = String(replayGoal ?? info.measure_step);
    const { group, title, description, facts } = this.elements.sceneInfo;
    const file = /** @type {PageConfig} */ (shown.config).file;
    // A visitor's file is named as theirs, never as a built-in scene.
    title.textContent = file ? file.title : info.title;
    group.textContent = file ? `Your scene file · ${file.fromLink ? 'from the link' : file.name}` : info.group;
    description.textContent = file ? fileSceneDescription(info.description, this.catalogue.scenes) : info.description;
    const fixed = bodies.filter((body) => body.fixed).length;
    const free = bodies.length - fixed;
    const list = [`${free} free ${free === 1 ? 'body' : 'bodies'}`, `${fixed} fixed`, `time step ${info.dt} s`];
    if (Number.isFinite(info.min_contacts)) list.push(`minimal contact count ${info.min_contacts}`);
    list.push(`measured at step ${info.measure_step}`);
    const convex = (info.bodies ?? []).filter((body) => body.convex).map((body) => body.name);
    list.push(convex.length === (info.bodies ?? []).length ? 'every body convex' : convex.length === 0 ? 'no convex body' : `convex: ${convex.join(', ')}`);
    facts.textContent = list.join(' · ');
    // The nullable settings show the scene's values as placeholders.
    this.controlsConfig = null;
    this.showConfigIfChanged();
  }

  /** The preset picker follows the shown frame: it names the preset shown exactly, or none. */
  showFrame() {
    const { presetPicker, presetSource } = this.elements;
    const preset = this.shownPreset();
    presetPicker.value = preset ? preset.id : '';
    presetSource.textContent = preset ? preset.source : '';
    presetSource.hidden = !preset;
  }

  /** @returns {Preset | null} the preset the page shows exactly */
  shownPreset() {
    const shown = this.controller.shown;
    return shown ? matchingPreset(this.presets, this.presetSettings, /** @type {PageConfig} */ (shown.config), shown.step, this.terms.methodSetting) : null;
  }

  /** Puts the latest configuration (what the link names) into the controls, when it changed. */
  showConfigIfChanged() {
    const config = /** @type {PageConfig | null} */ (this.controller.config);
    if (!config || config === this.controlsConfig) return;
    this.controlsConfig = config;
    const scenePicker = this.elements.scenePicker;
    if (config.file) {
      let group = scenePicker.querySelector('optgroup[data-file]');
      if (!group) {
        group = document.createElement('optgroup');
        group.label = 'Your scene';
        group.dataset.file = 'true';
        group.append(document.createElement('option'));
        scenePicker.append(group);
      }
      const option = group.querySelector('option');
      option.value = FILE_OPTION;
      option.textContent = config.file.title;
      scenePicker.value = FILE_OPTION;
    } else {
      scenePicker.querySelector('optgroup[data-file]')?.remove();
      scenePicker.value = config.sceneId;
    }
    this.settingsPanel.show(config.settings, (entry) => this.sceneValue(entry));
    this.showContactFile(config);
  }

  /**
   * The method picker names the contact file when its contacts are shown
   * ("Imported: <file>", as text: the name is the visitor's), selected;
   * picking a method then drops the file (`changeSetting`).
   * @param {PageConfig} config
   */
  showContactFile(config) {
    const picker = this.settingsPanel.methodPicker;
    let group = picker.querySelector('optgroup[data-contacts]');
    if (!config.contacts) {
      group?.remove();
      return;
    }
    // The printed/paper's-code switch is a method's.
    if (this.settingsPanel.variantPicker) this.settingsPanel.variantPicker.disabled = true;
    if (!group) {
      group = document.createElement('optgroup');
      group.label = 'Your contacts';
      group.dataset.contacts = 'true';
      group.append(document.createElement('option'));
      picker.prepend(group);
    }
    const option = /** @type {HTMLOptionElement} */ (group.querySelector('option'));
    option.value = CONTACTS_OPTION;
    option.textContent = importedName(config.contacts.name);
    option.title = 'The contacts of your file, measured as a method\'s are; pick a method to leave it';
    picker.value = CONTACTS_OPTION;
    const poses = config.contacts.posesName ? ` at the poses of ${config.contacts.posesName}` : '';
    this.settingsPanel.methodDescription.textContent = `The contacts of your file ${config.contacts.fromLink ? '(carried by the link)' : config.contacts.name}${poses}, in place of a method's, measured by the same rules. Pick a method to go back to its contacts.`;
  }

  /**
   * What null stands for in a nullable setting: the shown scene's own value,
   * which the core sends in the scene's info under the setting's id (null
   * where the scene has none to show).
   * @param {{id: string}} entry
   * @returns {number | null}
   */
  sceneValue(entry) {
    return this.controller.shown?.scene.info.scene_values?.[entry.id] ?? null;
  }

  /** Enables the run buttons for the run state, and says how far a run or play is. */
  updateRunControls() {
    const elements = this.elements;
    const controller = this.controller;
    const run = controller.run;
    const shown = controller.shown !== null;
    const replaying = run === 'replaying';
    const running = run === 'playing' && !controller.target?.playing;
    // A run the core stopped because it blew up goes no further.
    const stopped = controller.diverged !== null || controller.ended !== null;
    for (const button of elements.playButtons) {
      button.disabled = !shown || replaying || (stopped && run !== 'playing');
      button.textContent = run === 'playing' ? (running ? 'Stop' : 'Pause') : 'Play';
    }
    for (const button of elements.stepButtons) button.disabled = !shown || replaying || stopped;
    elements.reset.disabled = !shown;
    elements.runTo.disabled = !shown;
    elements.replay.hidden = !replaying;
    // The contacts the worker would export are not the ones shown during a replay.
    for (const button of [elements.exportCsv, elements.exportJson]) button.disabled = !shown || replaying;
    const step = controller.shown?.step ?? 0;
    let text = '';
    if (running) text = `Running to step ${controller.target?.step}… at step ${step}`;
    else if (run === 'playing') text = `Playing: step ${step}`;
    elements.runStatus.textContent = text;
  }

  /** @param {{config: any, reached: number, goal: number | null}} progress a replay moved on */
  showProgress({ config, reached, goal }) {
    const { replayProgress, replayStatus } = this.elements;
    replayProgress.max = Math.max(1, goal ?? 1);
    replayProgress.value = reached;
    const describe = this.terms.describe(config);
    replayStatus.textContent =
      goal === null
        ? `Replaying ${describe} from step 0 to its measure step: at step ${grouped(reached)}`
        : `Replaying ${describe} from step 0: step ${grouped(reached)} of ${grouped(goal)}`;
  }
}

/**
 * A step number with its thousands apart (narrow no-break spaces, as in
 * "step 17 779 of 100 000"), readable at a glance while it counts.
 * @param {number} n
 */
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}
