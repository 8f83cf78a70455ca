/**
 * A load of GET requests over keep-alive connections (as a real client pool sends them), every
 * response counted and kept: its status, ETag and body, or the error of a request that got no
 * answer. For the reload tests: nothing may fail, and each body must be one catalog's answer.
 */
import { Agent, request } from 'node:http';

export interface Reply {
  path: string;
  /** The HTTP status; 0 when the request failed without an answer. */
  status: number;
  etag: string | undefined;
  body: string;
  /** The failure of a request without an answer. */
  error?: string;
}

export interface KeepAliveLoad {
  replies: Reply[];
  /** Resolves once `count` more replies than now have arrived. */
  more(count: number): Promise<void>;
  stop(): Promise<Reply[]>;
}

function get(agent: Agent, base: URL, path: string): Promise<Reply> {
  return new Promise((resolve) => {
    const req = request({ agent, host: base.hostname, port: base.port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ path, status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => resolve({ path, status: 0, etag: undefined, body: '', error: String(error) }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', (error) => resolve({ path, status: 0, etag: undefined, body: '', error: String(error) }));
    req.end();
  });
}

/** `clients` loops, each over its own keep-alive connection, asking `paths` in turn until stopped. */
export function keepAliveLoad(url: string, paths: readonly string[], clients: number): KeepAliveLoad {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const replies: Reply[] = [];
  const waiting = new Set<{ count: number; resolve: () => void }>();
  let stopping = false;
  const loop = async (client: number) => {
    for (let i = client; !stopping; i++) {
      replies.push(await get(agent, base, paths[i % paths.length]!));
      for (const waiter of waiting) {
        if (replies.length >= waiter.count) {
          waiting.delete(waiter);
          waiter.resolve();
        }
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, client) => loop(client)));
  return {
    replies,
    more(count) {
      const target = replies.length + count;
      return new Promise((resolve) => waiting.add({ count: target, resolve }));
    },
    async stop() {
      stopping = true;
      await done;
      agent.destroy();
      return replies;
    },
  };
}
