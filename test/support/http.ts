/**
 * Real HTTP for tests: `cpmx serve` started as users start it, a handler listening on a
 * loopback port, and a raw request that shows exactly what came back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type RequestListener, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { CLI } from '../helpers.js';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/**
 * Everything started by the calling test file, stopped after its tests. One hook registered
 * when the file imports this module: a hook registered from inside beforeAll or a test is
 * never run, and a child process would outlive the run.
 */
const running = new Set<() => Promise<void>>();
afterAll(() => Promise.all([...running].map((stop) => stop())));

/** Starts `cpmx serve` (the compiled bin) on a free loopback port; stopped after the calling file's tests. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Listening> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = () => {
    running.delete(stop);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  };
  running.add(stop);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        resolve({
          url: match[1]!,
          close: () => {
            running.delete(stop);
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`cpmx serve exited ${code}: ${output}`)));
  });
}

/** Listens with `server` (or a node:http server around `listener`) on a free loopback port; closed after the calling file's tests. */
export function listen(target: RequestListener | Server): Promise<Listening> {
  const server = typeof target === 'function' ? createServer(target) : target;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const close = () => {
        running.delete(close);
        return new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      };
      running.add(close);
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close });
    });
  });
}

export interface RawResponse {
  status: number;
  /** Header names in lower case, as sent. */
  headers: Record<string, string>;
  body: string;
}

/** One request with exactly this method, target and headers; the response as it arrived. */
export function raw(base: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path: target, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) flat[res.rawHeaders[i]!.toLowerCase()] = res.rawHeaders[i + 1]!;
        resolve({ status: res.statusCode!, headers: flat, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
