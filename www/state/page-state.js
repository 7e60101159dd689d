/**
 * @file The page state that a link holds, and its URL hash
 * (`#scene=pillar&method=opposing&perturb=0.01&seed=7&step=3&cam=…`), so a
 * link reproduces what its sender saw. DOM-free, so `node --test` checks it.
 *
 * The keys split in two. The page's own keys (v, scene, file, contacts,
 * contactsname, poses, posesname, step, cam, view, explode, wrong, features,
 * regions, embed, bench, steps) are read
 * here; `v`, the release that wrote the link, is kept as written and judged
 * by state/release.js. Every other key that
 * the core's settings schema names (its `url_key`s) is handed to the core's
 * `settingsFromPairs`, which alone knows the valid ranges and words the
 * problems as the CLI does; writing goes through `settingsToPairs`. So no
 * setting range or method id is written in JavaScript.
 *
 * Reading never throws: a key that is unknown or malformed falls back to its
 * default and is named in the returned `problems`, for a notice.
 */

/** The scene shown when the link names none. */
export const DEFAULT_SCENE = 'pillar';
/** The view modes a link may name. */
export const VIEW_MODES = ['solid', 'wireframe', 'tetrahedra'];
/** Largest step a link may ask for; beyond it a link would hold the page for hours. */
export const MAX_LINK_STEP = 100000;
/** Largest magnitude of a number in `cam=`: beyond it a view is lost (and float precision with it). */
export const MAX_CAM_VALUE = 1e6;
/** Steps a `#bench` link times when it names no `steps`. */
export const DEFAULT_BENCH_STEPS = 20;
/** The keys this module reads; every other key is a setting's or unknown. */
export const PAGE_KEYS = ['v', 'embed', 'scene', 'file', 'contacts', 'contactsname', 'poses', 'posesname', 'step', 'cam', 'view', 'explode', 'wrong', 'features', 'regions', 'bench', 'steps'];

/**
 * Everything a link can hold.
 * @typedef {object} PageState
 * @property {string | null} version the release that wrote the link (`v`), as written; null when it names none
 * @property {boolean} embed the embedded view: the view, Play, Step and the headline only
 * @property {string} scene built-in scene id (ignored when `file` is set)
 * @property {string | null} file a user's scene file, packed (see ui/scene-file.js)
 * @property {LinkedContacts | null} contacts a user's contact file, shown in place of the method
 * @property {Record<string, any>} settings the core's flat settings object, keyed by setting id
 * @property {number} step
 * @property {number[] | null} cam yaw, pitch, distance, target x, y, z
 * @property {'solid' | 'wireframe' | 'tetrahedra'} view
 * @property {number} explode 0…1
 * @property {boolean} onlyWrong
 * @property {boolean} featureColours
 * @property {boolean} regions draw the contact regions' outlines (region methods only)
 */

/**
 * A contact file a link carries (`contacts=`, `contactsname=`, and with its
 * own poses `poses=`, `posesname=`): the texts packed as a scene file's are
 * (ui/scene-file.js), the names as written, since the core's messages and
 * the method picker name the files by them.
 * @typedef {object} LinkedContacts
 * @property {string} packed the contact file's text, packed
 * @property {string} name its file name
 * @property {string | null} poses the poses file's text, packed; null when the contacts have none
 * @property {string | null} posesName its file name
 */

/** The name a link's contact file goes by when the link names none. */
export const UNNAMED_CONTACTS = 'contacts from the link';
/** The name a link's poses file goes by when the link names none. */
export const UNNAMED_POSES = 'poses from the link';

/**
 * The `#bench` request, when the hash asks for one.
 * @typedef {object} BenchRequest
 * @property {number} steps
 */

/**
 * What the page needs of the core to read and write settings; in the page
 * these are worker requests, in the unit tests a fake.
 * @typedef {object} SettingsCodec
 * @property {(pairs: Array<[string, string]>, link?: boolean) => ({settings: any, problems: string[]} | Promise<{settings: any, problems: string[]}>)} settingsFromPairs
 */

/**
 * A page state with the core's default settings and nothing else chosen.
 * @param {Record<string, any>} defaults `Playground.defaultSettings()`
 * @returns {PageState}
 */
export function defaultPageState(defaults) {
  return {
    version: null,
    embed: false,
    scene: DEFAULT_SCENE,
    file: null,
    contacts: null,
    settings: { ...defaults },
    step: 0,
    cam: null,
    view: 'solid',
    explode: 0,
    onlyWrong: false,
    featureColours: false,
    regions: false,
  };
}

/**
 * Reads the page's own keys of a hash and collects the settings' pairs,
 * untouched, for the core.
 * @param {string} hash `location.hash`, with or without the leading '#'
 * @param {{sceneIds: string[], settingKeys: string[]}} known the built-in
 *   scenes and the settings' `url_key`s from `settingsSchema()`
 * @returns {{page: Omit<PageState, 'settings'>, settingPairs: Array<[string, string]>,
 *   problems: string[], bench: BenchRequest | null, stepGiven: boolean}}
 *   stepGiven: false when the link names no step (the page then opens at the
 *   scene's measure step)
 */
export function readHash(hash, { sceneIds, settingKeys }) {
  const { settings: _unused, ...page } = defaultPageState({});
  /** @type {Array<[string, string]>} */
  const settingPairs = [];
  /** @type {string[]} */
  const problems = [];
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const bench = params.has('bench') ? { steps: DEFAULT_BENCH_STEPS } : null;
  const seen = new Set();
  const repeated = new Set();
  /** The contact file's keys, put together after the loop (they come in any order). @type {Record<string, string>} */
  const contactParts = {};
  /** @param {string} key @param {string} raw @param {string} expected @param {string} fallback */
  const bad = (key, raw, expected, fallback) => problems.push(`${key}=${JSON.stringify(raw)} is not ${expected}; using ${fallback}`);

  for (const [key, raw] of params) {
    if (seen.has(key)) {
      // Named once, however often it repeats, so the notice stays short.
      if (!repeated.has(key)) problems.push(`"${key}" appears more than once; the first is used`);
      repeated.add(key);
      continue;
    }
    seen.add(key);
    if (settingKeys.includes(key) && !PAGE_KEYS.includes(key)) {
      settingPairs.push([key, raw]);
      continue;
    }
    switch (key) {
      case 'v':
        page.version = raw;
        break;
      case 'scene':
        if (sceneIds.includes(raw)) page.scene = raw;
        else bad(key, raw, 'a built-in scene', `the ${DEFAULT_SCENE}`);
        break;
      case 'file':
        // An empty packed scene is no scene: the link keeps its built-in one.
        if (raw === '') bad(key, raw, 'a packed scene file', 'the scene');
        else page.file = raw;
        break;
      case 'contacts':
      case 'contactsname':
      case 'poses':
      case 'posesname':
        contactParts[key] = raw;
        break;
      case 'step': {
        const value = wholeNumber(raw);
        if (value !== null && value <= MAX_LINK_STEP) page.step = value;
        else bad(key, raw, `a whole number from 0 to ${MAX_LINK_STEP}`, '0');
        break;
      }
      case 'bench':
        break;
      case 'steps':
        if (bench) {
          const value = wholeNumber(raw);
          if (value !== null && value >= 1 && value <= 10000) bench.steps = value;
          else bad(key, raw, 'a whole number from 1 to 10000', String(DEFAULT_BENCH_STEPS));
        } else {
          problems.push('"steps" is only read in #bench mode; ignored');
        }
        break;
      default:
        if (!readViewKey(page, key, raw, bad)) problems.push(`unknown parameter "${key}" ignored`);
    }
  }
  page.contacts = linkedContacts(contactParts, problems);
  // A malformed step still counts as given: the link then opens at step 0,
  // as the notice says, not at the measure step.
  return { page, settingPairs, problems, bench, stepGiven: params.has('step') };
}

/**
 * Reads one of the view's keys of a link (the camera, the view mode,
 * explode, which contacts and their colours, the regions, the embedded
 * view) into `page`; a malformed value is named through `bad`.
 * @param {Omit<PageState, 'settings'>} page
 * @param {string} key
 * @param {string} raw
 * @param {(key: string, raw: string, expected: string, fallback: string) => void} bad
 * @returns {boolean} whether `key` is one of the view's
 */
function readViewKey(page, key, raw, bad) {
  switch (key) {
    case 'cam': {
      const values = raw.split(',').map(Number);
      if (values.length === 6 && raw.split(',').every((v) => v.trim() !== '') && values.every((v) => Number.isFinite(v) && Math.abs(v) <= MAX_CAM_VALUE) && values[2] > 0) page.cam = values;
      else bad(key, raw, `six numbers (yaw, pitch, distance, target x, y, z) of at most ${MAX_CAM_VALUE} in size`, 'the default view');
      break;
    }
    case 'view':
      if (VIEW_MODES.includes(raw)) page.view = /** @type {any} */ (raw);
      else bad(key, raw, VIEW_MODES.join(', '), 'solid');
      break;
    case 'explode': {
      const value = Number(raw);
      if (raw.trim() !== '' && value >= 0 && value <= 1) page.explode = value;
      else bad(key, raw, 'a number from 0 to 1', '0');
      break;
    }
    case 'wrong':
    case 'features':
    case 'regions':
    case 'embed':
      if (raw === '0' || raw === '1') {
        if (key === 'wrong') page.onlyWrong = raw === '1';
        else if (key === 'features') page.featureColours = raw === '1';
        else if (key === 'embed') page.embed = raw === '1';
        else page.regions = raw === '1';
      } else {
        bad(key, raw, '0 or 1', '0');
      }
      break;
    default:
      return false;
  }
  return true;
}

/**
 * Reads a whole hash: the page's keys here, the settings by the core.
 * @param {string} hash
 * @param {{sceneIds: string[], schema: Array<{url_key: string}>, core: SettingsCodec}} context
 * @returns {Promise<{state: PageState, problems: string[], bench: BenchRequest | null, stepGiven: boolean}>}
 */
export async function parseHash(hash, { sceneIds, schema, core }) {
  const settingKeys = schema.map((entry) => entry.url_key);
  const { page, settingPairs, problems, bench, stepGiven } = readHash(hash, { sceneIds, settingKeys });
  // A page opened with no link shows the defaults; a link that names no
  // solver means the printed one, as every link of 0.5.0 and older did.
  const linked = hash.replace(/^#/, '').trim() !== '';
  const { settings, problems: settingProblems } = await core.settingsFromPairs(settingPairs, linked);
  return { state: { ...page, settings }, problems: [...problems, ...settingProblems], bench, stepGiven };
}

/**
 * Writes a page state as a hash string (with the leading '#').
 * @param {PageState} state
 * @param {Array<[string, string]>} settingPairs `settingsToPairs(state.settings)` from the core
 * @returns {string}
 */
export function formatHash(state, settingPairs) {
  const params = new URLSearchParams();
  if (state.version) params.set('v', state.version);
  if (state.embed) params.set('embed', '1');
  if (state.file) params.set('file', state.file);
  else params.set('scene', state.scene);
  if (state.contacts) {
    params.set('contactsname', state.contacts.name);
    params.set('contacts', state.contacts.packed);
    if (state.contacts.poses !== null) {
      params.set('posesname', state.contacts.posesName ?? UNNAMED_POSES);
      params.set('poses', state.contacts.poses);
    }
  }
  for (const [key, text] of settingPairs) params.set(key, text);
  params.set('step', String(state.step));
  if (state.view !== 'solid') params.set('view', state.view);
  if (state.explode > 0) params.set('explode', String(state.explode));
  if (state.onlyWrong) params.set('wrong', '1');
  if (state.featureColours) params.set('features', '1');
  if (state.regions) params.set('regions', '1');
  if (state.cam) params.set('cam', state.cam.join(','));
  // URLSearchParams escapes the commas of `cam`; they are safe in a hash
  // and keep the link readable.
  return `#${params.toString().replace(/%2C/g, ',')}`;
}

/**
 * A link's contact file from its four keys; a name or poses without the
 * contacts, or a poses name without the poses, is named in `problems` and
 * ignored.
 * @param {Record<string, string>} parts the keys' values, by key
 * @param {string[]} problems
 * @returns {LinkedContacts | null}
 */
function linkedContacts(parts, problems) {
  const { contacts, contactsname, poses, posesname } = parts;
  if (contacts === undefined) {
    for (const key of ['contactsname', 'poses', 'posesname']) if (parts[key] !== undefined) problems.push(`"${key}" is only read with "contacts"; ignored`);
    return null;
  }
  if (posesname !== undefined && poses === undefined) problems.push('"posesname" is only read with "poses"; ignored');
  return {
    packed: contacts,
    name: contactsname?.trim() ? contactsname : UNNAMED_CONTACTS,
    poses: poses ?? null,
    posesName: poses === undefined ? null : posesname?.trim() ? posesname : UNNAMED_POSES,
  };
}

/**
 * @param {string} text
 * @returns {number | null} a non-negative whole number written in decimal, else null
 */
function wholeNumber(text) {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}
