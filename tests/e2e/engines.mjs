// The page in three browser engines behind one small interface, for the
// tests that must hold in every engine a class brings (engines.test.mjs):
//
// - Chromium: Debian's, through playwright-core (harness.mjs's launchBrowser);
// - Firefox: Debian's firefox-esr over WebDriver BiDi, spoken here over a
//   WebSocket. (playwright-core's own BiDi Firefox asks for commands that
//   Firefox ESR does not have yet, e.g. emulation.setMediaFeaturesOverride.)
// - WebKit: WebKitGTK's MiniBrowser through WebKitWebDriver, classic
//   WebDriver over HTTP. It reports no console messages, so page errors are
//   caught inside the page (`watchErrors`).
//
// Firefox and WebKit run in a window on an Xvfb display (headless Firefox
// has no WebGL2); one Xvfb is started per process, on CONTACTLAB_DISPLAY
// (e.g. ":51") when that is set, otherwise on a free display Xvfb picks.
// A missing engine is an error naming the package to install: the tests
// fail rather than skip.
//
// Every tab has the same methods: goto(url), evaluate(fn, arg) (a function
// of one JSON argument whose result is JSON; run as page script, so keep it
// self-contained), waitFor(fn, arg, timeoutMs), click(selector) (a real
// pointer click from the driver), fill(selector, value) (sets the value and
// fires input and change, as a user's typing ends), setFile(selector, path)
// (the driver's own file upload), screenshot(path) (PNG), problems() and
// close().

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// Node 20 has no WebSocket client of its own; playwright-core exports the
// `ws` it bundles (lib/utilsBundle is in its package.json's exports).
import { ws as WebSocket } from 'playwright-core/lib/utilsBundle';
import { collectProblems, launchBrowser, READY_TIMEOUT_MS } from './harness.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
/** Where Debian's libwebkit2gtk puts the MiniBrowser that WebKitWebDriver drives. */
const MINIBROWSER_CANDIDATES = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'];
export const XVFB = '/usr/bin/Xvfb';
const VIEWPORT = { width: 1400, height: 900 };
const WEBDRIVER_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** The engines, by name. */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

/**
 * @typedef {object} Tab
 * @property {(url: string) => Promise<void>} goto
 * @property {(fn: Function | string, arg?: any) => Promise<any>} evaluate
 * @property {(fn: Function | string, arg?: any, timeoutMs?: number) => Promise<any>} waitFor
 * @property {(selector: string) => Promise<void>} click
 * @property {(selector: string, value: string) => Promise<void>} fill
 * @property {(selector: string, path: string) => Promise<void>} setFile
 * @property {(path: string) => Promise<void>} screenshot
 * @property {() => Promise<string[]>} problems
 * @property {() => Promise<void>} close
 * @typedef {{name: string, version: string, open: (url: string) => Promise<Tab>, close: () => Promise<void>}} Engine
 */

/**
 * Starts an engine. Fails, naming what to install, when it is missing.
 * @param {string} name one of ENGINES
 * @returns {Promise<Engine>}
 */
export async function launchEngine(name) {
  if (name === 'chromium') return launchChromium();
  if (name === 'firefox') return launchFirefox();
  if (name === 'webkit') return launchWebKit();
  throw new Error(`unknown engine ${name}; the engines are ${ENGINES.join(', ')}`);
}

/** The function call `fn(arg)` as page script whose value is the JSON of the result. */
function callSource(fn, arg) {
  return `(async () => { const value = await (${fn})(${JSON.stringify(arg ?? null)}); return value === undefined ? 'null' : JSON.stringify(value); })()`;
}

/** Polls `evaluate(fn, arg)` until it is truthy; a timeout names `fn` and the last value. */
async function pollUntil(evaluate, fn, arg, timeoutMs = READY_TIMEOUT_MS) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await evaluate(fn, arg);
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(fn).slice(0, 300)} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Page script that records uncaught errors and rejections and console.error
 * calls in `window.engineErrors` (WebKitWebDriver reports no console; the
 * others use it too, so every engine is checked alike). Installed after
 * load: what failed before shows in the page's error banner, which the
 * tests check.
 */
function watchErrors() {
  const page = /** @type {any} */ (window);
  if (page.engineErrors) return;
  page.engineErrors = [];
  addEventListener('error', (event) => page.engineErrors.push(`page error: ${event.message}`));
  addEventListener('unhandledrejection', (event) => page.engineErrors.push(`unhandled rejection: ${event.reason}`));
  const error = console.error.bind(console);
  console.error = (...args) => {
    page.engineErrors.push(`console error: ${args.join(' ')}`);
    error(...args);
  };
}

const pageErrors = () => /** @type {any} */ (window).engineErrors ?? [];

// ---------------------------------------------------------------- Chromium

async function launchChromium() {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      const driverProblems = collectProblems(page);
      /** @type {Tab} */
      const tab = {
        async goto(target) {
          await page.goto(target);
          await tab.evaluate(watchErrors);
        },
        evaluate: async (fn, arg) => JSON.parse(await page.evaluate(callSource(fn, arg))),
        waitFor: (fn, arg, timeoutMs) => pollUntil(tab.evaluate, fn, arg, timeoutMs),
        click: (selector) => page.click(selector),
        fill: (selector, value) => tab.evaluate(fillScript, { selector, value }),
        setFile: (selector, path) => page.setInputFiles(selector, path),
        screenshot: async (path) => void (await page.screenshot({ path })),
        problems: async () => [...driverProblems, ...(await tab.evaluate(pageErrors))],
        close: () => context.close(),
      };
      await tab.goto(url);
      return tab;
    },
    close: () => browser.close(),
  };
}

/** Writes a screenshot the driver gave as base64 PNG. */
async function savePng(path, base64) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.from(base64, 'base64'));
}

/** Page script: sets an input's value and fires input and change, as typing and leaving it does. */
function fillScript({ selector, value }) {
  const input = /** @type {HTMLInputElement} */ (document.querySelector(selector));
  if (!input) throw new Error(`no element ${selector}`);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

// ------------------------------------------------------------------- Xvfb

/** @type {Promise<string> | null} */
let xvfbDisplay = null;
/** @type {import('node:child_process').ChildProcess | null} */
let xvfbProcess = null;

/** The display of this process's Xvfb, started on first use. */
function display() {
  xvfbDisplay ??= startXvfb();
  return xvfbDisplay;
}

async function startXvfb() {
  if (!existsSync(XVFB)) throw new Error(`${XVFB} is missing; Firefox and WebKit run on an Xvfb display. Install it with: apt-get install -y xvfb`);
  const fixed = process.env.CONTACTLAB_DISPLAY;
  const args = fixed ? [fixed] : ['-displayfd', '3'];
  const xvfb = spawn(XVFB, [...args, '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  xvfbProcess = xvfb;
  process.on('exit', () => xvfb.kill());
  let log = '';
  xvfb.stderr.on('data', (chunk) => (log += chunk));
  return new Promise((resolve, reject) => {
    xvfb.on('exit', (code) => reject(new Error(`Xvfb ${args.join(' ')} exited (${code}):\n${log}`)));
    if (fixed) {
      // No -displayfd: Xvfb is ready once its socket exists.
      const socket = `/tmp/.X11-unix/X${fixed.replace(':', '')}`;
      const started = Date.now();
      const check = () => (existsSync(socket) ? resolve(fixed) : Date.now() - started > 10_000 ? reject(new Error(`Xvfb ${fixed} did not start:\n${log}`)) : setTimeout(check, 50));
      setTimeout(check, 100);
    } else {
      let number = '';
      xvfb.stdio[3].on('data', (chunk) => {
        number += chunk;
        if (number.includes('\n')) resolve(`:${number.trim()}`);
      });
    }
  });
}

/** Stops this process's Xvfb (after every engine on it has closed). */
export async function stopXvfb() {
  xvfbProcess?.kill();
  xvfbProcess = null;
  xvfbDisplay = null;
}

/** Environment for a browser on the Xvfb display, with Mesa's software GL. */
async function displayEnv() {
  return { ...process.env, DISPLAY: await display(), LIBGL_ALWAYS_SOFTWARE: '1', WAYLAND_DISPLAY: '' };
}

// ----------------------------------------------------------------- Firefox

/** Firefox preferences: no first-run pages, no updates, nothing fetched but the page's own files. */
const FIREFOX_PREFS = {
  'app.update.disabledForTesting': true,
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'extensions.update.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  // The remote agent's recommended preferences (remote.prefs.recommended)
  // do the rest; this keeps the window's size what the test asks for.
  'browser.link.open_newwindow': 3,
  'webgl.force-enabled': true,
};

async function launchFirefox() {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing; the browser tests run Firefox too. Install it with: apt-get install -y firefox-esr`);
  const profile = await mkdtemp(join(tmpdir(), 'contactlab-firefox-'));
  await writeFile(join(profile, 'user.js'), Object.entries(FIREFOX_PREFS).map(([key, value]) => `user_pref(${JSON.stringify(key)}, ${JSON.stringify(value)});\n`).join(''));
  const firefox = spawn(FIREFOX, ['--remote-debugging-port=0', '--no-remote', '--foreground', '--profile', profile, '--width', '1400', '--height', '1000', 'about:blank'], {
    // HOME is the profile's folder: Firefox refuses to run as root when
    // HOME belongs to another user (as in GitHub's job containers).
    env: { ...(await displayEnv()), HOME: profile, MOZ_CRASHREPORTER_DISABLE: '1', MOZ_DISABLE_SAFE_MODE_KEY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => firefox.kill();
  process.on('exit', kill);
  let log = '';
  const endpoint = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Firefox printed no WebDriver BiDi address in 60 s:\n${log}`)), 60_000);
    const read = (chunk) => {
      log += chunk;
      const match = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    firefox.stdout.on('data', read);
    firefox.stderr.on('data', read);
    firefox.on('exit', (code) => reject(new Error(`${FIREFOX} exited (${code}) before WebDriver BiDi started:\n${log}`)));
  });
  const bidi = await BiDi.connect(`${endpoint}/session`);
  const session = await bidi.send('session.new', { capabilities: { alwaysMatch: { acceptInsecureCerts: false } } });
  await bidi.send('session.subscribe', { events: ['log.entryAdded'] });
  const version = session.capabilities.browserVersion;
  return {
    name: 'firefox',
    version,
    async open(url) {
      const { context } = await bidi.send('browsingContext.create', { type: 'tab' });
      await bidi.send('browsingContext.setViewport', { context, viewport: VIEWPORT });
      const logged = [];
      const onLog = (params) => {
        if (params.source?.context === context && params.level === 'error') logged.push(`${params.type === 'javascript' ? 'page error' : 'console error'}: ${params.text}`);
      };
      bidi.on('log.entryAdded', onLog);
      const node = async (selector) => {
        const { nodes } = await bidi.send('browsingContext.locateNodes', { context, locator: { type: 'css', value: selector }, maxNodeCount: 1 });
        if (!nodes.length) throw new Error(`no element ${selector}`);
        return { sharedId: nodes[0].sharedId };
      };
      /** @type {Tab} */
      const tab = {
        async goto(target) {
          await bidi.send('browsingContext.navigate', { context, url: target, wait: 'complete' });
          await tab.evaluate(watchErrors);
        },
        async evaluate(fn, arg) {
          const result = await bidi.send('script.evaluate', { expression: callSource(fn, arg), target: { context }, awaitPromise: true, resultOwnership: 'none' });
          if (result.type === 'exception') throw new Error(`in the page: ${result.exceptionDetails.text}`);
          return JSON.parse(result.result.value);
        },
        waitFor: (fn, arg, timeoutMs) => pollUntil(tab.evaluate, fn, arg, timeoutMs),
        async click(selector) {
          const element = await node(selector);
          // As playwright's click does: scroll it into view if needed and
          // wait until the element itself is what a click at its centre
          // hits (a panel that is still laying out may move it meanwhile).
          const end = Date.now() + 10_000;
          for (;;) {
            const { result } = await bidi.send('script.callFunction', { functionDeclaration: HIT_AT_CENTRE, arguments: [element], target: { context }, awaitPromise: false, resultOwnership: 'none' });
            if (result.value === true) break;
            if (Date.now() > end) throw new Error(`a click at the centre of ${selector} hits ${result.value}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await bidi.send('input.performActions', {
            context,
            actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', x: 0, y: 0, origin: { type: 'element', element } }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] }],
          });
          await bidi.send('input.releaseActions', { context });
        },
        fill: (selector, value) => tab.evaluate(fillScript, { selector, value }),
        setFile: async (selector, path) => bidi.send('input.setFiles', { context, element: await node(selector), files: [path] }),
        screenshot: async (path) => savePng(path, (await bidi.send('browsingContext.captureScreenshot', { context })).data),
        problems: async () => [...logged, ...(await tab.evaluate(pageErrors))],
        async close() {
          bidi.off('log.entryAdded', onLog);
          await bidi.send('browsingContext.close', { context });
        },
      };
      await tab.goto(url);
      return tab;
    },
    async close() {
      await bidi.send('browser.close', {}).catch(() => {});
      bidi.close();
      // browser.close ends it; a Firefox that hangs is killed after 10 s.
      const timer = setTimeout(kill, 10_000);
      await new Promise((resolve) => (firefox.exitCode === null ? firefox.once('exit', resolve) : resolve()));
      clearTimeout(timer);
      process.off('exit', kill);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Page function of an element: scrolls it into view if needed; true when a
 * click at its centre would hit it (or a child), else what it would hit.
 */
const HIT_AT_CENTRE = `(element) => {
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return element.contains(hit) || (hit ? hit.id || hit.tagName : 'nothing');
}`;

/** A WebDriver BiDi connection: commands by id, events to listeners. */
class BiDi {
  /** @param {string} url */
  static async connect(url) {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new BiDi(socket);
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function, method: string}>} */
    this.pending = new Map();
    /** @type {Map<string, Set<Function>>} */
    this.listeners = new Map();
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.id !== undefined) {
        const call = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === 'error') call?.reject(new Error(`${call.method}: ${message.error}: ${message.message}`));
        else call?.resolve(message.result);
      } else if (message.type === 'event') {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
      }
    });
    socket.on('close', () => {
      for (const call of this.pending.values()) call.reject(new Error(`${call.method}: the browser closed the connection`));
      this.pending.clear();
    });
  }

  /** @param {string} method @param {object} params */
  send(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(listener);
  }

  off(event, listener) {
    this.listeners.get(event)?.delete(listener);
  }

  close() {
    this.socket.close();
  }
}

// ------------------------------------------------------------------ WebKit

function miniBrowser() {
  const found = [process.env.WEBKIT_MINIBROWSER, ...MINIBROWSER_CANDIDATES].find((path) => path && existsSync(path));
  if (!found) throw new Error(`WebKitGTK's MiniBrowser is missing (looked in ${MINIBROWSER_CANDIDATES.join(', ')}); the browser tests run WebKit too. Install it with: apt-get install -y webkit2gtk-driver`);
  return found;
}

/** A free TCP port on 127.0.0.1 (for WebKitWebDriver, which cannot pick one itself). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

async function launchWebKit() {
  if (!existsSync(WEBKIT_DRIVER)) throw new Error(`${WEBKIT_DRIVER} is missing; the browser tests run WebKit too. Install it with: apt-get install -y webkit2gtk-driver`);
  const binary = miniBrowser();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: await displayEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  driver.stdout.on('data', (chunk) => (log += chunk));
  driver.stderr.on('data', (chunk) => (log += chunk));
  const base = `http://127.0.0.1:${port}`;
  /** One WebDriver command; a WebDriver error becomes an Error with its message. */
  const command = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const reply = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${reply.value?.error}: ${reply.value?.message}`);
    return reply.value;
  };
  const started = Date.now();
  for (;;) {
    const ready = await command('GET', '/status').then((status) => status.ready, () => false);
    if (ready) break;
    if (driver.exitCode !== null || Date.now() - started > 30_000) throw new Error(`WebKitWebDriver did not start on port ${port}:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const kill = () => driver.kill();
  process.on('exit', kill);
  /** @type {Set<string>} */
  const sessions = new Set();
  return {
    name: 'webkit',
    version: '',
    async open(url) {
      // One MiniBrowser per tab: a fresh session is a fresh browser, like a fresh context.
      const { sessionId, capabilities } = await command('POST', '/session', {
        capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary, args: ['--automation'] } } },
      });
      sessions.add(sessionId);
      this.version = capabilities.browserVersion;
      const at = `/session/${sessionId}`;
      // The window's size, less what MiniBrowser's frame takes, is the viewport.
      await command('POST', `${at}/window/rect`, { width: VIEWPORT.width, height: VIEWPORT.height });
      const frame = await command('POST', `${at}/execute/sync`, { script: 'return [outerWidth - innerWidth, outerHeight - innerHeight];', args: [] });
      await command('POST', `${at}/window/rect`, { width: VIEWPORT.width + frame[0], height: VIEWPORT.height + frame[1] });
      const element = async (selector) => {
        const found = await command('POST', `${at}/element`, { using: 'css selector', value: selector });
        return found[WEBDRIVER_ELEMENT];
      };
      /** @type {Tab} */
      const tab = {
        async goto(target) {
          await command('POST', `${at}/url`, { url: target });
          await tab.evaluate(watchErrors);
        },
        async evaluate(fn, arg) {
          return JSON.parse(await command('POST', `${at}/execute/async`, { script: `const done = arguments[0]; ${callSource(fn, arg)}.then(done, (error) => done(JSON.stringify({ __pageError: String(error && error.stack || error) })));`, args: [] }).then((json) => {
            const value = JSON.parse(json);
            if (value && value.__pageError) throw new Error(`in the page: ${value.__pageError}`);
            return json;
          }));
        },
        waitFor: (fn, arg, timeoutMs) => pollUntil(tab.evaluate, fn, arg, timeoutMs),
        async click(selector) {
          // Right after a load WebKitWebDriver can call a visible, enabled
          // button "not interactable" for a moment; wait for it, as
          // playwright's click waits until an element can take the click.
          const end = Date.now() + 10_000;
          for (;;) {
            try {
              await command('POST', `${at}/element/${await element(selector)}/click`, {});
              return;
            } catch (error) {
              if (!/not interactable/.test(error.message) || Date.now() > end) throw error;
              await new Promise((resolve) => setTimeout(resolve, 200));
            }
          }
        },
        fill: (selector, value) => tab.evaluate(fillScript, { selector, value }),
        async setFile(selector, path) {
          await command('POST', `${at}/element/${await element(selector)}/value`, { text: path });
        },
        screenshot: async (path) => savePng(path, await command('GET', `${at}/screenshot`)),
        problems: () => tab.evaluate(pageErrors),
        async close() {
          sessions.delete(sessionId);
          await command('DELETE', at);
        },
      };
      await command('POST', `${at}/timeouts`, { script: READY_TIMEOUT_MS });
      await tab.goto(url);
      return tab;
    },
    async close() {
      for (const sessionId of sessions) await command('DELETE', `/session/${sessionId}`).catch(() => {});
      kill();
      process.off('exit', kill);
    },
  };
}
