/**
 * The reference for the HTTP load check: a bare Node http server that answers every request
 * with one constant JSON body, with the same headers cpmx sends. What cpmx's server does
 * beyond this (parse, route, look up, serialise, hash for the ETag) is what the check weighs.
 *   node dist/bench/bare-server.js <body-file> [etag]
 * `etag`: the ETag header's value, as long as cpmx's (the bench passes one of its answers'), so
 * both servers send the same header bytes; `"constant"` when not given.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2]!);
const etag = process.argv[3] ?? '"constant"';
const server = createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    'Access-Control-Allow-Origin': '*',
    ETag: etag,
    'Cache-Control': 'public, max-age=86400',
  });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
