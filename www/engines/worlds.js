// Loaded with import() when first needed: not preloaded (xtask/src/dist.rs).
/**
 * @file The engines in the page's worker (`docs/design/engines.md`): the
 * `host` the adapters load their npm packages through (the files the build
 * copied to `pkg/engines/`, served from the page's own origin), each
 * engine's module loaded once, and worlds made from the core's engine
 * scene. The worker imports this file only when an engine is first
 * chosen, so the default page fetches no engine.
 */

/** Where the build puts the packages' files (xtask/src/wasm.rs, `ENGINE_FILES`). */
const PACKAGES = new URL('../pkg/engines/', import.meta.url);

/**
 * The adapters' `host` in a module worker.
 * @type {{node: boolean, url: (path: string) => string, import: (path: string) => Promise<any>,
 *   bytes: (path: string) => Promise<Uint8Array>, script: (path: string, name: string) => Promise<any>}}
 */
const host = {
  node: false,
  url: (path) => new URL(path, PACKAGES).href,
  import: (path) => import(new URL(path, PACKAGES).href),
  bytes: async (path) => new Uint8Array(await (await fetched(path)).arrayBuffer()),
  /**
   * A classic script's global `name`: a module worker has no
   * `importScripts`, so the script is fetched and run as a function body
   * (in sloppy mode, as a classic script runs) that returns the global.
   */
  script: async (path, name) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`"${name}" is not a script global`);
    const text = await (await fetched(path)).text();
    // eslint-disable-next-line no-new-func -- a package's own UMD script, from our origin
    return new Function(`${text}\nreturn ${name};`)();
  },
};

/** @param {string} path */
async function fetched(path) {
  const response = await fetch(new URL(path, PACKAGES));
  if (!response.ok) throw new Error(`could not fetch ${path} (HTTP ${response.status})`);
  return response;
}

/** @type {Map<string, Promise<{adapter: any, lib: any}>>} each engine's adapter and loaded module */
const loaded = new Map();

/**
 * The adapter of `engine` with its package loaded, once; a failure is
 * forgotten so that a later choice tries again.
 * @param {{id: string, name: string, package: string, version: string}} engine the catalogue's entry
 */
function engineModule(engine) {
  if (!loaded.has(engine.id)) {
    const start = (async () => {
      const adapter = await import(`./${engine.id}.js`);
      let lib;
      try {
        lib = await adapter.load(host);
      } catch (error) {
        throw new Error(
          `${engine.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}. ` +
            `This page serves the npm package ${engine.package}@${engine.version} from pkg/engines/; a build made without it ` +
            '(no `npm ci` before `cargo xtask serve` or `dist`) cannot run this engine.',
        );
      }
      return { adapter, lib };
    })();
    start.catch(() => loaded.delete(engine.id));
    loaded.set(engine.id, start);
  }
  return /** @type {Promise<{adapter: any, lib: any}>} */ (loaded.get(engine.id));
}

/**
 * A new world of `engine` on the scene and settings of `request` (a `load`,
 * a compare row's or a bench's), handed to `playground` for its next run;
 * the caller frees it.
 * @param {any} Playground the core module's Playground class (its `engineScene`)
 * @param {any} playground the Playground that runs with the world
 * @param {{id: string, name: string, package: string, version: string}} engine the catalogue's entry
 * @param {any} request
 * @returns {Promise<{contactsAt: (poses: Float64Array) => Float64Array, ownStep: () => {poses: Float64Array, contacts: Float64Array}, free: () => void}>}
 */
export async function worldFor(Playground, playground, engine, request) {
  const text = typeof request.scene?.text === 'string' ? request.scene.text : null;
  const sceneJson = Playground.engineScene(text === null ? String(request.scene?.id) : null, text, request.settings);
  const { adapter, lib } = await engineModule(engine);
  const world = adapter.create(lib, JSON.parse(sceneJson), request.settings.engine ?? 'ours');
  playground.setEngine(
    (/** @type {Float64Array} */ poses) => world.contactsAt(poses),
    () => world.ownStep(),
  );
  return world;
}
