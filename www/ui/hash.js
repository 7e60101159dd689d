/**
 * @file The page state that lives in the URL hash
 * (`#scene=pillar&method=opposing&perturb=0.01&seed=7&step=3&cam=…`), so a
 * link reproduces what its sender saw. Reading never throws: a parameter
 * that is unknown or malformed falls back to its default and is named in
 * the returned `problems`, for a notice. Writing uses
 * `history.replaceState`, so changing a slider does not add history entries.
 */

import { PARAMETERS, SEED, cloneSettings, isValid } from './parameters.js';

/** The scene shown when the link names none. */
export const DEFAULT_SCENE = 'pillar';
/** The view modes a link may name. */
export const VIEW_MODES = ['solid', 'wireframe', 'tetrahedra'];
/** Largest step a link may ask for; beyond it a link would hold the page for hours. */
export const MAX_LINK_STEP = 100000;

/**
 * Everything a link can hold.
 * @typedef {object} PageState
 * @property {string} scene built-in scene id (ignored when `file` is set)
 * @property {string | null} file a user's scene file, packed (see scene-file.js)
 * @property {any} settings the core's settings object
 * @property {number} step
 * @property {number[] | null} cam yaw, pitch, distance, target x, y, z
 * @property {'solid' | 'wireframe' | 'tetrahedra'} view
 * @property {number} explode 0…1
 * @property {boolean} onlyWrong
 * @property {boolean} featureColours
 */

/**
 * The `#bench` request, when the hash asks for one.
 * @typedef {object} BenchRequest
 * @property {number} steps
 */

/**
 * @param {any} defaults `Playground.defaultSettings()`
 * @returns {PageState}
 */
export function defaultState(defaults) {
  return {
    scene: DEFAULT_SCENE,
    file: null,
    settings: cloneSettings(defaults),
    step: 0,
    cam: null,
    view: 'solid',
    explode: 0,
    onlyWrong: false,
    featureColours: false,
  };
}

/**
 * Reads a hash into a page state.
 * @param {string} hash `location.hash`, with or without the leading '#'
 * @param {{defaults: any, sceneIds: string[], methodIds: string[]}} catalogue
 * @returns {{state: PageState, problems: string[], bench: BenchRequest | null}}
 */
export function parseHash(hash, { defaults, sceneIds, methodIds }) {
  const state = defaultState(defaults);
  /** @type {string[]} */
  const problems = [];
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const bench = params.has('bench') ? { steps: 20 } : null;
  const seen = new Set();

  for (const [key, raw] of params) {
    if (seen.has(key)) {
      problems.push(`"${key}" appears more than once; the first is used`);
      continue;
    }
    seen.add(key);
    const bad = (expected, fallback) => problems.push(`${key}=${JSON.stringify(raw)} is not ${expected}; using ${fallback}`);
    const parameter = PARAMETERS.find((p) => p.key === key);
    if (parameter) {
      const value = Number(raw);
      if (raw.trim() === '' || !isValid(parameter, value)) {
        const fallback = parameter.get(defaults);
        bad(`${parameter.integer ? 'a whole number' : 'a number'} from ${parameter.min} to ${parameter.max}`, fallback === null ? "the scene's value" : String(fallback));
      } else {
        parameter.set(state.settings, value);
      }
      continue;
    }
    switch (key) {
      case 'scene':
        if (sceneIds.includes(raw)) state.scene = raw;
        else bad('a built-in scene', `the ${DEFAULT_SCENE}`);
        break;
      case 'file':
        state.file = raw;
        break;
      case 'method':
        if (methodIds.includes(raw)) state.settings.method = raw;
        else bad(`a method (${methodIds.join(', ')})`, defaults.method);
        break;
      case 'seed': {
        const value = Number(raw);
        if (raw.trim() !== '' && Number.isInteger(value) && value >= SEED.min && value <= SEED.max) state.settings.seed = value;
        else bad(`a whole number from ${SEED.min} to ${SEED.max}`, String(defaults.seed));
        break;
      }
      case 'step': {
        const value = Number(raw);
        if (raw.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MAX_LINK_STEP) state.step = value;
        else bad(`a whole number from 0 to ${MAX_LINK_STEP}`, '0');
        break;
      }
      case 'cam': {
        const values = raw.split(',').map(Number);
        if (values.length === 6 && values.every(Number.isFinite) && values[2] > 0) state.cam = values;
        else bad('six numbers (yaw, pitch, distance, target x, y, z)', 'the default view');
        break;
      }
      case 'view':
        if (VIEW_MODES.includes(raw)) state.view = /** @type {any} */ (raw);
        else bad(VIEW_MODES.join(', '), 'solid');
        break;
      case 'explode': {
        const value = Number(raw);
        if (raw.trim() !== '' && value >= 0 && value <= 1) state.explode = value;
        else bad('a number from 0 to 1', '0');
        break;
      }
      case 'wrong':
      case 'features':
        if (raw === '0' || raw === '1') {
          if (key === 'wrong') state.onlyWrong = raw === '1';
          else state.featureColours = raw === '1';
        } else {
          bad('0 or 1', '0');
        }
        break;
      case 'bench':
        break;
      case 'steps':
        if (bench) {
          const value = Number(raw);
          if (Number.isInteger(value) && value >= 1 && value <= 10000) bench.steps = value;
          else bad('a whole number from 1 to 10000', '20');
        } else {
          problems.push('"steps" is only read in #bench mode; ignored');
        }
        break;
      default:
        problems.push(`unknown parameter "${key}" ignored`);
    }
  }
  // A link without a step shows the scene at its measure step (where the
  // paper measures it), not an empty step 0.
  return { state, problems, bench, stepGiven: params.has('step') };
}

/**
 * Writes a page state as a hash string (with the leading '#'). Settings that
 * are null ("the scene's value") are left out.
 * @param {PageState} state
 * @returns {string}
 */
export function formatHash(state) {
  const params = new URLSearchParams();
  if (state.file) params.set('file', state.file);
  else params.set('scene', state.scene);
  const s = state.settings;
  params.set('method', s.method);
  const byKey = (key) => PARAMETERS.find((p) => p.key === key);
  for (const key of ['perturb']) params.set(key, String(byKey(key).get(s)));
  params.set('seed', String(s.seed));
  for (const key of ['dt', 'iters', 'mu', 'eps', 'refine', 'tol']) {
    const value = byKey(key).get(s);
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  params.set('step', String(state.step));
  if (state.view !== 'solid') params.set('view', state.view);
  if (state.explode > 0) params.set('explode', String(state.explode));
  if (state.onlyWrong) params.set('wrong', '1');
  if (state.featureColours) params.set('features', '1');
  if (state.cam) params.set('cam', state.cam.join(','));
  // URLSearchParams escapes the commas of `cam`; they are safe in a hash
  // and keep the link readable.
  return `#${params.toString().replace(/%2C/g, ',')}`;
}

/**
 * Puts `hash` in the address bar without a history entry or a hashchange.
 * @param {string} hash
 */
export function replaceHash(hash) {
  if (hash === window.location.hash) return;
  window.history.replaceState(null, '', hash);
}
