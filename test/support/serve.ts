/**
 * `cpmx serve` started as users start it (the compiled bin, on a free loopback port), for the
 * tests that drive it over HTTP. Every server a test file starts is killed after the file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll } from 'vitest';
import { CLI } from '../helpers.js';

export interface Started {
  url: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
}

const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
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
  running.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
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
