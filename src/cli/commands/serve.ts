/** `cpmx serve`: the COPOMEX HTTP API on this machine. */
import { catalogSource, loadCatalog } from '../../client/catalog-source.js';
import { warnOldCatalog } from '../../client/old-catalog.js';
import type { ArtifactHeader } from '../../core/format.js';
import { HELP_OPTION, UsageError, command, integer, noPositionals } from '../command.js';
import { DEFAULT_CREDITS } from '../../registry/types.js';
import { DATA_HELP, dataOption, downloadPageOption, hostOption, metricsTokenOption, portOption, registryOption } from '../environment.js';
import { intervalOption, shareOption } from '../duration.js';
import { DEFAULT_LIMITS as LIMITS, type ConnectionLimits } from '../../serve/connection-limits.js';

/** A duration in seconds (decimals allowed), as milliseconds. */
function seconds(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+(\.\d{1,3})?$/.test(value) || Number(value) < 0.1 || Number(value) > 3600) {
    throw new UsageError(`${name} must be a number of seconds from 0.1 to 3600, got "${value}"`);
  }
  return Math.round(Number(value) * 1000);
}

export const serveCommand = command({
  name: 'serve',
  synopsis: '',
  usageOptions: '[--host 127.0.0.1] [--port 3000] [--workers 1|N|auto] [--registry FILE|URL [--panel]] [--refresh-every 1d] [--log] [--metrics [--metrics-token T]]',
  summary: 'the COPOMEX HTTP API on this machine',
  warnsOldCatalog: true,
  description: `Serves the COPOMEX HTTP API (every path of the contract, with its HTTP statuses) from this
machine, so existing clients only change their base URL. Prints "listening on http://HOST:PORT"
once it accepts connections. Answers GET and HEAD (others: 405), CORS preflights, and
GET /health (and GET /metrics, with --metrics). Real-data answers carry a strong ETag and Cache-Control; If-None-Match gives 304.
The limits below keep any one client from taking the server from the others (each worker
process holds its own); what the server refuses gets an envelope with the HTTP status as
code_error. Seconds may have decimals.
With --panel (and a registry), the control panel is served under /panel/ on the same port:
people sign up, create projects and copy their tokens there (see cpmx panel create-admin).

Every process swaps to a new artifact when the file at --data is replaced (renamed over or
rewritten; when --data is a symlink, when the link is replaced) and on SIGHUP: each request is
answered wholly from one catalog, and a file that cannot be read (damaged, another format,
half-written) is refused and logged while the old catalog keeps serving. /health shows the
catalog's date, age and build id, and how the last reload and refresh went. A catalog more than
a year old is said once on stderr when serving starts (CPMX_NO_AGE_WARNING=1 silences it).
With --refresh-every, the official catalog is downloaded, built and checked that often, and a
good one is written over --data (a regular file) and swapped in, as cpmx build --update builds
it: the corrections the served artifact records are applied again (one that no longer applies
is dropped and said in the log, /health, /metrics and cpmx status) and its history of retired
and added codes is carried forward.`,
  exit: 'SIGTERM or SIGINT: stops accepting, finishes requests in flight, closes the registry, exits 0. SIGHUP: reloads the catalog.',
  options: {
    host: { type: 'string', value: 'H', help: 'interface to listen on (default: HOST, else 127.0.0.1)' },
    port: { type: 'string', value: 'P', help: 'port (default: PORT, else 3000; 0 picks a free one)' },
    workers: { type: 'string', value: 'N', help: 'processes behind the port: a number, or auto for one per CPU (default 1)' },
    registry: {
      type: 'string',
      value: 'FILE|URL',
      help: `a token registry (see cpmx tokens): a SQLite file (or sqlite:PATH) or a
postgres:// URL; unknown tokens answer 107, spent ones 108, and each
successful real-data answer costs one credit; while the registry cannot
answer, paying requests answer 503 (default: CPMX_REGISTRY; none: every
token is accepted without limit)`,
    },
    'default-token': {
      type: 'string',
      value: 'T',
      help: `the token of requests that carry none (no token parameter, no
Authorization: Bearer header), for clients that send none; off by default`,
    },
    'registry-timeout': { type: 'string', value: 'MS', help: 'how long a paying request waits for the registry before 503 (default 2000)' },
    'registry-pool': { type: 'string', value: 'N', help: 'PostgreSQL connections per server process (default 4)' },
    panel: { type: 'boolean', help: 'serve the control panel under /panel/ (needs --registry)' },
    'free-credits': { type: 'string', value: 'N', help: 'with --panel: the credits of a new account (default 50)' },
    'panel-behind-proxy': {
      type: 'boolean',
      help: `with --panel: take the client's address and scheme from X-Forwarded-For,
X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them)`,
    },
    'panel-host': {
      type: 'string',
      value: 'NAME',
      multiple: true,
      help: `with --panel: a host name the panel is reached by (repeat it, or
separate names with commas); IP addresses, localhost and a --host name
are served without it, any other name answers 421 (against DNS
rebinding); behind a proxy, X-Forwarded-Host must be one of these`,
    },
    log: { type: 'boolean', help: 'one line per request on stdout, Common Log Format, tokens redacted' },
    metrics: {
      type: 'boolean',
      help: `serve GET /metrics: Prometheus text with the whole server's numbers
(requests, latency, credits, registry, catalog age, limits); free of credit`,
    },
    'metrics-token': {
      type: 'string',
      value: 'T',
      help: `with --metrics: /metrics answers only Authorization: Bearer T, others
401 (default: CPMX_METRICS_TOKEN; none: open to whoever reaches the port)`,
    },
    'max-connections': {
      type: 'string',
      value: 'N',
      help: `connections held at once (default ${LIMITS.maxConnections}); at the limit a new one
takes the place of the idlest one of the address holding most, or gets 503`,
    },
    'max-connections-per-address': {
      type: 'string',
      value: 'N',
      help: `the same for one client address, an IPv6 /64 (default ${LIMITS.maxConnectionsPerAddress});
behind a reverse proxy every connection comes from the proxy`,
    },
    'max-pipelined': {
      type: 'string',
      value: 'N',
      help: `requests a connection may send ahead of reading their answers
(default ${LIMITS.maxPipelined}); one more answers 503 and closes it`,
    },
    'idle-timeout': {
      type: 'string',
      value: 'S',
      help: `seconds a connection may send nothing, before its first request or
between requests (default ${LIMITS.idleTimeout / 1000})`,
    },
    'headers-timeout': {
      type: 'string',
      value: 'S',
      help: `seconds from a request's first byte to the end of its headers; then 408
(default ${LIMITS.headersTimeout / 1000})`,
    },
    'request-timeout': { type: 'string', value: 'S', help: `seconds from a request's first byte to its last; then 408 (default ${LIMITS.requestTimeout / 1000})` },
    'send-timeout': {
      type: 'string',
      value: 'S',
      help: `seconds a client may leave its answers unread before its connection
is closed (default ${LIMITS.sendTimeout / 1000})`,
    },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    'refresh-every': {
      type: 'string',
      value: 'DURATION',
      help: `download the official catalog this often (30m, 6h, 1d; 1s to 24d), build and
check it, write it over --data and swap to it; a failed refresh keeps the
catalog served (the log and /health say why)`,
    },
    'max-loss': {
      type: 'string',
      value: 'SHARE',
      help: `with --refresh-every: refuse a catalog that lacks more than this share
of the codes served (default 1%; 0.05 or 5%; 100% turns the check off)`,
    },
    'page-url': { type: 'string', value: 'URL', help: 'with --refresh-every: the export page (default: CPMX_DOWNLOAD_PAGE, else the official one)' },
    'allow-older': {
      type: 'boolean',
      help: `with --refresh-every: take a catalog dated before the one served (by
default a refresh never goes back in time: it is refused, and said)`,
    },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'serve');
    const workers = values.workers === undefined ? 1 : values.workers === 'auto' ? 'auto' : integer(values.workers, '--workers', 1, 256);
    const panelOnly = (['free-credits', 'panel-behind-proxy', 'panel-host'] as const).find((name) => values[name] !== undefined && values[name] !== false);
    if (!values.panel && panelOnly) throw new UsageError(`--${panelOnly} is an option of the control panel: add --panel`);
    const host = hostOption(values.host);
    const panelHosts = (values['panel-host'] ?? []).flatMap((names) => names.split(',')).map((name) => name.trim().toLowerCase());
    const badHost = panelHosts.find((name) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(name) || name.length > 253);
    if (badHost !== undefined) throw new UsageError(`--panel-host: "${badHost}" is not a host name (letters, digits, hyphens and dots, like panel.ejemplo.mx)`);
    const registry = registryOption(values.registry);
    const metrics = metricsOption(values.metrics === true, values['metrics-token'], host);
    const panel = values.panel
      ? {
          freeCredits: integer(values['free-credits'] ?? String(DEFAULT_CREDITS), '--free-credits', 0, 1_000_000_000),
          behindProxy: values['panel-behind-proxy'] === true,
          listenHost: host,
          hosts: panelHosts,
        }
      : undefined;
    const refresh = await refreshOption(values, dataOption(values.data));
    const { serve } = await import('../../serve/process.js');
    const { refusedAsUsage } = await import('../registry-usage.js');
    // A cluster's workers run this command too: their primary says it. Read before listening:
    // after the "listening" line the process should touch no file its caller did not ask for.
    const oldCatalog = (await import('node:cluster')).default.isWorker ? undefined : headerOf(dataOption(values.data));
    try {
      await refusedAsUsage(() => serve({
        host,
        port: integer(portOption(values.port), '--port', 0, 65535),
        workers,
        registry,
        panel,
        registryOptions: {
          timeoutMs: integer(values['registry-timeout'] ?? '2000', '--registry-timeout', 50, 600_000),
          poolSize: integer(values['registry-pool'] ?? '4', '--registry-pool', 2, 1000),
        },
        dataPath: dataOption(values.data),
        log: values.log === true,
        defaultToken: values['default-token'] || undefined,
        limits: connectionLimits(values),
        refresh,
        metrics,
      }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen: ${(error as Error).message}`);
      // A host name that does not resolve (HOST=typo).
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new UsageError(`cannot listen on ${hostOption(values.host)}: no such host (${code})`);
      throw error;
    }
    if (oldCatalog) warnOldCatalog(oldCatalog, (message) => process.stderr.write(`cpmx serve: warning: ${message}\n`));
    return new Promise<number>(() => undefined); // serves until a signal ends the process
  },
});

/**
 * The header of the catalog to be served, whose age is said on stderr once serving (a catalog
 * more than a year old); undefined when there is no artifact yet, which is said elsewhere, when
 * a request needs one.
 */
function headerOf(path: string): ArtifactHeader | undefined {
  try {
    // Read whole, as the server reads it: a file read lazily would stay open until collected.
    return (catalogSource(path).loaded() ?? loadCatalog(path, { whole: true })).header;
  } catch {
    return undefined;
  }
}

/**
 * `--metrics` and its token, checked. Served open on an address other hosts reach, it is said
 * once on stderr: the numbers are the operator's, and a network rule or a token keeps them so.
 */
function metricsOption(on: boolean, flag: string | undefined, host: string): { token?: string | undefined } | undefined {
  const token = metricsTokenOption(flag);
  if (!on) {
    if (flag !== undefined) throw new UsageError('--metrics-token is an option of /metrics: add --metrics');
    return undefined;
  }
  if (token !== undefined && !/^[\x21-\x7e]{16,512}$/.test(token)) {
    throw new UsageError(`${flag === undefined ? 'CPMX_METRICS_TOKEN' : '--metrics-token'} must be 16 to 512 visible ASCII characters (no spaces), as a Bearer header carries it`);
  }
  if (token === undefined && !isLoopback(host)) {
    process.stderr.write(`cpmx serve: GET /metrics is open to every client that reaches ${host}; keep it behind a network rule or add --metrics-token\n`);
  }
  return { token };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The connection limits from the options, checked. */
function connectionLimits(values: Record<string, string | string[] | boolean | undefined>): ConnectionLimits {
  const text = (name: string) => values[name] as string | undefined;
  const count = (name: string, fallback: number) => (text(name) === undefined ? fallback : integer(text(name)!, `--${name}`, 1));
  const limits: ConnectionLimits = {
    maxConnections: count('max-connections', LIMITS.maxConnections),
    maxConnectionsPerAddress: count('max-connections-per-address', LIMITS.maxConnectionsPerAddress),
    maxPipelined: count('max-pipelined', LIMITS.maxPipelined),
    maxUnsentBytes: LIMITS.maxUnsentBytes,
    idleTimeout: seconds(text('idle-timeout'), '--idle-timeout', LIMITS.idleTimeout),
    headersTimeout: seconds(text('headers-timeout'), '--headers-timeout', LIMITS.headersTimeout),
    requestTimeout: seconds(text('request-timeout'), '--request-timeout', LIMITS.requestTimeout),
    sendTimeout: seconds(text('send-timeout'), '--send-timeout', LIMITS.sendTimeout),
  };
  if (limits.headersTimeout > limits.requestTimeout) throw new UsageError('--headers-timeout must not be longer than --request-timeout');
  return limits;
}

/** `--refresh-every` with `--max-loss` and `--page-url`, checked; undefined without it. */
async function refreshOption(values: Record<string, string | string[] | boolean | undefined>, dataPath: string) {
  const every = values['refresh-every'] as string | undefined;
  const only = (['max-loss', 'page-url', 'allow-older'] as const).find((name) => values[name] !== undefined);
  if (every === undefined) {
    if (only) throw new UsageError(`--${only} goes with --refresh-every`);
    return undefined;
  }
  const everyMs = intervalOption(every, '--refresh-every');
  const { DEFAULT_MAX_LOSS, refreshTargetProblem } = await import('../../serve/refresh.js');
  const maxLoss = values['max-loss'] === undefined ? DEFAULT_MAX_LOSS : shareOption(values['max-loss'] as string, '--max-loss');
  const problem = refreshTargetProblem(dataPath);
  if (problem) throw new UsageError(`--refresh-every writes the refreshed artifact over the one served: ${problem}`);
  return { everyMs, maxLoss, pageUrl: downloadPageOption(values['page-url'] as string | undefined), allowOlder: values['allow-older'] === true };
}
