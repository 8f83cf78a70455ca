/**
 * The reference for the HTTP load check: a bare Node http server that answers every request
 * with one constant JSON body, with the same headers cpmx sends. What cpmx's server does
 * beyond this (parse, route, look up, serialise, hash for the ETag) is what the check weighs.
 *   node dist/bench/bare-server.js <body-file> [etag] [answers-file]
 * `etag`: the ETag header's value, as long as cpmx's (the bench passes one of its answers'), so
 * both servers send the same header bytes; `"constant"` when not given.
 * `answers-file`: a JSON object from request target to body: each request is answered the body
 * kept for its target (one Map lookup, the constant body for any other). Given cpmx's own
 * answers, this is what sending a different answer per code costs a server that does nothing
 * else: no parsing, routing or lookup of its own.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2]!);
const etag = process.argv[3] ?? '"constant"';
const answers = new Map<string, Buffer>();
if (process.argv[4]) {
  for (const [target, text] of Object.entries(JSON.parse(readFileSync(process.argv[4], 'utf8')) as Record<string, string>)) answers.set(target, Buffer.from(text));
}
function send(res: ServerResponse, answer: Buffer): void {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(answer.length),
    'Access-Control-Allow-Origin': '*',
    ETag: etag,
    'Cache-Control': 'public, max-age=86400',
  });
  res.end(answer);
}
// Chosen once: the constant server looks nothing up.
const server = createServer(answers.size > 0 ? (req, res) => send(res, answers.get(req.url!) ?? body) : (_req, res) => send(res, body));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
