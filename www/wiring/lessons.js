// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Lessons in the page: the shipped ones (listed in one place,
 * `www/lessons/index.json`) in the "Lessons" picker, a teacher's own file
 * from a file picker, and a lesson in a link (`#lesson=<id>` for a shipped
 * one, `#lesson=<packed file>` for any other, packed as a scene file is,
 * ui/scene-file.js). Each is read and checked (state/lesson.js) before it
 * plays; a bad one is refused with its problems named and the page keeps
 * what it shows. Playing is ui/lesson-player.js's.
 */

import { showError, showNotice, clearError } from '../ui/banner.js';
import { copyText } from '../ui/export.js';
import { LessonPlayer } from '../ui/lesson-player.js';
import { packSceneText, unpackSceneText } from '../ui/scene-file.js';
import { checkLessonLinks, readLesson } from '../state/lesson.js';
import { lessonElements } from './elements.js';

/** The shipped lessons' folder, found from this module rather than from
 * the page's address: a published site serves the page at its root and the
 * files of a release in that release's own folder. */
const LESSONS_FOLDER = new URL('../lessons/', import.meta.url);
/** Where the shipped lessons are listed (named so in messages). */
const LESSON_LIST = 'lessons/index.json';

/** The lessons' picker, file button, link parameter and player. */
export class PageLessons {
  /**
   * @param {{session: import('../session.js').Session,
   *   sceneIds: string[], schema: Array<{url_key: string}>,
   *   presentation: import('../ui/presentation.js').Presentation,
   *   showLink: (hash: string) => void,
   *   drawn: () => {viewProjection: Float32Array, instances: Float32Array, stride: number},
   *   siteRoot: () => string}} options
   *   showLink: show the state a step's link names (the page's link reader);
   *   siteRoot: the address links point at
   */
  constructor({ session, sceneIds, schema, presentation, showLink, drawn, siteRoot }) {
    this.session = session;
    this.sceneIds = sceneIds;
    this.schema = schema;
    this.siteRoot = siteRoot;
    this.elements = lessonElements();
    /** The shipped lessons by id, once listed. @type {Map<string, {lesson: import('../state/lesson.js').Lesson}>} */
    this.shipped = new Map();
    /** @type {Promise<void> | null} */
    this.listed = null;
    /** What the open lesson's link carries: a shipped id, or the file's text. @type {{id: string} | {text: string} | null} */
    this.source = null;
    this.player = new LessonPlayer({ elements: this.elements.player, presentation, showLink, drawn });

    const { picker, openFile, fileInput, copyLink } = this.elements;
    picker.addEventListener('change', () => {
      const id = picker.value;
      picker.value = '';
      const entry = this.shipped.get(id);
      if (entry) this.play(entry.lesson, { id }, `the lesson "${id}"`);
    });
    openFile.addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', async () => {
      const file = fileInput.files?.[0];
      fileInput.value = '';
      if (!file) return;
      try {
        await this.openText(await file.text(), `"${file.name}"`);
      } catch (error) {
        showError(`Could not read "${file.name}": ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    copyLink.addEventListener('click', () => this.copyLink());
  }

  /** Lists the shipped lessons in the picker (once). */
  list() {
    this.listed ??= this.fetchShipped();
    return this.listed;
  }

  async fetchShipped() {
    const { picker } = this.elements;
    try {
      const response = await fetch(new URL('index.json', LESSONS_FOLDER));
      if (!response.ok) throw new Error(`${LESSON_LIST}: HTTP ${response.status}`);
      const list = await response.json();
      const ids = Array.isArray(list?.lessons) ? list.lessons.filter((id) => typeof id === 'string' && /^[a-z0-9-]+$/.test(id)) : [];
      const texts = await Promise.all(ids.map(async (id) => {
        const answer = await fetch(new URL(`${id}.json`, LESSONS_FOLDER));
        if (!answer.ok) throw new Error(`lessons/${id}.json: HTTP ${answer.status}`);
        return answer.text();
      }));
      const settingKeys = this.schema.map((entry) => entry.url_key);
      ids.forEach((id, index) => {
        const { lesson, errors } = readLesson(texts[index], { settingKeys });
        if (!lesson) throw new Error(`lessons/${id}.json: ${errors.join('; ')}`);
        this.shipped.set(id, { lesson });
        const option = document.createElement('option');
        option.value = id;
        option.textContent = lesson.title;
        picker.append(option);
      });
      picker.disabled = this.shipped.size === 0;
    } catch (error) {
      showError(`Could not list the lessons: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A link's `lesson=` value: a shipped lesson's id, or a packed lesson file.
   * @param {string} value
   * @returns {Promise<boolean>} whether the lesson opened
   */
  async openFromLink(value) {
    if (/^[a-z0-9-]+$/.test(value)) {
      await this.list();
      const entry = this.shipped.get(value);
      if (entry) return this.play(entry.lesson, { id: value }, `the lesson "${value}"`);
    }
    let text;
    try {
      text = await unpackSceneText(value, 'lesson');
    } catch (error) {
      this.refuse('the lesson in the link', [error instanceof Error ? error.message : String(error)]);
      return false;
    }
    return this.openText(text, 'the lesson in the link');
  }

  /**
   * Reads, checks and plays a lesson file's text.
   * @param {string} text
   * @param {string} name how the messages name it
   * @returns {Promise<boolean>} whether the lesson opened
   */
  async openText(text, name) {
    const { lesson, errors } = readLesson(text, { settingKeys: this.schema.map((entry) => entry.url_key) });
    if (!lesson) {
      this.refuse(name, errors);
      return false;
    }
    return this.play(lesson, { text }, name);
  }

  /**
   * Checks the steps' links as the page reads links, then plays.
   * @param {import('../state/lesson.js').Lesson} lesson
   * @param {{id: string} | {text: string}} source
   * @param {string} name
   * @returns {Promise<boolean>} whether it opened
   */
  async play(lesson, source, name) {
    const readoutRows = readoutRowIds();
    const errors = await checkLessonLinks(lesson, { sceneIds: this.sceneIds, schema: this.schema, core: this.session, readoutRows });
    if (errors.length > 0) {
      this.refuse(name, errors);
      return false;
    }
    clearError();
    this.source = source;
    this.player.open(lesson);
    return true;
  }

  /**
   * Says why a lesson was not opened; the page keeps what it shows.
   * @param {string} name
   * @param {string[]} errors
   */
  refuse(name, errors) {
    const shown = errors.slice(0, 6);
    const more = errors.length > shown.length ? `; and ${errors.length - shown.length} more` : '';
    showError(`Could not open ${name}: ${shown.join('; ')}${more}.`);
  }

  /** Copies a link that opens the lesson on screen in a fresh page. */
  async copyLink() {
    const source = this.source;
    if (!source) return;
    const value = 'id' in source ? source.id : await packSceneText(source.text);
    const link = `${this.siteRoot()}#lesson=${value}`;
    const copied = await copyText(link);
    showNotice(copied ? 'A link that opens this lesson is on the clipboard.' : 'The browser refused the clipboard.');
  }
}

/**
 * The rows of the readout a lesson step may point at ("look"): the rows
 * ui/readout-table.js builds (`row-<id>`), and "standing", the Pillar's
 * standing or collapsed line.
 * @returns {string[]}
 */
export function readoutRowIds() {
  const rows = [...document.querySelectorAll('.readout-row[id^="row-"]')].map((row) => row.id.slice('row-'.length));
  return [...rows, 'standing'];
}
