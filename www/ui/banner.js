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
