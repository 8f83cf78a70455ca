#!/usr/bin/env node
/**
 * The `cpmx` command: a thin adapter over the router. Lookups print the body the HTTP API
 * would return; `query` does the same for request paths, one or a stream of them.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactError } from './catalog.js';
import { createClient, type CpmxClient } from './client.js';
import { answer, failure, isSuccess, parseRequestPath, type Body, type RouterContext } from './copomex.js';
import { packageRoot } from './paths.js';

/** Exit statuses: a success envelope, an error envelope, a usage error (or no catalog to answer from). */
const EXIT = { ok: 0, errorEnvelope: 1, usage: 2 } as const;

class UsageError extends Error {}

const COMMON_OPTIONS = `Options:
  --token T      the token (default: the CPMX_TOKEN environment variable); "pruebas" is test mode
  --data FILE    the artifact to read (default: CPMX_DATA, else the package's data/cpmx.msgpack)
  -h, --help     this help`;

const LOOKUP_EXIT = `Prints the JSON body the COPOMEX API would return: indented on a terminal, one line when
piped. Exit status: 0 on a success, 1 on an error envelope, 2 on a usage error or when the
catalog cannot be loaded.`;

const HELP: Record<string, string> = {
  main: `cpmx: Mexican postal codes (SEPOMEX catalog) answered offline, by the COPOMEX API's contract.

Usage:
  cpmx info_cp <cp> [--type simplified]       the settlements of a postal code
  cpmx search_cp <partial>                    the codes that start with 1 to 5 digits
  cpmx get_estados                            the 32 states
  cpmx get_municipio_por_estado <estado>      the municipalities of a state (aliases: CDMX, Edomex, ...)
  cpmx query [path]                           answer a request path, or a stream of them from stdin
  cpmx build [--source FILE] [--out FILE]     compile the official catalog into the artifact
  cpmx status                                 show the artifact's header, or why it cannot be loaded
  cpmx serve [--port 3000] [--registry FILE]  the COPOMEX HTTP API on this machine
  cpmx tokens create|list|credit|revoke       manage project tokens and credits of a registry
  cpmx validate [FILE|-] [--output FILE]      check addresses in a CSV or NDJSON file

Run "cpmx <command> --help" for a command's options. Example:
  cpmx info_cp 09810 --type simplified --token demo`,
  info_cp: `Usage: cpmx info_cp <cp> [--type simplified] [--token T] [--data FILE]

The settlements of a 5-digit postal code. Without --type, an array with one envelope per
settlement in catalog order; with --type simplified, one envelope listing every name.

${LOOKUP_EXIT}

  --type simplified   the simplified answer (any other value answers error 112)
${COMMON_OPTIONS}`,
  search_cp: `Usage: cpmx search_cp <partial> [--token T] [--data FILE]

Every postal code that starts with <partial> (1 to 5 digits), ascending.

${LOOKUP_EXIT}

${COMMON_OPTIONS}`,
  get_estados: `Usage: cpmx get_estados [--token T] [--data FILE]

The 32 states as the catalog names them, ordered by their key (c_estado).

${LOOKUP_EXIT}

${COMMON_OPTIONS}`,
  get_municipio_por_estado: `Usage: cpmx get_municipio_por_estado <estado> [--token T] [--data FILE]

The municipalities of a state, ordered by their key (c_mnpio). <estado> is matched ignoring
case, accents and surrounding spaces; CDMX, Distrito Federal, Estado de México, Edomex,
Coahuila, Michoacán and Veracruz are accepted too. Quote names with spaces.

${LOOKUP_EXIT}

${COMMON_OPTIONS}`,
  query: `Usage: cpmx query [path] [--token T] [--data FILE]

Answers a request path exactly as the HTTP API would, for example
  cpmx query '/query/info_cp/09810?token=demo&type=simplified'
A full URL is accepted too; its host is ignored. When the path carries no token, --token or
CPMX_TOKEN is used.

With no path, reads paths from stdin, one a line, and writes one compact JSON body a line, in
the same order, as each arrives; a bad line gets its error envelope and the stream goes on.
Exit status: with a path, 0 on a success and 1 on an error envelope; for a stream, 0 once
every line is answered. 2 on a usage error or when the catalog cannot be loaded.

${COMMON_OPTIONS}`,
  build: `Usage: cpmx build [--source FILE] [--out FILE] [--if-found]

Compiles the official catalog of Correos de México (CPdescarga.txt, or the CPdescargatxt.zip
it is downloaded as; Latin-1 or a UTF-8 re-save) into the artifact the lookups read.

The catalog is looked for in this order: --source FILE; the CPMX_CATALOG environment
variable; data/CPdescarga.txt, data/CPdescargatxt.zip and ../shared/data/sepomex/CPdescargatxt.zip
from the package's root. The artifact is written to --out FILE, default data/cpmx.msgpack in
the package, through a temporary file: a refused catalog never replaces a good artifact.

  --source FILE   the catalog to compile
  --out FILE      where to write the artifact
  --if-found      when no catalog is found by default, say so and exit 0 (used by npm install)
  -h, --help      this help

Exit status: 0 when built, 1 when the catalog is missing or refused, 2 on a usage error.`,
  status: `Usage: cpmx status [--data FILE]

Prints the artifact's header (format version, counts, source file and sha256) as JSON.
Exit status: 0 when the artifact loads, 2 when it cannot (the message says why).

  --data FILE   the artifact (default: CPMX_DATA, else the package's data/cpmx.msgpack)
  -h, --help    this help`,
};

HELP.serve = `Usage: cpmx serve [--host 127.0.0.1] [--port 3000] [--workers 1|N|auto] [--registry FILE] [--log]

Serves the COPOMEX HTTP API (every path of the contract, with its HTTP statuses) from this
machine, so existing clients only change their base URL. Prints "listening on http://HOST:PORT"
once it accepts connections. Answers GET and HEAD (others: 405), CORS preflights, and
GET /health. Real-data answers carry a strong ETag and Cache-Control; If-None-Match gives 304.

  --host H             interface to listen on (default: HOST, else 127.0.0.1)
  --port P             port (default: PORT, else 3000; 0 picks a free one)
  --workers N          processes behind the port: a number, or auto for one per CPU (default 1)
  --registry FILE      a token registry (see cpmx tokens): unknown tokens answer 107, spent
                       ones 108, and each successful real-data answer costs one credit
                       (default: CPMX_REGISTRY; none: every token is accepted without limit)
  --log                one line per request on stdout, Common Log Format, tokens redacted
  --max-connections N  concurrent connections accepted (default 1024)
  --data FILE          the artifact (default: CPMX_DATA, else the package's data/cpmx.msgpack)
  -h, --help           this help

SIGTERM or SIGINT: stops accepting, finishes requests in flight, closes the registry, exits 0.`;

HELP.tokens = `Usage:
  cpmx tokens create --registry FILE --name NAME [--credits 50]   prints the new token alone
  cpmx tokens list --registry FILE [--json]
  cpmx tokens credit TOKEN N --registry FILE                      adds N credits
  cpmx tokens revoke TOKEN --registry FILE

Projects, their tokens (random UUID v4) and their credits, in a SQLite registry that
\`cpmx serve --registry FILE\` answers by. New projects get 50 credits. --registry defaults to
the CPMX_REGISTRY environment variable. The registry needs better-sqlite3
(npm install better-sqlite3). The JSON of list is an array of
{ "token", "name", "credits", "used", "revoked", "created" }, credits being what is left.
Exit status: 0 on success, 1 when the token is not in the registry, 2 on a usage error.`;

HELP.validate = `Usage: cpmx validate [FILE|-] [--format csv|ndjson] [--column FIELD=NAME ...] [--output FILE]

Checks every address record of a CSV (header row; delimiter , ; | or tab detected; UTF-8 with
or without BOM) or NDJSON file against the catalog, and writes one NDJSON line per record, in
order: {"line", "valid", "errors": [{"field", "code_error", "error_message"}], "suggestions"}.
Reads stdin when FILE is - or absent.

Columns are found by name, ignoring case and accents: cp, codigo_postal, "código postal",
d_codigo; asentamiento, colonia; municipio, alcaldia, delegacion; estado; ciudad.

Errors: 101, 102, 104, 105 for the code (as the API answers them); 120 estado, 121 municipio,
122 asentamiento, 123 ciudad not matching the code; 130 a record that cannot be read.
Matching ignores case, accents, punctuation and repeated spaces; empty fields are not checked.
Suggestions: a code that lost its leading zero (1000 -> 01000), the code's state,
municipality and city, and the closest settlement of the code when it is close enough.

  --format csv|ndjson   the input's format (default: detected from its first character)
  --column FIELD=NAME   read FIELD (cp, asentamiento, municipio, estado, ciudad) from column NAME
  --output FILE         write the results there (complete or not at all) instead of stdout
  --token T             the token (default: CPMX_TOKEN, else a local one; "pruebas" is test mode)
  --data FILE           the artifact (default: CPMX_DATA, else the package's data/cpmx.msgpack)
  --quiet               no progress bar and no summary on stderr
  -h, --help            this help

A summary goes to stderr at the end, and a progress bar while it runs on a terminal.
Exit status: 0 when every record is valid, 1 when any is not, 2 when the input cannot be read.`;

const LOOKUP_ARGS = {
  token: { type: 'string' },
  data: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** Parses a command's arguments; a leading "-" digit string (a negative cp) stays positional. */
function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, command: string) {
  const negative = args.filter((arg) => /^-\d/.test(arg));
  const rest = args.filter((arg) => !/^-\d/.test(arg));
  try {
    return parseArgs({ args: [...rest, ...(negative.length ? ['--', ...negative] : [])], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}\nRun "cpmx ${command} --help" for usage.`);
  }
}

function positional(positionals: string[], command: string, name: string, required: boolean): string | undefined {
  if (positionals.length > 1) throw new UsageError(`cpmx ${command} takes one <${name}>, got ${positionals.length}: ${positionals.join(' ')}\nQuote a value that has spaces.`);
  if (required && positionals.length === 0) throw new UsageError(`cpmx ${command} needs <${name}>.\nRun "cpmx ${command} --help" for usage.`);
  return positionals[0];
}

function print(body: unknown, pretty = process.stdout.isTTY === true): void {
  process.stdout.write(`${pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body)}\n`);
}

function clientFor(values: { token?: string | undefined; data?: string | undefined }): CpmxClient {
  return createClient({ token: values.token ?? process.env.CPMX_TOKEN, dataPath: values.data });
}

function lookup(command: string, args: string[]): number {
  // --type is read by info_cp only; elsewhere it is ignored, as the API ignores `type`.
  const { values, positionals } = parse(args, { ...LOOKUP_ARGS, type: { type: 'string' } }, command);
  if (values.help) return help(command);
  let body: Body;
  switch (command) {
    case 'info_cp': {
      const cp = positional(positionals, command, 'cp', false);
      body = clientFor(values).infoCp(cp ?? '', { type: values.type });
      break;
    }
    case 'search_cp':
      body = clientFor(values).searchCp(positional(positionals, command, 'partial', false) ?? '');
      break;
    case 'get_estados':
      if (positionals.length) throw new UsageError(`cpmx get_estados takes no argument, got: ${positionals.join(' ')}`);
      body = clientFor(values).getEstados();
      break;
    default:
      body = clientFor(values).getMunicipioPorEstado(positional(positionals, command, 'estado', false) ?? '');
  }
  print(body);
  return isSuccess(body) ? EXIT.ok : EXIT.errorEnvelope;
}

async function query(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, LOOKUP_ARGS, 'query');
  if (values.help) return help('query');
  const path = positional(positionals, 'query', 'path', false);
  const client = createClient({ dataPath: values.data });
  const context: RouterContext = { catalog: client.catalog };
  const defaultToken = values.token ?? process.env.CPMX_TOKEN;
  const respond = (line: string): Body => {
    const request = parseRequestPath(line);
    if (!request) return failure(111);
    request.token ??= defaultToken;
    return answer(request, context).body;
  };
  if (path !== undefined) {
    const body = respond(path);
    print(body);
    return isSuccess(body) ? EXIT.ok : EXIT.errorEnvelope;
  }
  if (process.stdin.isTTY) process.stderr.write('cpmx query: reading request paths from stdin, one a line (Ctrl-D ends)\n');
  await answerStream(respond);
  return EXIT.ok;
}

/** Answers each complete line as its chunk arrives, one write per chunk, in order. */
async function answerStream(respond: (line: string) => Body): Promise<void> {
  let pending = '';
  const write = (lines: string[]) => {
    const out = lines.map((line) => JSON.stringify(respond(line.endsWith('\r') ? line.slice(0, -1) : line))).join('\n');
    if (process.stdout.write(`${out}\n`)) return undefined;
    return new Promise<void>((done) => process.stdout.once('drain', done));
  };
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    if (lines.length) await write(lines);
  }
  if (pending) await write([pending]);
}

async function build(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    { source: { type: 'string' }, out: { type: 'string' }, 'if-found': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    'build',
  );
  if (values.help) return help('build');
  if (positionals.length) throw new UsageError(`cpmx build takes no positional argument, got: ${positionals.join(' ')}\nUse --source FILE.`);
  const { buildArtifact, defaultCatalogPaths, findCatalog, CatalogError, ArtifactWriteError } = await import('../build/build.js');
  const location = findCatalog(values.source);
  if (!location) {
    process.stderr.write(
      `cpmx build: no catalog found. Download CPdescargatxt.zip (format TXT, all states) from Correos de México\n` +
        `and put it at ${defaultCatalogPaths[1]}, or run: cpmx build --source FILE (or set CPMX_CATALOG).\n` +
        `Looked for:\n${defaultCatalogPaths.map((path) => `  ${path}\n`).join('')}` +
        `Test mode (token "pruebas") works without a catalog; real-data lookups need one.\n`,
    );
    return values['if-found'] ? EXIT.ok : EXIT.errorEnvelope;
  }
  const tty = process.stderr.isTTY === true;
  process.stderr.write(`cpmx build: reading ${location.path} (${location.from})\n`);
  try {
    const summary = await buildArtifact({
      source: location.path,
      out: values.out,
      onProgress: (rows) => {
        if (tty) process.stderr.write(`\r  ${rows.toLocaleString('en-US')} rows`);
        else if (rows % 50_000 === 0) process.stderr.write(`  ${rows.toLocaleString('en-US')} rows\n`);
      },
    });
    if (tty) process.stderr.write('\r\x1b[K');
    const n = (value: number) => value.toLocaleString('en-US');
    process.stdout.write(
      `cpmx build: wrote ${summary.out}\n` +
        `  rows ${n(summary.rows)}, codes ${n(summary.codes)}, states ${n(summary.states)}, municipalities ${n(summary.municipalities)}\n` +
        `  ${n(summary.bytes)} bytes in ${(summary.milliseconds / 1000).toFixed(2)} s; source ${summary.encoding}, sha256 ${summary.sha256}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (tty) process.stderr.write('\n');
    if (error instanceof CatalogError) {
      process.stderr.write(`cpmx build: refused: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
      return EXIT.errorEnvelope;
    }
    if (error instanceof ArtifactWriteError) {
      process.stderr.write(`cpmx build: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
      return EXIT.errorEnvelope;
    }
    throw error;
  }
}

function status(args: string[]): number {
  const { values, positionals } = parse(args, { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'status');
  if (values.help) return help('status');
  if (positionals.length) throw new UsageError(`cpmx status takes no argument, got: ${positionals.join(' ')}`);
  const client = createClient({ dataPath: values.data });
  print({ artifact: client.dataPath, loaded: true, header: client.catalog().header });
  return EXIT.ok;
}

function integer(value: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got "${value}"`);
  }
  return Number(value);
}

async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      host: { type: 'string' },
      port: { type: 'string' },
      workers: { type: 'string' },
      registry: { type: 'string' },
      log: { type: 'boolean' },
      'max-connections': { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    'serve',
  );
  if (values.help) return help('serve');
  if (positionals.length) throw new UsageError(`cpmx serve takes no positional argument, got: ${positionals.join(' ')}`);
  const workers = values.workers === undefined || values.workers === 'auto' ? (values.workers === 'auto' ? 'auto' : 1) : integer(values.workers, '--workers', 1, 256);
  const { serve } = await import('./serve.js');
  const { RegistryError } = await import('./registry.js');
  try {
    await serve({
      host: values.host ?? process.env.HOST ?? '127.0.0.1',
      port: integer(values.port ?? process.env.PORT ?? '3000', '--port', 0, 65535),
      workers,
      registryPath: values.registry ?? process.env.CPMX_REGISTRY,
      dataPath: values.data,
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
}

async function tokensCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') return help('tokens');
  const { values, positionals } = parse(
    rest,
    { registry: { type: 'string' }, name: { type: 'string' }, credits: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    'tokens',
  );
  if (values.help) return help('tokens');
  const path = values.registry ?? process.env.CPMX_REGISTRY;
  if (!path) throw new UsageError(`cpmx tokens ${action} needs --registry FILE (or CPMX_REGISTRY)`);
  const { Registry, RegistryError, DEFAULT_CREDITS } = await import('./registry.js');
  let registry: InstanceType<typeof Registry>;
  try {
    registry = new Registry(path);
  } catch (error) {
    if (error instanceof RegistryError) throw new UsageError(error.message);
    throw error;
  }
  try {
    switch (action) {
      case 'create': {
        if (!values.name?.trim()) throw new UsageError('cpmx tokens create needs --name NAME');
        if (positionals.length) throw new UsageError(`cpmx tokens create takes no positional argument, got: ${positionals.join(' ')}`);
        const credits = values.credits === undefined ? DEFAULT_CREDITS : integer(values.credits, '--credits', 0);
        process.stdout.write(`${registry.create(values.name.trim(), credits).token}\n`);
        return EXIT.ok;
      }
      case 'list': {
        const projects = registry.list();
        if (values.json) print(projects, false);
        else if (projects.length === 0) process.stdout.write('no projects\n');
        else {
          for (const p of projects) {
            process.stdout.write(`${p.token}  ${p.revoked ? 'revoked' : `${p.credits} left`}, ${p.used} used  ${p.name}  (${p.created})\n`);
          }
        }
        return EXIT.ok;
      }
      case 'credit':
      case 'revoke': {
        const expected = action === 'credit' ? 2 : 1;
        if (positionals.length !== expected) {
          throw new UsageError(action === 'credit' ? 'usage: cpmx tokens credit TOKEN N --registry FILE' : 'usage: cpmx tokens revoke TOKEN --registry FILE');
        }
        const token = positionals[0]!;
        const done = action === 'credit' ? registry.credit(token, integer(positionals[1]!, 'N', 1)) : registry.revoke(token);
        if (!done) {
          process.stderr.write(`cpmx tokens: ${path} holds no token ${token}\n`);
          return EXIT.errorEnvelope;
        }
        const project = registry.get(token)!;
        process.stderr.write(`${project.name}: ${project.revoked ? 'revoked' : `${project.credits} credits left`}\n`);
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown tokens action "${action}": use create, list, credit or revoke`);
    }
  } finally {
    registry.close();
  }
}

async function validateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string' },
      column: { type: 'string', multiple: true },
      output: { type: 'string' },
      token: { type: 'string' },
      data: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'validate',
  );
  if (values.help) return help('validate');
  const input = positional(positionals, 'validate', 'FILE', false) ?? '-';
  if (values.format !== undefined && values.format !== 'csv' && values.format !== 'ndjson') {
    throw new UsageError(`--format must be csv or ndjson, got "${values.format}"`);
  }
  const { FIELDS } = await import('./validate.js');
  const columns: Partial<Record<(typeof FIELDS)[number], string>> = {};
  for (const spec of values.column ?? []) {
    const [field, ...name] = spec.split('=');
    if (!FIELDS.includes(field as (typeof FIELDS)[number]) || !name.join('=').trim()) {
      throw new UsageError(`--column takes FIELD=NAME with FIELD one of ${FIELDS.join(', ')}, got "${spec}"`);
    }
    columns[field as (typeof FIELDS)[number]] = name.join('=');
  }
  const { runValidate } = await import('./validate-cli.js');
  return runValidate({
    input,
    output: values.output,
    format: values.format as 'csv' | 'ndjson' | undefined,
    columns,
    client: createClient({ token: values.token ?? process.env.CPMX_TOKEN ?? 'cpmx-validate', dataPath: values.data }),
    quiet: values.quiet === true,
  });
}

function help(command = 'main'): number {
  process.stdout.write(`${HELP[command]}\n`);
  return EXIT.ok;
}

function version(): number {
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  process.stdout.write(`${version}\n`);
  return EXIT.ok;
}

/** Runs the command line; resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'info_cp':
      case 'search_cp':
      case 'get_estados':
      case 'get_municipio_por_estado':
        return lookup(command, args);
      case 'query':
        return await query(args);
      case 'build':
        return await build(args);
      case 'status':
        return status(args);
      case 'serve':
        return await serveCommand(args);
      case 'tokens':
        return await tokensCommand(args);
      case 'validate':
        return await validateCommand(args);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        return help(args[0] && HELP[args[0]] ? args[0] : 'main');
      case '-v':
      case '--version':
        return version();
      default:
        throw new UsageError(`unknown command "${command}". Run "cpmx --help" for the commands.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cpmx: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ArtifactError) {
      process.stderr.write(`cpmx: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cpmx: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
