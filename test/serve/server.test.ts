/**
 * `cpmx serve`, started as users start it (the compiled bin, on a loopback port) and driven
 * over HTTP with fetch: the contract's statuses, CORS, caching, limits, health, credits,
 * several workers sharing a registry, shutdown, and a SIGKILL that loses no credit.
 */
import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, ERRORS } from '../../src/index.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { FORMAT_VERSION } from '../../src/core/format.js';
import Database from 'better-sqlite3';
import { outputMatches, startServer as startCpmx, waitFor, type Started } from '../support/serve.js';

const dir = tempDir();
let dataPath: string;
/** `cpmx serve` on the fixture's artifact (a later `--data` in `args` wins). */
const startServer = (args: string[] = [], env: Record<string, string> = {}) => startCpmx(['--data', dataPath, ...args], env);

/**
 * `cpmx tokens ARGS`, its stdout. Not run synchronously: blocking this process for the seconds
 * a loaded machine takes kept fetch's keep-alive connections past the server's idle timeout
 * without fetch seeing them close, and the next request went on a closed one ("other side closed").
 */
const run = promisify(execFile);

async function tokens(args: string[]): Promise<string> {
  return (await run(process.execPath, [CLI, 'tokens', ...args], { encoding: 'utf8' })).stdout;
}

/** Credits spent whose answers the registry does not yet know were written. */
function inFlight(registry: string): number {
  const db = new Database(registry, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM inflight').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function project(registry: string, token: string) {
  return (JSON.parse(await tokens(['list', '--registry', registry, '--json'])) as { token: string; credits: number; used: number }[]).find((p) => p.token === token)!;
}

let server: Started;

/** What /health answers. */
interface Health {
  status: string;
  loaded: boolean;
  registry: boolean;
  header: { source: { sha256: string } } | null;
  error: string | null;
  pid: number;
}

/** The JSON body of a response, as what the test expects it to be. */
async function body<T = { error: boolean; error_message: string | null }>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  server = await startServer();
});

describe('the contract over HTTP', () => {
  it('answers every path with the router’s body and the contract’s HTTP status, both modes', async () => {
    const client = createClient({ dataPath });
    const paths = [
      '/query/info_cp/09810?token=demo',
      '/query/info_cp/09810?token=demo&type=simplified',
      '/query/info_cp/09810/?token=pruebas',
      '/query/info_cp?token=demo',
      '/query/info_cp/0981?token=demo',
      '/query/info_cp/0981x?token=pruebas',
      '/query/info_cp/99999?token=demo',
      '/query/info_cp/09810',
      '/query/info_cp/09810?token=demo&type=full',
      '/query/search_cp/09?token=demo',
      '/query/search_cp/1234567?token=demo',
      '/query/get_estados?token=demo',
      '/query/get_municipio_por_estado/Estado%20de%20M%C3%A9xico?token=demo',
      '/query/get_municipio_por_estado/%20?token=demo',
      '/query/get_municipio_por_estado/Texas?token=demo',
      '/query/nothing?token=demo',
      '/',
    ];
    const seen = new Set<number>();
    for (const path of paths) {
      const response = await fetch(server.url + path);
      const expected = client.query(path);
      expect(response.status, path).toBe(expected.status);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(await response.json(), path).toEqual(expected.body);
      const body = expected.body as { code_error?: number };
      if (!Array.isArray(expected.body) && body.code_error) seen.add(body.code_error);
    }
    expect([...seen].sort()).toEqual([101, 102, 104, 105, 106, 109, 110, 111, 112]);
  });

  it('sends CORS headers and answers preflights', async () => {
    const get = await fetch(`${server.url}/query/get_estados?token=pruebas`, { headers: { Origin: 'https://shop.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${server.url}/query/get_estados?token=pruebas`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-app' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-app');
  });

  it('answers HEAD with the headers of GET and no body; other methods 405 with Allow', async () => {
    const path = `${server.url}/query/info_cp/09810?token=demo`;
    const [get, head] = [await fetch(path), await fetch(path, { method: 'HEAD' })];
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(path, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect((await body(response)).error).toBe(true);
    }
  });

  it('gives real-data answers a strong ETag and a day of caching, and answers If-None-Match with 304', async () => {
    const path = `${server.url}/query/info_cp/55810?token=demo`;
    const first = await fetch(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w.%-]+"$/); // strong (no W/), quoted
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await fetch(path)).headers.get('etag')).toBe(etag);
    const cached = await fetch(path, { headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect((await fetch(path, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await fetch(`${server.url}/query/info_cp/55810?token=demo&type=simplified`)).headers.get('etag')).not.toBe(etag);
    const test = await fetch(`${server.url}/query/info_cp/55810?token=pruebas`);
    expect(test.headers.get('etag')).toBeNull();
    expect((await fetch(`${server.url}/query/info_cp/99999?token=demo`)).headers.get('etag')).toBeNull();
  });

  it('refuses a URL over 2,048 characters with 414, and survives malformed requests', async () => {
    const long = await fetch(`${server.url}/query/info_cp/09810?token=demo&pad=${'x'.repeat(2100)}`);
    expect(long.status).toBe(414);
    expect((await fetch(`${server.url}/query/info_cp/09810?token=demo&pad=${'x'.repeat(1900)}`)).status).toBe(200);
    const port = Number(new URL(server.url).port);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('reports the catalog on /health', async () => {
    const health = await body<Health>(fetch(`${server.url}/health`));
    expect(health).toMatchObject({ status: 'ok', loaded: true, registry: false, header: { rows: 22, codes: 15, version: FORMAT_VERSION } });
    expect(health.header?.source.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('starts without an artifact, says so on /health, and serves test mode', async () => {
    const bare = await startServer(['--data', join(dir, 'absent.msgpack')]);
    const health = await body<Health>(fetch(`${bare.url}/health`));
    expect(health).toMatchObject({ loaded: false, header: null });
    expect(health.error).toMatch(/run `cpmx build`/);
    expect((await fetch(`${bare.url}/query/get_estados?token=pruebas`)).status).toBe(200);
    const real = await fetch(`${bare.url}/query/get_estados?token=demo`);
    expect(real.status).toBe(503);
    expect((await body(real)).error_message).toMatch(/cpmx build/);
    // An artifact built while the server runs is picked up, with ETags naming its catalog.
    copyFileSync(dataPath, join(dir, 'absent.msgpack'));
    const later = await fetch(`${bare.url}/query/get_estados?token=demo`);
    expect(later.status).toBe(200);
    const sha = (await body<Health>(fetch(`${bare.url}/health`))).header!.source.sha256;
    expect(later.headers.get('etag')).toContain(sha.slice(0, 16));
    bare.child.kill('SIGTERM');
    expect(await bare.exited).toBe(0);
  });

  it('logs one Common Log Format line per request, tokens redacted', async () => {
    const logged = await startServer(['--log']);
    await fetch(`${logged.url}/query/info_cp/09810?token=secret-token&type=simplified`);
    await outputMatches(logged, /"GET \/query\/info_cp\//);
    expect(logged.output()).toMatch(/127\.0\.0\.1 - - \[\d\d\/\w{3}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/query\/info_cp\/09810\?token=REDACTED&type=simplified HTTP\/1\.1" 200 \d+/);
    expect(logged.output()).not.toContain('secret-token');
    logged.child.kill('SIGTERM');
    await logged.exited;
  });
});

describe('tokens and credits', () => {
  it('answers 107 for unknown or revoked tokens and 108 once credits are spent; only real successes cost', async () => {
    const registry = join(dir, 'credits.db');
    const token = (await tokens(['create', '--registry', registry, '--name', 'Tienda', '--credits', '3'])).trim();
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const served = await startServer(['--registry', registry]);
    const get = (path: string, headers: Record<string, string> = {}) => fetch(served.url + path, { headers });
    expect(await (await get('/query/get_estados?token=stranger')).json()).toMatchObject({ code_error: 107 });
    expect((await get('/query/get_estados?token=stranger')).status).toBe(401);
    expect((await get(`/query/info_cp/99999?token=${token}`)).status).toBe(404);
    expect((await get(`/query/info_cp/0981?token=${token}`)).status).toBe(400);
    expect((await get('/query/get_estados?token=pruebas')).status).toBe(200);
    expect((await get(`/query/get_estados?token=${token}`, {}).then((r) => r.status))).toBe(200);
    expect(await project(registry, token)).toMatchObject({ credits: 2, used: 1 });
    const etag = (await get(`/query/info_cp/09810?token=${token}`)).headers.get('etag')!;
    expect((await get(`/query/info_cp/09810?token=${token}`, { 'If-None-Match': etag })).status).toBe(304);
    expect((await fetch(`${served.url}/query/info_cp/09810?token=${token}`, { method: 'HEAD' })).status).toBe(200);
    expect(await project(registry, token)).toMatchObject({ credits: 1, used: 2 });
    expect((await get(`/query/search_cp/0?token=${token}`)).status).toBe(200);
    const spent = await get(`/query/search_cp/0?token=${token}`);
    expect(spent.status).toBe(402);
    expect(await spent.json()).toEqual({ error: true, code_error: 108, error_message: ERRORS[108][0], response: null });
    expect((await fetch(`${served.url}/query/search_cp/0?token=${token}`, { method: 'HEAD' })).status).toBe(402);
    // lookup errors come before the credit check
    expect((await get(`/query/info_cp/99999?token=${token}`)).status).toBe(404);
    expect(await project(registry, token)).toMatchObject({ credits: 0, used: 3 });
    await tokens(['credit', token, '2', '--registry', registry]);
    expect((await get(`/query/search_cp/0?token=${token}`)).status).toBe(200);
    await tokens(['revoke', token, '--registry', registry]);
    expect((await get(`/query/search_cp/0?token=${token}`)).status).toBe(401);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('never oversells the last credits across several workers', async () => {
    const registry = join(dir, 'workers.db');
    const token = (await tokens(['create', '--registry', registry, '--name', 'Concurrida', '--credits', '25'])).trim();
    const served = await startServer(['--registry', registry, '--workers', '3']);
    const statuses = await Promise.all(
      Array.from({ length: 90 }, (_, i) => fetch(`${served.url}/query/info_cp/${i % 2 ? '09810' : '55800'}?token=${token}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.filter((s) => s === 402)).toHaveLength(65);
    expect(await project(registry, token)).toMatchObject({ credits: 0, used: 25 });
    const pids = new Set<number>();
    for (let i = 0; i < 30; i++) pids.add((await body<Health>(fetch(`${served.url}/health`, { headers: { Connection: 'close' } }))).pid);
    expect(pids.size).toBeGreaterThan(1);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('loses no consumed credit when killed with SIGKILL and restarted', async () => {
    const registry = join(dir, 'crash.db');
    const token = (await tokens(['create', '--registry', registry, '--name', 'Crash', '--credits', '50'])).trim();
    const first = await startServer(['--registry', registry]);
    let seen = 0;
    for (let i = 0; i < 12; i++) if ((await fetch(`${first.url}/query/info_cp/09810?token=${token}`)).status === 200) seen++;
    // Each answer written is settled in the registry just after (issue 37.10): a crash before
    // that gives the answer away rather than risk charging for one never received. Killed once
    // all twelve are settled, none may be lost.
    await waitFor(() => inFlight(registry) === 0, 'the twelve answers to be settled');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await project(registry, token)).toMatchObject({ used: seen, credits: 50 - seen });
    const second = await startServer(['--registry', registry]);
    expect((await fetch(`${second.url}/query/info_cp/09810?token=${token}`)).status).toBe(200);
    expect(await project(registry, token)).toMatchObject({ used: seen + 1 });
    second.child.kill('SIGTERM');
    await second.exited;
    expect(seen).toBe(12);
  });
});

describe('processes', () => {
  it('replaces a worker that dies', async () => {
    const served = await startServer(['--workers', '2']);
    const pid = (await body<Health>(fetch(`${served.url}/health`))).pid;
    process.kill(pid, 'SIGKILL');
    await outputMatches(served, new RegExp(`worker ${pid} died \\(SIGKILL\\); starting another`));
    for (let i = 0; i < 6; i++) expect((await fetch(`${served.url}/query/get_estados?token=demo`, { headers: { Connection: 'close' } })).status).toBe(200);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0 within 5 s', async () => {
    for (const workers of [1, 2]) {
      const served = await startServer(['--workers', String(workers)]);
      const port = Number(new URL(served.url).port);
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      const answered = (count: number) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if ((reply.match(/Estado de prueba 32/g)?.length ?? 0) < count) return;
            socket.off('data', check);
            resolve();
          };
          socket.on('data', check);
          check();
        });
      socket.on('data', (chunk) => (reply += chunk.toString()));
      await new Promise((resolve) => socket.once('connect', resolve));
      // One write: a whole request, then the start of a second. Once the first is answered, the
      // server has read the second's start too, so that one is in flight when SIGTERM arrives.
      const request = 'GET /query/get_estados?token=pruebas HTTP/1.1\r\nHost: localhost\r\n';
      socket.write(`${request}\r\n${request}`);
      await answered(1);
      served.child.kill('SIGTERM');
      await outputMatches(served, /stopping; requests in flight are finished first/, workers);
      socket.write('\r\n');
      await answered(2);
      const code = await served.exited;
      expect(code, `workers ${workers}`).toBe(0);
      expect(served.output(), `workers ${workers}`).not.toMatch(/were cut/);
      expect(reply.match(/HTTP\/1\.1 200 OK/g), `workers ${workers}`).toHaveLength(2);
      expect(reply).toMatch(/Connection: close/i);
      await expect(fetch(`${served.url}/health`)).rejects.toThrow();
      socket.destroy();
    }
  });
});
