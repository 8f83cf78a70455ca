/**
 * The embeddable handlers, each in the plainest server a user would give it, for the HTTP
 * load check:
 *   node dist/bench/handler-server.js middleware <artifact>   createMiddleware() in node:http
 *   node dist/bench/handler-server.js fetch <artifact>        createFetchHandler() behind @hono/node-server
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createFetchHandler, createMiddleware } from 'cpmx';

const [kind, dataPath] = process.argv.slice(2) as [string, string];
let server: Server;
if (kind === 'middleware') server = createServer(createMiddleware({ dataPath }));
else if (kind === 'fetch') server = createAdaptorServer({ fetch: createFetchHandler({ dataPath }) }) as Server;
else throw new Error(`handler-server: "middleware" or "fetch", not ${JSON.stringify(kind)}`);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
