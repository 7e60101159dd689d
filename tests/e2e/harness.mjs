// What the browser tests and the screenshot script share: Debian's Chromium
// driven by playwright-core, a page opened at a link with its errors
// collected, waiting for the page to be idle, reading its readout, and the
// CLI's record to compare with. The page is served by `cargo xtask test` or
// `cargo xtask screenshots`, which set CONTACTLAB_URL and CHROMIUM.
//
// The page marks its state on <body>: data-run is "replaying", "playing" or
// "idle"; data-ready="true" while idle with the frame drawn and the link
// written; data-scene, data-method and data-step name what is shown. The
// readout's exact values are elements with a data-readout attribute named
// like the CLI's JSON keys.

import assert from 'node:assert/strict';
import { after } from 'node:test';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.CONTACTLAB_URL || 'http://127.0.0.1:8000/';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCENES_DIR = `${ROOT}scenes/`;
// Starting the wasm core, loading the largest scene and running a few of
// its steps in software GL on a small machine.
export const READY_TIMEOUT_MS = 90_000;
/** Readout keys that are timings: they differ from run to run. */
export const TIMING_KEYS = ['ms_broad', 'ms_method', 'ms_solver', 'ms_oracle'];

/** @returns {Promise<import('playwright-core').Browser>} */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens the page at `hash` in a fresh context and collects every console
 * error and uncaught exception (from the page and its worker), and the URL
 * of every request it makes, its worker's included (`requests`).
 * @param {import('playwright-core').Browser} browser
 */
export async function openPage(browser, hash = '', viewport = { width: 1400, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems = collectProblems(page);
  /** @type {string[]} */
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(new URL(hash, BASE_URL).href);
  return { page, context, problems, requests };
}

/**
 * Collects every console error, uncaught exception, failed request and
 * HTTP error of a page (its worker's included) into the returned list.
 * @param {import('playwright-core').Page} page
 * @returns {string[]}
 */
export function collectProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A reload cancels what the page was still fetching; that is no fault.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/**
 * Waits until the page is idle with the given scene, method and step shown,
 * failing early (with the banner's text) if the error banner appears.
 * @param {import('playwright-core').Page} page
 * @param {{scene?: string, method?: string, step?: number}} expected
 */
export async function waitReady(page, expected = {}) {
  await waitReadyOrExplain(page, expected);
  await assertNoErrorBanner(page);
}

/** waitReady's wait; a timeout names what was expected and what the page showed. */
async function waitReadyOrExplain(page, expected) {
  try {
    await waitReadyFunction(page, expected);
  } catch (error) {
    const shown = await page.evaluate(() => ({ ...document.body.dataset, hash: window.location.hash })).catch(() => ({}));
    throw new Error(`${error.message}\nexpected ${JSON.stringify(expected)}, the page shows ${JSON.stringify(shown)}`);
  }
}

/** @param {import('playwright-core').Page} page @param {{scene?: string, method?: string, step?: number}} expected */
function waitReadyFunction(page, expected) {
  return page.waitForFunction(
    ({ scene, method, step }) => {
      const body = document.body.dataset;
      if (!document.getElementById('error-banner').hidden) return true;
      return (
        body.ready === 'true' &&
        body.run === 'idle' &&
        (scene === undefined || body.scene === scene) &&
        (method === undefined || body.method === method) &&
        (step === undefined || body.step === String(step))
      );
    },
    expected,
    { timeout: READY_TIMEOUT_MS },
  );
}

export async function assertNoErrorBanner(page) {
  assert.equal(await bannerText(page, 'error-banner'), null, 'error banner shown');
}

/** The text of a banner strip, or null when it is hidden. */
export async function bannerText(page, id) {
  return page.evaluate((id) => {
    const element = document.getElementById(id);
    return element.hidden ? null : element.querySelector('.message').textContent.trim();
  }, id);
}

/** Every data-readout element's text, by key. */
export async function readout(page) {
  return page.$$eval('[data-readout]', (elements) => Object.fromEntries(elements.map((e) => [e.dataset.readout, e.textContent])));
}

/** The readout without the timings, which differ from run to run. */
export async function stableReadout(page) {
  const values = await readout(page);
  for (const key of TIMING_KEYS) delete values[key];
  return values;
}

/**
 * The last JSON line of `contactlab run <args> --json`, from the release
 * build cargo keeps up to date (so it matches the sources the wasm was built
 * from).
 */
export async function cliRun(args) {
  const run = promisify(execFile);
  // The tests' links name no solver, so the page runs the printed one (a
  // link that names none means it); the CLI, whose default is the
  // accelerated solver, is told the same unless the test names one.
  const solver = args.includes('--solver') ? [] : ['--solver', 'printed'];
  const { stdout } = await run('cargo', ['run', '--quiet', '--release', '--bin', 'contactlab', '--', 'run', ...args, ...solver, '--json'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** Keys of the CLI's record that are counts: they must agree exactly. */
const COUNT_KEYS = ['step', 'count', 'correct', 'iterations', 'scene_correct', 'scene_min_contacts', 'geo_right', 'geo_indeterminate_right', 'geo_wrong', 'geo_min_contacts'];

/**
 * Asserts that the page's readout holds every non-timing value of the CLI's
 * record: counts, booleans, nulls and words (the headline's `oracle`) exactly, other numbers to 1e-12
 * relative (wasm and native may round the last bit differently), or within
 * 1e-15 of it for quantities near zero: a depth of −2.4 µm differences two
 * coordinates of order 1 m, so the platforms' different last bits of sin
 * and cos in the meshes show in it at 1.1e-12 relative (2.7e-18 m).
 * @param {Record<string, string>} shown `readout(page)`
 * @param {Record<string, any>} cli `cliRun(...)`
 */
export function assertMatchesCli(shown, cli) {
  const keys = Object.keys(cli).filter((key) => !TIMING_KEYS.includes(key));
  assert.ok(keys.length >= 10, `the CLI record has only ${keys.length} keys`);
  for (const key of keys) {
    const expected = cli[key];
    const text = shown[key];
    assert.notEqual(text, undefined, `the readout has no "${key}"`);
    if (expected === null || typeof expected === 'boolean' || typeof expected === 'string' || COUNT_KEYS.includes(key)) {
      assert.equal(text, String(expected), `${key}: page ${text}, CLI ${expected}`);
      continue;
    }
    assert.equal(typeof expected, 'number', `${key}: unexpected CLI value ${JSON.stringify(expected)}`);
    const value = Number(text);
    assert.ok(text.trim() !== '' && Number.isFinite(value), `${key}: the page shows "${text}"`);
    const tolerance = Math.max(1e-12 * Math.abs(expected), 1e-15);
    assert.ok(Math.abs(value - expected) <= tolerance, `${key}: page ${text}, CLI ${expected}`);
  }
}

/**
 * Starts recording, in the page, every change of the body's run state with
 * what was shown at that moment, for `runLog`.
 * @param {import('playwright-core').Page} page
 */
export async function recordRunStates(page) {
  await page.evaluate(() => {
    const body = document.body;
    const snapshot = () => ({
      run: body.dataset.run,
      method: body.dataset.method,
      step: body.dataset.step,
      count: document.querySelector('[data-readout="count"]')?.textContent ?? '',
      hash: window.location.hash,
    });
    /** @type {any} */ (window).runLog = [snapshot()];
    new MutationObserver(() => /** @type {any} */ (window).runLog.push(snapshot())).observe(body, {
      attributes: true,
      attributeFilter: ['data-run', 'data-method', 'data-step'],
    });
  });
}

/** @returns {Promise<Array<{run: string, method: string, step: string, count: string, hash: string}>>} */
export function runLog(page) {
  return page.evaluate(() => /** @type {any} */ (window).runLog);
}

/**
 * Saves a screenshot of the whole page; with `scrollTo` (a selector), the
 * panel holding that element is scrolled to show it rather than its top.
 */
export async function screenshot(page, path, scrollTo = null) {
  await mkdir(path.replace(/[^/]+$/, ''), { recursive: true });
  // Controls used by the test may have scrolled the panels; show their tops.
  await page.evaluate((selector) => {
    /** @type {HTMLElement} */ (document.activeElement)?.blur();
    for (const panel of document.querySelectorAll('.panel')) panel.scrollTop = 0;
    if (selector) document.querySelector(selector)?.scrollIntoView({ block: 'start' });
  }, scrollTo);
  await page.screenshot({ path });
}

/**
 * Reads the canvas back (the context keeps its drawing buffer) and
 * summarises it: distinct colours, how much of the central tenth differs
 * from the background, and the position of a strongly blue pixel (a
 * contact with a right normal), if any.
 */
export async function canvasStats(page) {
  return page.evaluate(() => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
    const { width, height } = canvas;
    const copy = document.createElement('canvas');
    copy.width = width;
    copy.height = height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, width, height);
    const colours = new Set();
    let right = null;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (!right && data[i + 2] > 110 && data[i + 2] > data[i] * 2.5 && data[i + 2] > data[i + 1] * 1.4) {
        const pixel = i / 4;
        right = { x: pixel % width, y: Math.floor(pixel / width) };
      }
    }
    const background = [data[0], data[1], data[2]];
    let differing = 0;
    let total = 0;
    for (let y = Math.floor(height * 0.45); y < Math.ceil(height * 0.55); y++) {
      for (let x = Math.floor(width * 0.45); x < Math.ceil(width * 0.55); x++) {
        const i = (y * width + x) * 4;
        const distance = Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1]) + Math.abs(data[i + 2] - background[2]);
        if (distance > 24) differing++;
        total++;
      }
    }
    const ratio = canvas.clientWidth / width;
    return {
      width,
      height,
      distinctColours: colours.size,
      centreDiffering: differing / total,
      right: right && { x: right.x * ratio, y: right.y * ratio },
    };
  });
}

/**
 * How many canvas pixels are within `within` (sum of the channels'
 * differences, 0–255 each) of one of `colours` (RGB, 0–1 each).
 * @param {import('playwright-core').Page} page
 * @param {number[][]} colours
 * @param {number} within
 * @returns {Promise<number>}
 */
export async function canvasPixelsNear(page, colours, within) {
  const palette = colours.map((colour) => colour.map((c) => Math.round(c * 255)));
  return page.evaluate(
    ({ palette, within }) => {
      const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('view'));
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const context = copy.getContext('2d');
      context.drawImage(canvas, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (palette.some(([r, g, b]) => Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < within)) count++;
      }
      return count;
    },
    { palette, within },
  );
}

/**
 * The browser one test file's tests share: launched when the file is
 * loaded (`const browser = await browserForThisFile();` at its top level),
 * closed after its last test.
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function browserForThisFile() {
  const browser = await launchBrowser();
  after(() => browser.close());
  return browser;
}
