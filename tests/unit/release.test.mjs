// The release rules of a link (www/state/release.js) and the Embed button's
// snippet (www/ui/embed.js): which page a link with `v=` opens, and HTML
// that stays inert whatever a scene file calls itself.
import assert from 'node:assert/strict';
import test from 'node:test';
import { isVersion, readRelease, releaseUrl, versionDecision } from '../../www/state/release.js';
import { embedSnippet, escapeAttribute } from '../../www/ui/embed.js';

const published = { version: '0.2.0', build: 'abc', siteRoot: '' };
const development = { version: '0.2.0', build: null, siteRoot: null };

test('a published page reads its release from its meta tags; a development page from the core', () => {
  const tags = { 'contactlab-version': '0.2.0', 'contactlab-build': 'abc', 'contactlab-site-root': '../../' };
  assert.deepEqual(readRelease((name) => tags[name] ?? null, '9.9.9'), { version: '0.2.0', build: 'abc', siteRoot: '../../' });
  assert.deepEqual(readRelease(() => null, '0.3.0'), { version: '0.3.0', build: null, siteRoot: null });
});

test('versions are three numbers and an optional label, nothing that could leave the v/ folder', () => {
  for (const good of ['0.1.0', '12.0.3', '0.2.0-rc.1']) assert.ok(isVersion(good), good);
  for (const bad of ['', '0.1', 'v0.1.0', '0.1.0/../x', '../../0.1.0', '0.1.0-', '0.1.0-<b>', '1.2.3.4']) assert.ok(!isVersion(bad), bad);
});

test('a link with no version, or with this page\'s, opens here', () => {
  assert.deepEqual(versionDecision({ linked: null, release: published, siteVersions: null }), { action: 'open' });
  assert.deepEqual(versionDecision({ linked: '0.2.0', release: published, siteVersions: ['0.1.0', '0.2.0'] }), { action: 'open' });
});

test('an older release the site holds opens in its own folder', () => {
  assert.deepEqual(versionDecision({ linked: '0.1.0', release: published, siteVersions: ['0.1.0', '0.2.0'] }), { action: 'redirect', version: '0.1.0' });
  assert.equal(releaseUrl('https://host/teach/contactlab/', '0.1.0', '#v=0.1.0&scene=wall'), 'https://host/teach/contactlab/v/0.1.0/#v=0.1.0&scene=wall');
});

test('a release the site lacks opens here with a notice naming both versions and the changelog', () => {
  const decision = versionDecision({ linked: '0.0.9', release: published, siteVersions: ['0.1.0', '0.2.0'] });
  assert.equal(decision.action, 'notice');
  assert.match(decision.message, /0\.0\.9/);
  assert.match(decision.message, /0\.2\.0/);
  assert.equal(decision.changelog, true);
  const dev = versionDecision({ linked: '0.1.0', release: development, siteVersions: null });
  assert.equal(dev.action, 'notice');
  assert.match(dev.message, /development build/);
});

test('a malformed version is quoted as text and opens here', () => {
  const decision = versionDecision({ linked: '<img src=x onerror=alert(1)>', release: published, siteVersions: ['0.1.0'] });
  assert.equal(decision.action, 'notice');
  assert.match(decision.message, /^v="<img src=x onerror=alert\(1\)>" in the link is not a version; it opens with ContactLab 0\.2\.0\.$/);
  assert.equal(decision.changelog, false);
});

test('the embed snippet escapes whatever a scene file calls itself', () => {
  assert.equal(escapeAttribute(`a"b<c>&'d`), 'a&quot;b&lt;c&gt;&amp;&#39;d');
  const snippet = embedSnippet('https://host/#v=0.2.0&scene=pillar&embed=1', 'ContactLab: "><script>alert(1)</script>');
  assert.match(snippet, /^<iframe src="https:\/\/host\/#v=0\.2\.0&amp;scene=pillar&amp;embed=1" title="ContactLab: &quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;" /);
  assert.doesNotMatch(snippet, /<script/);
  assert.match(snippet, /allow="fullscreen; clipboard-write"/);
});
