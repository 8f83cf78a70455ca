/**
 * The PostgreSQL registry as a server answers by (and `cpmx tokens`, through the same class).
 *
 * Credits: the visits of many requests go in one call of `cpmx.spend` (postgres-functions.ts),
 * one transaction committed before any of their answers is sent (group commit; batcher.ts),
 * each credit spent journaled as in flight until its answer is written. A connection that
 * breaks while its batch may have committed leaves that batch in doubt: its requests answer
 * 503, and once the database answers again what the batch spent, if it committed, is given
 * back. A process that dies leaves its credits in flight to the others: its advisory lock goes
 * with its session, and their sweep gives them back. When the database cannot be reached,
 * paying requests answer 503 and the pool reconnects by itself.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type * as Pg from 'pg';
import { RegistryUnavailableError } from './errors.js';
import { failureOf, postgresProblem } from './failure.js';
import type { PanelStore } from './panel-types.js';
import { PostgresPanel } from './postgres-panel.js';
import { loadPg, type PostgresOptions } from './postgres-pool.js';
import { OUTCOME, type InFlight, type Outcome, type RegistryAdmin, type RegistryHealth, type ServedRegistry, type VisitKind, type VisitResult } from './types.js';


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

/** Releases the credits in flight of owners without a row (see `sweep`), with the schema's own release; their count. */
const ORPHANS_RELEASED =
  'SELECT coalesce(sum(cpmx.release(x.owner, NULL)), 0)::integer AS n FROM (SELECT DISTINCT i.owner FROM cpmx.inflight i WHERE NOT EXISTS (SELECT 1 FROM cpmx.owners o WHERE o.id = i.owner)) x';

export class PostgresRegistry extends PostgresPanel implements ServedRegistry, RegistryAdmin, PanelStore {
  /** The panel's part: this same registry (its pool, its schema). */
  readonly panel: PanelStore = this;
  private readonly slots = new WeakMap<Pg.PoolClient, Slot>();
  /** Batches in doubt: their connection broke (or their barrier failed) after they may have committed. */
  private readonly doubts: number[] = [];
  /** The connection that holds this process's advisory lock while it serves (see register()). */
  private owning: Promise<Pg.Client> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private resolving: NodeJS.Timeout | undefined;
  private lastPrune = 0;

  constructor(url: string, options: PostgresOptions = {}) {
    super(url, options);
    if (options.served) {
      this.heartbeat = setInterval(() => void this.beat(), 1000);
      this.heartbeat.unref();
    }
  }

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

  /**
   * Gives back the credits in flight of every other owner that is gone, and of owners that have
   * no row any more: a killed server's connection may still be finishing its last batch when a
   * sweep takes the server for gone (its owner connection ended first), and `cpmx.spend` does
   * not ask whether its owner is still registered, so that batch's rows are committed after the
   * owner row is deleted, and no sweep by owner would ever find them: their credits would stay
   * spent for answers never received.
   */
  private async sweep(): Promise<void> {
    const swept = (await this.pool.query<{ n: number }>('SELECT cpmx.sweep($1) AS n', [this.owner])).rows[0]!.n;
    const given = swept + (await this.pool.query<{ n: number }>(ORPHANS_RELEASED)).rows[0]!.n;
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
  protected async run(batch: number, tokens: string[], kinds: VisitKind[], refs: (InFlight | undefined)[]): Promise<VisitResult[]> {
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
