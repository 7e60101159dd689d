/**
 * @file A visitor's own `contactlab-scene/1` file: opened with a file
 * picker or dropped on the page, and packed into the URL hash (deflate-raw,
 * then base64url) so that a link carries the scene with it. The same file
 * buttons and drop target take a contact file (ui/contact-file.js tells
 * them apart), whose text a link carries packed the same way.
 */

/** Links longer than this are cut by some mail and chat programs. */
export const LONG_LINK = 8000;

/**
 * Packs scene text for the hash.
 * @param {string} text
 * @returns {Promise<string>} base64url, no padding
 */
export async function packSceneText(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode with a huge argument list overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Unpacks what `packSceneText` made.
 * @param {string} packed
 * @param {string} [key] the link's parameter that held it, for the messages
 * @returns {Promise<string>}
 * @throws {Error} with a readable message when the text is not a packed scene
 */
export async function unpackSceneText(packed, key = 'file') {
  if (!/^[A-Za-z0-9_-]*$/.test(packed)) throw new Error(`the link's "${key}" parameter has characters base64url does not use`);
  const base64 = packed.replace(/-/g, '+').replace(/_/g, '/');
  let binary;
  try {
    binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  } catch {
    throw new Error(`the link's "${key}" parameter is not valid base64url`);
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const chunks = [];
  let total = 0;
  try {
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      // A few kilobytes of deflate can stand for gigabytes: stop reading
      // at the cap rather than let a link take the tab down.
      if (total > MAX_LINKED_TEXT_BYTES) {
        await reader.cancel();
        throw new RangeError(`the link's "${key}" parameter unpacks to more than ${MAX_LINKED_TEXT_BYTES / 1e6} MB, more than a scene file may have`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RangeError) throw new Error(error.message);
    throw new Error(`the link's "${key}" parameter does not unpack (it was probably cut short when the link was copied)`);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}

/** Largest text a link may unpack to: the scene file limit (README, "Limits"). */
export const MAX_LINKED_TEXT_BYTES = 64e6;

/** Largest file the page reads: the contacts file limit (README, "Limits"); the core refuses a scene file over 64 MB. */
export const MAX_FILE_BYTES = 400e6;

/** More files than a scene, a contact file and its poses file are not read. */
const MOST_FILES = 3;

/**
 * Calls `onFiles` with the names and texts of the files chosen together
 * with one of `pickers` (an input and the button that opens it) or dropped
 * together anywhere on `dropTarget`.
 * @param {{pickers: Array<{input: HTMLInputElement, button: HTMLElement}>, dropTarget: HTMLElement,
 *   onFiles: (files: Array<{name: string, text: string}>) => void, onError: (message: string) => void}} options
 */
export function wireSceneFileInputs({ pickers, dropTarget, onFiles, onError }) {
  /** @param {FileList | null | undefined} list */
  const read = async (list) => {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    if (files.length > MOST_FILES) {
      onError(`${files.length} files were opened at once; open a scene file, or a contact file with its poses file.`);
      return;
    }
    const texts = [];
    for (const file of files) {
      if (file.size > MAX_FILE_BYTES) {
        onError(`"${file.name}" is ${Math.round(file.size / 1e6)} MB, more than the ${MAX_FILE_BYTES / 1e6} MB a file may have; nothing was loaded.`);
        return;
      }
      try {
        texts.push({ name: file.name, text: await file.text() });
      } catch (error) {
        onError(`Could not read "${file.name}": ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    }
    onFiles(texts);
  };
  for (const { input, button } of pickers) {
    button.addEventListener('click', () => input.click());
    input.addEventListener('change', () => {
      read(input.files);
      // Choosing the same file again should load it again.
      input.value = '';
    });
  }

  let depth = 0;
  const hasFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  dropTarget.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    depth++;
    dropTarget.classList.add('dropping');
  });
  dropTarget.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) dropTarget.classList.remove('dropping');
  });
  dropTarget.addEventListener('dragover', (event) => {
    // Without this the browser opens the dropped file instead.
    if (hasFiles(event)) event.preventDefault();
  });
  dropTarget.addEventListener('drop', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    dropTarget.classList.remove('dropping');
    read(event.dataTransfer.files);
  });
}

/**
 * What the page calls a visitor's scene file (picker, heading, captions):
 * its own title, unless that is missing or a built-in scene's (an edited
 * copy of arch.json still says "Arch"), in which case the file's name
 * marked as theirs, "arch.json (your file)", so the file is never passed
 * off as the built-in scene. Shown as text only.
 * @param {string} text the file's text
 * @param {string | null} name the file's name; null for a file a link carried
 * @param {string[]} builtinTitles the built-in scenes' titles
 * @returns {string}
 */
export function fileSceneTitle(text, name, builtinTitles) {
  const own = sceneTitle(text, '');
  if (own && !builtinTitles.includes(own)) return own;
  return name ? `${name} (your file)` : `${own || 'Scene'} (a scene file from the link)`;
}

/**
 * The description shown for a visitor's scene file: its own, except a
 * built-in scene's copied along with the file (it would describe the
 * built-in scene, not what the visitor changed).
 * @param {string} description the loaded file's description
 * @param {Array<{title: string, description: string}>} builtins the built-in scenes
 * @returns {string}
 */
export function fileSceneDescription(description, builtins) {
  const copied = builtins.find((scene) => scene.description && scene.description === description);
  if (copied) return `Your own scene file. Its description is the built-in ${copied.title}'s, copied with the file, so it may not say what the file changes.`;
  return description ? description : 'Your own scene file; it has no description.';
}

/**
 * The scene's title from its text, for the picker; the file name when the
 * text has none (the core judges the file itself).
 * @param {string} text
 * @param {string} fallback
 * @returns {string}
 */
export function sceneTitle(text, fallback) {
  try {
    const title = JSON.parse(text)?.title;
    return typeof title === 'string' && title ? title : fallback;
  } catch {
    return fallback;
  }
}
