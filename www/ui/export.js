/**
 * @file Getting things out of the page: the current contacts as CSV or JSON
 * (full precision, from the core's `contactList()`), the view as PNG, text
 * on the clipboard.
 */

/**
 * Offers `blob` as a download.
 * @param {string} name
 * @param {Blob} blob
 */
export function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; it can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * @param {string} name
 * @param {string} text
 * @param {string} type MIME type
 */
export function downloadText(name, text, type) {
  downloadBlob(name, new Blob([text], { type: `${type};charset=utf-8` }));
}

/**
 * Puts `text` on the clipboard.
 * @param {string} text
 * @returns {Promise<boolean>} whether it worked
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Without clipboard permission (an http:// page, some embedded
    // browsers) the old selection-based copy may still work.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/**
 * The contacts as CSV, one row each, every number as the core gave it.
 * @param {any[]} contacts `contactList()`
 * @returns {string}
 */
export function contactsCsv(contacts) {
  const header = ['a', 'b', 'px', 'py', 'pz', 'nx', 'ny', 'nz', 'depth', 'features', 'q', 'correct'];
  const value = (v) => (v === null || v === undefined ? '' : String(v));
  const rows = contacts.map((c) => [c.a, c.b, ...c.position, ...c.normal, c.depth, c.features, c.q, c.correct].map(value));
  return [header, ...rows].map((cells) => cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\n') + '\n';
}

/**
 * The contacts as JSON, with what produced them.
 * @param {any[]} contacts
 * @param {{scene: string, step: number, settings: any}} context
 * @returns {string}
 */
export function contactsJson(contacts, context) {
  return `${JSON.stringify({ format: 'contactlab-contacts/1', ...context, contacts }, null, 2)}\n`;
}

/**
 * Saves the canvas as PNG (its context keeps the drawing buffer).
 * @param {HTMLCanvasElement} canvas
 * @param {string} name
 */
export function downloadCanvas(canvas, name) {
  canvas.toBlob((blob) => {
    if (blob) downloadBlob(name, blob);
  }, 'image/png');
}
