/** `cpmx serve`: the COPOMEX HTTP API on this machine. */
import { HELP_OPTION, UsageError, command, integer, noPositionals } from '../command.js';
import { DATA_HELP, dataOption, hostOption, portOption, registryOption } from '../environment.js';

export const serveCommand = command({
  name: 'serve',
  synopsis: '',
  usageOptions: '[--host 127.0.0.1] [--port 3000] [--workers 1|N|auto] [--registry FILE|URL] [--log]',
  summary: 'the COPOMEX HTTP API on this machine',
  description: `Serves the COPOMEX HTTP API (every path of the contract, with its HTTP statuses) from this
machine, so existing clients only change their base URL. Prints "listening on http://HOST:PORT"
once it accepts connections. Answers GET and HEAD (others: 405), CORS preflights, and
GET /health. Real-data answers carry a strong ETag and Cache-Control; If-None-Match gives 304.`,
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
    'default-token': {
      type: 'string',
      value: 'T',
      help: `the token of requests that carry none (no token parameter, no
Authorization: Bearer header), for clients that send none; off by default`,
    },
    'registry-timeout': { type: 'string', value: 'MS', help: 'how long a paying request waits for the registry before 503 (default 2000)' },
    'registry-pool': { type: 'string', value: 'N', help: 'PostgreSQL connections per server process (default 4)' },
    log: { type: 'boolean', help: 'one line per request on stdout, Common Log Format, tokens redacted' },
    'max-connections': { type: 'string', value: 'N', help: 'concurrent connections accepted (default 1024)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'serve');
    const workers = values.workers === undefined ? 1 : values.workers === 'auto' ? 'auto' : integer(values.workers, '--workers', 1, 256);
    const { serve } = await import('../../http/process.js');
    const { RegistryError } = await import('../../registry/errors.js');
    try {
      await serve({
        host: hostOption(values.host),
        port: integer(portOption(values.port), '--port', 0, 65535),
        workers,
        registry: registryOption(values.registry),
        registryOptions: {
          timeoutMs: integer(values['registry-timeout'] ?? '2000', '--registry-timeout', 50, 600_000),
          poolSize: integer(values['registry-pool'] ?? '4', '--registry-pool', 2, 1000),
        },
        dataPath: dataOption(values.data),
        log: values.log === true,
        maxConnections: integer(values['max-connections'] ?? '1024', '--max-connections', 1),
        defaultToken: values['default-token'] || undefined,
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
