/**
 * The middleware of the web build (cpmx.web.js): its request side is a file of its own,
 * cpmx-http.web.js, loaded at its first request (scripts/bundle.mjs), so that a page pays
 * nothing for it. Run here in node:http, as a worker runtime with Node's HTTP would: it answers
 * every request as the Node build's middleware does, the first ones (sent together, while the
 * file loads) included; it hands a request outside its prefix on; and when the file cannot be
 * loaded it says so: the cpmx 500 envelope, or the framework's `next(error)`.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { listen, raw, type RawResponse } from '../support/http.js';

type Library = typeof import('../../src/index.js');
const dir = tempDir();
let data: Uint8Array;
let node: Library;

const CASES: [method: string, target: string, headers?: Record<string, string>][] = [
  ['GET', '/query/info_cp/09810?token=demo'],
  ['GET', '/query/info_cp/09810?token=demo&type=simplified'],
  ['GET', '/query/info_cp/0981?token=demo'],
  ['GET', '/query/search_cp/09?token=pruebas'],
  ['GET', '/query/get_municipio_por_estado/Estado%20de%20M%C3%A9xico?token=demo'],
  ['GET', '/query/info_cp/09810', { authorization: 'Bearer demo' }],
  ['HEAD', '/query/info_cp/09810?token=demo'],
  ['OPTIONS', '/query/get_estados?token=demo', { 'access-control-request-headers': 'x-app' }],
  ['POST', '/query/get_estados?token=demo'],
  ['GET', '/query/info_cp/09810?token=demo', { 'transfer-encoding': 'gzip' }],
  ['GET', '/health'],
  ['GET', '/openapi.json'],
];

/** Without the Date header, which differs from one answer to the next. */
const comparable = ({ headers: { date: _date, ...headers }, ...rest }: RawResponse) => ({ ...rest, headers });
const load = async (file: string) => (await import(pathToFileURL(file).href)) as Library;

beforeAll(async () => {
  data = readFileSync(await buildInto(FIXTURE, dir));
  node = await load(join(root, 'dist', 'cpmx.js'));
});

describe('the web build’s middleware', () => {
  it('answers as the Node build’s does, from its first requests on', async () => {
    const web = await load(join(root, 'dist', 'cpmx.web.js'));
    const expected = await listen(node.createMiddleware({ data }));
    const served = await listen(web.createMiddleware({ data }));
    // Sent together to a middleware that has not loaded its node:http side yet. Not the request
    // whose body Node cannot frame: Node refuses it itself unless it is answered at once (as it
    // does with the Node build's middleware and a registry that answers by promise).
    const framed = CASES.filter(([, , headers]) => headers?.['transfer-encoding'] === undefined);
    const first = await Promise.all(framed.map(([method, target, headers]) => raw(served.url, method, target, headers)));
    for (const [i, [method, target, headers]] of framed.entries()) {
      expect(comparable(first[i]!), `${method} ${target}`).toEqual(comparable(await raw(expected.url, method, target, headers)));
    }
    for (const [method, target, headers] of CASES) {
      expect(comparable(await raw(served.url, method, target, headers)), `${method} ${target}`).toEqual(comparable(await raw(expected.url, method, target, headers)));
    }
  });

  it('hands a request outside its prefix to next, and answers the ones under it', async () => {
    const web = await load(join(root, 'dist', 'cpmx.web.js'));
    const middleware = web.createMiddleware({ data, prefix: '/cpmx' });
    const app = await listen((req, res) => middleware(req, res, () => res.writeHead(200).end('the app')));
    expect((await raw(app.url, 'GET', '/elsewhere')).body).toBe('the app');
    const answered = await raw(app.url, 'GET', '/cpmx/query/info_cp/09810?token=demo&type=simplified');
    expect(JSON.parse(answered.body)).toEqual(node.createClient({ data, token: 'demo' }).infoCp('09810', { type: 'simplified' }));
  });

  it('answers the 500 envelope, or hands the error to next, when its file cannot be loaded', async () => {
    // The web build alone, without cpmx-http.web.js beside it.
    const alone = join(dir, 'alone');
    mkdirSync(alone);
    copyFileSync(join(root, 'dist', 'cpmx.web.js'), join(alone, 'cpmx.web.js'));
    const web = await load(join(alone, 'cpmx.web.js'));
    const reported: unknown[] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void reported.push(args);
    try {
      const bare = await listen(web.createMiddleware({ data }));
      const failed = await raw(bare.url, 'GET', '/query/info_cp/09810?token=demo');
      expect(failed.status).toBe(500);
      expect(failed.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(failed.body)).toEqual({ error: true, code_error: 500, error_message: 'Error interno del servidor', response: null });
      expect(reported).toHaveLength(1);
      const handedOn: unknown[] = [];
      const middleware = web.createMiddleware({ data });
      const framed = await listen((req, res) =>
        middleware(req, res, (error) => {
          handedOn.push(error);
          res.writeHead(503).end('the app answered');
        }),
      );
      const answered = await raw(framed.url, 'GET', '/query/info_cp/09810?token=demo');
      expect([answered.status, answered.body]).toEqual([503, 'the app answered']);
      expect(String(handedOn[0])).toMatch(/cpmx-http\.web\.js/);
    } finally {
      console.error = logged;
    }
  });
});
