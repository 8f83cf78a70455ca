/**
 * A plain static file server, as any host or CDN serves a web tree: files from folders,
 * gzipped when the client accepts it, with the cache headers the README recommends
 * (`no-cache` for manifest.json, a year and `immutable` for hashed names). Nothing of cpmx's:
 * the browser test and the bench serve the exported tree and the page through it.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
};

/** Hashed names (`<part>.<8 hex>.json`) never change; anything else is checked with the server each time. */
const HASHED = /\.[0-9a-f]{8}\.json$/;

/** A server of `mounts` (URL prefix → folder, longest first); counts what it sends. */
export function staticServer(mounts: Record<string, string>): Server & { sent: { requests: number; bytes: number } } {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const gzipped = new Map<string, Buffer>();
  const sent = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    const prefix = prefixes.find((p) => path.startsWith(p));
    const relative = prefix === undefined ? undefined : normalize(path.slice(prefix.length) || 'index.html');
    if (prefix === undefined || relative === undefined || relative.startsWith('..') || relative.includes(`${sep}..`)) {
      res.writeHead(404).end();
      return;
    }
    const file = join(mounts[prefix]!, relative);
    let body: Buffer;
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const headers: Record<string, string> = {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      Vary: 'Accept-Encoding',
    };
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      const key = `${file}\n${statSync(file).mtimeMs}\n${body.length}`;
      let zipped = gzipped.get(key);
      if (!zipped) gzipped.set(key, (zipped = gzipSync(body, { level: 6 })));
      body = zipped;
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = String(body.length);
    sent.requests++;
    sent.bytes += body.length;
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  });
  return Object.assign(server, { sent });
}
