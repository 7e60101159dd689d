// The published site, as `cargo xtask dist` writes it and a plain static
// host serves it (tests/e2e/static-host.mjs: a sub-path, gzip, no-cache,
// no COOP/COEP). `cargo xtask test` builds the site twice, two releases into
// one folder, and names it in CONTACTLAB_SITE and its releases (older,
// current) in CONTACTLAB_SITE_VERSIONS. The development server's page
// (CONTACTLAB_URL) is the reference for the numbers.

import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BASE_URL, READY_TIMEOUT_MS, SCENES_DIR, bannerText, collectProblems, launchBrowser, stableReadout, waitReady } from './harness.mjs';
import { startStaticHost } from './static-host.mjs';

const SITE = process.env.CONTACTLAB_SITE;
const [OLDER, CURRENT] = (process.env.CONTACTLAB_SITE_VERSIONS ?? '').split(',');
if (!SITE || !OLDER || !CURRENT) {
  throw new Error('CONTACTLAB_SITE and CONTACTLAB_SITE_VERSIONS=older,current name the site to test; `cargo xtask test` sets them');
}
const PREFIX = '/teach/contactlab/';
/** The budget for the default page before it is ready. */
const WIRE_BUDGET_BYTES = 600_000;

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {Awaited<ReturnType<typeof startStaticHost>>} */
let host;

before(async () => {
  browser = await launchBrowser();
  host = await startStaticHost({ folder: SITE, prefix: PREFIX });
});

after(async () => {
  await host?.close();
  await browser?.close();
});

/**
 * A fresh context on `url`, collecting page errors (the worker's included).
 * @param {string} url
 * @param {import('playwright-core').BrowserContextOptions} [options]
 */
async function open(url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto(url);
  return { context, page, problems };
}

/** The development server's readout for `hash` (the numbers to match). */
async function developmentReadout(hash, expected) {
  const { context, page, problems } = await open(new URL(hash, BASE_URL).href);
  try {
    await waitReady(page, expected);
    assert.deepEqual(problems, []);
    return { values: await stableReadout(page), hash: await page.evaluate(() => window.location.hash) };
  } finally {
    await context.close();
  }
}

test('the site opens the default page and a scene-file link with the numbers of the development server', async () => {
  const reference = await developmentReadout('', { scene: 'pillar' });
  const { context, page, problems } = await open(host.url);
  try {
    await waitReady(page, { scene: 'pillar' });
    assert.deepEqual(await stableReadout(page), reference.values);
    const shown = await page.evaluate(() => ({ ...document.body.dataset, hash: window.location.hash, version: document.getElementById('version').textContent }));
    assert.equal(shown.version.startsWith(`Version ${CURRENT}`), true, shown.version);
    assert.match(shown.hash, new RegExp(`^#v=${CURRENT.replace(/\./g, '\\.')}&`), 'the link names its release first');
    // A plain host sends no COOP/COEP: the clock is coarse, and the page says so.
    assert.equal(await page.locator('#timer-note').isVisible(), true);
    assert.match(await page.locator('#timer-note').textContent(), /not cross-origin isolated/);
    // The write-up linked from the help is served beside the wasm, as text.
    const writeUp = await page.evaluate(async () => {
      const link = new URL('pkg/method.txt', document.querySelector('script[type=module]').src);
      const response = await fetch(link);
      return { status: response.status, type: response.headers.get('content-type') };
    });
    assert.deepEqual(writeUp, { status: 200, type: 'text/plain; charset=utf-8' });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }

  // A user's scene file, opened on the development page, then its link on the site.
  const dev = await open(BASE_URL);
  let fileHash = '';
  let fileValues = {};
  try {
    await waitReady(dev.page, { scene: 'pillar' });
    const text = (await readFile(`${SCENES_DIR}sliding-spike.json`, 'utf8')).replace('"Sliding spike"', '"A published spike"');
    await dev.page.setInputFiles('#file-input', { name: 'published.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await dev.page.waitForFunction(() => document.body.dataset.scene === '__file__', null, { timeout: READY_TIMEOUT_MS });
    await waitReady(dev.page, { scene: '__file__' });
    fileHash = await dev.page.evaluate(() => window.location.hash);
    fileValues = await stableReadout(dev.page);
  } finally {
    await dev.context.close();
  }
  const site = await open(new URL(fileHash.replace(/^#v=[^&]*&/, '#'), host.url).href);
  try {
    await waitReady(site.page, { scene: '__file__' });
    assert.equal(await site.page.locator('#scene-title').textContent(), 'A published spike');
    assert.deepEqual(await stableReadout(site.page), fileValues);
    assert.deepEqual(site.problems, []);
  } finally {
    await site.context.close();
  }
});

test('a link of the older release opens its own build; one the site lacks, or a malformed v=, opens the current build with a notice', async () => {
  const hash = `#v=${OLDER}&scene=wall&method=semi-local&step=3`;
  const reference = await developmentReadout(hash.replace(/^#v=[^&]*&/, '#'), { scene: 'wall', step: 3 });
  const { context, page, problems } = await open(new URL(hash, host.url).href);
  try {
    await page.waitForURL(new RegExp(`${PREFIX}v/${OLDER.replace(/\./g, '\\.')}/#`), { timeout: READY_TIMEOUT_MS });
    await waitReady(page, { scene: 'wall', step: 3 });
    assert.equal(await page.evaluate(() => document.body.dataset.version), OLDER);
    assert.deepEqual(await stableReadout(page), reference.values);
    assert.equal(await bannerText(page, 'notice'), null);
    // Its links point at the site's root and keep naming the older release.
    const link = await page.evaluate(() => {
      const root = new URL(document.querySelector('meta[name="contactlab-site-root"]').content, window.location.href);
      return { root: root.href, hash: window.location.hash };
    });
    assert.equal(link.root, host.url);
    assert.match(link.hash, new RegExp(`^#v=${OLDER.replace(/\./g, '\\.')}&`));
    assert.deepEqual(problems, []);

    for (const [linked, expected] of [
      ['0.0.1', /made with ContactLab 0\.0\.1.*opens with ContactLab/],
      ['<b>nine</b>', /v="<b>nine<\/b>" in the link is not a version/],
    ]) {
      await page.goto('about:blank');
      await page.goto(new URL(`#v=${encodeURIComponent(linked)}&scene=pillar&step=1`, host.url).href);
      await waitReady(page, { scene: 'pillar', step: 1 });
      assert.equal(await page.evaluate(() => document.body.dataset.version), CURRENT);
      const notice = await bannerText(page, 'notice');
      assert.match(notice ?? '', expected);
      assert.match(notice ?? '', new RegExp(CURRENT.replace(/\./g, '\\.')));
      if (linked === '0.0.1') assert.match(await page.locator('#notice .message a').getAttribute('href'), /CHANGELOG\.txt$/);
      // Shown as text: the notice holds no element but the changelog link.
      assert.equal(await page.locator('#notice .message b').count(), 0);
    }
    assert.equal(await page.locator('#notice .message a').count(), 0, 'a malformed version gets no changelog link');
  } finally {
    await context.close();
  }
});

test('an embed=1 link works in an iframe of another origin: the view, Play and Step, no settings, and a way out', async () => {
  const hostPage = await startStaticHost({
    folder: SITE,
    prefix: '/nothing/',
    extra: {
      '/course.html': `<!doctype html><title>A course page</title><h1>Week 3: contact points</h1>
        <iframe id="lab" src="${host.url}#scene=pillar&method=opposing&step=3&embed=1" title="ContactLab" width="900" height="560" style="border:0"></iframe>`,
    },
  });
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${hostPage.origin}/course.html`);
    const frame = page.frames().find((f) => f.url().startsWith(host.url)) ?? (await (await page.waitForSelector('#lab')).contentFrame());
    assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin, 'the iframe is of another origin');
    await waitReady(frame, { scene: 'pillar', step: 3 });
    assert.equal(await frame.evaluate(() => document.body.dataset.embed), 'true');
    for (const selector of ['#view', '#view-play', '#view-step', '#headline', '#legend', '#open-full']) {
      assert.equal(await frame.locator(selector).isVisible(), true, `${selector} is shown`);
    }
    const settingControls = await frame.locator('input, select, textarea').evaluateAll((elements) => elements.filter((e) => e.checkVisibility()).map((e) => e.id || e.name));
    assert.deepEqual(settingControls, [], 'no setting can be changed in the embedded view');
    const full = await frame.locator('#open-full').getAttribute('href');
    assert.ok(full.startsWith(`${host.url}#v=${CURRENT}&`), full);
    assert.doesNotMatch(full, /embed=/);
    assert.match(full, /method=opposing/);

    await frame.click('#view-step');
    await waitReady(frame, { step: 4 });
    await frame.click('#view-play');
    await frame.waitForFunction(() => Number(document.body.dataset.step) >= 7, null, { timeout: READY_TIMEOUT_MS });
    await frame.click('#view-play');
    await waitReady(frame, { scene: 'pillar' });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await hostPage.close();
  }
});

test('the default page is ready within 600 kB on the wire', async () => {
  // A host of its own, so only this visit is counted; service workers are
  // blocked, so the background precache (which does not count) is not
  // mixed in.
  const fresh = await startStaticHost({ folder: SITE, prefix: PREFIX });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(fresh.url);
    await waitReady(page, { scene: 'pillar' });
    const bytes = fresh.bytesSent();
    const full = fresh.log.filter((path) => path.includes('/pkg/full/'));
    console.log(`default page: ${fresh.log.length} requests, ${bytes} bytes on the wire before ready (budget ${WIRE_BUDGET_BYTES})`);
    assert.ok(bytes <= WIRE_BUDGET_BYTES, `${bytes} bytes on the wire (budget ${WIRE_BUDGET_BYTES}); requests: ${fresh.log.join(' ')}`);
    assert.deepEqual(full, [], 'the module with parry3d is not loaded for the default page');
  } finally {
    await context.close();
    await fresh.close();
  }
});

test('after one visit the site works offline: with the server stopped, a reload shows the page, it plays, and parry runs', async () => {
  const offlineHost = await startStaticHost({ folder: SITE, prefix: PREFIX });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    const hash = '#scene=pillar&method=opposing&mesher=paper-fine&step=2';
    await page.goto(new URL(hash, offlineHost.url).href);
    await waitReady(page, { scene: 'pillar', step: 2 });
    const online = await stableReadout(page);
    await page.waitForFunction(() => document.body.dataset.offline === 'controlled', null, { timeout: READY_TIMEOUT_MS });
    await offlineHost.close();

    await page.reload();
    await waitReady(page, { scene: 'pillar', step: 2 });
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
    assert.deepEqual(await stableReadout(page), online, 'the paper-fine meshes came from the offline copy');
    assert.equal(await bannerText(page, 'error-banner'), null);
    await page.click('#play');
    await page.waitForFunction(() => Number(document.body.dataset.step) >= 5, null, { timeout: READY_TIMEOUT_MS });
    await page.click('#play');
    await waitReady(page, { scene: 'pillar' });
    // The module with parry3d, never fetched on the first visit, is in the
    // offline copy too.
    await page.evaluate(() => {
      window.location.hash = '#scene=pillar&method=parry&step=2';
    });
    await waitReady(page, { scene: 'pillar', method: 'parry', step: 2 });
    assert.equal(await bannerText(page, 'error-banner'), null);
  } finally {
    await context.close();
  }
});

test('an engine chosen once works offline: its package is kept when first fetched, not precached', async () => {
  const offlineHost = await startStaticHost({ folder: SITE, prefix: PREFIX });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(new URL('#scene=pillar&step=1', offlineHost.url).href);
    await waitReady(page, { scene: 'pillar', step: 1 });
    await page.waitForFunction(() => document.body.dataset.offline === 'controlled', null, { timeout: READY_TIMEOUT_MS });
    assert.deepEqual(offlineHost.log.filter((p) => p.includes('/pkg/engines/')), [], 'the service worker precached an engine');
    await page.selectOption('#method-picker', 'jolt');
    await waitReady(page, { scene: 'pillar', method: 'jolt', step: 1 });
    const online = await stableReadout(page);
    await offlineHost.close();
    await page.reload();
    await waitReady(page, { scene: 'pillar', method: 'jolt', step: 1 });
    assert.equal(await bannerText(page, 'error-banner'), null);
    assert.deepEqual(await stableReadout(page), online, 'Jolt offline shows what it showed online');
  } finally {
    await context.close();
  }
});

test('a new deployment is offered with "new version — reload", and taken only when asked', async () => {
  // A copy of the site whose service worker is then replaced, as a new
  // deployment replaces it.
  const folder = await mkdtemp(path.join(os.tmpdir(), 'contactlab-site-'));
  await cp(SITE, folder, { recursive: true });
  const deployHost = await startStaticHost({ folder, prefix: PREFIX });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(new URL('#scene=pillar&step=1', deployHost.url).href);
    await waitReady(page, { scene: 'pillar', step: 1 });
    await page.waitForFunction(() => document.body.dataset.offline === 'controlled', null, { timeout: READY_TIMEOUT_MS });
    const build = () => page.evaluate(() => new Promise((resolve) => {
      navigator.serviceWorker.addEventListener('message', (event) => resolve(event.data.build), { once: true });
      navigator.serviceWorker.controller.postMessage('build');
    }));
    const first = await build();

    const worker = path.join(folder, 'sw.js');
    const code = await readFile(worker, 'utf8');
    await writeFile(worker, code.replace(/^const BUILD = "([^"]*)";/m, 'const BUILD = "$1 redeployed";'));
    await page.reload();
    await waitReady(page, { scene: 'pillar', step: 1 });
    await page.waitForFunction(() => /new version of ContactLab is ready/.test(document.querySelector('#notice .message')?.textContent ?? ''), null, { timeout: READY_TIMEOUT_MS });
    assert.equal(await build(), first, 'the open page keeps the build it was loaded with');
    await Promise.all([page.waitForEvent('load', { timeout: READY_TIMEOUT_MS }), page.click('#notice .message button')]);
    await waitReady(page, { scene: 'pillar', step: 1 });
    assert.equal(await build(), `${first} redeployed`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await deployHost.close();
    await rm(folder, { recursive: true, force: true });
  }
});
