// The engines the browser tests run besides Chromium (tests/e2e/engines.mjs)
// are installed in three places that must agree: xtask's setup (cargo xtask
// test installs them), .ci/run (CI, and the Pages workflow through it) and
// the paths engines.mjs starts. Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file) => readFileSync(`${root}${file}`, 'utf8');

/** xtask's ENGINE_PACKAGES: [program, Debian package] pairs. */
function enginePackages() {
  const block = /ENGINE_PACKAGES: \[\(&str, &str\); \d+\] = \[([\s\S]*?)\n\];/.exec(read('xtask/src/setup.rs'));
  assert.ok(block, 'xtask/src/setup.rs has no ENGINE_PACKAGES');
  return [...block[1].matchAll(/\("([^"]+)", "([^"]+)"\)/g)].map((match) => [match[1], match[2]]);
}

test('.ci/run installs every engine package that cargo xtask test installs', () => {
  const packages = enginePackages();
  assert.deepEqual(packages.map(([, name]) => name).sort(), ['firefox-esr', 'webkit2gtk-driver', 'xvfb']);
  const run = read('.ci/run');
  for (const [program, name] of packages) assert.ok(run.includes(`[ -x ${program} ] || apt_packages+=(${name})`), `.ci/run does not install ${name} when ${program} is missing`);
});

test('tests/e2e/engines.mjs starts the programs that xtask installs', () => {
  const engines = read('tests/e2e/engines.mjs');
  for (const [program] of enginePackages()) assert.ok(engines.includes(`'${program}'`), `engines.mjs does not start ${program}`);
});
