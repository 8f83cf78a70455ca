/**
 * The embeddable handlers against `cpmx serve`: the same requests through the three (serve,
 * the Node middleware in node:http, the fetch handler behind @hono/node-server and called
 * directly) give the same status, headers and body; and real Express, Hono and Fastify apps
 * mount them beside their own routes and answer over HTTP.
 */
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createMiddleware } from '../../src/index.js';
import { FIXTURE, buildInto, tempDir } from '../helpers.js';
import { listen, raw, startServe, type RawResponse } from '../support/http.js';

const dir = tempDir();
let dataPath: string;
let serve: string;

/** Every kind of answer: each method and error of the contract, test mode, CORS, HEAD, 304, 405, 414, /health, /openapi.json. */
const CASES: [method: string, target: string, headers?: Record<string, string>][] = [
  ['GET', '/query/info_cp/09810?token=demo'],
  ['GET', '/query/info_cp/09810?token=demo&type=simplified'],
  ['GET', '/query/info_cp/09810/?token=pruebas'],
  ['GET', '/query/info_cp?token=demo'],
  ['GET', '/query/info_cp/0981?token=demo'],
  ['GET', '/query/info_cp/0981x?token=pruebas'],
  ['GET', '/query/info_cp/99999?token=demo'],
  ['GET', '/query/info_cp/09810'],
  ['GET', '/query/info_cp/09810?token=demo&type=full'],
  ['GET', '/query/search_cp/09?token=demo'],
  ['GET', '/query/search_cp/1234567?token=demo'],
  ['GET', '/query/get_estados?token=demo'],
  ['GET', '/query/get_municipio_por_estado/Estado%20de%20M%C3%A9xico?token=demo'],
  ['GET', '/query/get_municipio_por_estado/%20?token=demo'],
  ['GET', '/query/get_municipio_por_estado/Texas?token=demo'],
  ['GET', '/query/nothing?token=demo'],
  ['GET', '/'],
  ['GET', '/query/info_cp/09810', { authorization: 'Bearer demo' }],
  ['HEAD', '/query/info_cp/09810?token=demo'],
  ['HEAD', '/query/info_cp/0981?token=demo'],
  ['GET', '/query/info_cp/09810?token=demo', { 'if-none-match': '"not-it"' }],
  ['OPTIONS', '/query/get_estados?token=demo', { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-app, authorization' }],
  ['OPTIONS', '/query/get_estados?token=demo'],
  ['POST', '/query/get_estados?token=demo'],
  ['DELETE', '/health'],
  ['GET', `/query/search_cp/0?token=demo&pad=${'x'.repeat(2100)}`],
  ['GET', '/health'],
  ['GET', '/health?verbose=1'],
  ['GET', '/openapi.json'],
  ['HEAD', '/openapi.json'],
  ['GET', '/openapi.json?x=1'],
];

/** What a transport adds on its own (the date, and how the connection is kept). */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * A response without its transport headers, and /health without what says which process answers,
 * when it loaded the catalog and how it watches the file (`cpmx serve` at its start and at each
 * reload; a handler has no reloads and no watcher), and so without its length.
 */
function comparable(response: RawResponse): RawResponse {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !TRANSPORT.has(name)));
  let body = response.body;
  if (body.includes('"pid"') || body.includes('"watch"')) {
    body = JSON.stringify({ ...JSON.parse(body), pid: undefined, loadedAt: undefined, watch: undefined });
    delete headers['content-length'];
  }
  return { status: response.status, headers, body };
}

/** A Request as a web runtime builds it from one of the cases. */
function requestOf(base: string, [method, target, headers]: (typeof CASES)[number]): Request {
  return new Request(base + target, { method, headers });
}

async function responseOf(response: Response): Promise<RawResponse> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  serve = (await startServe(['--data', dataPath])).url;
});

describe('the three ways of serving the API', () => {
  it('answer every request alike: cpmx serve, the middleware and the fetch handler', async () => {
    const middleware = await listen(createMiddleware({ dataPath }));
    const fetchHandler = createFetchHandler({ dataPath });
    const hono = await listen(getRequestListener(fetchHandler));
    const statuses = new Set<number>();
    for (const testCase of CASES) {
      const [method, target, headers] = testCase;
      const expected = comparable(await raw(serve, method, target, headers));
      statuses.add(expected.status);
      const label = `${method} ${target.slice(0, 80)}`;
      expect(comparable(await raw(middleware.url, method, target, headers)), `middleware: ${label}`).toEqual(expected);
      expect(comparable(await raw(hono.url, method, target, headers)), `fetch handler over HTTP: ${label}`).toEqual(expected);
      const direct = await responseOf(await fetchHandler(requestOf('http://cpmx.test', testCase)));
      expect(comparable(direct), `fetch handler called: ${label}`).toEqual(expected);
    }
    expect([...statuses].sort()).toEqual([200, 204, 400, 401, 404, 405, 414]);
  });

  it('answer a matching If-None-Match with 304 and the same ETag', async () => {
    const target = '/query/info_cp/09810?token=demo&type=simplified';
    const { etag } = (await raw(serve, 'GET', target)).headers;
    expect(etag).toMatch(/^"/);
    const expected = comparable(await raw(serve, 'GET', target, { 'if-none-match': etag! }));
    expect(expected.status).toBe(304);
    const middleware = await listen(createMiddleware({ dataPath }));
    expect(comparable(await raw(middleware.url, 'GET', target, { 'if-none-match': etag! }))).toEqual(expected);
    const response = await createFetchHandler({ dataPath })(new Request(`http://cpmx.test${target}`, { headers: { 'if-none-match': etag! } }));
    expect(comparable(await responseOf(response))).toEqual(expected);
  });

  it('serve under a prefix exactly what they serve at the root, and nothing outside it', async () => {
    const middleware = await listen(createMiddleware({ dataPath, prefix: '/api/cpmx/' }));
    const fetchHandler = createFetchHandler({ dataPath, prefix: '/api/cpmx' });
    for (const [method, target, headers] of CASES.slice(0, 20)) {
      const expected = comparable(await raw(serve, method, target, headers));
      expect(comparable(await raw(middleware.url, method, `/api/cpmx${target}`, headers))).toEqual(expected);
      expect(comparable(await responseOf(await fetchHandler(new Request(`http://cpmx.test/api/cpmx${target}`, { method, headers }))))).toEqual(expected);
    }
    const unknown = comparable(await raw(serve, 'GET', '/elsewhere'));
    expect(unknown.status).toBe(404);
    for (const outside of ['/health', '/api/cpmxquery/get_estados?token=demo', '/api/query/get_estados?token=demo']) {
      expect(comparable(await raw(middleware.url, 'GET', outside))).toEqual(unknown);
      expect(comparable(await responseOf(await fetchHandler(new Request(`http://cpmx.test${outside}`))))).toEqual(unknown);
    }
    const health = JSON.parse((await raw(middleware.url, 'GET', '/api/cpmx?x=1')).body) as { code_error: number };
    expect(health.code_error).toBe(111);
  });

  it('wait for a registry that answers with promises, spending a credit only for a delivered answer', async () => {
    const credits = new Map([['paid', 2]]);
    const registry = {
      credits: async (token: string) => credits.get(token),
      consume: async (token: string) => {
        const left = credits.get(token);
        if (left === undefined) return 'unknown' as const;
        if (left === 0) return 'none-left' as const;
        credits.set(token, left - 1);
        return 'spent' as const;
      },
    };
    const fetchHandler = createFetchHandler({ dataPath, registry });
    const middleware = await listen(createMiddleware({ dataPath, registry }));
    const ask = async (token: string, method = 'GET') => (await fetchHandler(new Request(`http://cpmx.test/query/info_cp/09810?token=${token}`, { method }))).status;
    expect(await ask('unknown')).toBe(401);
    expect(await ask('paid', 'HEAD')).toBe(200);
    expect(credits.get('paid')).toBe(2);
    expect(await ask('paid')).toBe(200);
    expect((await raw(middleware.url, 'GET', '/query/info_cp/09810?token=paid')).status).toBe(200);
    expect(credits.get('paid')).toBe(0);
    expect(await ask('paid')).toBe(402);
    expect((await raw(middleware.url, 'GET', '/query/info_cp/09810?token=paid')).status).toBe(402);
    expect(await ask('pruebas')).toBe(200);
  });

  it('answer a registry that throws with the cpmx 500 envelope, all three alike', async () => {
    const registry = {
      credits: () => undefined,
      consume: (): never => {
        throw new Error('the disk is on fire');
      },
    };
    const reported: unknown[] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void reported.push(args);
    try {
      const envelope = { error: true, code_error: 500, error_message: 'Error interno del servidor', response: null };
      const fetched = await createFetchHandler({ dataPath, registry })(new Request('http://cpmx.test/query/info_cp/09810?token=paid'));
      expect(fetched.status).toBe(500);
      expect(fetched.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await fetched.json()).toEqual(envelope);
      const middleware = await listen(createMiddleware({ dataPath, registry }));
      const written = await raw(middleware.url, 'GET', '/query/info_cp/09810?token=paid');
      expect(written.status).toBe(500);
      expect(JSON.parse(written.body)).toEqual(envelope);
      expect(reported).toHaveLength(2);
      // With a framework's `next`, the failure is the framework's to answer.
      const handedOn: unknown[] = [];
      const framed = await listen((req, res) =>
        createMiddleware({ dataPath, registry })(req, res, (error) => {
          handedOn.push(error);
          res.writeHead(503).end('the app answered');
        }),
      );
      const answered = await raw(framed.url, 'GET', '/query/info_cp/09810?token=paid');
      expect([answered.status, answered.body]).toEqual([503, 'the app answered']);
      expect(handedOn).toHaveLength(1);
    } finally {
      console.error = logged;
    }
  });

  it('give a credit back when the client has gone before its answer is ready', async () => {
    let left = 1;
    const refunded: string[] = [];
    let release: () => void = () => {};
    const registry = {
      credits: async () => left,
      consume: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        left--;
        return 'spent' as const;
      },
      refund: (token: string) => {
        refunded.push(token);
        left++;
      },
    };
    const abort = new AbortController();
    const pending = createFetchHandler({ dataPath, registry })(new Request('http://cpmx.test/query/info_cp/09810?token=paid', { signal: abort.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    release();
    expect((await pending).status).toBe(200);
    expect(refunded).toEqual(['paid']);
    expect(left).toBe(1);
  });

  it('refuse a prefix that is not a path', () => {
    expect(() => createMiddleware({ dataPath, prefix: 'cpmx' })).toThrow(/prefix must be a path starting with "\/", got "cpmx"/);
    expect(() => createFetchHandler({ dataPath, prefix: '/cpmx?x' })).toThrow(/prefix must be a path/);
  });
});

describe('apps that mount the handlers', () => {
  it('Express: app.use("/cpmx", createMiddleware()) answers under /cpmx, the app’s own routes elsewhere', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.send('the app');
    });
    app.use('/cpmx', createMiddleware({ dataPath }));
    app.use((_req, res) => {
      res.status(404).send('not the app’s');
    });
    const { url } = await listen(app as unknown as Parameters<typeof listen>[0]);
    expect((await raw(url, 'GET', '/')).body).toBe('the app');
    expect((await raw(url, 'GET', '/other')).body).toBe('not the app’s');
    for (const [method, target, headers] of CASES) {
      const got = comparable(await raw(url, method, `/cpmx${target}`, headers));
      delete got.headers['x-powered-by'];
      expect(got, `${method} ${target.slice(0, 60)}`).toEqual(comparable(await raw(serve, method, target, headers)));
    }
  });

  it('Express: a middleware given a prefix passes other paths on to the app', async () => {
    const app = express();
    app.use(createMiddleware({ dataPath, prefix: '/cpmx' }));
    app.get('/query/get_estados', (_req, res) => {
      res.send('the app’s own /query');
    });
    const { url } = await listen(app as unknown as Parameters<typeof listen>[0]);
    expect((await raw(url, 'GET', '/query/get_estados?token=demo')).body).toBe('the app’s own /query');
    const answer = await raw(url, 'GET', '/cpmx/query/get_estados?token=demo');
    expect(JSON.parse(answer.body).response.estado).toContain('Ciudad de México');
  });

  it('Hono: app.mount("/cpmx", createFetchHandler()) over real HTTP', async () => {
    const app = new Hono();
    app.get('/', (c) => c.text('the app'));
    app.mount('/cpmx', createFetchHandler({ dataPath }));
    const { url } = await listen(getRequestListener(app.fetch));
    expect((await raw(url, 'GET', '/')).body).toBe('the app');
    for (const [method, target, headers] of CASES) {
      const got = comparable(await raw(url, method, `/cpmx${target}`, headers));
      expect(got, `${method} ${target.slice(0, 60)}`).toEqual(comparable(await raw(serve, method, target, headers)));
    }
  });

  it('Hono: a route that passes its raw request to a handler with a prefix', async () => {
    const app = new Hono();
    const cpmx = createFetchHandler({ dataPath, prefix: '/v1/cp' });
    app.all('/v1/cp/*', (c) => cpmx(c.req.raw));
    const { url } = await listen(getRequestListener(app.fetch));
    const answer = await raw(url, 'GET', '/v1/cp/query/info_cp/09810?token=demo&type=simplified');
    expect(comparable(answer)).toEqual(comparable(await raw(serve, 'GET', '/query/info_cp/09810?token=demo&type=simplified')));
  });

  it('Fastify: routes that hand the raw request and reply to the middleware', async () => {
    const app = Fastify();
    const cpmx = createMiddleware({ dataPath, prefix: '/cpmx' });
    app.get('/', async () => 'the app');
    for (const path of ['/cpmx', '/cpmx/*']) {
      app.all(path, (request, reply) => {
        reply.hijack();
        cpmx(request.raw, reply.raw);
      });
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address() as { port: number };
      const url = `http://127.0.0.1:${address.port}`;
      expect((await raw(url, 'GET', '/')).body).toBe('the app');
      for (const [method, target, headers] of CASES.filter(([, target]) => target.length < 2048)) {
        const got = comparable(await raw(url, method, `/cpmx${target}`, headers));
        expect(got, `${method} ${target.slice(0, 60)}`).toEqual(comparable(await raw(serve, method, target, headers)));
      }
    } finally {
      await app.close();
    }
  });
});
