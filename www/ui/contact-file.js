/**
 * @file What the page calls a visitor's contact file (`contactlab-contacts/1`,
 * the README's "Contact files") and the ids it goes by in the method picker
 * and the Compare table. Telling opened files apart is in
 * `ui/opened-files.js`, loaded only when files are opened.
 */

/** The method picker's value while a contact file's contacts are shown. */
export const CONTACTS_OPTION = '__contacts__';

/** The id `Playground.compareRow` knows the open contact file's row by. */
export const CONTACTS_COMPARE_ID = 'contact file';

/**
 * What the method picker, the captions and the Compare table call the
 * contacts of a file (shown as text only: the name is the visitor's).
 * @param {string} name the file's name
 */
export function importedName(name) {
  return `Imported: ${name}`;
}
