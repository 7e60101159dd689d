// Telling a contact file from a scene file by its content, and pairing a
// contact file with the poses file its `# poses:` comment names
// (www/ui/opened-files.js, www/ui/contact-file.js), as the page does with files opened or dropped
// together.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { importedName } from '../../www/ui/contact-file.js';
import { baseName, fileKind, posesFileNamed, sortOpenedFiles } from '../../www/ui/opened-files.js';

const SCENES = new URL('../../scenes/', import.meta.url);

const CSV = '# contactlab-contacts/1\n# steps: 0\nstep,body_a,body_b,x,y,z,nx,ny,nz,depth\n0,ground,plinth,0.25,0,0.25,0,1,0,-0\n';
const POSED_CSV = '# contactlab-contacts/1\n# poses: out/pillar-poses.csv\nstep,body_a,body_b,x,y,z,nx,ny,nz,depth\n3,ground,plinth,0.25,0,0.25,0,1,0,-0\n';
const POSES = 'step,body,x,y,z,qw,qx,qy,qz\n3,plinth,0,0.1,0,1,0,0,0\n';
const JSONL = '{"step":0,"body_a":"ground","body_b":"plinth","x":0.25,"y":0,"z":0.25,"nx":0,"ny":1,"nz":0,"depth":0}\n';

test('a file is told by its content: contacts, poses, or else a scene file for the core to judge', async () => {
  assert.equal(fileKind(CSV), 'contacts');
  assert.equal(fileKind(`\uFEFF\r\n${CSV.replace(/\n/g, '\r\n')}`), 'contacts', 'a byte order mark and CRLF lines');
  assert.equal(fileKind(JSONL), 'contacts');
  assert.equal(fileKind('# only\n\nstep , body_a , x\n'), 'contacts', 'a header the core will refuse is still a contact file, so the core names its problem');
  assert.equal(fileKind(POSES), 'poses');
  assert.equal(fileKind('{"step":3,"body":"plinth","x":0,"y":0,"z":0,"qw":1,"qx":0,"qy":0,"qz":0}'), 'poses');
  assert.equal(fileKind(await readFile(new URL('pillar.json', SCENES), 'utf8')), 'scene');
  // A broken scene file still goes to the scene loader, whose message names it.
  assert.equal(fileKind('{"format": "contactlab-scene/1", "bodies": ['), 'scene');
  assert.equal(fileKind('{"format":"contactlab-scene/1","bodies":[]}'), 'scene', 'a one-line scene has no "step"');
  assert.equal(fileKind(''), 'scene');
  assert.equal(fileKind('x,y,z\n1,2,3\n'), 'scene');
});

test("the poses file is the one the contacts' comment names, by its last path part", () => {
  assert.equal(posesFileNamed(CSV), null);
  assert.equal(posesFileNamed(POSED_CSV), 'out/pillar-poses.csv');
  assert.equal(posesFileNamed('step,body_a\n#poses:  p.csv  \n'), 'p.csv', 'a comment after the header counts too');
  assert.equal(posesFileNamed('# the poses: none here\n'), null, 'a key with a space is no directive');
  assert.equal(baseName('out\\sub/pillar-poses.csv'), 'pillar-poses.csv');
  assert.equal(importedName('a<b>.csv'), 'Imported: a<b>.csv');
});

test('files opened together: one scene, one contact file and the poses file it names, or one sentence why not', () => {
  const contacts = { name: 'pillar.csv', text: CSV };
  const posed = { name: 'pillar.csv', text: POSED_CSV };
  const poses = { name: 'pillar-poses.csv', text: POSES };
  const scene = { name: 'mine.json', text: '{"format":"contactlab-scene/1"}' };

  assert.deepEqual(sortOpenedFiles([scene]), { scene, contacts: null, poses: null, problem: null });
  assert.deepEqual(sortOpenedFiles([contacts]), { scene: null, contacts, poses: null, problem: null });
  assert.deepEqual(sortOpenedFiles([poses, posed]), { scene: null, contacts: posed, poses, problem: null }, 'in either order');
  assert.deepEqual(sortOpenedFiles([scene, contacts]), { scene, contacts, poses: null, problem: null });

  const problem = (files) => sortOpenedFiles(files).problem ?? '';
  assert.match(problem([posed]), /"pillar\.csv".*"pillar-poses\.csv".*missing/);
  assert.match(problem([posed, { ...poses, name: 'other.csv' }]), /"pillar-poses\.csv".*missing; "other\.csv" is not it/);
  assert.match(problem([poses]), /"pillar-poses\.csv" is a poses file/);
  assert.match(problem([contacts, poses]), /names no poses file/);
  assert.match(problem([contacts, { ...contacts, name: 'b.csv' }]), /one contact file at a time.*"pillar\.csv" and "b\.csv"/);
  assert.match(problem([scene, { ...scene, name: 'b.json' }]), /one scene file at a time/);
  for (const files of [[posed], [poses], [contacts, poses]]) {
    const sorted = sortOpenedFiles(files);
    assert.deepEqual([sorted.scene, sorted.contacts, sorted.poses], [null, null, null], 'nothing is opened with a problem');
  }
});
