/**
 * @file What the page simulates (a PageConfig: the run controller's
 * configuration with what the link needs to name it), and how the page
 * reads one in the terms of the core's catalogue. The schema names its
 * settings by id; the page finds the method and the angle tolerance by
 * their kind and stable URL key, so a renamed setting id does not break
 * the captions, the readout or the link.
 */

import { importedName } from '../ui/contact-file.js';

/** Scene picker value of a visitor's own scene file. */
export const FILE_OPTION = '__file__';

/**
 * A visitor's contact file (and the poses file it names), shown in place of
 * the method: the texts the worker gives the core, and packed for the link.
 * @typedef {object} ContactsConfig
 * @property {string} text
 * @property {string} name the file's name (the core's messages and the method picker use it)
 * @property {string | null} posesText
 * @property {string | null} posesName
 * @property {string} packed `text` packed for the link (ui/scene-file.js)
 * @property {string | null} posesPacked
 * @property {boolean} [fromLink] a link carried it
 */

/**
 * @typedef {object} PageConfig
 * @property {{id: string, contacts?: object} | {text: string, contacts?: object}} scene what the worker
 *   loads: a built-in scene or a file, and with a contact file its texts (see `withContacts`)
 * @property {Record<string, any>} settings
 * @property {string} sceneId the built-in scene (the last one picked, when a file is open)
 * @property {{packed: string, title: string, name: string, fromLink?: boolean} | null} file the visitor's
 *   scene file: `title` as the page names it (`fileSceneTitle`), `name` the file's name (or words for a file a link carried)
 * @property {ContactsConfig | null} [contacts] the visitor's contact file, whose contacts the run plays instead of the method's
 */

/**
 * `config` with the contact file `contacts` in place of the method (or,
 * with null, the method again). The worker's load request carries the
 * texts in its scene: the core reads the file against that scene, and
 * loading another scene drops it.
 * @param {PageConfig} config
 * @param {ContactsConfig | null} contacts
 * @returns {PageConfig}
 */
export function withContacts(config, contacts) {
  const { contacts: _dropped, ...scene } = /** @type {any} */ (config.scene);
  if (!contacts) return { ...config, scene, contacts: null };
  const texts = { text: contacts.text, name: contacts.name, posesText: contacts.posesText, posesName: contacts.posesName };
  return { ...config, scene: { ...scene, contacts: texts }, contacts };
}

/** Reads a PageConfig with the catalogue: its method, tolerance and names for captions. */
export class ConfigTerms {
  /**
   * @param {{scenes: Array<{id: string, title: string}>, methods: Array<{id: string, name: string}>,
   *   schema: Array<{id: string, kind: string, url_key: string, stage?: string}>}} catalogue the core's catalogue
   */
  constructor(catalogue) {
    this.scenes = catalogue.scenes;
    this.methods = catalogue.methods;
    this.schema = catalogue.schema;
    /** The setting that picks the contact method. */
    this.methodSetting = this.schema.find((entry) => entry.kind === 'method')?.id ?? 'method';
    // The tolerance that makes a contact "correct" is drawn in the sorted
    // quality plot; its URL key is part of every shared link, so it is stable.
    /** @type {string | null} */
    this.toleranceSetting = this.schema.find((entry) => entry.url_key === 'tol')?.id ?? null;
    // The oracle the headline measures come from ("scene" or "geometric"),
    // found the same way.
    /** @type {string | null} */
    this.oracleSetting = this.schema.find((entry) => entry.url_key === 'oracle')?.id ?? null;
  }

  /**
   * Whether settings `to` differ from `from` only in settings of the
   * Measure stage (they judge the contacts, nothing that is simulated).
   * @param {Record<string, any>} from
   * @param {Record<string, any>} to
   */
  onlyMeasuresChange(from, to) {
    return Object.keys({ ...from, ...to }).every((id) => from[id] === to[id] || this.schema.find((entry) => entry.id === id)?.stage === 'measure');
  }

  /** @param {PageConfig} config @returns {any} the method id the configuration runs */
  method(config) {
    return config.settings[this.methodSetting];
  }

  /** @param {PageConfig} config @returns {number} the angle tolerance for "right", in degrees (NaN without one) */
  toleranceDeg(config) {
    return this.toleranceSetting ? Number(config.settings[this.toleranceSetting]) : NaN;
  }

  /** @param {PageConfig} config @returns {string | null} the oracle the configuration asks for (null without the setting) */
  oracleChoice(config) {
    return this.oracleSetting ? (config.settings[this.oracleSetting] ?? null) : null;
  }

  /** @param {PageConfig} config @returns {string} the scene's title, or the file's */
  sceneName(config) {
    return config.file ? config.file.title : (this.scenes.find((s) => s.id === config.sceneId)?.title ?? config.sceneId);
  }

  /** @param {PageConfig} config @returns {string} the method's name, or the contact file's ("Imported: …") */
  methodName(config) {
    if (config.contacts) return importedName(config.contacts.name);
    return this.methods.find((m) => m.id === this.method(config))?.name ?? String(this.method(config));
  }

  /** @param {PageConfig} config @returns {string} scene and method, for captions */
  describe(config) {
    return `${this.sceneName(config)} · ${this.methodName(config)}`;
  }
}
