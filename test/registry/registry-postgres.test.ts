/**
 * Several `cpmx serve` processes sharing one real PostgreSQL, as behind a load balancer:
 * credits are never sold twice, a revocation stops answers at once, a crash of any server
 * keeps no credit for an answer it did not write (registry-inflight.test.ts), and a database that restarts
 * or crashes gives 503s (never a free answer) and then service again, without restarting cpmx.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { load, startServe, tokensOk, waitFor, type Outcome, type Served } from '../support/serve.js';

const dir = tempDir();
let postgres: TestPostgres;
let url: string;
let dataPath: string;
let servers: Served[] = [];

const PATH = (token: string) => `/query/info_cp/09810?token=${token}&type=simplified`;
const data = (outcomes: Outcome[]) => outcomes.filter((o) => o.status === 200);

/** Three servers of two workers each on one database. */
function startThree(): Promise<Served[]> {
  return Promise.all([0, 1, 2].map(() => startServe(['--registry', url, '--workers', '2', '--data', dataPath, '--registry-timeout', '1000'])));
}

async function newToken(name: string, credits: number): Promise<string> {
  return (await tokensOk(['create', '--registry', url, '--name', name, '--credits', String(credits)])).trim();
}

/** Credits left and the day's usage, read from the database itself. */
async function ledger(token: string): Promise<{ credits: number; requests: number; spent: number }> {
  const [row] = await postgres.sql<{ credits: number; requests: number; spent: number }>(
    'cpmx',
    `SELECT a.credits::float8 AS credits, coalesce(sum(u.requests), 0)::float8 AS requests, coalesce(sum(u.credits), 0)::float8 AS spent
       FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id JOIN cpmx.accounts a ON a.id = p.account_id
       LEFT JOIN cpmx.usage u ON u.token = t.token WHERE t.token = $1 GROUP BY a.credits`,
    [token],
  );
  return row!;
}

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase('cpmx');
  dataPath = await buildInto(FIXTURE, dir);
  servers = await startThree();
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.crash()));
  await postgres?.destroy();
});

describe('three servers, one PostgreSQL', () => {
  it('answers exactly 100 of 300 concurrent requests for a token with 100 credits, and 108 to the other 200', async () => {
    const token = await newToken('Trescientas', 100);
    const answers = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const response = await fetch(servers[i % 3]!.url + PATH(token));
        const body = (await response.json()) as { code_error: number };
        return `${response.status} ${body.code_error}`;
      }),
    );
    expect(answers.filter((a) => a === '200 0')).toHaveLength(100);
    expect(answers.filter((a) => a === '402 108')).toHaveLength(200);
    expect(await ledger(token)).toEqual({ credits: 0, requests: 300, spent: 100 });
  });

  it('answers no request with data once a revocation has committed', async () => {
    const token = await newToken('Revocada en marcha', 1_000_000);
    const traffic = load(() => servers.map((s) => s.url), PATH(token), 12);
    await traffic.until((outcomes) => data(outcomes).length >= 40);
    await tokensOk(['revoke', token, '--registry', url]);
    const revokedAt = performance.now();
    await traffic.until((outcomes) => outcomes.filter((o) => o.sentAt > revokedAt).length >= 60);
    const outcomes = await traffic.stop();
    const after = outcomes.filter((o) => o.sentAt > revokedAt);
    expect(after.every((o) => o.status === 401 && o.code === 107), JSON.stringify(after.filter((o) => o.status !== 401))).toBe(true);
    expect(outcomes.every((o) => o.status === 200 || o.status === 401)).toBe(true);
    // Every credit taken was for an answer the clients got, and no answer was free.
    expect((await ledger(token)).spent).toBe(data(outcomes).length);
    expect(1_000_000 - (await ledger(token)).credits).toBe(data(outcomes).length);
  });

  it('gives back the credit of an answer whose client left while the registry was busy', async () => {
    const single = await startServe(['--registry', url, '--data', dataPath, '--registry-timeout', '30000']);
    const token = await newToken('Se fue', 10);
    const [row] = await postgres.sql<{ account: number }>('cpmx', 'SELECT p.account_id::float8 AS account FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id WHERE t.token = $1', [token]);
    // Another session holds the account's row: the request's batch waits for it.
    const pg = await import('pg');
    const holder = new pg.default.Client({ connectionString: url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT credits FROM cpmx.accounts WHERE id = $1 FOR UPDATE', [row!.account]);
    const socket = connect(Number(new URL(single.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.write(`GET ${PATH(token)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const health = async () => ((await (await fetch(`${single.url}/health`)).json()) as { registry: { waiting: number } }).registry;
    await waitFor(async () => (await health()).waiting >= 1, 'the request to wait for the registry');
    expect(reply).toBe('');
    // The client gives up: it resets the connection. (A FIN alone is a half-close, after which
    // HTTP clients such as `nc -q` still read their answer: it is answered, and paid.)
    socket.resetAndDestroy();
    // A request on a new connection is answered after the server has seen the first one close.
    expect((await fetch(`${single.url}/query/get_estados?token=pruebas`)).status).toBe(200);
    await holder.query('COMMIT');
    await holder.end();
    // The refund is batched no later than this request's visit: once answered, it is in.
    expect((await fetch(single.url + PATH(token))).status).toBe(200);
    expect(await ledger(token)).toEqual({ credits: 9, requests: 2, spent: 1 });
    await single.stop();
  });

  it('keeps, when servers are killed with SIGKILL mid-load, no credit for a request they had in flight, and gives away at most the answers written just before (10 rounds)', async () => {
    let lost = 0;
    let inFlightTotal = 0;
    let received = 0;
    for (let round = 0; round < 10; round++) {
      const given = 100_000;
      const token = await newToken(`Choque ${round}`, given);
      const set = await startThree();
      const killedAt = new Map<string, number>();
      const alive = () => set.filter((s) => !killedAt.has(s.url)).map((s) => s.url);
      const traffic = load(alive, PATH(token), 18);
      const kill = async (victims: Served[]) => {
        for (const victim of victims) killedAt.set(victim.url, performance.now());
        await Promise.all(victims.map((v) => v.crash()));
      };
      const first = 10 + Math.floor(Math.random() * 60);
      await traffic.until((outcomes) => data(outcomes).length >= first);
      const one = set[Math.floor(Math.random() * 3)]!;
      await kill([one]);
      const second = data(traffic.outcomes).length + 10 + Math.floor(Math.random() * 60);
      await traffic.until((outcomes) => data(outcomes).length >= second);
      await kill(set.filter((s) => s !== one));
      const outcomes = await traffic.stop();
      // A server started after the kills gives back what the dead had in flight (issue 37.10).
      const restarted = await startServe(['--registry', url, '--data', dataPath]);
      await waitFor(async () => (await postgres.sql('cpmx', 'SELECT 1 FROM cpmx.inflight')).length === 0, 'the credits in flight of the servers killed to be given back', 20_000);
      await restarted.stop();
      const got = data(outcomes).length;
      // Requests a server had been sent before it died and that got no answer.
      const inFlight = outcomes.filter((o) => o.status === 0 && o.sentAt < (killedAt.get(o.server) ?? Number.POSITIVE_INFINITY)).length;
      // Answers a killed server wrote shortly before it died: their settles may not have
      // committed (waiting SETTLE_DELAY_MS for a batch, or in the batch the kill cut), and a
      // crash gives them away.
      const lastWritten = outcomes.filter((o) => o.status === 200 && killedAt.has(o.server) && o.doneAt > killedAt.get(o.server)! - 5000).length;
      const spent = given - (await ledger(token)).credits;
      expect(outcomes.every((o) => o.status === 200 || o.status === 0), `round ${round}`).toBe(true);
      expect(spent, `round ${round}: no credit kept for an answer never received`).toBeLessThanOrEqual(got);
      expect(got - spent, `round ${round}: answers given away, only of those written just before a kill`).toBeLessThanOrEqual(lastWritten);
      lost += got - spent;
      inFlightTotal += inFlight;
      received += got;
    }
    process.stdout.write(`SIGKILL rounds: ${received} answers received, ${inFlightTotal} requests cut in flight (no credit kept for them), ${lost} answers given away\n`);
  }, 300_000);

  it('gives back the credits in flight of an owner that has no row any more (a killed server’s last batch, committed after a sweep)', async () => {
    const token = await newToken('Huérfanos', 10);
    // As a killed server's connection leaves them when it commits its last batch after a sweep took the
    // server for gone: the credit taken, its row in flight, and no row of its owner.
    await postgres.sql(
      'cpmx',
      `WITH taken AS (UPDATE cpmx.accounts SET credits = credits - 1
                        WHERE id = (SELECT p.account_id FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id WHERE t.token = $1) RETURNING id)
       INSERT INTO cpmx.inflight (owner, batch, idx, token, day) SELECT md5(random()::text)::uuid, 1, 0, $1, current_date FROM taken`,
      [token],
    );
    // A server's sweep (at its start, then once a second) gives it back.
    const server = await startServe(['--registry', url, '--data', dataPath]);
    await waitFor(async () => (await postgres.sql('cpmx', 'SELECT 1 FROM cpmx.inflight WHERE token = $1', [token])).length === 0, 'the credit of the owner without a row to be given back');
    await server.stop();
    expect((await ledger(token)).credits).toBe(10);
  });

  it('answers 503 while the database is down or crashed, test mode goes on, and service resumes by itself', async () => {
    const token = await newToken('Base caída', 1_000_000);
    const traffic = load(() => servers.map((s) => s.url), PATH(token), 12);
    const windows: [number, number][] = [];
    for (const outage of ['stop', 'kill'] as const) {
      await traffic.until((outcomes) => data(outcomes).length >= 50);
      await (outage === 'stop' ? postgres.stop() : postgres.kill());
      const downAt = performance.now();
      await traffic.until((outcomes) => outcomes.filter((o) => o.sentAt > downAt).length >= 40);
      expect((await fetch(`${servers[0]!.url}/query/get_estados?token=pruebas`)).status).toBe(200);
      await waitFor(async () => {
        const health = (await (await fetch(`${servers[1]!.url}/health`)).json()) as { status: string; registry: { state: string; problem: string } };
        return health.status === 'degraded' && health.registry.state === 'unavailable';
      }, '/health to report the registry unavailable');
      const upAt = performance.now();
      windows.push([downAt, upAt]);
      await postgres.start();
      await traffic.until((outcomes) => data(outcomes).filter((o) => o.sentAt > upAt).length >= 50);
    }
    const outcomes = await traffic.stop();
    for (const [downAt, upAt] of windows) {
      const during = outcomes.filter((o) => o.sentAt > downAt && o.doneAt < upAt);
      expect(during.length).toBeGreaterThan(0);
      expect(during.every((o) => o.status === 503 && o.code === 503)).toBe(true);
    }
    expect(outcomes.every((o) => o.status === 200 || o.status === 503), JSON.stringify(outcomes.filter((o) => o.status !== 200 && o.status !== 503).slice(0, 5))).toBe(true);
    for (const server of servers) {
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/\n\s+at /);
    }
    // Batches whose commit was in doubt when the database went away are looked up and undone
    // once it is back: then every credit spent is an answer received.
    await waitFor(async () => 1_000_000 - (await ledger(token)).credits === data(outcomes).length, 'credits to equal the answers with data', 20_000);
  }, 180_000);
});
