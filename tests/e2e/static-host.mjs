// A plain static host for the published site's browser tests, like the
// hosts people publish on (a university web folder, GitHub Pages): the site
// at a sub-path, gzip on the fly, `Cache-Control: no-cache`, and none of the
// development server's COOP/COEP headers, so the page is not cross-origin
// isolated. It counts the bytes it puts on the wire, headers included.
// For the loading benchmark it can also play a slow link: every response
// waits one round trip, and all bodies share one link's bandwidth.

import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};
/** What a host compresses: text and wasm, not images. */
/** A slow link sends bodies in pieces of this size. */
const CHUNK_BYTES = 16 * 1024;
/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const COMPRESSED = new Set(['.html', '.js', '.css', '.json', '.webmanifest', '.wasm', '.svg', '.txt']);

/**
 * Serves `folder` at `prefix` on 127.0.0.1 (`port` 0: any free port).
 * @param {{folder: string, prefix: string, port?: number, extra?: Record<string, string>,
 *   link?: {roundTripMs: number, bitsPerSecond: number}}} options
 *   extra: other pages to serve by path (a host page that embeds the site);
 *   link: a slow link to play (none: as fast as loopback)
 */
export async function startStaticHost({ folder, prefix, port = 0, extra = {}, link }) {
  const root = path.resolve(folder);
  /** Every request's path, in order. */
  const log = [];
  /** Bytes written on connections that have closed. */
  let closedBytes = 0;
  const open = new Set();
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    log.push(url.pathname);
    /** @param {number} status @param {Record<string, string|number>} headers @param {Buffer} [body] */
    const send = async (status, headers, body) => {
      if (link) await sleep(link.roundTripMs);
      response.writeHead(status, headers);
      if (!body || request.method === 'HEAD') {
        response.end();
        return;
      }
      if (link) {
        for (let at = 0; at < body.length; at += CHUNK_BYTES) {
          const chunk = body.subarray(at, at + CHUNK_BYTES);
          await sleep(linkTime(chunk.length));
          response.write(chunk);
        }
        response.end();
      } else {
        response.end(body);
      }
    };

    if (extra[url.pathname] !== undefined) {
      send(200, { 'Content-Type': TYPES['.html'], 'Cache-Control': 'no-cache' }, Buffer.from(extra[url.pathname]));
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      send(404, { 'Content-Type': TYPES['.txt'] }, Buffer.from('not here\n'));
      return;
    }
    let file = path.join(root, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(root)) {
      send(403, { 'Content-Type': TYPES['.txt'] }, Buffer.from('outside the site\n'));
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      const extension = path.extname(file);
      const headers = { 'Content-Type': TYPES[extension] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' };
      if (COMPRESSED.has(extension) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        const zipped = gzipSync(body, { level: 6 });
        send(200, { ...headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Content-Length': zipped.length }, zipped);
      } else {
        send(200, { ...headers, 'Content-Length': body.length }, body);
      }
    } catch {
      send(404, { 'Content-Type': TYPES['.txt'] }, Buffer.from('not found\n'));
    }
  });
  let linkFreeAt = 0;
  /** Books `bytes` on the shared link; returns how long to wait before sending them. */
  function linkTime(bytes) {
    const now = Date.now();
    linkFreeAt = Math.max(now, linkFreeAt) + (bytes * 8 * 1000) / link.bitsPerSecond;
    return linkFreeAt - now;
  }
  // Bytes on the wire are counted on the connections: status lines,
  // headers and bodies as they were sent.
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => {
      closedBytes += socket.bytesWritten;
      open.delete(socket);
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port: address.port,
    /** The site's root, e.g. http://127.0.0.1:PORT/teach/contactlab/ */
    url: `http://127.0.0.1:${address.port}${prefix}`,
    origin: `http://127.0.0.1:${address.port}`,
    log,
    /** Every byte this host has sent so far. */
    bytesSent: () => closedBytes + [...open].reduce((n, socket) => n + socket.bytesWritten, 0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

