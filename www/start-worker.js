/**
 * @file Starts the simulation worker, and with it the download of the wasm
 * core, as soon as the page's HTML is read. It is a module with no imports
 * listed before main.js, so the browser runs it without waiting for
 * main.js's tree of modules: on a slow link the core (most of the page's
 * bytes) then arrives while those modules load, not after. session.js takes
 * the worker over with `adoptEarlyWorker`; a worker that fails to load
 * before that is remembered, so the failure is reported, not lost.
 */

const url = new URL('./worker/worker.js', import.meta.url).href;
const worker = new Worker(url, { type: 'module' });
/** @type {{worker: Worker, url: string, failure: ErrorEvent | null}} */
const early = { worker, url, failure: null };
worker.addEventListener('error', (event) => {
  early.failure = event;
  event.preventDefault();
});
/** @type {any} */ (globalThis).contactlabEarlyWorker = early;
