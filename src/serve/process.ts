/**
 * Runs `cpmx serve`: one process, or N node:cluster workers behind one port. Dead workers are
 * replaced; SIGTERM or SIGINT stops accepting, lets requests in flight finish, closes the
 * registry and exits 0 within 5 seconds.
 */
import cluster from 'node:cluster';
import { writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { PANEL_NEEDS_REGISTRY, RegistryError } from '../registry/errors.js';
import { loadCatalog } from '../client/catalog-source.js';
import type { Catalog } from '../core/catalog.js';
import { artifactPath } from '../paths.js';
import { checkRegistry, openServed, type ServedOptions } from '../registry/open.js';
import type { RefreshOutcome } from '../http/catalog-status.js';
import { type ConnectionLimits, LISTEN_BACKLOG } from './connection-limits.js';
import { createLogSink } from './log-sink.js';
import type { MetricsEndpoint } from './metrics-endpoint.js';
import { scheduleRefresh } from './refresh.js';
import { startReloads, type Reloads } from './reload.js';
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
  /** `--metrics`: GET /metrics with the whole server's numbers, behind a Bearer token when one is given. */
  metrics?: { token?: string | undefined } | undefined;
  /** `--refresh-every`: download, build, check and swap the catalog this often (refresh.ts). */
  refresh?: { everyMs: number; maxLoss: number; pageUrl?: string | undefined; allowOlder?: boolean | undefined } | undefined;
}

/** What a primary tells its workers about the catalog. */
type CatalogMessage = { cpmx: 'reload'; trigger: string } | { cpmx: 'refreshed'; outcome: RefreshOutcome };

/** Logs a line about this process (the catalog's reloads and refreshes) on stderr. */
function say(line: string): void {
  process.stderr.write(`cpmx serve: process ${process.pid}: ${line}\n`);
}

/** Whole shutdown budget; requests still running after the grace period are cut. */
const SHUTDOWN_MS = 5000;
const GRACE_MS = 4000;

/** The exit code of a server that cannot listen, as the CLI's for a usage error. */
const EXIT_USAGE = 2;
/** A worker that dies sooner than this after its start is replaced after a delay, doubled each time up to MAX_RESTART_DELAY_MS. */
const QUICK_DEATH_MS = 2000;
const MAX_RESTART_DELAY_MS = 5000;

/** Why listening failed, naming the address: `127.0.0.1:3000 is already in use (EADDRINUSE)`. */
function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): string {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${address} is already in use (EADDRINUSE): stop what listens there or choose another --port`;
    case 'EACCES':
      return `${address} needs privileges this process lacks (EACCES): choose a --port above 1023`;
    case 'EADDRNOTAVAIL':
      return `${address}: no interface of this machine has that address (EADDRNOTAVAIL)`;
    default:
      return `${address}: ${error.message}`;
  }
}

/**
 * Writes the "listening on" line to stdout, directly: stdout may be a full disk or a closed
 * pipe, which must not end the server (the CLI's stdout rules are for commands that end).
 */
function announceListening(line: string): void {
  try {
    writeSync(1, line);
  } catch (error) {
    process.stderr.write(`cpmx serve: could not write to stdout (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${line}`);
  }
}

function listeningLine(address: string, port: number, panel = false): string {
  const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return `listening on ${base}\n${panel ? `control panel on ${base}/panel/\n` : ''}`;
}

/** Starts serving; resolves once listening (in a cluster primary, once a worker listens). */
export async function serve(options: ServeProcessOptions): Promise<void> {
  if (options.panel && !options.registry) throw new RegistryError(PANEL_NEEDS_REGISTRY);
  const workers = options.workers === 'auto' ? availableParallelism() : options.workers;
  // Checked once, before any worker starts: a registry that does not exist, cannot be reached
  // or has a newer schema is refused with what to do. Later, workers never refuse: while the
  // registry is unavailable they answer paying requests 503 and keep trying.
  if (options.registry && !cluster.isWorker) await checkRegistry(options.registry, options.registryOptions);
  if (workers > 1 && cluster.isPrimary) {
    if (options.metrics) (await import('./metrics-cluster.js')).gatherWorkerMetrics();
    return runPrimary(workers, options);
  }
  return runWorker(options, !cluster.isWorker);
}

function runPrimary(count: number, options: ServeProcessOptions): Promise<void> {
  const panel = options.panel !== undefined;
  let stopping = false;
  let announced = false;
  return new Promise((resolve) => {
    /** The last refresh's outcome, told to each worker that starts, so its /health shows it. */
    let refreshed: RefreshOutcome | undefined;
    const tell = (message: CatalogMessage, only?: number) => {
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker && serving.has(worker.id) && (only === undefined || only === worker.id)) worker.send(message);
      }
    };
    // Workers reload themselves; the primary, which has no catalog, passes the signal on.
    process.on('SIGHUP', () => {
      say(`SIGHUP: ${serving.size} worker(s) reload the catalog`);
      tell({ cpmx: 'reload', trigger: 'SIGHUP' });
    });
    // One process refreshes (the primary, which answers nothing); the workers swap to what it wrote.
    const path = artifactPath(options.dataPath);
    const refresh = options.refresh
      ? scheduleRefresh({ path, maxLoss: options.refresh.maxLoss, pageUrl: options.refresh.pageUrl, allowOlder: options.refresh.allowOlder, serving: () => tryLoad(path), say }, options.refresh.everyMs, (outcome) => {
          refreshed = outcome;
          tell({ cpmx: 'refreshed', outcome });
        })
      : undefined;
    // Announce once every worker listens: they then share one socket, so the port stays the
    // same while any of them lives (with --port 0, a socket closed by the last worker would
    // come back on another port).
    let listening = 0;
    /** Workers serving: they heed 'shutdown'. One still starting has no listener for it yet. */
    const serving = new Set<number>();
    cluster.on('listening', (worker, address) => {
      serving.add(worker.id);
      if (refreshed) tell({ cpmx: 'refreshed', outcome: refreshed }, worker.id);
      if (announced || ++listening < count) return;
      announced = true;
      announceListening(listeningLine(address.address ?? '127.0.0.1', address.port, panel));
      resolve();
    });
    cluster.on('message', (_worker, message: { cpmx?: string; message?: string }) => {
      if (message?.cpmx !== 'listen-failed' || stopping) return;
      stopping = true;
      process.stderr.write(`cpmx: cannot listen: ${message.message}\n`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(EXIT_USAGE);
    });
    /** When each worker started, and the delay before a quickly dying one is replaced. */
    const started = new Map<number, number>();
    let restartDelay = 0;
    const fork = () => started.set(cluster.fork().id, Date.now());
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        return;
      }
      // A worker that keeps dying at once (a crash at start) is not restarted in a tight loop.
      const lived = Date.now() - (started.get(worker.id) ?? 0);
      started.delete(worker.id);
      restartDelay = lived < QUICK_DEATH_MS ? Math.min(MAX_RESTART_DELAY_MS, Math.max(100, restartDelay * 2)) : 0;
      process.stderr.write(`cpmx serve: worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); starting another${restartDelay ? ` in ${restartDelay} ms` : ''}\n`);
      if (restartDelay === 0) fork();
      else setTimeout(() => stopping || fork(), restartDelay).unref();
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      refresh?.stop();
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
    // Each worker accepts its own connections from the shared socket: with the primary handing
    // them out (round-robin), a connection on its way to a worker that dies hangs in the
    // primary forever, as Node waits for that worker's reply.
    cluster.schedulingPolicy = cluster.SCHED_NONE;
    for (let i = 0; i < count; i++) fork();
  });
}

/** The metrics of a server process: its own numbers, or (a cluster's worker) the whole server's, gathered by the primary. */
async function servedMetrics(options: { token?: string | undefined }): Promise<MetricsEndpoint> {
  const [{ ServerMetrics }, { MetricsEndpoint }] = await Promise.all([import('./metrics.js'), import('./metrics-endpoint.js')]);
  const counters = new ServerMetrics();
  const collect = cluster.isWorker ? (await import('./metrics-cluster.js')).workerMetrics(counters) : undefined;
  return new MetricsEndpoint(counters, { token: options.token, collect });
}

async function runWorker(options: ServeProcessOptions, announce: boolean): Promise<void> {
  // At once: SIGHUP's default is to end the process, and the registry may take a while to open.
  let reloads: Reloads | undefined;
  process.on('SIGHUP', () => reloads?.reload('SIGHUP'));
  const registry = options.registry ? await openServed(options.registry, options.registryOptions) : undefined;
  // Loaded only when asked for: a server without the panel never reads its modules.
  const panel = options.panel && registry ? (await import('../panel/handler.js')).createPanel({ store: registry.panel, ...options.panel }) : undefined;
  const metrics = options.metrics ? await servedMetrics(options.metrics) : undefined;
  const instance = createCpmxServer({
    dataPath: options.dataPath,
    registry: registry && metrics ? metrics.counters.countRegistry(registry) : registry,
    metrics,
    defaultToken: options.defaultToken,
    limits: options.limits,
    // Not through process.stdout: its reader leaving, stalling or a full disk must not end or
    // grow the server (log-sink.ts says what happens instead).
    log: options.log ? createLogSink(1, (message) => process.stderr.write(`cpmx serve: process ${process.pid}: ${message}\n`)) : undefined,
    panel,
  });
  if (!instance.loaded && announce) {
    process.stderr.write('cpmx serve: no catalog artifact loaded: serving test mode (token "pruebas") only; run `cpmx build`\n');
  }
  reloads = startReloads(instance.catalog, say, true);
  const catalogReloads = reloads;
  /** A refresh's outcome (made here, or by the primary) is recorded for /health; a new artifact is swapped in. */
  const refreshed = (outcome: RefreshOutcome) => {
    instance.catalog.recordRefresh(outcome);
    if (outcome.result === 'swapped') catalogReloads.reload('refresh');
  };
  // Alone, this process refreshes; in a cluster, the primary does and says so (CatalogMessage).
  const refresh =
    options.refresh && !cluster.isWorker
      ? scheduleRefresh({ path: instance.catalog.path, maxLoss: options.refresh.maxLoss, pageUrl: options.refresh.pageUrl, allowOlder: options.refresh.allowOlder, serving: instance.catalog.loaded, say }, options.refresh.everyMs, refreshed)
      : undefined;
  process.on('message', (message: CatalogMessage) => {
    if (message?.cpmx === 'reload') catalogReloads.reload(message.trigger);
    else if (message?.cpmx === 'refreshed') refreshed(message.outcome);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    refresh?.stop();
    catalogReloads.close();
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
    instance.server.once('error', (error: NodeJS.ErrnoException) => {
      const failure = Object.assign(new Error(listenFailure(error, options.host, options.port)), { code: error.code });
      // A worker tells its primary, which says it once and ends the whole server: the port
      // will not free itself, and replacing the worker would fail again, forever.
      if (cluster.isWorker && process.send) process.send({ cpmx: 'listen-failed', message: failure.message }, () => process.exit(EXIT_USAGE));
      else reject(failure);
    });
    instance.server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      const address = instance.server.address() as AddressInfo;
      if (announce) announceListening(listeningLine(address.address, address.port, panel !== undefined));
      resolve();
    });
  });
}

/** The catalog at `path`, or undefined when none can be read there (a refresh then has nothing to compare with). */
function tryLoad(path: string): Catalog | undefined {
  try {
    return loadCatalog(path, { whole: true });
  } catch {
    return undefined;
  }
}
