/**
 * The one registry failure rule: what an error met while using a registry means, read from
 * tables, whatever the store. The paying path, the panel, the SQLite thread and the command
 * line all ask here, so a failure answers the same everywhere:
 *
 *   retry        another writer holds the lock: try again shortly (then it is unavailable)
 *   unavailable  the registry cannot answer now (read-only, full or damaged disk, unreachable,
 *                timed out): paying requests and panel pages answer 503, no credit is kept
 *   in-doubt     the connection broke while a write may have committed: 503, and the batch is
 *                looked up once the database answers again (postgres.ts)
 *   refused      the registry cannot be used as given (RegistryError): a command refuses with
 *                its message; a server answers 503 until it can use it
 *   bug          anything else, a constraint broken among them (cpmx wrote what its schema
 *                forbids): 500 with the error in the log, never a 503 that hides it
 *
 * A damaged file (SQLITE_CORRUPT, SQLITE_NOTADB; PostgreSQL's XX001, XX002) is `unavailable`:
 * nothing cpmx can do fixes it, but it is the store that is broken, not cpmx, and an operator
 * who restores the file gets service back without a restart. See docs/tokens.md.
 *
 * Errors are told apart by their code and name, never by `instanceof`: each bundle of an
 * entry carries its own copy of the error classes.
 */

export type Failure = 'retry' | 'unavailable' | 'in-doubt' | 'refused' | 'bug';

/** SQLite's primary result codes (an extended code, SQLITE_IOERR_WRITE, reads as its primary); any other is a bug. */
const SQLITE: Readonly<Record<string, Failure>> = {
  SQLITE_BUSY: 'retry',
  SQLITE_LOCKED: 'retry',
  SQLITE_READONLY: 'unavailable',
  SQLITE_IOERR: 'unavailable',
  SQLITE_CANTOPEN: 'unavailable',
  SQLITE_FULL: 'unavailable',
  SQLITE_PERM: 'unavailable',
  SQLITE_AUTH: 'unavailable',
  SQLITE_NOMEM: 'unavailable',
  SQLITE_PROTOCOL: 'unavailable',
  SQLITE_NOLFS: 'unavailable',
  SQLITE_CORRUPT: 'unavailable',
  SQLITE_NOTADB: 'unavailable',
};

/** What each SQLite failure that is not a bug says about the file, after its path. */
const SQLITE_WHAT: Readonly<Record<string, string>> = {
  SQLITE_BUSY: 'is locked by another process',
  SQLITE_LOCKED: 'is locked by another process',
  SQLITE_READONLY: 'is read-only',
  SQLITE_CANTOPEN: 'cannot be opened',
  SQLITE_PERM: 'cannot be opened',
  SQLITE_AUTH: 'cannot be opened',
  SQLITE_FULL: 'is on a full disk',
  SQLITE_CORRUPT: 'is damaged (restore it from a backup)',
  SQLITE_NOTADB: 'is not a SQLite database (restore it from a backup)',
};

/** PostgreSQL's SQLSTATEs: whole codes first, then their class (the first two characters); any other is a bug. */
const POSTGRES_CODES: Readonly<Record<string, Failure>> = {
  '40001': 'retry', // serialization_failure
  '40P01': 'retry', // deadlock_detected
  '55P03': 'retry', // lock_not_available
  '57014': 'unavailable', // query_canceled: statement_timeout, rolled back
  '25006': 'unavailable', // read_only_sql_transaction: a standby
  XX001: 'unavailable', // data_corrupted
  XX002: 'unavailable', // index_corrupted
};

const POSTGRES_CLASSES: Readonly<Record<string, Failure>> = {
  '08': 'in-doubt', // connection exception
  '57': 'in-doubt', // operator intervention: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
  '53': 'unavailable', // insufficient resources: disk full, out of memory, too many connections
  '58': 'unavailable', // system error: I/O
};

/** Node's socket errors: a connection refused never sent anything; one reset may have committed. */
const SOCKET: Readonly<Record<string, Failure>> = {
  ECONNREFUSED: 'unavailable',
  ENOTFOUND: 'unavailable',
  EAI_AGAIN: 'unavailable',
  EHOSTUNREACH: 'unavailable',
  ENETUNREACH: 'unavailable',
  ECONNRESET: 'in-doubt',
  EPIPE: 'in-doubt',
  ETIMEDOUT: 'in-doubt',
  ECONNABORTED: 'in-doubt',
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === 'string' ? cause : undefined;
}

/** SQLITE_IOERR_SHORT_READ -> SQLITE_IOERR. */
function sqlitePrimary(code: string): string {
  return /^SQLITE_[A-Z]+/.exec(code)![0];
}

/**
 * What an error means. `store` says which driver raised it, for the errors that carry no
 * code: node-postgres reports a connection that ended mid-query ("Connection terminated
 * unexpectedly") without one, and such a write may have committed.
 */
export function failureOf(error: unknown, store?: 'sqlite' | 'postgres'): Failure {
  const code = codeOf(error);
  if (code !== undefined) {
    if (code.startsWith('SQLITE_')) return SQLITE[sqlitePrimary(code)] ?? 'bug';
    if (code in SOCKET) return SOCKET[code]!;
    if (SQLSTATE.test(code)) return POSTGRES_CODES[code] ?? POSTGRES_CLASSES[code.slice(0, 2)] ?? 'bug';
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'RegistryUnavailableError') return 'unavailable';
  if (name === 'RegistryError') return 'refused';
  return store === 'postgres' && code === undefined ? 'in-doubt' : 'bug';
}

/** Whether a request that met `error` should answer 503 (try again later) rather than 500. */
export function answersUnavailable(error: unknown): boolean {
  return failureOf(error) !== 'bug';
}

/** Whether work that met `error` may succeed if tried again later (a refund, a settle): not for a bug or a refusal. */
export function worthRetrying(error: unknown): boolean {
  const failure = failureOf(error);
  return failure !== 'bug' && failure !== 'refused';
}

/** A SQLite failure in words, after the file's path: `/srv/tokens.db is read-only: attempt to write a readonly database`. */
export function sqliteProblem(path: string, error: unknown): string {
  const code = codeOf(error) ?? '';
  const what = (code.startsWith('SQLITE_') && SQLITE_WHAT[sqlitePrimary(code)]) || `failed (${code || 'no code'})`;
  return `${path} ${what}: ${(error as Error).message}`;
}

/** A PostgreSQL failure in words, with its SQLSTATE when the message does not hold it. */
export function postgresProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code && !message?.includes(code) ? `${message} (${code})` : (message ?? String(error));
}
