// Drives the page's #bench mode in headless Chromium for `cargo xtask bench`.
// Usage: node xtask/bench.mjs <base-url> <warm-up> --engines=<id,…> --compare-steps=<n> <scene:method:steps:solver>...
// Prints one JSON line per workload (the page's #bench-result), one with
// the first drawn frame of a normal page load, one per engine with the
// time from choosing it in the picker to its first frame, and one with the
// time Compare takes on the Pillar to the given step (the default page's
// settings, from the click to the filled table).
import { chromium } from 'playwright-core';

const [base, warmUp, enginesArg, compareArg, ...jobs] = process.argv.slice(2);
const engines = (enginesArg ?? '').replace(/^--engines=/, '').split(',').filter(Boolean);
const compareSteps = Number((compareArg ?? '').replace(/^--compare-steps=/, ''));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  // A fresh load of the default page: when was its first frame drawn?
  await page.goto(`${base}#scene=pillar`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  const firstFrame = await page.evaluate(() => Number(document.body.dataset.firstFrameMs));
  console.log(JSON.stringify({ first_frame_ms: firstFrame }));
  // Each engine chosen in a freshly loaded page: its worker fetches the
  // full core, the adapter and the package (from the browser's cache after
  // the first engine, as for a visitor who has chosen one), then draws.
  for (const engine of engines) {
    await page.goto('about:blank');
    await page.goto(`${base}#scene=pillar&step=0`);
    await page.waitForSelector('body[data-ready="true"][data-run="idle"]', { timeout: 60000 });
    const start = Date.now();
    await page.selectOption('#method-picker', engine);
    await page.waitForSelector(`body[data-ready="true"][data-run="idle"][data-method="${engine}"]`, { timeout: 120000 });
    console.log(JSON.stringify({ engine, engine_first_frame_ms: Date.now() - start }));
  }
  // Compare on the Pillar: from the click to the filled table, with the
  // page's default settings (a page opened without a link).
  if (compareSteps > 0) {
    await page.goto('about:blank');
    await page.goto(base);
    await page.waitForSelector('body[data-ready="true"][data-run="idle"]', { timeout: 60000 });
    await page.fill('#compare-steps', String(compareSteps));
    const start = Date.now();
    await page.click('#compare');
    await page.waitForFunction(() => document.body.dataset.compare === 'done', null, { timeout: 600000 });
    console.log(JSON.stringify({ compare_ms: Date.now() - start, steps: compareSteps }));
  }
  for (const job of jobs) {
    const [scene, method, steps, solver] = job.split(':');
    const total = Number(steps) + Number(warmUp);
    await page.goto('about:blank');
    await page.goto(`${base}#bench&scene=${scene}&method=${method}&steps=${total}&iters=1000&solver=${solver}`);
    const result = await page.waitForSelector('#bench-result[data-done="true"]', { timeout: 600000 });
    console.log((await result.textContent()).replace(/\s+/g, ' '));
  }
} finally {
  await browser.close();
}
