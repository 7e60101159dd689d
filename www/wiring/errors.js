/**
 * @file What the page says when the simulation core fails: a panic (the
 * worker restarts and the controller rebuilds the shown step), a fatal
 * error, a scene that does not load (with the default scene shown instead
 * when nothing else is on screen), a contact file the core refuses (a
 * notice naming its line and column; the page keeps what it showed, or
 * shows the scene without the file), or a step that fails.
 */

import { CoreError } from '../session.js';
import { clearError, showError, showNotice } from '../ui/banner.js';
import { DEFAULT_SCENE } from '../state/page-state.js';
import { withContacts } from './page-config.js';

/** Turns the run controller's errors into banners, and keeps a fallback's cause on screen. */
export class ErrorReporter {
  /**
   * @param {{controller: import('../state/run-controller.js').RunController, fail: (message: string) => void}} options
   *   fail: the page cannot go on (the core is gone)
   */
  constructor({ controller, fail }) {
    this.controller = controller;
    this.fail = fail;
    /** The next scene shown is a fallback after a failed load: keep that error up. */
    this.keepError = false;
  }

  /**
   * @param {any} error
   * @param {{during: 'load' | 'step', config: import('./page-config.js').PageConfig}} context
   */
  report(error, { during, config }) {
    const message = error instanceof Error ? error.message : String(error);
    // A panic restarts the worker, and the controller rebuilds the shown step.
    if (error instanceof CoreError && error.panic) {
      showError(`The simulation core hit an internal error: ${message}. It was restarted at the last good step.`);
      return;
    }
    if (error instanceof CoreError && error.fatal) {
      this.fail(message);
      return;
    }
    if (during === 'load' && config.contacts) {
      // The visitor's file, not the page, is at fault: the core's message
      // names its line and column, and the run shown stays.
      showNotice(`Could not open the contact file "${config.contacts.name}": ${message.replace(/\.?$/, '.')}${this.controller.shown ? ' The page shows what it showed before.' : ''}`);
      if (!this.controller.shown) {
        queueMicrotask(() => this.controller.open(withContacts(config, null), 0));
      }
      return;
    }
    if (during === 'load') {
      showError(`Could not load ${config.file ? `"${config.file.name}"` : `the scene "${config.sceneId}"`}: ${message}`);
      // Nothing on screen to go back to: show the default scene instead.
      if (!this.controller.shown && (config.file || config.sceneId !== DEFAULT_SCENE)) {
        this.keepError = true;
        queueMicrotask(() => this.controller.open({ scene: { id: DEFAULT_SCENE }, settings: config.settings, sceneId: DEFAULT_SCENE, file: null }, 0));
      }
      return;
    }
    showError(`${message}. The view shows the last good step.`);
  }

  /**
   * A scene loaded: it ends the error of one that did not, unless it is the
   * fallback shown because of that error.
   */
  sceneShown() {
    if (!this.keepError) clearError();
    this.keepError = false;
  }
}
