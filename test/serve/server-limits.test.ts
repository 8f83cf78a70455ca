/**
 * What `cpmx serve` answers itself, outside the contract: requests that cannot be served
 * (malformed, too large, without Host, CONNECT), pipelining past its cap, connections past
 * their limits. Each such answer is an envelope whose `code_error` is the HTTP status, sent
 * with `Connection: close`, and the server closes the connection after it.
 */
import { spawnSync } from 'node:child_process';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenRegistry } from '../../src/core/credits.js';
import { addressKey } from '../../src/serve/connection-guard.js';
import { createCpmxServer, type CpmxServer } from '../../src/serve/server.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { openFiles, Sockets, waitFor } from '../support/attack.js';
import { exchange, pipelined, responses, type Exchange } from '../support/raw-http.js';
import { startServer, type Started } from '../support/serve.js';

const dir = tempDir();
let dataPath: string;
let server: Started;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  server = await startServer(['--data', dataPath]);
});

/** The one answer of an exchange, checked to be the server's own envelope for `status`, closing. */
function expectEnvelope(result: Exchange, status: number, message: RegExp) {
  const [answer, ...more] = responses(result.bytes);
  expect(more, 'answers after the envelope').toEqual([]);
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer?.headers.connection).toBe('close');
  expect(answer?.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(answer!.body) as { error_message: string };
  expect(body).toEqual({ error: true, code_error: status, error_message: expect.any(String), response: null });
  expect(body.error_message).toMatch(message);
  expect(result.error, 'the server closed the connection itself').toBeUndefined();
  return answer!;
}

describe('answers the server makes itself are envelopes, and close the connection', () => {
  it('400 for an HTTP/1.1 request without Host (Node’s own had an empty body); HTTP/1.0 needs none', async () => {
    expectEnvelope(await exchange(server.port, 'GET /query/get_estados?token=pruebas HTTP/1.1\r\n\r\n'), 400, /Host/);
    const old = await exchange(server.port, 'GET /query/get_estados?token=pruebas HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it('400 for a malformed request', async () => {
    expectEnvelope(await exchange(server.port, 'THIS IS NOT HTTP\r\n\r\n'), 400, /malformada/);
  });

  it('405 with Allow for CONNECT (it got no answer at all)', async () => {
    const answer = expectEnvelope(await exchange(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405, /CONNECT/);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });

  it('414 for a request line past the headers’ limit, 431 for headers past it', async () => {
    expectEnvelope(await exchange(server.port, `GET /query/info_cp/09810?token=demo&pad=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`), 414, /2048/);
    expectEnvelope(await exchange(server.port, `GET /query/info_cp/09810?token=demo HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${'x'.repeat(20_000)}\r\n\r\n`), 431, /encabezados/);
  });

  it('413 for a chunk extension past Node’s limit, after the 405 its method gets', async () => {
    const head = 'POST /query/get_estados?token=pruebas HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n';
    const received = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      const socket: Socket = connect(server.port, '127.0.0.1', () => socket.write(head));
      socket.on('data', (chunk: Buffer) => {
        if (chunks.push(chunk) === 1) socket.write(`1;${'e'.repeat(20_000)}\r\n`); // once the 405 is in
      });
      socket.on('close', () => resolve(Buffer.concat(chunks)));
    });
    const [refused, tooLarge, ...more] = responses(received);
    expect(refused?.status).toBe(405);
    expect(more).toEqual([]);
    expect(tooLarge?.status).toBe(413);
    expect(JSON.parse(tooLarge!.body)).toMatchObject({ error: true, code_error: 413 });
  });
});

describe('pipelining', () => {
  it('holds up to 32 pipelined requests unanswered, answers the next 503 and closes; requests after it are dropped', async () => {
    // Read at once, the first answer goes straight to the client's socket; the next 32 wait in
    // the server behind it, and the one after those is one too many.
    const result = await exchange(server.port, pipelined('/query/get_estados?token=pruebas', 40));
    const answers = responses(result.bytes);
    expect(answers.map((a) => a.status)).toEqual([...Array<number>(33).fill(200), 503]);
    expect(answers[33]!.headers.connection).toBe('close');
    expect(JSON.parse(answers[33]!.body)).toMatchObject({ error: true, code_error: 503, error_message: expect.stringMatching(/32 peticiones/) });
  });

  it('answers every pipelined request within the cap, in order, also past 64 KiB of unread answers', async () => {
    const codes = Array.from({ length: 150 }, (_, i) => String(10000 + i * 7));
    const requests = codes.map((cp, i) => `GET /query/info_cp/${cp}?token=pruebas HTTP/1.1\r\nHost: localhost\r\n${i === codes.length - 1 ? 'Connection: close\r\n' : ''}\r\n`);
    const served = await startServer(['--data', dataPath, '--max-pipelined', '150']);
    const answers = responses((await exchange(served.port, requests.join(''))).bytes);
    expect(answers.reduce((sum, a) => sum + a.body.length, 0)).toBeGreaterThan(64 * 1024);
    expect(answers.map((a) => (JSON.parse(a.body) as { response: { cp: string } }[])[0]!.response.cp)).toEqual(codes);
  });
});

describe('connection limits', () => {
  it('count an IPv4 address (also IPv4-mapped) as itself and an IPv6 address by its /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    for (const address of ['2001:db8:0:1::5', '2001:0db8:0000:0001:0000:0000:0000:0009', '2001:DB8:0:1:ffff::']) expect(addressKey(address)).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8:0:2::5')).toBe('2001:db8:0:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });


  it('at the per-address limit, a new connection takes the place of the longest-waiting one of that address', async () => {
    const served = await startServer(['--data', dataPath, '--max-connections-per-address', '2']);
    const idle = new Sockets();
    await idle.open(served.port, 2, { localAddress: '127.0.0.2' });
    const [first, second] = [...idle.all];
    const closed = new Promise<void>((resolve) => first!.once('end', resolve));
    const third = await exchange(served.port, 'GET /query/get_estados?token=pruebas HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', { localAddress: '127.0.0.2' });
    expect(third.status).toBe(200);
    await closed;
    expect(second!.readableEnded).toBe(false);
    // Another address is not counted with it.
    expect((await exchange(served.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', { localAddress: '127.0.0.3' })).status).toBe(200);
    idle.destroy();
  });

  describe('when every connection is busy being answered', () => {
    // A registry that answers only when told: the requests stay in the server's hands.
    const held: (() => void)[] = [];
    const slowRegistry: TokenRegistry = {
      credits: () => new Promise((resolve) => held.push(() => resolve(10))),
      consume: () => new Promise((resolve) => held.push(() => resolve('spent'))),
    };
    let instance: CpmxServer;
    let port: number;

    beforeAll(async () => {
      instance = createCpmxServer({ dataPath, registry: slowRegistry, limits: { maxConnections: 2, maxConnectionsPerAddress: 2 } });
      await new Promise<void>((resolve) => instance.server.listen(0, '127.0.0.1', resolve));
      port = (instance.server.address() as AddressInfo).port;
    });
    afterAll(() => instance.close(0));

    it('refuses a new connection with 503 and Retry-After; the busy ones are answered', async () => {
      const request = 'GET /query/info_cp/09810?token=paying&type=simplified HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n';
      const busy = [exchange(port, request), exchange(port, request)];
      await waitFor(() => held.length === 2, 'both requests to reach the registry');
      // However many requests it pipelined, it gets the 503 and nothing else.
      const refused = expectEnvelope(await exchange(port, pipelined('/query/get_estados?token=pruebas', 200)), 503, /conexiones/);
      expect(refused.headers['retry-after']).toBe('1');
      for (const release of held) release();
      expect((await Promise.all(busy)).map((result) => result.status)).toEqual([200, 200]);
    });
  });
});

describe('out of file descriptors', () => {
  it('goes on serving once connections past the process’s file limit are gone', async () => {
    const served = await startServer(['--data', dataPath], {}, { fileLimit: 48 });
    const baseFiles = openFiles(served.child.pid!);
    const idle = new Sockets();
    await idle.open(served.port, 80, { localAddress: '127.0.0.2' });
    // The kernel completes handshakes the process cannot accept; libuv closes those.
    await waitFor(() => idle.closedByServer > 0, 'connections past the limit to be closed');
    idle.destroy();
    await waitFor(() => openFiles(served.child.pid!) <= baseFiles, 'the server to close its side of them');
    const after = await exchange(served.port, 'GET /query/get_estados?token=pruebas HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(after.status).toBe(200);
    expect(served.child.exitCode).toBeNull();
  });
});

describe('the limits’ options', () => {
  it('refuses values that are not limits, saying which and why (exit 2)', () => {
    for (const [args, message] of [
      [['--idle-timeout', '0.01'], /--idle-timeout must be a number of seconds from 0\.1 to 3600, got "0\.01"/],
      [['--send-timeout', 'soon'], /--send-timeout must be a number of seconds/],
      [['--max-pipelined', '0'], /--max-pipelined must be a whole number from 1/],
      [['--max-connections-per-address', 'many'], /--max-connections-per-address must be a whole number/],
      [['--headers-timeout', '40'], /--headers-timeout must not be longer than --request-timeout/],
    ] as const) {
      const run = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--data', dataPath, ...args], { encoding: 'utf8', timeout: 10_000 });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
