/**
 * Answers kept whole by request target (src/http/body-cache.ts): a request asked again gets
 * the same bytes and headers the router's answer gives, HEAD and If-None-Match still get
 * theirs, and nothing the target does not decide (a Bearer header, a default token, a
 * registry's credits) is ever answered from what another request left.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCpmxServer } from '../../src/serve/server.js';
import { createClient, createFetchHandler, createMiddleware } from '../../src/index.js';
import { FIXTURE, buildInto, ok, tempDir } from '../helpers.js';
import { memoryRegistry } from '../support/memory-registry.js';

const dir = tempDir();
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function ask(handler: (request: Request) => Response | Promise<Response>, target: string, init: RequestInit = {}): Promise<Seen> {
  const response = await handler(new Request(`http://cpmx.test${target}`, init));
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

describe('answers kept whole by target', () => {
  it('answer again with the same status, headers and bytes as the router, for every code of the catalog, both types', async () => {
    const handler = createFetchHandler({ dataPath });
    const client = createClient({ token: 'demo', dataPath });
    const codes = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].flatMap((digit) => ok(client.searchCp(digit)).response.cp);
    expect(codes.length).toBeGreaterThan(2);
    for (const cp of codes) {
      for (const type of ['', '&type=simplified']) {
        const target = `/query/info_cp/${cp}?token=demo${type}`;
        const first = await ask(handler, target);
        const again = await ask(handler, target);
        expect(again).toEqual(first);
        expect(first.status).toBe(200);
        expect(first.body).toBe(JSON.stringify(client.query(target).body));
        expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
      }
    }
  });

  it('answer HEAD with the GET’s headers and no body, and a matching If-None-Match with 304, after the GET was kept', async () => {
    const handler = createFetchHandler({ dataPath });
    const target = '/query/info_cp/09810?token=demo';
    const get = await ask(handler, target);
    await ask(handler, target);
    const head = await ask(handler, target, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers).toEqual(get.headers);
    const cached = await ask(handler, target, { headers: { 'if-none-match': get.headers.etag! } });
    expect(cached.status).toBe(304);
    expect(cached.body).toBe('');
    const other = await ask(handler, target, { headers: { 'if-none-match': '"not-it"' } });
    expect(other).toEqual(get);
  });

  it('never answer a target without its token from what a request with a Bearer header left', async () => {
    const handler = createFetchHandler({ dataPath });
    const target = '/query/info_cp/09810';
    expect((await ask(handler, target, { headers: { authorization: 'Bearer demo' } })).status).toBe(200);
    expect((await ask(handler, target, { headers: { authorization: 'Bearer demo' } })).status).toBe(200);
    const none = await ask(handler, target);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).code_error).toBe(106);
  });

  it('spend a credit for every answer when a registry counts them, the same target asked again included', async () => {
    const credits = new Map([['shop', 2]]);
    const handler = createFetchHandler({ dataPath, registry: memoryRegistry(credits) });
    const target = '/query/info_cp/09810?token=shop';
    expect((await ask(handler, target)).status).toBe(200);
    expect((await ask(handler, target)).status).toBe(200);
    expect(credits.get('shop')).toBe(0);
    const spent = await ask(handler, target);
    expect(spent.status).toBe(402);
    expect(JSON.parse(spent.body).code_error).toBe(108);
  });

  it('keep nothing with a budget of 0, and answer the same', async () => {
    const kept = createFetchHandler({ dataPath });
    const none = createFetchHandler({ dataPath, bodyCacheBytes: 0 });
    const target = '/query/info_cp/09810?token=demo&type=simplified';
    for (let i = 0; i < 3; i++) expect(await ask(none, target)).toEqual(await ask(kept, target));
  });

  // node:http writers send a kept answer's bytes as a Latin-1 string (body-cache.ts): the bytes
  // on the wire must be the UTF-8 of the answer, accents and ñ included, the first time and after.
  it('send the same UTF-8 bytes from cpmx serve and the middleware, the first time and kept, for every code', async () => {
    const client = createClient({ token: 'demo', dataPath });
    const codes = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].flatMap((digit) => ok(client.searchCp(digit)).response.cp);
    const servers: Server[] = [createCpmxServer({ dataPath }).server, createServer(createMiddleware({ dataPath }))];
    let accented = 0;
    try {
      for (const server of servers) {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        for (const cp of codes) {
          const target = `/query/info_cp/${cp}?token=demo&type=simplified`;
          const text = JSON.stringify(client.query(target).body);
          const expected = Buffer.from(text);
          if (expected.length !== text.length) accented++;
          for (let time = 0; time < 2; time++) {
            const response = await fetch(base + target);
            expect(response.status).toBe(200);
            expect(response.headers.get('content-length')).toBe(String(expected.length));
            expect(Buffer.from(await response.arrayBuffer()).equals(expected)).toBe(true);
          }
        }
      }
    } finally {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
    // The check means something only if some answers carry characters outside ASCII.
    expect(accented).toBeGreaterThan(0);
  });
});
