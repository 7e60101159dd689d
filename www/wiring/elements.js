/**
 * @file The page's elements, looked up once by id (index.html) and handed
 * to the module that owns them. Every id the wiring modules use is here, so
 * a renamed element in index.html shows up in one file.
 */

/** @param {string} id */
const byId = (id) => /** @type {any} */ (document.getElementById(id));

/**
 * @typedef {object} ViewElements
 * @property {HTMLCanvasElement} canvas the 3D view
 * @property {HTMLElement} tooltip a hovered contact's numbers
 * @property {HTMLInputElement[]} viewModes the Solid, Wireframe and Tetrahedra radios
 * @property {HTMLInputElement} explode
 * @property {HTMLElement} explodeValue
 * @property {HTMLInputElement} onlyWrong
 * @property {HTMLInputElement} featureColours
 * @property {HTMLInputElement} regions the "Contact regions" checkbox
 * @property {HTMLElement} regionsLabel its label, which carries the title saying what it draws or why it is off
 * @property {HTMLButtonElement} resetView
 * @property {HTMLButtonElement} present
 * @property {HTMLElement} tools the toolbar over the view
 * @property {HTMLElement} legend the colour key over the view (the framed camera keeps the contacts clear of it)
 * @property {HTMLElement} headline the headline over the view's bottom
 * @property {HTMLElement} contactMark the ring over the contact chosen in the contact list
 */

/**
 * @typedef {object} ControlElements
 * @property {HTMLSelectElement} presetPicker
 * @property {HTMLElement} presetSource
 * @property {HTMLSelectElement} scenePicker
 * @property {HTMLInputElement} fileInput
 * @property {HTMLButtonElement} openFile
 * @property {HTMLButtonElement[]} playButtons the panel's Play and the view toolbar's
 * @property {HTMLButtonElement[]} stepButtons the panel's Step and the view toolbar's
 * @property {HTMLButtonElement} reset
 * @property {HTMLFormElement} runToForm
 * @property {HTMLInputElement} runToStep
 * @property {HTMLButtonElement} runTo
 * @property {HTMLElement} runStatus
 * @property {HTMLElement} replay the replay strip: status, progress, Cancel
 * @property {HTMLElement} replayStatus
 * @property {HTMLProgressElement} replayProgress
 * @property {HTMLButtonElement} replayCancel
 * @property {HTMLButtonElement} restoreSettings in the divergence strip
 * @property {{group: HTMLElement, title: HTMLElement, description: HTMLElement, facts: HTMLElement}} sceneInfo
 * @property {HTMLButtonElement} copyLink
 * @property {HTMLButtonElement} copyEmbed copies an <iframe> snippet of the embedded view
 * @property {HTMLButtonElement} exportCsv
 * @property {HTMLButtonElement} exportJson
 * @property {HTMLButtonElement} exportPng
 * @property {HTMLButtonElement} openHelp
 * @property {HTMLDialogElement} helpDialog
 */

/**
 * @typedef {object} ReadoutElements
 * @property {HTMLElement} caption what the readout shows, and whether a replay is on
 * @property {HTMLElement} readout
 * @property {HTMLElement} headline
 * @property {HTMLElement} legend
 * @property {HTMLElement} diverged the divergence strip
 * @property {{sorted: HTMLCanvasElement, histogram: HTMLCanvasElement, count: HTMLCanvasElement, energy: HTMLCanvasElement,
 *   regions: HTMLCanvasElement, regionsFigure: HTMLElement}} plots
 */

/**
 * @typedef {object} PageElements
 * @property {HTMLElement} status the "Starting…" / "Loading…" line over the view
 * @property {HTMLElement} noWebgl
 * @property {HTMLButtonElement} showKeys
 * @property {HTMLAnchorElement} skipToView the first Tab stop, "Skip to the view"
 * @property {HTMLDialogElement} keysDialog
 * @property {HTMLAnchorElement} openFull the embedded view's "Open in ContactLab"
 * @property {HTMLElement} version the release named in the brand
 * @property {HTMLElement} timerNote says when step timings are coarse
 * @property {ViewElements} view
 * @property {ControlElements} controls
 * @property {ReadoutElements} readout
 */

/** @returns {PageElements} */
export function pageElements() {
  return {
    status: byId('status'),
    noWebgl: byId('no-webgl'),
    showKeys: byId('show-keys'),
    skipToView: byId('skip-to-view'),
    keysDialog: byId('keys-dialog'),
    openFull: byId('open-full'),
    version: byId('version'),
    timerNote: byId('timer-note'),
    view: {
      canvas: byId('view'),
      tooltip: byId('tooltip'),
      viewModes: [...document.querySelectorAll('input[name="view-mode"]')].map((radio) => /** @type {HTMLInputElement} */ (radio)),
      explode: byId('explode'),
      explodeValue: byId('explode-value'),
      onlyWrong: byId('only-wrong'),
      featureColours: byId('feature-colours'),
      regions: byId('show-regions'),
      regionsLabel: byId('show-regions-label'),
      resetView: byId('reset-view'),
      present: byId('present'),
      tools: byId('view-tools'),
      legend: byId('legend'),
      headline: byId('headline'),
      contactMark: byId('contact-mark'),
    },
    controls: {
      presetPicker: byId('preset-picker'),
      presetSource: byId('preset-source'),
      scenePicker: byId('scene-picker'),
      fileInput: byId('file-input'),
      openFile: byId('open-file'),
      contactsInput: byId('contacts-input'),
      openContacts: byId('open-contacts'),
      playButtons: [byId('play'), byId('view-play')],
      stepButtons: [byId('step-once'), byId('view-step')],
      reset: byId('reset'),
      runToForm: byId('run-to-form'),
      runToStep: byId('run-to-step'),
      runTo: byId('run-to'),
      runStatus: byId('run-status'),
      replay: byId('replay'),
      replayStatus: byId('replay-status'),
      replayProgress: byId('replay-progress'),
      replayCancel: byId('replay-cancel'),
      restoreSettings: byId('restore-settings'),
      sceneInfo: { group: byId('scene-group'), title: byId('scene-title'), description: byId('scene-description'), facts: byId('scene-facts') },
      copyLink: byId('copy-link'),
      copyEmbed: byId('copy-embed'),
      exportCsv: byId('export-csv'),
      exportJson: byId('export-json'),
      exportPng: byId('export-png'),
      openHelp: byId('open-help'),
      helpDialog: byId('help-dialog'),
    },
    readout: {
      caption: byId('shown-caption'),
      readout: byId('readout'),
      headline: byId('headline'),
      legend: byId('legend'),
      diverged: byId('diverged'),
      plots: {
        sorted: byId('plot-sorted'),
        histogram: byId('plot-histogram'),
        count: byId('plot-count'),
        energy: byId('plot-energy'),
        regions: byId('plot-regions'),
        regionsFigure: byId('plot-regions-figure'),
      },
    },
  };
}

/**
 * The lessons' elements: the picker and file button in the controls, the
 * lesson panel beside the view and the highlight over it.
 */
export function lessonElements() {
  return {
    picker: /** @type {HTMLSelectElement} */ (byId('lesson-picker')),
    openFile: /** @type {HTMLButtonElement} */ (byId('open-lesson-file')),
    fileInput: /** @type {HTMLInputElement} */ (byId('lesson-file-input')),
    copyLink: /** @type {HTMLButtonElement} */ (byId('lesson-copy-link')),
    player: {
      panel: byId('lesson-panel'),
      title: byId('lesson-title'),
      position: byId('lesson-position'),
      stepTitle: byId('lesson-step-title'),
      text: byId('lesson-text'),
      previous: byId('lesson-previous'),
      next: byId('lesson-next'),
      close: byId('lesson-close'),
      mark: byId('lesson-mark'),
      markLabel: byId('lesson-mark-label'),
      canvas: byId('view'),
    },
  };
}

/**
 * The contacts by keyboard (ui/contact-browser.js): the pair picker, the
 * contact listbox and the chosen contact's details, beside the view.
 * @returns {import('../ui/contact-browser.js').ContactBrowserElements}
 */
export function contactBrowserElements() {
  return {
    section: byId('contact-browser'),
    pair: byId('contact-pair'),
    list: byId('contact-list'),
    details: byId('contact-details'),
    none: byId('contact-none'),
  };
}

/** The view told in words: the description beside the view (ui/view-description.js). */
export function viewWordsElements() {
  return {
    section: byId('view-words'),
    summary: byId('view-words-summary'),
    scene: byId('view-words-scene'),
    worst: byId('view-words-worst'),
    pairs: /** @type {HTMLDetailsElement} */ (byId('view-words-pairs')),
    pairsTitle: byId('view-words-pairs-title'),
    list: byId('view-words-list'),
    more: /** @type {HTMLButtonElement} */ (byId('view-words-more')),
  };
}
