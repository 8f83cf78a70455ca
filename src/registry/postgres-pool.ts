/**
 * A PostgreSQL registry's connections, through node-postgres (`pg`), loaded only when a
 * postgres URL is given: the pool, the schema created or migrated once per process, and one
 * management step or transaction on a connection, with its failures read by the one rule
 * (failure.ts). Management (postgres-admin.ts), the panel's part (postgres-panel.ts) and the
 * paying path (postgres.ts) build on it.
 */
import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import { BatchedRegistry, Batcher } from './batcher.js';
import { RegistryError, RegistryUnavailableError } from './errors.js';
import { failureOf, postgresProblem } from './failure.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, tooNewMessage } from './schema.js';
import { RegistryState } from './state.js';
import type { InFlight, VisitKind, VisitResult } from './types.js';

type PgModule = typeof Pg;

export function loadPg(): PgModule {
  try {
    return createRequire(import.meta.url)('pg') as PgModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') {
      throw new RegistryError('the PostgreSQL token registry needs node-postgres, which is not installed: run `npm install pg` beside cpmx');
    }
    throw new RegistryError(`node-postgres (pg) is installed but cannot be loaded (${(error as Error).message})`);
  }
}

/** The URL as it may be shown (logs, /health): without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString();
  } catch {
    return 'postgresql://(unparsable URL)';
  }
}

export interface PostgresOptions {
  /** Connections per process (each server worker has its own pool). */
  poolSize?: number;
  /** statement_timeout, and how long to wait for a connection (ms). */
  timeoutMs?: number;
  /** Heartbeat, in-doubt batches and ledger pruning (servers only). */
  served?: boolean;
}

export abstract class PostgresPool extends BatchedRegistry {
  readonly location: string;
  protected readonly pool: Pg.Pool;
  protected readonly batcher: Batcher;
  protected readonly state: RegistryState;
  private schema: Promise<void> | undefined;
  protected readonly timeoutMs: number;
  protected readonly served: boolean;

  constructor(
    readonly url: string,
    options: PostgresOptions = {},
  ) {
    super();
    const pg = loadPg();
    this.location = redactUrl(url);
    this.timeoutMs = options.timeoutMs ?? 2000;
    const poolSize = options.poolSize ?? 4;
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: this.timeoutMs,
      statement_timeout: this.timeoutMs,
      idle_in_transaction_session_timeout: 10 * this.timeoutMs,
      application_name: 'cpmx',
      keepAlive: true,
      // A server's batches commit without waiting for the disk, so the account's row is
      // locked only while the batch runs; each batch is then made durable by a barrier
      // (DURABLE) before any of its answers is sent. See run().
      ...(options.served ? { options: '-c synchronous_commit=off' } : {}),
    });
    // An idle connection whose server went away emits 'error': without a listener that
    // would end the process. The pool drops that connection and opens another when needed.
    this.pool.on('error', (error) => this.state.fail(postgresProblem(error)));
    // A connection in use can get the same news between two queries (the server's
    // "terminating connection"): the query that uses it next fails, and the pool drops it.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.state = new RegistryState('postgres', this.location);
    this.batcher = new Batcher((batch, tokens, kinds, refs) => this.run(batch, tokens, kinds, refs), { maxInFlight: Math.max(1, poolSize - 1) });
    this.served = options.served === true;
  }

  /** Creates or migrates the schema once per process; a failure is retried on the next call. */
  ensureSchema(): Promise<void> {
    this.schema ??= this.migrate().catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  private async migrate(): Promise<void> {
    const client = await this.connect();
    try {
      const current = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM cpmx.schema_version').then(
        (result) => result.rows[0]?.v ?? 0,
        () => undefined,
      );
      if (current === SCHEMA_VERSION) return;
      if (current !== undefined && current > SCHEMA_VERSION) throw new RegistryError(tooNewMessage(this.location, current));
      await client.query('BEGIN');
      try {
        // Several workers and servers may start at once: one migrates, the others wait and see it done.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('cpmx registry schema'))");
        await client.query('CREATE SCHEMA IF NOT EXISTS cpmx');
        await client.query('CREATE TABLE IF NOT EXISTS cpmx.schema_version (version integer NOT NULL)');
        const found = (await client.query<{ v: number | null }>('SELECT max(version) AS v FROM cpmx.schema_version')).rows[0]?.v ?? 0;
        if (found > SCHEMA_VERSION) throw new RegistryError(tooNewMessage(this.location, found));
        for (let v = found; v < SCHEMA_VERSION; v++) await client.query(POSTGRES_MIGRATIONS[v]!);
        await client.query('DELETE FROM cpmx.schema_version');
        await client.query('INSERT INTO cpmx.schema_version (version) VALUES ($1)', [SCHEMA_VERSION]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } catch (error) {
      if (error instanceof RegistryError || error instanceof RegistryUnavailableError) throw error;
      throw new RegistryError(`${this.location}: cannot set up the registry's schema (${postgresProblem(error)})`);
    } finally {
      client.release();
    }
  }

  protected async connect(): Promise<Pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw new RegistryUnavailableError(`cannot reach PostgreSQL at ${this.location}: ${postgresProblem(error)}`);
    }
  }

  /**
   * Names this process in `cpmx.owners` and holds a session advisory lock on a connection of
   * its own while it serves: once the process is gone, its session ends and the lock with it,
   * and any other server (or this one restarted) gives back the credits it had in flight
   * (cpmx.sweep). Registered before the first batch; again after that connection breaks.
   */


  /**
   * One management step on a connection of the pool. For a command (`cpmx tokens`) a database
   * that cannot be reached is a RegistryError (the command refuses); for a server's panel it
   * is a RegistryUnavailableError (that page answers 503, the next may work).
   */
  protected async admin<T>(work: (client: Pg.PoolClient) => Promise<T>): Promise<T> {
    const failed = (error: unknown, what = '') => {
      if (error instanceof RegistryError) return error;
      const message = error instanceof RegistryUnavailableError ? error.message : `${what}${postgresProblem(error)}`;
      return this.served ? new RegistryUnavailableError(message) : new RegistryError(message);
    };
    await this.ensureSchema().catch((error: unknown) => {
      throw failed(error);
    });
    let client: Pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw failed(error, `cannot reach PostgreSQL at ${this.location}: `);
    }
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      const failure = failureOf(error, 'postgres');
      client.release(failure === 'in-doubt' ? (error as Error) : undefined);
      // "Not now" (a broken connection, a timeout, a lock) is a 503 for a server's panel; a
      // bug or a refusal stays what it is.
      const notNow = failure !== 'bug' && failure !== 'refused';
      throw this.served && notNow ? failed(error, `PostgreSQL at ${this.location}: `) : error;
    }
    client.release();
    return result;
  }

  protected transaction<T>(work: (client: Pg.PoolClient) => Promise<T>): Promise<T> {
    return this.admin(async (client) => {
      await client.query('BEGIN');
      // A server's connections commit without waiting for the disk (for its batches, which
      // have a barrier of their own); what the panel and `cpmx tokens` change waits for it.
      if (this.served) await client.query('SET LOCAL synchronous_commit TO on');
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** One batch of visits: the paying path (postgres.ts). */
  protected abstract run(batch: number, tokens: string[], kinds: VisitKind[], refs: (InFlight | undefined)[]): Promise<VisitResult[]>;
}
