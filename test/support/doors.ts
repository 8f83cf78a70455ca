/**
 * The doors a request path comes in by, built once for every test that compares them: the
 * library (`client.query`), `cpmx query` (every path on stdin, one process), `cpmx serve`
 * (pipelined HTTP on keep-alive connections), the middleware (`createMiddleware` in a node:http
 * server, pipelined the same way) and the fetch handler (`createFetchHandler`, one `Request` a
 * path). Each answers a list of paths with each one's status (none for `cpmx query`, which
 * prints only the body) and body text.
 *
 * `describeDoors` runs one set of tests through each door, as h3's `describeMatrix` runs its
 * tests through each adapter: a door a test forgot, or one that answers differently, fails by
 * name. Raw targets (bytes no URL parser would leave as they are) reach the router as written
 * only through the first four; the fetch handler's `Request` normalises its URL first.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe } from 'vitest';
import { createClient, createFetchHandler, createMiddleware } from '../../src/index.js';
import { CLI } from '../helpers.js';
import { listen } from './http.js';
import { PipelinedConnection } from './raw-http.js';
import { startServer, stopServer } from './serve.js';

export const DOORS = ['library', 'cpmx query', 'cpmx serve', 'middleware', 'fetch handler'] as const;
export type DoorName = (typeof DOORS)[number];

export interface DoorAnswer {
  /** The HTTP status; undefined for `cpmx query`, which prints the body alone. */
  status: number | undefined;
  body: string;
}

export interface Door {
  readonly name: DoorName;
  /** The answers to `paths`, in order. */
  ask(paths: readonly string[]): Promise<DoorAnswer[]>;
  /** What a door that is a process printed so far (stdout and stderr of `cpmx serve`); empty for the others. */
  output(): string;
  close(): Promise<void>;
}

export interface DoorOptions {
  /** The artifact every door answers from. */
  dataPath: string;
  /** The token of paths that carry none (the library's `token`, `--token`, `--default-token`, `defaultToken`); none by default. */
  token?: string | undefined;
}

/** HTTP connections, and requests per pipelined batch (under the server's cap of 32). */
const LANES = 8;
const BATCH = 16;

/** Every path over pipelined keep-alive connections to `port`: lane k takes batches k, k + LANES, ... */
async function pipelined(port: number, paths: readonly string[]): Promise<DoorAnswer[]> {
  const answers: DoorAnswer[] = new Array(paths.length);
  await Promise.all(
    Array.from({ length: Math.min(LANES, Math.ceil(paths.length / BATCH)) }, async (_, lane) => {
      const connection = new PipelinedConnection(port);
      try {
        for (let start = lane * BATCH; start < paths.length; start += LANES * BATCH) {
          const batch = await connection.get(paths.slice(start, start + BATCH));
          for (const [i, answer] of batch.entries()) answers[start + i] = { status: answer.status, body: answer.body };
        }
      } finally {
        connection.close();
      }
    }),
  );
  return answers;
}

/** `cpmx query` reading every path on stdin: one body a line, in order. */
function queryProcess(paths: readonly string[], { dataPath, token }: DoorOptions): Promise<DoorAnswer[]> {
  const { CPMX_TOKEN: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [CLI, 'query', '--data', dataPath, ...(token === undefined ? [] : ['--token', token])], { env });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(paths.length ? `${paths.join('\n')}\n` : '');
  return exited.then((code) => {
    const lines = output.split('\n');
    if (code !== 0 || lines.pop() !== '' || lines.length !== paths.length) {
      throw new Error(`cpmx query exited ${code} with ${lines.length} lines for ${paths.length} paths: ${errors}`);
    }
    return lines.map((body) => ({ status: undefined, body }));
  });
}

/** Opens one door on the artifact; close it after. */
export async function openDoor(name: DoorName, options: DoorOptions): Promise<Door> {
  const { dataPath, token } = options;
  const door = (ask: Door['ask'], close: Door['close'] = async () => {}, output: Door['output'] = () => ''): Door => ({ name, ask, output, close });
  switch (name) {
    case 'library': {
      const client = createClient({ dataPath, token });
      return door(async (paths) =>
        paths.map((path) => {
          const { status, body } = client.query(path);
          return { status, body: JSON.stringify(body) };
        }),
      );
    }
    case 'cpmx query':
      return door((paths) => queryProcess(paths, options));
    case 'cpmx serve': {
      const server = await startServer(['--data', dataPath, ...(token === undefined ? [] : ['--default-token', token])]);
      return door(
        (paths) => pipelined(server.port, paths),
        async () => void (await stopServer(server)),
        server.output,
      );
    }
    case 'middleware': {
      const middleware = createMiddleware({ dataPath, defaultToken: token });
      const server = createServer((request, response) =>
        middleware(request, response, () => {
          response.writeHead(404, { 'Content-Length': '0' }).end();
        }),
      );
      const listening = await listen(server);
      return door(
        (paths) => pipelined(Number(new URL(listening.url).port), paths),
        () => listening.close(),
      );
    }
    case 'fetch handler': {
      const handler = createFetchHandler({ dataPath, defaultToken: token });
      return door(async (paths) => {
        const answers: DoorAnswer[] = [];
        for (const path of paths) {
          const response = await handler(new Request(`http://cpmx.test${path.startsWith('/') ? '' : '/'}${path}`));
          answers.push({ status: response.status, body: await response.text() });
        }
        return answers;
      });
    }
  }
}

/**
 * Runs `tests` once per door of `doors` (every door by default), each in a describe block
 * named by the door, the door opened before its tests and closed after. `options` is read when
 * the door opens (a beforeAll of the caller's runs first, so it may build the artifact).
 */
export function describeDoors(title: string, options: () => DoorOptions, tests: (door: () => Door) => void, doors: readonly DoorName[] = DOORS): void {
  for (const name of doors) {
    describe(`${title}, through ${name}`, () => {
      let opened: Door | undefined;
      beforeAll(async () => {
        opened = await openDoor(name, options());
      }, 30_000);
      afterAll(() => opened?.close());
      tests(() => {
        if (!opened) throw new Error(`the door ${name} did not open`);
        return opened;
      });
    });
  }
}
