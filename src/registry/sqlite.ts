/**
 * The SQLite registry file: opened (created only when asked), its schema migrated (schema.ts),
 * and the paying visit: one batch of visits in one transaction, with the journal of credits in
 * flight. Management (sqlite-admin.ts) and the control panel (sqlite-panel.ts) build on it.
 * Synchronous, as better-sqlite3 is: `cpmx tokens` uses it directly; a server uses it only
 * inside its registry thread (sqlite-thread.ts), so that a locked or slow file never blocks a
 * worker's event loop.
 *
 * better-sqlite3 is a native module, loaded only here, only when a registry is asked for; the
 * library's lookup path never needs it. WAL and `synchronous = FULL`: a batch is on disk when
 * `visit` returns, before the server sends a byte of its answers.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { RegistryError, RegistryUnavailableError } from './errors.js';
import { failureOf, sqliteProblem } from './failure.js';
import { processGone, type ProcessIdentity } from './owners.js';
import { SCHEMA_VERSION, SQLITE_FROM_UNVERSIONED, SQLITE_MIGRATIONS, tooNewMessage } from './schema.js';
import { fileProblem, identityOf, type FileProblem, type OpenedFiles } from './sqlite-file.js';
import { ERRORS_KEPT, OUTCOME, VISIT, type InFlight, type VisitKind, type VisitResult } from './types.js';

function loadDriver(): typeof BetterSqlite3 {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND') {
      throw new RegistryError('the SQLite token registry needs better-sqlite3, which is not installed: run `npm install better-sqlite3` beside cpmx');
    }
    throw new RegistryError(`better-sqlite3 is installed but cannot be loaded (${(error as Error).message}); reinstall it with \`npm rebuild better-sqlite3\``);
  }
}

export interface SqliteOpenOptions {
  /** Create the file when missing (`cpmx tokens create`); otherwise a missing file is refused. */
  create?: boolean;
  /** How long to wait for another process's write lock before giving up (ms). */
  busyTimeoutMs?: number;
  /**
   * How long opening waits for a lock (another connection recovering the WAL, or holding the
   * file exclusively), when that is not `busyTimeoutMs`: a server's thread, which waits out
   * its batches' locks itself, still waits to open.
   */
  openTimeoutMs?: number;
}

interface TokenRow {
  project_id: number;
  revoked: string | null;
  account_id: number;
}

/** The registry file opened, and the paying visit. */
export class SqliteVisits {
  readonly location: string;
  protected readonly db: BetterSqlite3.Database;
  /** The file opened and its WAL files, to notice them being deleted or replaced under us. */
  readonly identity: OpenedFiles;
  private readonly resolveToken: BetterSqlite3.Statement<[string], TokenRow>;
  private readonly lockAccount: BetterSqlite3.Statement<[number], { credits: number; disabled: number }>;
  private readonly writeCredits: BetterSqlite3.Statement<[number, number]>;
  private readonly addUsage: BetterSqlite3.Statement<[string, number, number]>;
  private readonly addError: BetterSqlite3.Statement<[number, string, number, number]>;
  private readonly pruneErrors: BetterSqlite3.Statement<[number, number]>;
  private readonly addInFlight: BetterSqlite3.Statement<[string, number, number, string]>;
  private readonly dropInFlight: BetterSqlite3.Statement<[string, number, number]>;

  /** Opens the registry at `path`, creating it only when asked, and brings its schema up to date. */
  constructor(
    readonly path: string,
    options: SqliteOpenOptions = {},
  ) {
    this.location = path;
    const Database = loadDriver();
    if (!options.create && !existsSync(path)) {
      throw new RegistryError(`${path}: no registry there; \`cpmx tokens create --registry ${path} --name NAME\` creates one`);
    }
    try {
      this.db = new Database(path, { fileMustExist: !options.create, timeout: options.openTimeoutMs ?? options.busyTimeoutMs ?? 5000 });
    } catch (error) {
      throw new RegistryError(`${path}: cannot be opened as a token registry (${(error as Error).message})`);
    }
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('foreign_keys = ON');
      this.migrate();
      if (options.openTimeoutMs !== undefined) this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    } catch (error) {
      this.db.close();
      if (error instanceof RegistryError) throw error;
      throw new RegistryError(`${path}: cannot be used as a token registry (${(error as Error).message})`);
    }
    const stat = statSync(path);
    // WAL mode made both files beside the registry as the connection opened it.
    const wal = identityOf(`${path}-wal`);
    const shm = identityOf(`${path}-shm`);
    this.identity = { dev: stat.dev, ino: stat.ino, journal: wal && shm ? { wal, shm } : undefined };
    this.resolveToken = this.db.prepare('SELECT t.project_id, t.revoked, p.account_id FROM tokens t JOIN projects p ON p.id = t.project_id WHERE t.token = ?');
    this.lockAccount = this.db.prepare('SELECT credits, disabled FROM accounts WHERE id = ?');
    this.writeCredits = this.db.prepare('UPDATE accounts SET credits = ? WHERE id = ?');
    this.addUsage = this.db.prepare(`INSERT INTO usage (token, day, requests, credits) VALUES (?, date('now'), ?, ?)
      ON CONFLICT (token, day) DO UPDATE SET requests = requests + excluded.requests, credits = credits + excluded.credits`);
    this.addError = this.db.prepare('INSERT INTO errors (project_id, token, code, count) VALUES (?, ?, ?, ?)');
    this.pruneErrors = this.db.prepare(`DELETE FROM errors WHERE project_id = ? AND id <= (SELECT id FROM errors WHERE project_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${ERRORS_KEPT})`);
    this.addInFlight = this.db.prepare("INSERT INTO inflight (owner, batch, idx, token, day) VALUES (?, ?, ?, ?, date('now'))");
    this.dropInFlight = this.db.prepare('DELETE FROM inflight WHERE owner = ? AND batch = ? AND idx = ?');
  }

  /** The schema's version: 0 for an empty file or an unversioned (cpmx 0.1) registry. */
  private version(): number {
    const hasTable = (name: string) => this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (!hasTable('schema_version')) return 0;
    return (this.db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null }).v ?? 0;
  }

  private migrate(): void {
    if (this.version() === SCHEMA_VERSION) return;
    // IMMEDIATE: two processes opening a new registry at once migrate it once.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const found = this.version();
      if (found > SCHEMA_VERSION) throw new RegistryError(tooNewMessage(this.path, found));
      let from = found;
      if (found === 0) {
        const legacy = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projects'").get() !== undefined;
        this.db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL) STRICT');
        this.db.exec(legacy ? SQLITE_FROM_UNVERSIONED : SQLITE_MIGRATIONS[0]!);
        from = 1;
      }
      for (let v = from; v < SCHEMA_VERSION; v++) this.db.exec(SQLITE_MIGRATIONS[v]!);
      this.db.exec('DELETE FROM schema_version');
      this.db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(SCHEMA_VERSION);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * What is wrong with the file now (deleted, replaced, unreadable, read-only, its -wal or
   * -shm gone), if anything. A journal problem is found once: what the open files hold is
   * then copied into the registry file (a passive checkpoint), so a later kill loses nothing.
   */
  problem(): FileProblem | undefined {
    const problem = fileProblem(this.path, this.identity);
    if (problem?.kind === 'journal' && !this.journalLost) {
      this.journalLost = true;
      try {
        this.db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // locked by another connection: it folds them in as it finds the problem itself
      }
    }
    return problem;
  }

  private journalLost = false;

  /**
   * One batch of visits in one IMMEDIATE transaction, in the same semantics as PostgreSQL's
   * `cpmx.visit`: per account, credits taken in the requests' order while any are left.
   * Throws RegistryUnavailableError when the file cannot be written now, and when its -wal
   * or -shm was found deleted or replaced once the batch committed: the batch may be in a
   * file no other connection reads, so it answers 503 (its credits spent, never given free).
   */
  visit(owner: string, batch: number, tokens: readonly string[], kinds: readonly VisitKind[], refs: readonly (InFlight | undefined)[]): VisitResult[] {
    let results: VisitResult[];
    // Settles alone (answers written, a quiet server) wait for no disk flush: one lost to a
    // power cut only gives its answer away.
    const settlesOnly = kinds.every((kind) => kind === VISIT.settle);
    try {
      if (settlesOnly) this.db.pragma('synchronous = NORMAL');
      results = this.db.transaction(() => this.visitInTransaction(owner, batch, tokens, kinds, refs)).immediate();
    } catch (error) {
      throw failureOf(error, 'sqlite') === 'bug' ? error : new RegistryUnavailableError(sqliteProblem(this.path, error), { cause: error });
    } finally {
      if (settlesOnly) this.db.pragma('synchronous = FULL');
    }
    const problem = this.problem();
    if (problem?.kind === 'journal') throw new RegistryUnavailableError(problem.message);
    return results;
  }

  private visitInTransaction(owner: string, batch: number, tokens: readonly string[], kinds: readonly VisitKind[], refs: readonly (InFlight | undefined)[]): VisitResult[] {
    const results: VisitResult[] = [];
    const accounts = new Map<number, { credits: number; disabled: boolean; had: number }>();
    const usage = new Map<string, { requests: number; credits: number }>();
    const errors = new Map<string, { project: number; token: string; code: number; count: number }>();
    const resolved = new Map<string, TokenRow | undefined>();
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const kind = kinds[i]!;
      if (kind === VISIT.settle) {
        // Its answer was written: the credit stays spent; only its row in the journal goes.
        this.dropInFlight.run(owner, refs[i]!.batch, refs[i]!.idx);
        results.push({ outcome: OUTCOME.unknown });
        continue;
      }
      let row = resolved.get(token);
      if (row === undefined && !resolved.has(token)) resolved.set(token, (row = this.resolveToken.get(token)));
      if (!row) {
        results.push({ outcome: OUTCOME.unknown });
        continue;
      }
      let account = accounts.get(row.account_id);
      if (!account) {
        const a = this.lockAccount.get(row.account_id)!;
        accounts.set(row.account_id, (account = { credits: a.credits, disabled: a.disabled !== 0, had: a.credits }));
      }
      let use = usage.get(token);
      if (!use) usage.set(token, (use = { requests: 0, credits: 0 }));
      if (kind === VISIT.refund) {
        // Given back only by the visit that takes its row away: never twice, never after a sweep.
        if (this.dropInFlight.run(owner, refs[i]!.batch, refs[i]!.idx).changes !== 1) {
          results.push({ outcome: OUTCOME.unknown });
          continue;
        }
        account.credits++;
        use.credits--;
        results.push({ outcome: OUTCOME.refunded, left: account.credits });
        continue;
      }
      use.requests++;
      let code = 0;
      if (row.revoked !== null || account.disabled) {
        code = 107;
        results.push({ outcome: OUTCOME.unknown });
      } else if (kind === VISIT.look) {
        results.push({ outcome: OUTCOME.looked, left: account.credits });
      } else if (account.credits > 0) {
        account.credits--;
        use.credits++;
        this.addInFlight.run(owner, batch, i, token);
        results.push({ outcome: OUTCOME.spent, left: account.credits });
      } else {
        code = 108;
        results.push({ outcome: OUTCOME.noneLeft, left: 0 });
      }
      if (code) {
        const key = `${code} ${token}`;
        const seen = errors.get(key);
        if (seen) seen.count++;
        else errors.set(key, { project: row.project_id, token, code, count: 1 });
      }
    }
    for (const [id, account] of accounts) if (account.credits !== account.had) this.writeCredits.run(account.credits, id);
    for (const [token, use] of usage) this.addUsage.run(token, use.requests, use.credits);
    const pruned = new Set<number>();
    for (const error of errors.values()) {
      this.addError.run(error.project, error.token, error.code, error.count);
      pruned.add(error.project);
    }
    for (const project of pruned) this.pruneErrors.run(project, project);
    return results;
  }

  // --- the journal of credits in flight (schema.ts) ---

  /**
   * Names this process in the registry, so that another can tell once it is gone. Done again
   * before each sweep: a process wrongly taken for gone (one another cannot see) is named
   * again, so that its later credits in flight are not left without an owner.
   */
  register(owner: string, identity: ProcessIdentity): void {
    this.db.prepare('INSERT OR IGNORE INTO owners (id, host, pid, started) VALUES (?, ?, ?, ?)').run(owner, identity.host, identity.pid, identity.started);
  }

  /** Gives back the credits of an owner's rows (one batch's, or all): their answers were not written, or may not have been. */
  release(owner: string, batch?: number): number {
    return this.db
      .transaction(() => {
        const gone = (
          batch === undefined
            ? this.db.prepare<[string], { token: string; day: string }>('DELETE FROM inflight WHERE owner = ? RETURNING token, day').all(owner)
            : this.db.prepare<[string, number], { token: string; day: string }>('DELETE FROM inflight WHERE owner = ? AND batch = ? RETURNING token, day').all(owner, batch)
        );
        const credit = this.db.prepare('UPDATE accounts SET credits = credits + 1 WHERE id = (SELECT p.account_id FROM tokens t JOIN projects p ON p.id = t.project_id WHERE t.token = ?)');
        const unuse = this.db.prepare('UPDATE usage SET credits = credits - 1 WHERE token = ? AND day = ?');
        let given = 0;
        for (const { token, day } of gone) {
          given += credit.run(token).changes;
          unuse.run(token, day);
        }
        return given;
      })
      .immediate();
  }

  /** Releases the rows of every other owner whose process is gone; the credits given back. */
  sweep(me: string): number {
    const owners = this.db.prepare<[string], ProcessIdentity & { id: string }>('SELECT id, host, pid, started FROM owners WHERE id <> ?').all(me);
    let given = 0;
    for (const owner of owners.filter(processGone)) {
      given += this.release(owner.id);
      this.db.prepare('DELETE FROM owners WHERE id = ?').run(owner.id);
    }
    return given;
  }

  /** A process closing with only answers written left in the journal: their credits are kept, and its name goes. */
  forget(owner: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM inflight WHERE owner = ?').run(owner);
      this.db.prepare('DELETE FROM owners WHERE id = ?').run(owner);
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
