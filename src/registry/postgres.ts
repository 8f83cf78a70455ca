/**
 * The PostgreSQL registry, through node-postgres (`pg`), loaded only when a postgres URL is
 * given. One class serves both a server (batched visits, refunds, health) and `cpmx tokens`.
 *
 * Credits: the visits of many requests go in one call of `cpmx.visit` (schema.ts), one
 * transaction committed before any of their answers is sent (group commit; batcher.ts). A
 * connection that breaks while its batch may have committed leaves that batch in doubt: its
 * requests answer 503, and once the database answers again the batch is looked up in the
 * connection's ledger row and, if it did commit, its credits are given back. When the
 * database cannot be reached, paying requests answer 503 and the pool reconnects by itself.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import { BatchedRegistry, Batcher } from './batcher.js';
import { RegistryError, RegistryUnavailableError } from './errors.js';
import { failureOf, postgresProblem } from './failure.js';
import { ATTEMPTS_KEPT_MS, type Account, type AccountSummary, type AttemptLimit, type NewAccount, type PanelStore, type SessionStart } from './panel-types.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, tooNewMessage } from './schema.js';
import { RegistryState } from './state.js';
import {
  DEFAULT_CREDITS,
  ERRORS_KEPT,
  MAX_CREDITS,
  tooManyCredits,
  OUTCOME,
  usageOf,
  windowDays,
  type ErrorSeen,
  type NewProject,
  type InFlight,
  type Outcome,
  type Project,
  type RegistryAdmin,
  type RegistryHealth,
  type ServedRegistry,
  type Usage,
  type VisitKind,
  type VisitResult,
} from './types.js';

type PgModule = typeof Pg;

function loadPg(): PgModule {
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

/**
 * The barrier after a batch (`cpmx.durable`, schema.ts): a small write committed synchronously
 * on the same connection. The write-ahead log is flushed in order, so when it returns the
 * batch's commit is on disk too. Until then no answer of the batch is sent; if the database
 * dies before, the batch may be lost whole (nothing was answered for it) or kept (it is then
 * in doubt, looked up and undone). Concurrent barriers of several workers share their disk
 * flushes (PostgreSQL's group commit), which the batches themselves cannot while they queue
 * for one account's row.
 */
const DURABLE = 'SELECT cpmx.durable($1)';

/** Per connection: the row its barriers write (cpmx.durable). */
interface Slot {
  id: string;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const PROJECT_SELECT = `SELECT t.token, p.name, p.id::float8 AS project, p.account_id::float8 AS account, a.credits::float8 AS credits,
    (p.legacy_used + coalesce((SELECT sum(u.credits) FROM cpmx.usage u JOIN cpmx.tokens t2 ON t2.token = u.token WHERE t2.project_id = p.id), 0))::float8 AS used,
    t.revoked IS NOT NULL AS revoked, to_char(p.created AT TIME ZONE 'UTC', ${ISO}) AS created
  FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id JOIN cpmx.accounts a ON a.id = p.account_id`;

/** The token a project shows: its live one, else the one revoked last. */
const SHOWN_TOKEN = 'SELECT l.token FROM cpmx.tokens l WHERE l.project_id = p.id ORDER BY l.revoked IS NULL DESC, l.revoked DESC, l.created DESC LIMIT 1';

const ACCOUNT_COLUMNS = `a.id::float8 AS id, a.email, a.name, a.credits::float8 AS credits, a.disabled, a.admin, to_char(a.created AT TIME ZONE 'UTC', ${ISO}) AS created`;
const ACCOUNT_SELECT = `SELECT ${ACCOUNT_COLUMNS} FROM cpmx.accounts a`;
const END_SESSION = 'DELETE FROM cpmx.sessions WHERE id = $1';
const FORGET_ATTEMPTS = 'DELETE FROM cpmx.attempts WHERE id = ANY ($1::bigint[])';

export class PostgresRegistry extends BatchedRegistry implements ServedRegistry, RegistryAdmin, PanelStore {
  /** The panel's part: this same registry (its pool, its schema). */
  readonly panel: PanelStore = this;
  readonly location: string;
  private readonly pool: Pg.Pool;
  protected readonly batcher: Batcher;
  private readonly state: RegistryState;
  private readonly slots = new WeakMap<Pg.PoolClient, Slot>();
  /** Batches in doubt: their connection broke (or their barrier failed) after they may have committed. */
  private readonly doubts: number[] = [];
  /** The connection that holds this process's advisory lock while it serves (see register()). */
  private owning: Promise<Pg.Client> | undefined;
  private schema: Promise<void> | undefined;
  private readonly timeoutMs: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private resolving: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  private readonly served: boolean;

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
    if (options.served) {
      this.heartbeat = setInterval(() => void this.beat(), 1000);
      this.heartbeat.unref();
    }
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

  private async connect(): Promise<Pg.PoolClient> {
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
  private register(): Promise<Pg.Client> {
    this.owning ??= (async () => {
      const pg = loadPg();
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.timeoutMs, application_name: 'cpmx owner', keepAlive: true });
      client.on('error', () => undefined);
      client.on('end', () => {
        if (this.owning === attempt) this.owning = undefined;
      });
      try {
        await client.connect();
        // A key no other live owner holds (one in 2^32 could collide: another is drawn).
        for (;;) {
          const key = randomInt(-(2 ** 31), 2 ** 31);
          const { got } = (await client.query<{ got: boolean }>("SELECT pg_try_advisory_lock(hashtext('cpmx owner'), $1) AS got", [key])).rows[0]!;
          if (!got) continue;
          await client.query(
            'INSERT INTO cpmx.owners (id, lock_key, incarnation) VALUES ($1, $2, pg_postmaster_start_time()) ON CONFLICT (id) DO UPDATE SET lock_key = EXCLUDED.lock_key, incarnation = EXCLUDED.incarnation',
            [this.owner, key],
          );
          return client;
        }
      } catch (error) {
        await client.end().catch(() => undefined);
        throw new RegistryUnavailableError(`cannot reach PostgreSQL at ${this.location}: ${postgresProblem(error)}`);
      }
    })();
    const attempt = this.owning;
    attempt.catch(() => {
      if (this.owning === attempt) this.owning = undefined;
    });
    return attempt;
  }

  /**
   * The connection holding this process's lock, asked whether it is still there: one that
   * broke (the database restarted) is replaced, its lock taken again and the name renewed,
   * before another server's sweep takes this process for gone.
   */
  private async stillRegistered(): Promise<void> {
    const client = await this.register();
    const owning = this.owning;
    try {
      await client.query('SELECT 1');
    } catch {
      if (this.owning === owning) this.owning = undefined;
      await client.end().catch(() => undefined);
      await this.register();
    }
  }

  /** Gives back the credits in flight of every other owner that is gone. */
  private async sweep(): Promise<void> {
    const given = (await this.pool.query<{ n: number }>('SELECT cpmx.sweep($1) AS n', [this.owner])).rows[0]!.n;
    if (given > 0) process.stderr.write(`cpmx serve: process ${process.pid}: gave back ${given} credit(s) of answers a server process that is gone had in flight\n`);
  }

  /** Registers this process and sweeps: when `cpmx serve` starts, before it listens. Unavailable is no matter: the first batch tries again. */
  async start(): Promise<void> {
    try {
      await this.ensureSchema();
      await this.register();
      await this.sweep();
    } catch (error) {
      this.state.fail(postgresProblem(error));
    }
  }

  /** One batch: one call, one transaction. */
  private async run(batch: number, tokens: string[], kinds: VisitKind[], refs: (InFlight | undefined)[]): Promise<VisitResult[]> {
    try {
      await this.ensureSchema();
      await this.register();
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      this.state.fail(problem);
      throw error instanceof RegistryUnavailableError ? error : new RegistryUnavailableError(problem);
    }
    const client = await this.connect().catch((error: unknown) => {
      this.state.fail((error as Error).message);
      throw error;
    });
    let slot = this.slots.get(client);
    if (!slot) this.slots.set(client, (slot = { id: randomUUID() }));
    const visit = async () => {
      const result = await client.query<{ outcomes: number[]; lefts: (number | null)[] }>({
        name: 'cpmx_spend',
        text: 'SELECT outcomes, lefts FROM cpmx.spend($1, $2, $3, $4, $5, $6)',
        values: [this.owner, batch, tokens, kinds, refs.map((ref) => ref?.batch ?? null), refs.map((ref) => ref?.idx ?? null)],
      });
      // Only credits need the disk before the answers: a batch that took or gave back none
      // (unknown tokens, looks, 108s, settles) only counted requests, and waits for no flush.
      const moved = result.rows[0]!.outcomes.some((outcome) => outcome === OUTCOME.spent || outcome === OUTCOME.refunded);
      if (this.served && moved) await client.query({ name: 'cpmx_durable', text: DURABLE, values: [slot.id] });
      return result;
    };
    const query = visit();
    let timer: NodeJS.Timeout | undefined;
    // statement_timeout ends a slow batch on the server (rolled back); this guards against a
    // server or network that does not answer at all.
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from PostgreSQL in ${this.timeoutMs + 2000} ms`)), this.timeoutMs + 2000);
    });
    try {
      const result = await Promise.race([query, silence]);
      client.release();
      this.state.recover();
      const { outcomes, lefts } = result.rows[0]!;
      return outcomes.map((outcome, i) => ({ outcome: outcome as Outcome, left: lefts[i] ?? undefined }));
    } catch (error) {
      query.catch(() => undefined);
      client.release(error as Error);
      // Looked up whatever the failure: a batch may have committed before its barrier failed
      // (a timeout, a bug), and nothing of it was answered.
      this.doubt(batch);
      if (failureOf(error, 'postgres') === 'bug') throw error;
      const problem = postgresProblem(error);
      this.state.fail(problem);
      throw new RegistryUnavailableError(`PostgreSQL at ${this.location}: ${problem}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private doubt(batch: number): void {
    if (this.doubts.length < 100_000) this.doubts.push(batch);
    this.resolving ??= setTimeout(() => void this.resolveDoubts(), 200);
    this.resolving.unref?.();
  }

  /** Gives back what each batch in doubt spent, if it committed (its requests got 503). */
  private async resolveDoubts(): Promise<void> {
    this.resolving = undefined;
    while (this.doubts.length > 0) {
      try {
        const refunded = await this.release(this.doubts[0]!);
        this.doubts.shift();
        if (refunded > 0) process.stderr.write(`cpmx serve: process ${process.pid}: gave back ${refunded} credit(s) of a batch that committed while its connection broke (answered 503)\n`);
      } catch {
        this.resolving = setTimeout(() => void this.resolveDoubts(), 500);
        this.resolving.unref?.();
        return;
      }
    }
  }

  /** Gives back the credits this process has in flight: one batch's, or all of them. */
  private async release(batch: number | null): Promise<number> {
    const client = await this.pool.connect();
    try {
      const refunded = (await client.query<{ n: number }>('SELECT cpmx.release($1, $2) AS n', [this.owner, batch])).rows[0]!.n;
      if (this.served && refunded > 0) await client.query(DURABLE, [randomUUID()]);
      client.release();
      return refunded;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Once a second: is the database there (so /health is right with no traffic), and housekeeping. */
  private async beat(): Promise<void> {
    try {
      await this.pool.query('SELECT 1');
      this.state.recover();
      if (this.doubts.length > 0 && !this.resolving) await this.resolveDoubts();
      await this.stillRegistered();
      await this.sweep();
      if (Date.now() - this.lastPrune > 600_000) {
        this.lastPrune = Date.now();
        await this.ensureSchema();
        await this.pool.query("DELETE FROM cpmx.barriers WHERE at < now() - interval '1 day'");
      }
    } catch (error) {
      this.state.fail(postgresProblem(error));
    }
  }

  /** Batches in doubt not yet resolved (for tests and /health). */
  get unresolved(): number {
    return this.doubts.length;
  }


  health(): RegistryHealth {
    return this.state.report(this.batcher.pending);
  }

  // --- management ---

  /**
   * One management step on a connection of the pool. For a command (`cpmx tokens`) a database
   * that cannot be reached is a RegistryError (the command refuses); for a server's panel it
   * is a RegistryUnavailableError (that page answers 503, the next may work).
   */
  private async admin<T>(work: (client: Pg.PoolClient) => Promise<T>): Promise<T> {
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

  private transaction<T>(work: (client: Pg.PoolClient) => Promise<T>): Promise<T> {
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

  async createProject({ name, credits = DEFAULT_CREDITS, account }: NewProject): Promise<Project> {
    const token = randomUUID();
    await this.transaction(async (client) => {
      let accountId = account;
      if (accountId === undefined) {
        accountId = Number((await client.query<{ id: string }>('INSERT INTO cpmx.accounts (name, credits) VALUES ($1, $2) RETURNING id', [name, credits])).rows[0]!.id);
      } else if ((await client.query('SELECT 1 FROM cpmx.accounts WHERE id = $1', [accountId])).rowCount === 0) {
        throw new RegistryError(`${this.location}: no account ${accountId}`);
      }
      await this.insertProject(client, accountId, name, token);
    });
    return (await this.get(token))!;
  }

  list(): Promise<Project[]> {
    return this.admin(async (client) =>
      (
        await client.query<Project>(
          `${PROJECT_SELECT} WHERE t.token = (${SHOWN_TOKEN}) ORDER BY p.created, p.id`,
        )
      ).rows,
    );
  }

  get(token: string): Promise<Project | undefined> {
    return this.admin(async (client) => (await client.query<Project>(`${PROJECT_SELECT} WHERE t.token = $1`, [token])).rows[0]);
  }

  credit(token: string, credits: number): Promise<boolean> {
    return this.addCredits('(SELECT p.account_id FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id WHERE t.token = $1)', token, credits);
  }

  /** Adds credits to the account `accountOf` selects (from $1), never past MAX_CREDITS. */
  private addCredits(accountOf: string, key: string | number, credits: number): Promise<boolean> {
    return this.transaction(async (client) => {
      const row = (await client.query<{ credits: number }>(`SELECT credits::float8 AS credits FROM cpmx.accounts WHERE id = ${accountOf} FOR UPDATE`, [key])).rows[0];
      if (!row) return false;
      if (credits > MAX_CREDITS - row.credits) throw new RegistryError(tooManyCredits(this.location, row.credits, credits));
      return (await client.query(`UPDATE cpmx.accounts SET credits = credits + $2 WHERE id = ${accountOf}`, [key, credits])).rowCount === 1;
    });
  }

  revoke(token: string): Promise<boolean> {
    return this.transaction(async (client) => (await client.query('UPDATE cpmx.tokens SET revoked = now() WHERE token = $1 AND revoked IS NULL', [token])).rowCount === 1);
  }

  regenerate(token: string): Promise<string | undefined> {
    const fresh = randomUUID();
    return this.transaction(async (client) => {
      const row = (await client.query<{ project_id: string }>('UPDATE cpmx.tokens SET revoked = now() WHERE token = $1 AND revoked IS NULL RETURNING project_id', [token])).rows[0];
      if (!row) return undefined;
      await client.query('INSERT INTO cpmx.tokens (token, project_id) VALUES ($1, $2)', [fresh, row.project_id]);
      return fresh;
    });
  }

  setDisabled(account: number, disabled: boolean): Promise<boolean> {
    return this.transaction(async (client) => {
      if (disabled) await client.query('DELETE FROM cpmx.sessions WHERE account_id = $1', [account]);
      return (await client.query('UPDATE cpmx.accounts SET disabled = $1 WHERE id = $2', [disabled, account])).rowCount === 1;
    });
  }

  async usage(token: string, days: number): Promise<Usage | undefined> {
    const found = await this.get(token);
    return found && this.usageOf(found, days);
  }

  private usageOf(found: Project, days: number): Promise<Usage> {
    const token = found.token;
    const window = windowDays(days);
    return this.admin(async (client) => {
      const rows = (
        await client.query<{ day: string; requests: number; credits: number }>(
          `SELECT to_char(u.day, 'YYYY-MM-DD') AS day, sum(u.requests)::float8 AS requests, sum(u.credits)::float8 AS credits
             FROM cpmx.usage u JOIN cpmx.tokens t ON t.token = u.token WHERE t.project_id = $1 AND u.day >= $2::date GROUP BY u.day`,
          [found.project, window[0]],
        )
      ).rows;
      const errors = (
        await client.query<ErrorSeen>(`SELECT to_char(at AT TIME ZONE 'UTC', ${ISO}) AS at, code, count, token FROM cpmx.errors WHERE project_id = $1 ORDER BY id DESC LIMIT ${ERRORS_KEPT}`, [
          found.project,
        ])
      ).rows;
      return usageOf(token, found, window, rows, errors);
    });
  }

  // --- the control panel (panel-types.ts) ---

  createAccount({ email, name, passwordHash, credits, admin = false }: NewAccount): Promise<Account | undefined> {
    return this.transaction(async (client) => {
      const row = (
        await client.query<Account>(
          `INSERT INTO cpmx.accounts AS a (email, password_hash, name, credits, admin) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (email) DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
          [email, passwordHash, name, credits, admin],
        )
      ).rows[0];
      return row;
    });
  }

  account(id: number): Promise<Account | undefined> {
    return this.admin(async (client) => (await client.query<Account>(`${ACCOUNT_SELECT} WHERE a.id = $1`, [id])).rows[0]);
  }

  credentials(email: string): Promise<{ account: Account; passwordHash: string | null } | undefined> {
    return this.admin(async (client) => {
      const row = (await client.query<Account & { password_hash: string | null }>(`SELECT ${ACCOUNT_COLUMNS}, a.password_hash FROM cpmx.accounts a WHERE a.email = $1`, [email])).rows[0];
      if (!row) return undefined;
      const { password_hash, ...account } = row;
      return { account, passwordHash: password_hash };
    });
  }

  setPassword(email: string, passwordHash: string, admin: boolean): Promise<Account | undefined> {
    return this.transaction(async (client) => {
      const row = (
        await client.query<Account>(`UPDATE cpmx.accounts a SET password_hash = $1, admin = a.admin OR $2 WHERE a.email = $3 RETURNING ${ACCOUNT_COLUMNS}`, [passwordHash, admin, email])
      ).rows[0];
      if (row) await client.query('DELETE FROM cpmx.sessions WHERE account_id = $1', [row.id]);
      return row;
    });
  }

  rehashPassword(account: number, from: string, to: string): Promise<boolean> {
    return this.transaction(async (client) => (await client.query('UPDATE cpmx.accounts SET password_hash = $1 WHERE id = $2 AND password_hash = $3', [to, account, from])).rowCount === 1);
  }

  async addProject(account: number, name: string, max: number): Promise<Project | undefined> {
    const token = randomUUID();
    const made = await this.transaction(async (client) => {
      // One lock per account (not its row, which paying requests update): creations for one
      // account are counted and made one at a time, on every connection and server.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('cpmx projects'), hashtext($1))", [String(account)]);
      const { n } = (await client.query<{ n: number }>('SELECT count(*)::float8 AS n FROM cpmx.projects WHERE account_id = $1', [account])).rows[0]!;
      if (n >= max) return false;
      await this.insertProject(client, account, name, token);
      return true;
    });
    return made ? this.get(token) : undefined;
  }

  private async insertProject(client: Pg.PoolClient, account: number, name: string, token: string): Promise<void> {
    const projectId = (await client.query<{ id: string }>('INSERT INTO cpmx.projects (account_id, name) VALUES ($1, $2) RETURNING id', [account, name])).rows[0]!.id;
    await client.query('INSERT INTO cpmx.tokens (token, project_id) VALUES ($1, $2)', [token, projectId]);
  }

  accounts(offset: number, limit: number): Promise<{ accounts: AccountSummary[]; total: number }> {
    return this.admin(async (client) => {
      const accounts = (
        await client.query<AccountSummary>(
          `SELECT ${ACCOUNT_COLUMNS},
             (SELECT count(*) FROM cpmx.projects p WHERE p.account_id = a.id)::float8 AS projects,
             ((SELECT coalesce(sum(p.legacy_used), 0) FROM cpmx.projects p WHERE p.account_id = a.id)
               + (SELECT coalesce(sum(u.credits), 0) FROM cpmx.usage u JOIN cpmx.tokens t ON t.token = u.token JOIN cpmx.projects p ON p.id = t.project_id WHERE p.account_id = a.id))::float8 AS used
           FROM cpmx.accounts a ORDER BY a.id LIMIT $1 OFFSET $2`,
          [limit, offset],
        )
      ).rows;
      const total = (await client.query<{ n: number }>('SELECT count(*)::float8 AS n FROM cpmx.accounts')).rows[0]!.n;
      return { accounts, total };
    });
  }

  grant(account: number, credits: number): Promise<boolean> {
    return this.addCredits('$1', account, credits);
  }

  projectsOf(account: number): Promise<Project[]> {
    return this.admin(async (client) => (await client.query<Project>(`${PROJECT_SELECT} WHERE p.account_id = $1 AND t.token = (${SHOWN_TOKEN}) ORDER BY p.created, p.id`, [account])).rows);
  }

  projectOf(account: number, id: number): Promise<Project | undefined> {
    return this.admin(async (client) => (await client.query<Project>(`${PROJECT_SELECT} WHERE p.account_id = $1 AND p.id = $2 AND t.token = (${SHOWN_TOKEN})`, [account, id])).rows[0]);
  }

  renameProject(account: number, id: number, name: string): Promise<boolean> {
    return this.transaction(async (client) => (await client.query('UPDATE cpmx.projects SET name = $1 WHERE id = $2 AND account_id = $3', [name, id, account])).rowCount === 1);
  }

  deleteProject(account: number, id: number): Promise<boolean> {
    return this.transaction(async (client) => (await client.query('DELETE FROM cpmx.projects WHERE id = $1 AND account_id = $2', [id, account])).rowCount === 1);
  }

  regenerateProject(account: number, id: number): Promise<string | undefined> {
    const fresh = randomUUID();
    return this.transaction(async (client) => {
      // The project's row lock: two regenerations at once leave one live token.
      if ((await client.query('SELECT 1 FROM cpmx.projects WHERE id = $1 AND account_id = $2 FOR UPDATE', [id, account])).rowCount === 0) return undefined;
      await client.query('UPDATE cpmx.tokens SET revoked = now() WHERE project_id = $1 AND revoked IS NULL', [id]);
      await client.query('INSERT INTO cpmx.tokens (token, project_id) VALUES ($1, $2)', [fresh, id]);
      return fresh;
    });
  }

  async projectUsage(account: number, id: number, days: number): Promise<Usage | undefined> {
    const found = await this.projectOf(account, id);
    return found && this.usageOf(found, days);
  }

  createSession(id: string, account: number, now: number, expires: number, also: SessionStart = {}): Promise<void> {
    return this.transaction(async (client) => {
      if (also.ends !== undefined) await client.query(END_SESSION, [also.ends]);
      if (also.forgets?.length) await client.query(FORGET_ATTEMPTS, [also.forgets]);
      await client.query('DELETE FROM cpmx.sessions WHERE expires <= $1', [now]);
      await client.query('INSERT INTO cpmx.sessions (id, account_id, created, expires) VALUES ($1, $2, $3, $4)', [id, account, now, expires]);
    });
  }

  session(id: string, now: number): Promise<Account | undefined> {
    return this.admin(
      async (client) =>
        (await client.query<Account>(`${ACCOUNT_SELECT} JOIN cpmx.sessions s ON s.account_id = a.id WHERE s.id = $1 AND s.expires > $2 AND NOT a.disabled`, [id, now])).rows[0],
    );
  }

  async endSession(id: string): Promise<void> {
    await this.transaction((client) => client.query(END_SESSION, [id]));
  }

  attempt(limits: readonly AttemptLimit[], now: number): Promise<number[] | undefined> {
    return this.transaction(async (client) => {
      // One lock per key, taken in one order: attempts on a key are counted and recorded one
      // at a time across every connection, and two attempts cannot deadlock.
      for (const key of [...new Set(limits.map((limit) => limit.key))].sort()) {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('cpmx attempt'), hashtext($1))", [key]);
      }
      await client.query('DELETE FROM cpmx.attempts WHERE at <= $1', [now - ATTEMPTS_KEPT_MS]);
      for (const { key, limit, windowMs } of limits) {
        const { n } = (await client.query<{ n: number }>('SELECT count(*)::float8 AS n FROM cpmx.attempts WHERE key = $1 AND at > $2', [key, now - windowMs])).rows[0]!;
        if (n >= limit) return undefined;
      }
      const ids: number[] = [];
      for (const { key } of limits) ids.push((await client.query<{ id: number }>('INSERT INTO cpmx.attempts (key, at) VALUES ($1, $2) RETURNING id::float8 AS id', [key, now])).rows[0]!.id);
      return ids;
    });
  }

  async forgetAttempts(ids: readonly number[]): Promise<void> {
    await this.transaction((client) => client.query(FORGET_ATTEMPTS, [ids]));
  }

  panelSecret(fresh: string): Promise<string> {
    return this.transaction(async (client) => {
      await client.query('INSERT INTO cpmx.panel_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [fresh]);
      return (await client.query<{ secret: string }>('SELECT secret FROM cpmx.panel_secret WHERE id = 1')).rows[0]!.secret;
    });
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const clean = await this.settleAll();
    if (this.doubts.length > 0) {
      clearTimeout(this.resolving);
      await this.resolveDoubts();
      clearTimeout(this.resolving);
    }
    const owning = this.owning;
    this.owning = undefined;
    if (owning) {
      // Left are answers written whose settles failed: kept paid, and the name goes. Unless a
      // refund or a batch in doubt could not be given back: then the rows stay, the lock goes
      // with the connection, and another server's sweep gives them all back.
      if (clean && this.doubts.length === 0) {
        await this.pool.query('WITH gone AS (DELETE FROM cpmx.inflight WHERE owner = $1) DELETE FROM cpmx.owners WHERE id = $1', [this.owner]).catch(() => undefined);
      }
      await (await owning.catch(() => undefined))?.end().catch(() => undefined);
    }
    await this.pool.end();
  }
}
