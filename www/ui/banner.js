/**
 * @file The two message strips above the view: an error banner for things
 * that went wrong (the page stays usable) and a notice for things the page
 * corrected on its own, such as an unknown scene in the link.
 */

/**
 * Shows `message` in the error banner, replacing any earlier error.
 * @param {string} message
 */
export function showError(message) {
  const banner = document.getElementById('error-banner');
  banner.querySelector('.message').textContent = message;
  banner.hidden = false;
}

/** Hides the error banner. */
export function clearError() {
  document.getElementById('error-banner').hidden = true;
}

/**
 * Shows an informational notice.
 * @param {string} message
 */
export function showNotice(message) {
  const notice = document.getElementById('notice');
  notice.querySelector('.message').textContent = message;
  notice.hidden = false;
}

/**
 * Shows an informational notice followed by a link. Both are set as text
 * and attributes, never as markup: a notice may quote a link's contents.
 * @param {string} message
 * @param {{text: string, href: string}} link
 */
export function showNoticeWithLink(message, { text, href }) {
  showNotice(`${message} `);
  const anchor = document.createElement('a');
  anchor.textContent = text;
  anchor.href = href;
  anchor.target = '_blank';
  anchor.rel = 'noopener';
  document.querySelector('#notice .message').append(anchor);
}

/**
 * Shows a notice with a button (for example "Reload" when a new version of
 * the page is ready).
 * @param {string} message
 * @param {{text: string, onClick: () => void}} action
 */
export function showNoticeWithButton(message, { text, onClick }) {
  showNotice(`${message} `);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'small';
  button.textContent = text;
  button.addEventListener('click', onClick);
  document.querySelector('#notice .message').append(button);
}

/** Hides the notice. */
export function clearNotice() {
  document.getElementById('notice').hidden = true;
}

/** Lets the reader dismiss either strip. */
export function wireDismissButtons() {
  for (const strip of document.querySelectorAll('.banner')) {
    // The divergence strip has no close button: it goes when the run is restored.
    strip.querySelector('.dismiss')?.addEventListener('click', () => {
      strip.hidden = true;
    });
  }
}
