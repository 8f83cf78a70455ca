/**
 * `cpmx serve` and `cpmx tokens` as processes, for the registry's tests: servers on free
 * loopback ports (each in a process group of its own, so a SIGKILL takes its workers too),
 * waiting on conditions rather than on time, and a load of paying requests whose every
 * outcome is recorded; and `startServer`, the plain form the HTTP tests use (its output
 * waited on with `outputMatches`, an optional `ulimit -n`).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams, type SpawnOptions } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { CLI, root } from '../helpers.js';

let copied: string | undefined;
afterAll(() => {
  if (copied) rmSync(dirname(dirname(copied)), { recursive: true, force: true });
});

/**
 * The command line as another user can run it: the checkout may sit in a private folder (a 0700
 * home) that user cannot enter, so the built CLI, package.json and the packages it may load at
 * run time (dependencies and optional peers, with theirs) are copied once per test file into a
 * temporary folder anyone may read.
 */
export function cliForOtherUsers(): string {
  if (copied) return copied;
  const dir = mkdtempSync(join(tmpdir(), 'cpmx-cli-'));
  chmodSync(dir, 0o755);
  const pkg = join(dir, 'cpmx');
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true, filter: (from) => !from.includes(`${join('dist', 'bench')}`) });
  const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, string> | undefined>;
  const own = manifest(join(root, 'package.json'));
  const pending = Object.keys({ ...own.dependencies, ...own.peerDependencies, ...own.optionalDependencies });
  const seen = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const found = join(root, 'node_modules', name);
    // Not hoisted: an optional package this machine has not installed, or one nested in (and copied with) another.
    if (!existsSync(join(found, 'package.json'))) continue;
    cpSync(found, join(pkg, 'node_modules', name), { recursive: true });
    const theirs = manifest(join(found, 'package.json'));
    pending.push(...Object.keys({ ...theirs.dependencies, ...theirs.optionalDependencies }));
  }
  copied = join(pkg, 'dist', 'cli.cjs');
  return copied;
}

/** The CLI to run as `uid`: this checkout's, or a copy another user can read. */
function cliFor(uid: number | undefined): string {
  return uid === undefined || uid === userInfo().uid || !existsSync(CLI) ? CLI : cliForOtherUsers();
}

export interface Served {
  url: string;
  child: ChildProcessWithoutNullStreams;
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL to the whole server (primary and workers) at once, as a crash would. */
  crash(): Promise<void>;
  /** SIGTERM, and its exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<Served>();
afterAll(async () => {
  await Promise.all([...running].map((served) => served.crash()));
});

/** Starts `cpmx serve --port 0 ARGS` and resolves once it prints where it listens. */
export function startServe(args: string[], options: Pick<SpawnOptions, 'uid' | 'gid' | 'env'> = {}): Promise<Served> {
  const child = spawn(process.execPath, [cliFor(options.uid), 'serve', '--port', '0', ...args], { detached: true, ...options }) as ChildProcessWithoutNullStreams;
  let output = '';
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const served: Served = {
    url: '',
    child,
    output: () => output,
    exited,
    async crash() {
      running.delete(served);
      if (exitCode !== undefined) return;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
    async stop() {
      running.delete(served);
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
  running.add(served);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && !served.url) {
        served.url = match[1]!;
        resolve(served);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited.then((code) => reject(new Error(`cpmx serve exited ${code} before listening: ${output}`)));
  });
}

/** Runs `cpmx tokens ARGS`; resolves with its exit code and output (it does not block the event loop). */
export function tokens(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'tokens', ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** `cpmx tokens ARGS` that must succeed; its stdout. */
export async function tokensOk(args: string[]): Promise<string> {
  const result = await tokens(args);
  if (result.code !== 0) throw new Error(`cpmx tokens ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** Resolves once `condition` holds, checking again after each short pause; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One request of a load: when it was sent and answered, to which server, and how. */
export interface Outcome {
  /** The server's URL. */
  server: string;
  sentAt: number;
  doneAt: number;
  /** The HTTP status, or 0 when the connection failed. */
  status: number;
  /** code_error of the envelope (0 for data). */
  code: number;
}

/**
 * Paying requests from `clients` concurrent loops (one connection each, closed after each
 * request, so a dead server is noticed at once), spread over `urls`, until `stop()`.
 */
export function load(urls: () => string[], path: string, clients: number) {
  const outcomes: Outcome[] = [];
  let stopping = false;
  const listeners = new Set<() => void>();
  const record = (outcome: Outcome) => {
    outcomes.push(outcome);
    for (const listener of listeners) listener();
  };
  const loop = async (client: number) => {
    for (let i = client; !stopping; i++) {
      const targets = urls();
      if (targets.length === 0) return;
      const server = targets[i % targets.length]!;
      const sentAt = performance.now();
      try {
        const response = await fetch(server + path, { headers: { Connection: 'close' }, signal: AbortSignal.timeout(20_000) });
        const body = (await response.json()) as { code_error: number } | unknown[];
        record({ server, sentAt, doneAt: performance.now(), status: response.status, code: Array.isArray(body) ? 0 : body.code_error });
      } catch {
        record({ server, sentAt, doneAt: performance.now(), status: 0, code: -1 });
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, client) => loop(client)));
  return {
    outcomes,
    /** Resolves once `condition` holds over the outcomes so far. */
    until(condition: (outcomes: Outcome[]) => boolean): Promise<void> {
      if (condition(outcomes)) return Promise.resolve();
      return new Promise((resolve) => {
        const check = () => {
          if (!condition(outcomes)) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
      });
    },
    async stop(): Promise<Outcome[]> {
      stopping = true;
      await done;
      return outcomes;
    },
  };
}

// ---- the plain form: one server, killed after the file

export interface Started {
  url: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
}

const startedServers = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of startedServers) child.kill('SIGKILL');
});

/**
 * Starts `cpmx serve --port 0 ...args` and waits for its "listening on" line. `fileLimit` runs
 * it under `ulimit -n` (through sh, which it replaces: the pid is the server's).
 */
export function startServer(args: string[] = [], env: Record<string, string> = {}, options: { fileLimit?: number } = {}): Promise<Started> {
  const command = [process.execPath, CLI, 'serve', '--port', '0', ...args];
  const child = options.fileLimit
    ? spawn('sh', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, ...command], { env: { ...process.env, ...env } })
    : spawn(command[0]!, command.slice(1), { env: { ...process.env, ...env } });
  startedServers.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      startedServers.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, port: Number(new URL(match[1]!).port), child, output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

/** Resolves once the server's output (stdout and stderr) matches `pattern` `count` times. */
export function outputMatches(started: Started, pattern: RegExp, count = 1): Promise<void> {
  const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
  const enough = () => (started.output().match(global)?.length ?? 0) >= count;
  return new Promise((resolve, reject) => {
    if (enough()) return resolve();
    const check = () => {
      if (!enough()) return;
      started.child.stdout.off('data', check);
      started.child.stderr.off('data', check);
      resolve();
    };
    started.child.stdout.on('data', check);
    started.child.stderr.on('data', check);
    started.exited.then(() => (enough() ? resolve() : reject(new Error(`the server exited before printing ${pattern}: ${started.output()}`))));
  });
}

/** Stops a server with SIGTERM and resolves with its exit code. */
export function stopServer(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}
