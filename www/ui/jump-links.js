/**
 * @file Jump buttons (`data-jump="<id>"`): on a narrow screen the page is one
 * long column, and a part at its end (Compare) is a tap away from the top
 * instead of a long scroll. Buttons, not `#id` links: the page's hash is
 * its link, which a jump must not rewrite.
 */

/**
 * Wires every `[data-jump]` button under `root`: it scrolls its target into
 * view and gives it the focus.
 * @param {ParentNode} root
 */
export function attachJumpLinks(root) {
  for (const button of root.querySelectorAll('[data-jump]')) {
    button.addEventListener('click', () => {
      const target = document.getElementById(/** @type {HTMLElement} */ (button).dataset.jump ?? '');
      if (!target) return;
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
    });
  }
}
