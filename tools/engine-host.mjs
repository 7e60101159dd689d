/**
 * @file Runs an engine adapter (`www/engines/<id>.js`) in Node, for the CLI
 * and the tables (`docs/design/engines.md`). `contactlab` starts it as
 * `node tools/engine-host.mjs` and speaks to it in lines of JSON over its
 * standard input and output:
 *
 * - first `{"engine": id, "mode": "ours" | "own", "scene": <engine scene>}`,
 *   answered by `{"ready": true}`; the same request again later frees the
 *   world and makes one of the new scene (the tables run many scenes with
 *   one host; an engine's package is loaded once);
 * - then `{"poses": hex}` (our-pose mode), answered by `{"contacts": hex}`,
 *   or `{"ownStep": true}` (own mode), answered by
 *   `{"poses": hex, "contacts": hex}`.
 *
 * `hex` is the little-endian bytes of a `Float64Array`, two hex digits a
 * byte, so no number is rounded on the way. Any failure is answered by
 * `{"error": sentence}` and the host exits; the CLI shows the sentence.
 *
 * The module also exports `nodeHost`, the `host` an adapter's `load`
 * takes, for scripts that run adapters directly.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MODULES = join(ROOT, 'node_modules');

/** The adapter `host` for Node: package files come from the repository's node_modules. */
export const nodeHost = {
  node: true,
  /** @param {string} path */
  url: (path) => join(NODE_MODULES, path),
  /** @param {string} path */
  import: (path) => import(pathToFileURL(join(NODE_MODULES, path)).href),
  /** @param {string} path */
  bytes: async (path) => new Uint8Array(await readFile(join(NODE_MODULES, path))),
  /**
   * A classic (UMD) script's export: in Node its CommonJS `module.exports`.
   * @param {string} path
   * @param {string} _name the global the script defines in a browser
   */
  script: async (path, _name) => createRequire(import.meta.url)(join(NODE_MODULES, path)),
};

/**
 * The adapter of engine `id`.
 * @param {string} id
 */
export async function adapter(id) {
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`"${id}" is not an engine id`);
  return import(pathToFileURL(join(ROOT, 'www', 'engines', `${id}.js`)).href);
}

/** @param {Float64Array} array */
export function toHex(array) {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('hex');
}

/** @param {string} hex */
export function fromHex(hex) {
  const bytes = Buffer.from(hex, 'hex');
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Float64Array(copy.buffer);
}

/** Serves the pipe protocol above until standard input ends. */
async function serve() {
  // Engines print to stdout (Emscripten's `print`); the protocol owns it.
  const out = process.stdout.write.bind(process.stdout);
  console.log = console.info = console.warn = (...args) => process.stderr.write(`${args.join(' ')}\n`);
  const answer = (value) => out(`${JSON.stringify(value)}\n`);
  let world = null;
  /** @type {{ id: string, create: Function, lib: unknown } | null} */
  let engine = null;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (!line.trim()) continue;
      const request = JSON.parse(line);
      if (request.scene !== undefined) {
        world?.free();
        world = null;
        if (engine?.id !== request.engine) {
          const { load, create } = await adapter(request.engine);
          engine = { id: request.engine, create, lib: await load(nodeHost) };
        }
        world = engine.create(engine.lib, request.scene, request.mode);
        answer({ ready: true });
      } else if (world === null) {
        throw new Error('the engine host was asked for contacts before it was given a scene');
      } else if (request.poses !== undefined) {
        answer({ contacts: toHex(world.contactsAt(fromHex(request.poses))) });
      } else if (request.ownStep) {
        const { poses, contacts } = world.ownStep();
        answer({ poses: toHex(poses), contacts: toHex(contacts) });
      } else {
        throw new Error(`the engine host does not know the request ${line.slice(0, 80)}`);
      }
    }
  } catch (error) {
    answer({ error: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  } finally {
    world?.free();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await serve();
