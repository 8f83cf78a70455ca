/** `cpmx serve` as users start it: the compiled bin on a free loopback port, stopped after the test file. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll } from 'vitest';
import { CLI } from '../helpers.js';

export interface Served {
  url: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
}

const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `cpmx serve --port 0 ...args` and resolves with its URL once it prints "listening on". */
export function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args]);
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => running.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1]!, child, exited });
    });
    void exited.then((code) => reject(new Error(`cpmx serve exited (${code}) before listening: ${output}`)));
  });
}
