// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file Files a visitor opened or dropped together: telling a contact file
 * (`contactlab-contacts/1`, the README's "Contact files") from a scene file
 * by its content, so one file button and one drop target serve both;
 * pairing it with the poses file its `# poses:` comment names. The core
 * reads the files itself (`Playground.loadContactFile`) and names any
 * problem by file, line and column; this only decides which text goes
 * where. DOM-free, so `node --test` checks it. Imported when files are
 * opened, not with the page.
 */

/**
 * What a file is, by its content: a contact file's first line that is not
 * blank or a `#` comment is a CSV header with a `step` column or a JSON
 * object with a "step" key, and names a pair of bodies (`body_a`); a poses
 * file's names one body (`body`). Anything else is taken for a scene file
 * (JSON, "format": "contactlab-scene/1"), which the core judges.
 * @param {string} text
 * @returns {'contacts' | 'poses' | 'scene'}
 */
export function fileKind(text) {
  const first = firstDataLine(text);
  if (first === null) return 'scene';
  /** @type {string[]} */
  let keys;
  if (first.startsWith('{')) {
    try {
      const value = JSON.parse(first);
      if (!value || typeof value !== 'object' || Array.isArray(value)) return 'scene';
      keys = Object.keys(value);
    } catch {
      // A scene file's first line: "{" alone, or a whole scene that is not one line of JSON Lines.
      return 'scene';
    }
  } else {
    keys = first.split(',').map((field) => field.trim().replace(/^"(.*)"$/, '$1'));
  }
  if (!keys.includes('step')) return 'scene';
  return keys.includes('body') && !keys.includes('body_a') ? 'poses' : 'contacts';
}

/**
 * The poses file a contact file's `# poses: <file>` comment names (the
 * first such comment, as the core reads it), or null.
 * @param {string} text
 * @returns {string | null}
 */
export function posesFileNamed(text) {
  for (const line of lines(text)) {
    // Comments may stand between data lines too: the core reads them all.
    const trimmed = line.trim();
    if (!trimmed.startsWith('#')) continue;
    const colon = trimmed.indexOf(':');
    if (colon < 0) continue;
    const key = trimmed.slice(1, colon).trim();
    if (key === 'poses') return trimmed.slice(colon + 1).trim();
  }
  return null;
}

/** @typedef {{name: string, text: string}} OpenedFile */

/**
 * What a set of files opened or dropped together holds: at most one scene
 * file, at most one contact file, and the poses file that contact file
 * names (matched by name, since its comment gives a path relative to the
 * contact file). `problem` says in one sentence why the set cannot be
 * opened (a file missing or one too many); then nothing is opened.
 * @param {OpenedFile[]} files
 * @returns {{scene: OpenedFile | null, contacts: OpenedFile | null, poses: OpenedFile | null, problem: string | null}}
 */
export function sortOpenedFiles(files) {
  const none = { scene: null, contacts: null, poses: null };
  const byKind = { scene: [], contacts: [], poses: [] };
  for (const file of files) byKind[fileKind(file.text)].push(file);
  const names = (list) => list.map((file) => `"${file.name}"`).join(' and ');
  if (byKind.scene.length > 1) return { ...none, problem: `Open one scene file at a time: ${names(byKind.scene)} are all scene files.` };
  if (byKind.contacts.length > 1) return { ...none, problem: `Open one contact file at a time (with its poses file): ${names(byKind.contacts)} are all contact files.` };
  const scene = byKind.scene[0] ?? null;
  const contacts = byKind.contacts[0] ?? null;
  if (!contacts) {
    if (byKind.poses.length > 0) {
      return { ...none, problem: `${names(byKind.poses)} ${byKind.poses.length === 1 ? 'is a poses file' : 'are poses files'}: open it together with the contact file whose "# poses:" comment names it.` };
    }
    return { ...none, scene, problem: null };
  }
  const named = posesFileNamed(contacts.text);
  if (named === null) {
    if (byKind.poses.length > 0) {
      return { ...none, problem: `"${contacts.name}" names no poses file (it has no "# poses:" comment), so ${names(byKind.poses)} would not be used; open the contact file alone, or add the comment.` };
    }
    return { scene, contacts, poses: null, problem: null };
  }
  const wanted = baseName(named);
  const poses = byKind.poses.find((file) => file.name === wanted) ?? null;
  if (!poses) {
    const others = byKind.poses.length > 0 ? `; ${names(byKind.poses)} is not it` : '';
    return { ...none, problem: `"${contacts.name}" is measured at the poses of "${wanted}" (its "# poses:" comment), which is missing${others}: open or drop both files together.` };
  }
  if (byKind.poses.length > 1) return { ...none, problem: `"${contacts.name}" names one poses file, "${wanted}"; ${names(byKind.poses)} were opened with it.` };
  return { scene, contacts, poses, problem: null };
}

/**
 * The last part of a path as a contact file writes it (either slash).
 * @param {string} path
 */
export function baseName(path) {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * The first line that is not blank or a comment, trimmed (without a byte
 * order mark), or null.
 * @param {string} text
 * @returns {string | null}
 */
function firstDataLine(text) {
  for (const line of lines(text.replace(/^\uFEFF/, ''))) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) return trimmed;
  }
  return null;
}

/**
 * The lines of `text`, one at a time (a big file is not split at once).
 * @param {string} text
 * @returns {Generator<string>}
 */
function* lines(text) {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
  }
}
