// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file A lesson (`contactlab-lesson/1`, docs/lessons.md): a short sequence
 * of steps, each a link to a state of this page plus a paragraph of what to
 * look for and, optionally, a circle around a point of the scene. DOM-free,
 * so `node --test` checks it.
 *
 * A lesson file is untrusted input: it is read strictly (an unknown key is
 * an error, so a typo does not silently drop a step's camera), every
 * problem names the key and the step, and a step's link may hold only the
 * page's own view keys and the settings' keys: a lesson can show any state
 * of this page, never navigate elsewhere, embed a file or start a benchmark.
 * The links' values are judged by the same reader as any link
 * (state/page-state.js with the core's settings reader), see
 * `checkLessonLinks`.
 */

import { parseHash } from './page-state.js';

/** The format marker every lesson file carries. */
export const LESSON_FORMAT = 'contactlab-lesson/1';
/** Keys of the page's link that a lesson step may use, besides the settings' `url_key`s. */
export const LESSON_LINK_KEYS = ['scene', 'step', 'cam', 'view', 'explode', 'wrong', 'features', 'regions'];
/** Largest lesson file, in characters: a lesson is text, not a mesh. */
export const MAX_LESSON_CHARS = 100_000;
/** Most steps in one lesson. */
export const MAX_LESSON_STEPS = 40;
const MAX_TITLE = 120;
const MAX_TEXT = 3000;
const MAX_LABEL = 80;

/**
 * @typedef {object} LessonHighlight a circle drawn around a point of the scene
 * @property {number[]} at the point, in the scene's coordinates (metres)
 * @property {number} radius in metres
 * @property {string} label shown beside the circle ('' for none)
 */

/**
 * @typedef {object} LessonStep
 * @property {string} title '' when the step has none
 * @property {string} link the page's hash for the step, without '#'
 * @property {string} text what to look for; paragraphs separated by blank lines
 * @property {LessonHighlight | null} highlight
 * @property {string[]} look rows of the readout to point at (their ids, e.g. "solver"); [] for none
 */

/**
 * @typedef {object} Lesson
 * @property {string} title
 * @property {string} summary '' when it has none
 * @property {LessonStep[]} steps
 */

/**
 * Reads a lesson file's text and checks its shape and its links' keys.
 * @param {string} text the file's text
 * @param {{settingKeys: string[]}} known the settings schema's `url_key`s
 * @returns {{lesson: Lesson | null, errors: string[]}} lesson is null when there is any error
 */
export function readLesson(text, { settingKeys }) {
  /** @type {string[]} */
  const errors = [];
  if (typeof text !== 'string') return { lesson: null, errors: ['the lesson is not text'] };
  if (text.length > MAX_LESSON_CHARS) return { lesson: null, errors: [`the lesson is ${text.length} characters long; at most ${MAX_LESSON_CHARS} are read`] };
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { lesson: null, errors: [`the lesson is not JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  if (!isObject(data)) return { lesson: null, errors: ['the lesson must be a JSON object with "format", "title" and "steps"'] };
  unknownKeys(data, ['format', 'title', 'summary', 'steps'], 'the lesson', errors);
  if (data.format !== LESSON_FORMAT) errors.push(`"format" must be "${LESSON_FORMAT}"${data.format === undefined ? ' (it is missing)' : `, not ${JSON.stringify(data.format)}`}`);
  const title = text_(data.title, '"title"', MAX_TITLE, true, errors);
  const summary = text_(data.summary, '"summary"', MAX_TEXT, false, errors);
  /** @type {LessonStep[]} */
  const steps = [];
  if (!Array.isArray(data.steps)) {
    errors.push('"steps" must be a list of steps');
  } else if (data.steps.length === 0 || data.steps.length > MAX_LESSON_STEPS) {
    errors.push(`"steps" must hold from 1 to ${MAX_LESSON_STEPS} steps, not ${data.steps.length}`);
  } else {
    data.steps.forEach((raw, index) => {
      const step = readStep(raw, `step ${index + 1}`, settingKeys, errors);
      if (step) steps.push(step);
    });
  }
  return errors.length > 0 ? { lesson: null, errors } : { lesson: { title, summary, steps }, errors };
}

/**
 * Judges every step's link as the page would read it (values out of range,
 * unknown scenes or methods) and its readout rows against the page's: each
 * problem becomes an error naming the step.
 * @param {Lesson} lesson
 * @param {{sceneIds: string[], schema: Array<{url_key: string}>, core: import('./page-state.js').SettingsCodec, readoutRows: string[]}} context
 *   readoutRows: the ids a step's "look" may name
 * @returns {Promise<string[]>}
 */
export async function checkLessonLinks(lesson, context) {
  const errors = [];
  for (const [index, step] of lesson.steps.entries()) {
    const { problems } = await parseHash(step.link, context);
    for (const problem of problems) errors.push(`step ${index + 1}, "link": ${problem}`);
    for (const row of step.look) {
      if (!context.readoutRows.includes(row)) errors.push(`step ${index + 1}, "look": "${row}" is not a row of the readout (rows: ${context.readoutRows.join(', ')})`);
    }
  }
  return errors;
}

/**
 * @param {any} raw
 * @param {string} where e.g. "step 2"
 * @param {string[]} settingKeys
 * @param {string[]} errors
 * @returns {LessonStep | null}
 */
function readStep(raw, where, settingKeys, errors) {
  if (!isObject(raw)) {
    errors.push(`${where} must be an object with "link" and "text"`);
    return null;
  }
  const before = errors.length;
  unknownKeys(raw, ['title', 'link', 'text', 'highlight', 'look'], where, errors);
  const title = text_(raw.title, `${where}, "title"`, MAX_TITLE, false, errors);
  const text = text_(raw.text, `${where}, "text"`, MAX_TEXT, true, errors);
  const link = readLink(raw.link, `${where}, "link"`, settingKeys, errors);
  const highlight = raw.highlight === undefined ? null : readHighlight(raw.highlight, `${where}, "highlight"`, errors);
  const look = raw.look === undefined ? [] : raw.look;
  const lookOk = Array.isArray(look) && look.length <= 4 && look.every((row) => typeof row === 'string' && /^[a-z_]{1,40}$/.test(row));
  if (!lookOk) errors.push(`${where}, "look" must be a list of at most 4 readout rows, e.g. ["solver"], not ${short(raw.look)}`);
  return errors.length === before ? { title, text, link, highlight, look: lookOk ? [...look] : [] } : null;
}

/**
 * A step's link: the part of a page link after '#', with only the page's
 * view keys and the settings' keys, and a scene.
 * @param {any} raw
 * @param {string} where
 * @param {string[]} settingKeys
 * @param {string[]} errors
 * @returns {string}
 */
function readLink(raw, where, settingKeys, errors) {
  if (typeof raw !== 'string' || raw.trim() === '') {
    errors.push(`${where} must be the part of a page link after "#", e.g. "scene=pillar&method=opposing&step=3"`);
    return '';
  }
  const link = raw.trim().replace(/^#/, '');
  if (/[\s/?:]/.test(link.replace(/%[0-9A-Fa-f]{2}/g, ''))) {
    errors.push(`${where} must be only the part after "#" of a ContactLab link (key=value pairs joined by "&"), not an address`);
    return '';
  }
  const params = new URLSearchParams(link);
  const allowed = [...LESSON_LINK_KEYS, ...settingKeys];
  const seen = new Set();
  for (const key of params.keys()) {
    if (seen.has(key)) errors.push(`${where} names "${key}" more than once`);
    seen.add(key);
    if (!allowed.includes(key)) errors.push(`${where} has the key "${key}", which a lesson may not use (allowed: ${allowed.join(', ')})`);
  }
  if (!params.has('scene')) errors.push(`${where} names no scene (add e.g. "scene=pillar")`);
  return link;
}

/**
 * @param {any} raw
 * @param {string} where
 * @param {string[]} errors
 * @returns {LessonHighlight | null}
 */
function readHighlight(raw, where, errors) {
  if (!isObject(raw)) {
    errors.push(`${where} must be an object with "at" (three numbers) and "radius"`);
    return null;
  }
  unknownKeys(raw, ['at', 'radius', 'label'], where, errors);
  const at = raw.at;
  const atOk = Array.isArray(at) && at.length === 3 && at.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 1e6);
  if (!atOk) errors.push(`${where}, "at" must be three numbers (x, y, z in metres), not ${short(at)}`);
  const radiusOk = typeof raw.radius === 'number' && raw.radius > 0 && raw.radius <= 1e3;
  if (!radiusOk) errors.push(`${where}, "radius" must be a number above 0 and at most 1000 (metres), not ${short(raw.radius)}`);
  const label = text_(raw.label, `${where}, "label"`, MAX_LABEL, false, errors);
  return atOk && radiusOk ? { at: [...at], radius: raw.radius, label } : null;
}

/**
 * A text field: a string of at most `max` characters; '' when optional and absent.
 * @param {any} raw
 * @param {string} where
 * @param {number} max
 * @param {boolean} required
 * @param {string[]} errors
 */
function text_(raw, where, max, required, errors) {
  if (raw === undefined && !required) return '';
  if (typeof raw !== 'string' || (required && raw.trim() === '')) {
    errors.push(`${where} must be ${required ? 'a non-empty' : 'a'} string${raw === undefined ? ' (it is missing)' : `, not ${short(raw)}`}`);
    return '';
  }
  if (raw.length > max) {
    errors.push(`${where} is ${raw.length} characters long; at most ${max}`);
    return '';
  }
  return raw;
}

/** @param {Record<string, any>} object @param {string[]} known @param {string} where @param {string[]} errors */
function unknownKeys(object, known, where, errors) {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) errors.push(`${where} has an unknown key "${key}" (known: ${known.join(', ')})`);
  }
}

/** @param {any} value @returns {value is Record<string, any>} */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value for an error message, cut short. @param {any} value */
function short(value) {
  const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
