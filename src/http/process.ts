/**
 * Runs `cpmx serve`: one process, or N node:cluster workers behind one port. Dead workers are
 * replaced; SIGTERM or SIGINT stops accepting, lets requests in flight finish, closes the
 * registry and exits 0 within 5 seconds.
 */
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { RegistryError } from '../registry/errors.js';
import { checkRegistry, openServed, type ServedOptions } from '../registry/open.js';
import { type ConnectionLimits, LISTEN_BACKLOG } from './connection-limits.js';
import { createCpmxServer } from './server.js';

export interface ServeProcessOptions {
  host: string;
  port: number;
  /** A number, or 'auto' for one per CPU. */
  workers: number | 'auto';
  /** A SQLite path (or `sqlite:PATH`) or a `postgres://` URL. */
  registry?: string | undefined;
  /** How paying requests wait for the registry, and PostgreSQL's pool size. */
  registryOptions?: ServedOptions | undefined;
  dataPath?: string | undefined;
  log: boolean;
  /** The token of requests that carry none; none by default. */
  defaultToken?: string | undefined;
  /** Connection limits; the defaults for any not given. */
  limits?: Partial<ConnectionLimits> | undefined;
  /** The control panel under /panel (needs a registry). */
  panel?: { freeCredits: number; behindProxy: boolean; listenHost?: string; hosts?: readonly string[] } | undefined;
}

/** Whole shutdown budget; requests still running after the grace period are cut. */
const SHUTDOWN_MS = 5000;
const GRACE_MS = 4000;

function listeningLine(address: string, port: number, panel = false): string {
  const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return `listening on ${base}\n${panel ? `control panel on ${base}/panel/\n` : ''}`;
}

/** Starts serving; resolves once listening (in a cluster primary, once a worker listens). */
export async function serve(options: ServeProcessOptions): Promise<void> {
  if (options.panel && !options.registry) throw new RegistryError('--panel needs a registry (--registry FILE|URL, or CPMX_REGISTRY): the panel keeps its accounts, sessions and projects there');
  const workers = options.workers === 'auto' ? availableParallelism() : options.workers;
  // Checked once, before any worker starts: a registry that does not exist, cannot be reached
  // or has a newer schema is refused with what to do. Later, workers never refuse: while the
  // registry is unavailable they answer paying requests 503 and keep trying.
  if (options.registry && !cluster.isWorker) await checkRegistry(options.registry, options.registryOptions);
  if (workers > 1 && cluster.isPrimary) return runPrimary(workers, options.panel !== undefined);
  return runWorker(options, !cluster.isWorker);
}

function runPrimary(count: number, panel: boolean): Promise<void> {
  let stopping = false;
  let announced = false;
  return new Promise((resolve) => {
    // Announce once every worker listens: they then share one socket, so the port stays the
    // same while any of them lives (with --port 0, a socket closed by the last worker would
    // come back on another port).
    let listening = 0;
    /** Workers serving: they heed 'shutdown'. One still starting has no listener for it yet. */
    const serving = new Set<number>();
    cluster.on('listening', (worker, address) => {
      serving.add(worker.id);
      if (announced || ++listening < count) return;
      announced = true;
      process.stdout.write(listeningLine(address.address ?? '127.0.0.1', address.port, panel));
      resolve();
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        return;
      }
      process.stderr.write(`cpmx serve: worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); starting another\n`);
      cluster.fork();
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      // A worker still starting (a replacement) would miss the message and hold the exit for
      // the whole budget; it has no request in flight, so it is simply ended.
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker && serving.has(worker.id)) worker.send('shutdown');
        else worker?.process.kill('SIGKILL');
      }
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(0);
      }, SHUTDOWN_MS).unref();
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    for (let i = 0; i < count; i++) cluster.fork();
  });
}

async function runWorker(options: ServeProcessOptions, announce: boolean): Promise<void> {
  const registry = options.registry ? await openServed(options.registry, options.registryOptions) : undefined;
  // Loaded only when asked for: a server without the panel never reads its modules.
  const panel = options.panel && registry ? (await import('../panel/handler.js')).createPanel({ store: registry.panel, ...options.panel }) : undefined;
  const instance = createCpmxServer({
    dataPath: options.dataPath,
    registry,
    defaultToken: options.defaultToken,
    limits: options.limits,
    log: options.log ? (line) => process.stdout.write(`${line}\n`) : undefined,
    panel,
  });
  if (!instance.loaded && announce) {
    process.stderr.write('cpmx serve: no catalog artifact loaded: serving test mode (token "pruebas") only; run `cpmx build`\n');
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`cpmx serve: process ${process.pid} stopping; requests in flight are finished first\n`);
    setTimeout(() => {
      process.stderr.write(`cpmx serve: process ${process.pid}: requests still running after ${SHUTDOWN_MS / 1000} s were cut\n`);
      process.exit(0);
    }, SHUTDOWN_MS - 200).unref();
    void instance
      .close(GRACE_MS)
      .then(() => registry?.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('message', (message) => {
    if (message === 'shutdown') stop();
  });
  return new Promise((resolve, reject) => {
    instance.server.once('error', reject);
    instance.server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      const address = instance.server.address() as AddressInfo;
      if (announce) process.stdout.write(listeningLine(address.address, address.port, panel !== undefined));
      resolve();
    });
  });
}
