// The loading benchmark of `cargo xtask bench` (docs/bench.md, "Loading"):
// the published site (CONTACTLAB_SITE, written by `cargo xtask dist`) on a
// plain gzip host at a sub-path (static-host.mjs), in headless Chromium.
//
// - Bytes: what the host put on the wire until the page was ready, headers
//   included, with service workers blocked (their background download of
//   the whole release starts after the first frame and is not part of it).
// - Ready: from navigation to `data-ready` at the link's step (the step
//   shown with its readout, the link written), on loopback and on two slow
//   links the host plays (one round trip per response, one shared
//   bandwidth), the median of RUNS fresh visits.
// - Lighthouse (LIGHTHOUSE names its command; `cargo xtask bench` installs
//   version 12.2.3 under target/bench-tools): the default page with the
//   mobile and the desktop preset, its own simulated throttling, RUNS runs
//   each: the run with the median performance score, and the range.
//
// Prints the Markdown section for docs/bench.md on stdout (progress goes
// to stderr).

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { launchBrowser } from './harness.mjs';
import { startStaticHost } from './static-host.mjs';

const SITE = process.env.CONTACTLAB_SITE;
const LIGHTHOUSE = process.env.LIGHTHOUSE;
if (!SITE || !LIGHTHOUSE) throw new Error('CONTACTLAB_SITE and LIGHTHOUSE are set by `cargo xtask bench`');
const PREFIX = '/teach/contactlab/';
const RUNS = 3;
const PAGES = [
  { name: 'default page', hash: '', step: '3' },
  { name: 'Wall link', hash: '#scene=wall&method=semi-local&step=3', step: '3' },
];
const LINKS = [
  { name: 'loopback', link: undefined },
  { name: '10 Mbit/s, 40 ms', link: { roundTripMs: 40, bitsPerSecond: 10e6 } },
  { name: '1.6 Mbit/s, 150 ms', link: { roundTripMs: 150, bitsPerSecond: 1.6e6 } },
];

const browser = await launchBrowser();
const results = { pages: [], lighthouse: {} };
try {
  for (const { name, hash, step } of PAGES) {
    for (const { name: linkName, link } of LINKS) {
      const times = [];
      let bytes = 0;
      let requests = 0;
      for (let run = 0; run < RUNS; run++) {
        const host = await startStaticHost({ folder: SITE, prefix: PREFIX, link });
        const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, serviceWorkers: 'block' });
        try {
          const page = await context.newPage();
          // The first moment the page is ready at the link's step, on the
          // page's own clock (0 = navigation start).
          await page.addInitScript((wanted) => {
            new MutationObserver(() => {
              const body = document.body?.dataset;
              if (body && body.ready === 'true' && body.step === wanted && /** @type {any} */ (window).readyAt === undefined) {
                /** @type {any} */ (window).readyAt = performance.now();
              }
            }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-step'] });
          }, step);
          await page.goto(new URL(hash, host.url).href);
          await page.waitForFunction(() => /** @type {any} */ (window).readyAt !== undefined, null, { timeout: 180_000 });
          times.push(await page.evaluate(() => /** @type {any} */ (window).readyAt));
          bytes = host.bytesSent();
          requests = host.log.length;
        } finally {
          await context.close();
          await host.close();
        }
      }
      times.sort((a, b) => a - b);
      results.pages.push({ page: name, link: linkName, readyMs: times[Math.floor(times.length / 2)], bytes, requests });
      console.error(`${name}, ${linkName}: ready in ${times.map((t) => t.toFixed(0)).join(' / ')} ms, ${bytes} bytes, ${requests} requests`);
    }
  }
} finally {
  await browser.close();
}

const run = promisify(execFile);
const host = await startStaticHost({ folder: SITE, prefix: PREFIX });
try {
  for (const preset of ['mobile', 'desktop']) {
    const runs = [];
    for (let index = 0; index < RUNS; index++) runs.push(await lighthouse(preset));
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    const range = (key) => `${Math.min(...runs.map(key)).toFixed(0)}–${Math.max(...runs.map(key)).toFixed(0)}`;
    results.lighthouse[preset] = { ...runs[Math.floor(runs.length / 2)], performanceRange: range((r) => r.scores.performance), tbtRange: range((r) => r.tbtMs) };
    console.error(`Lighthouse ${preset}: performance ${runs.map((r) => r.scores.performance).join(' / ')}, blocking ${runs.map((r) => r.tbtMs.toFixed(0)).join(' / ')} ms`);
  }
} finally {
  await host.close();
}

/** One Lighthouse run on the default page. @param {'mobile' | 'desktop'} preset */
async function lighthouse(preset) {
  const output = path.join(os.tmpdir(), `contactlab-lighthouse-${process.pid}-${preset}.json`);
  const args = [
    host.url,
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run',
  ];
  if (preset === 'desktop') args.push('--preset=desktop');
  await run(LIGHTHOUSE, args, { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM || '/usr/bin/chromium' }, timeout: 600_000 });
  const report = JSON.parse(await readFile(output, 'utf8'));
  const audit = (id) => report.audits[id]?.numericValue ?? null;
  return {
    version: report.lighthouseVersion,
    scores: Object.fromEntries(Object.entries(report.categories).map(([id, category]) => [id, Math.round(category.score * 100)])),
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    speedIndexMs: audit('speed-index'),
    longTasks: (report.audits['long-tasks']?.details?.items ?? []).slice(0, 3).map((task) => ({ url: task.url.replace(host.url, '').replace(/^v\/[^/]+\/app-[^/]+\//, ''), ms: Math.round(task.duration) })),
  };
}
const kB = (bytes) => `${(bytes / 1000).toFixed(0)} kB`;
const lines = [
  '## Loading',
  '',
  `The published site (\`cargo xtask dist\`) on a plain static host at a sub-path: gzip on the fly, \`Cache-Control: no-cache\`, no COOP/COEP headers. Headless Chromium (${await browserVersion()}) on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), a fresh profile per visit, service workers blocked (their background download of the whole release starts after the first frame). Ready: from navigation to \`data-ready\` at the link's step, median of ${RUNS} visits; the slow links are played by the host (one round trip before each response, one bandwidth shared by all responses). Bytes: everything the host sent until then, headers included. Budgets (issue 27): 600 kB before ready; ready within 1.5 s on 10 Mbit/s, 40 ms and within 4 s on 1.6 Mbit/s, 150 ms.`,
  '',
  '| page | link | ready | on the wire | requests |',
  '| --- | --- | ---: | ---: | ---: |',
  ...results.pages.map((r) => `| ${r.page} | ${r.link} | ${(r.readyMs / 1000).toFixed(2)} s | ${kB(r.bytes)} | ${r.requests} |`),
  '',
  `Lighthouse ${results.lighthouse.mobile?.version ?? ''} on the default page, its mobile and desktop presets (simulated throttling; the view is drawn by SwiftShader, Chromium's software WebGL, as on every machine here), ${RUNS} runs each: the run with the median performance score, and the range over the runs. Budgets: performance ≥ 95, layout shift ≤ 0.05, total blocking time ≤ 150 ms (mobile).`,
  '',
  '| preset | performance (range) | accessibility | best practices | SEO | first paint | largest paint | blocking time (range) | layout shift | longest tasks |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...['mobile', 'desktop'].map((preset) => {
    const l = results.lighthouse[preset];
    const tasks = l.longTasks.map((t) => `${t.ms} ms ${t.url || '(page)'}`).join('; ');
    return `| ${preset} | ${l.scores.performance} (${l.performanceRange}) | ${l.scores.accessibility} | ${l.scores['best-practices']} | ${l.scores.seo} | ${(l.fcpMs / 1000).toFixed(2)} s | ${(l.lcpMs / 1000).toFixed(2)} s | ${l.tbtMs.toFixed(0)} ms (${l.tbtRange}) | ${l.cls.toFixed(3)} | ${tasks} |`;
  }),
  '',
];
console.log(lines.join('\n'));

async function browserVersion() {
  const browser = await launchBrowser();
  try {
    return `Chromium ${browser.version()}`;
  } finally {
    await browser.close();
  }
}
