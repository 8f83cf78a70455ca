/**
 * The embeddable handlers, each in the plainest server a user would give it, for the HTTP
 * load check:
 *   node dist/bench/handler-server.js middleware <artifact>   createMiddleware() in node:http
 *   node dist/bench/handler-server.js fetch <artifact>        createFetchHandler() behind @hono/node-server
 *   node dist/bench/handler-server.js hono <body-file> [etag] the fetch handler's reference: a hono app
 *                                                             returning one constant body (cpmx's headers,
 *                                                             an ETag as long as cpmx's) on the same adapter
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { readFileSync } from 'node:fs';
import { createFetchHandler, createMiddleware } from 'cpmx';
import { Hono } from 'hono';

/** A hono app answering every request with the body in `file`, with the headers cpmx sends. */
function constantApp(file: string, etag = '"constant"'): Hono {
  const body = readFileSync(file);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    ETag: etag,
    'Cache-Control': 'public, max-age=86400',
    'Content-Length': String(body.length),
  };
  return new Hono().get('*', (c) => c.body(body, 200, headers));
}

const [kind, dataPath, etag] = process.argv.slice(2) as [string, string, string | undefined];
let server: Server;
if (kind === 'middleware') server = createServer(createMiddleware({ dataPath }));
else if (kind === 'fetch') server = createAdaptorServer({ fetch: createFetchHandler({ dataPath }) }) as Server;
else if (kind === 'hono') server = createAdaptorServer({ fetch: constantApp(dataPath, etag).fetch }) as Server;
else throw new Error(`handler-server: "middleware", "fetch" or "hono", not ${JSON.stringify(kind)}`);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
