/** `cpmx serve`: the COPOMEX HTTP API on this machine. */
import { HELP_OPTION, UsageError, command, integer, noPositionals } from '../command.js';
import { DEFAULT_CREDITS } from '../../registry/types.js';
import { DATA_HELP, dataOption, hostOption, portOption, registryOption } from '../environment.js';

export const serveCommand = command({
  name: 'serve',
  synopsis: '',
  usageOptions: '[--host 127.0.0.1] [--port 3000] [--workers 1|N|auto] [--registry FILE|URL [--panel]] [--log]',
  summary: 'the COPOMEX HTTP API on this machine',
  description: `Serves the COPOMEX HTTP API (every path of the contract, with its HTTP statuses) from this
machine, so existing clients only change their base URL. Prints "listening on http://HOST:PORT"
once it accepts connections. Answers GET and HEAD (others: 405), CORS preflights, and
GET /health. Real-data answers carry a strong ETag and Cache-Control; If-None-Match gives 304.
With --panel (and a registry), the control panel is served under /panel/ on the same port:
people sign up, create projects and copy their tokens there (see cpmx panel create-admin).`,
  exit: 'SIGTERM or SIGINT: stops accepting, finishes requests in flight, closes the registry, exits 0.',
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
    'registry-timeout': { type: 'string', value: 'MS', help: 'how long a paying request waits for the registry before 503 (default 2000)' },
    'registry-pool': { type: 'string', value: 'N', help: 'PostgreSQL connections per server process (default 4)' },
    panel: { type: 'boolean', help: 'serve the control panel under /panel/ (needs --registry)' },
    'free-credits': { type: 'string', value: 'N', help: 'with --panel: the credits of a new account (default 50)' },
    'panel-behind-proxy': {
      type: 'boolean',
      help: `with --panel: take the client's address and scheme from X-Forwarded-For,
X-Forwarded-Proto and X-Forwarded-Host (only behind a proxy that sets them)`,
    },
    log: { type: 'boolean', help: 'one line per request on stdout, Common Log Format, tokens redacted' },
    'max-connections': { type: 'string', value: 'N', help: 'concurrent connections accepted (default 1024)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'serve');
    const workers = values.workers === undefined ? 1 : values.workers === 'auto' ? 'auto' : integer(values.workers, '--workers', 1, 256);
    if (!values.panel && (values['free-credits'] !== undefined || values['panel-behind-proxy'])) {
      throw new UsageError(`--${values['free-credits'] !== undefined ? 'free-credits' : 'panel-behind-proxy'} is an option of the control panel: add --panel`);
    }
    const registry = registryOption(values.registry);
    if (values.panel && !registry) {
      throw new UsageError('--panel needs a registry: add --registry FILE|URL (or set CPMX_REGISTRY); the panel keeps its accounts, sessions and projects there');
    }
    const panel = values.panel
      ? { freeCredits: integer(values['free-credits'] ?? String(DEFAULT_CREDITS), '--free-credits', 0, 1_000_000_000), behindProxy: values['panel-behind-proxy'] === true }
      : undefined;
    const { serve } = await import('../../http/process.js');
    const { RegistryError } = await import('../../registry/errors.js');
    try {
      await serve({
        host: hostOption(values.host),
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
        maxConnections: integer(values['max-connections'] ?? '1024', '--max-connections', 1),
      });
    } catch (error) {
      if (error instanceof RegistryError) throw new UsageError(error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen: ${(error as Error).message}`);
      throw error;
    }
    return new Promise<number>(() => undefined); // serves until a signal ends the process
  },
});
