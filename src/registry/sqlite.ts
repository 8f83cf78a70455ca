/**
 * The SQLite registry store: the schema (schema.ts), its migrations, one batch of visits in
 * one transaction, and management. Synchronous, as better-sqlite3 is: `cpmx tokens` uses it
 * directly; a server uses it only inside its registry thread (sqlite-thread.ts), so that a
 * locked or slow file never blocks a worker's event loop.
 *
 * better-sqlite3 is a native module, loaded only here, only when a registry is asked for; the
 * library's lookup path never needs it. WAL and `synchronous = FULL`: a batch is on disk when
 * `visit` returns, before the server sends a byte of its answers.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { RegistryError, RegistryUnavailableError } from './errors.js';
import { failureOf, sqliteProblem } from './failure.js';
import { ATTEMPTS_KEPT_MS, forwardPanel, type Account, type AccountSummary, type AdminRegistry, type AttemptLimit, type NewAccount, type PanelMethod, type SessionStart, type SyncPanelStore } from './panel-types.js';
import { processGone, type ProcessIdentity } from './owners.js';
import { SCHEMA_VERSION, SQLITE_FROM_UNVERSIONED, SQLITE_MIGRATIONS, tooNewMessage } from './schema.js';
import {
  DEFAULT_CREDITS,
  ERRORS_KEPT,
  MAX_CREDITS,
  tooManyCredits,
  OUTCOME,
  VISIT,
  usageOf,
  windowDays,
  type ErrorSeen,
  type NewProject,
  type Project,
  type Usage,
  type InFlight,
  type VisitKind,
  type VisitResult,
} from './types.js';

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
}

/** What can be wrong with the registry file while serving. */
export interface FileProblem {
  /**
   * missing and replaced: the file to use is another one now (reopen); journal: its -wal or
   * -shm was deleted or replaced under the open connection (never reopened: the connections
   * still open hold the last writes; a restart folds them in); the others: wait.
   */
  kind: 'missing' | 'replaced' | 'journal' | 'unreadable' | 'read-only' | 'unknown';
  message: string;
}

/** A file's identity: what a deleted and recreated, or replaced, file does not keep. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** The registry file opened, and its WAL files (`-wal`, `-shm`) as SQLite opened them beside it. */
export interface OpenedFiles extends FileIdentity {
  journal?: { wal: FileIdentity; shm: FileIdentity } | undefined;
}

const JOURNAL_SUFFIXES = ['wal', 'shm'] as const;

function identityOf(path: string): FileIdentity | undefined {
  try {
    const { dev, ino } = statSync(path);
    return { dev, ino };
  } catch {
    return undefined;
  }
}

/**
 * The -wal or -shm file no longer the one the connection opened (deleted, or replaced):
 * writes would go to a file no other connection sees, and another connection would read
 * the registry without them.
 */
function journalProblem(path: string, journal: NonNullable<OpenedFiles['journal']>): FileProblem | undefined {
  for (const suffix of JOURNAL_SUFFIXES) {
    const now = identityOf(`${path}-${suffix}`);
    const was = journal[suffix];
    if (now?.dev === was.dev && now.ino === was.ino) continue;
    return {
      kind: 'journal',
      message: `${path}-${suffix} was ${now ? 'replaced' : 'deleted'} while the registry was open; restart cpmx serve (its last writes are kept until then)`,
    };
  }
  return undefined;
}

/** What is wrong with the registry file (and, given, its WAL files) now, or undefined when it looks usable. */
export function fileProblem(path: string, opened?: OpenedFiles): FileProblem | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing', message: `${path} is missing (deleted or moved)` } : { kind: 'unknown', message: `${path} cannot be examined (${code})` };
  }
  if (opened && (stat.dev !== opened.dev || stat.ino !== opened.ino)) return { kind: 'replaced', message: `${path} was replaced by another file` };
  const journal = opened?.journal && journalProblem(path, opened.journal);
  if (journal) return journal;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return { kind: 'unreadable', message: `${path} cannot be read (permissions)` };
  }
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return { kind: 'read-only', message: `${path} is read-only` };
  }
  return undefined;
}

interface TokenRow {
  project_id: number;
  revoked: string | null;
  account_id: number;
}

/** A project as SQLite gives it: `revoked` is the time of revocation, or null. */
type ProjectRow = Omit<Project, 'revoked'> & { revoked: string | null };

const PROJECT_SELECT = `SELECT t.token, p.name, p.id AS project, p.account_id AS account, a.credits,
    p.legacy_used + coalesce((SELECT sum(u.credits) FROM usage u JOIN tokens t2 ON t2.token = u.token WHERE t2.project_id = p.id), 0) AS used,
    t.revoked, p.created
  FROM tokens t JOIN projects p ON p.id = t.project_id JOIN accounts a ON a.id = p.account_id`;

const project = (row: ProjectRow): Project => ({ ...row, revoked: row.revoked !== null });

/** The token a project shows: its live one, else the one revoked last. */
const SHOWN_TOKEN = 'SELECT l.token FROM tokens l WHERE l.project_id = p.id ORDER BY l.revoked IS NULL DESC, l.revoked DESC, l.created DESC LIMIT 1';

const ACCOUNT_SELECT = 'SELECT a.id, a.email, a.name, a.credits, a.disabled, a.admin, a.created FROM accounts a';

type AccountRow = Omit<Account, 'disabled' | 'admin'> & { disabled: number; admin: number };

const account = <R extends AccountRow>(row: R): Omit<R, 'disabled' | 'admin'> & { disabled: boolean; admin: boolean } => ({ ...row, disabled: row.disabled !== 0, admin: row.admin !== 0 });

const NOW_ISO = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export class SqliteStore implements SyncPanelStore {
  readonly location: string;
  private readonly db: BetterSqlite3.Database;
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
      this.db = new Database(path, { fileMustExist: !options.create, timeout: options.busyTimeoutMs ?? 5000 });
    } catch (error) {
      throw new RegistryError(`${path}: cannot be opened as a token registry (${(error as Error).message})`);
    }
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('foreign_keys = ON');
      this.migrate();
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

  /** Names this process in the registry, so that another can tell once it is gone. */
  register(owner: string, identity: ProcessIdentity): void {
    this.db.prepare('INSERT OR REPLACE INTO owners (id, host, pid, started) VALUES (?, ?, ?, ?)').run(owner, identity.host, identity.pid, identity.started);
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

  // --- management (cpmx tokens, the control panel) ---

  createProject({ name, credits = DEFAULT_CREDITS, account }: NewProject): Project {
    const token = randomUUID();
    const create = this.db.transaction(() => {
      let accountId = account;
      if (accountId === undefined) {
        accountId = Number(this.db.prepare('INSERT INTO accounts (name, credits) VALUES (?, ?)').run(name, credits).lastInsertRowid);
      } else if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) {
        throw new RegistryError(`${this.path}: no account ${accountId}`);
      }
      const projectId = Number(this.db.prepare('INSERT INTO projects (account_id, name) VALUES (?, ?)').run(accountId, name).lastInsertRowid);
      this.db.prepare('INSERT INTO tokens (token, project_id) VALUES (?, ?)').run(token, projectId);
    });
    create.immediate();
    return this.get(token)!;
  }

  list(): Project[] {
    return this.db.prepare<[], ProjectRow>(`${PROJECT_SELECT} WHERE t.token = (${SHOWN_TOKEN}) ORDER BY p.created, p.id`).all().map(project);
  }

  get(token: string): Project | undefined {
    const row = this.db.prepare<[string], ProjectRow>(`${PROJECT_SELECT} WHERE t.token = ?`).get(token);
    return row && project(row);
  }

  credit(token: string, credits: number): boolean {
    const row = this.db.prepare<[string], { id: number }>('SELECT p.account_id AS id FROM tokens t JOIN projects p ON p.id = t.project_id WHERE t.token = ?').get(token);
    return row !== undefined && this.grant(row.id, credits);
  }

  revoke(token: string): boolean {
    return this.db.prepare(`UPDATE tokens SET revoked = ${NOW_ISO} WHERE token = ? AND revoked IS NULL`).run(token).changes === 1;
  }

  regenerate(token: string): string | undefined {
    const fresh = randomUUID();
    const done = this.db.transaction(() => {
      const row = this.db.prepare<[string], { project_id: number }>('SELECT project_id FROM tokens WHERE token = ? AND revoked IS NULL').get(token);
      if (!row) return false;
      this.revoke(token);
      this.db.prepare('INSERT INTO tokens (token, project_id) VALUES (?, ?)').run(fresh, row.project_id);
      return true;
    });
    return done.immediate() ? fresh : undefined;
  }

  setDisabled(account: number, disabled: boolean): boolean {
    const done = this.db.transaction(() => {
      if (disabled) this.db.prepare('DELETE FROM sessions WHERE account_id = ?').run(account);
      return this.db.prepare('UPDATE accounts SET disabled = ? WHERE id = ?').run(disabled ? 1 : 0, account).changes === 1;
    });
    return done.immediate();
  }

  // --- the control panel (panel-types.ts) ---

  createAccount({ email, name, passwordHash, credits, admin = false }: NewAccount): Account | undefined {
    const row = this.db
      .prepare<[string, string, string, number, number], { id: number }>('INSERT INTO accounts (email, password_hash, name, credits, admin) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id')
      .get(email, passwordHash, name, credits, admin ? 1 : 0);
    return row && this.account(row.id);
  }

  account(id: number): Account | undefined {
    const row = this.db.prepare<[number], AccountRow>(`${ACCOUNT_SELECT} WHERE a.id = ?`).get(id);
    return row && account(row);
  }

  credentials(email: string): { account: Account; passwordHash: string | null } | undefined {
    const row = this.db.prepare<[string], AccountRow & { password_hash: string | null }>(`${ACCOUNT_SELECT.replace(' FROM', ', a.password_hash FROM')} WHERE a.email = ?`).get(email);
    if (!row) return undefined;
    const { password_hash, ...rest } = row;
    return { account: account(rest), passwordHash: password_hash };
  }

  setPassword(email: string, passwordHash: string, admin: boolean): Account | undefined {
    const done = this.db.transaction(() => {
      const row = this.db
        .prepare<[string, number, string], { id: number }>('UPDATE accounts SET password_hash = ?, admin = max(admin, ?) WHERE email = ? RETURNING id')
        .get(passwordHash, admin ? 1 : 0, email);
      if (row) this.db.prepare('DELETE FROM sessions WHERE account_id = ?').run(row.id);
      return row && this.account(row.id);
    });
    return done.immediate();
  }

  rehashPassword(account: number, from: string, to: string): boolean {
    return this.db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?').run(to, account, from).changes === 1;
  }

  addProject(account: number, name: string, max: number): Project | undefined {
    // IMMEDIATE: the count and the insert are one step for every process sharing the file.
    const add = this.db.transaction(() => {
      const { n } = this.db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM projects WHERE account_id = ?').get(account)!;
      return n >= max ? undefined : this.createProject({ name, account });
    });
    return add.immediate();
  }

  accounts(offset: number, limit: number): { accounts: AccountSummary[]; total: number } {
    const rows = this.db
      .prepare<[number, number], AccountRow & { projects: number; used: number }>(
        `SELECT a.id, a.email, a.name, a.credits, a.disabled, a.admin, a.created,
           (SELECT count(*) FROM projects p WHERE p.account_id = a.id) AS projects,
           (SELECT coalesce(sum(p.legacy_used), 0) FROM projects p WHERE p.account_id = a.id)
             + (SELECT coalesce(sum(u.credits), 0) FROM usage u JOIN tokens t ON t.token = u.token JOIN projects p ON p.id = t.project_id WHERE p.account_id = a.id) AS used
         FROM accounts a ORDER BY a.id LIMIT ? OFFSET ?`,
      )
      .all(limit, offset);
    const total = (this.db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
    return { accounts: rows.map(account), total };
  }

  grant(account: number, credits: number): boolean {
    const grant = this.db.transaction(() => {
      const row = this.db.prepare<[number], { credits: number }>('SELECT credits FROM accounts WHERE id = ?').get(account);
      if (!row) return false;
      if (credits > MAX_CREDITS - row.credits) throw new RegistryError(tooManyCredits(this.path, row.credits, credits));
      return this.db.prepare('UPDATE accounts SET credits = credits + ? WHERE id = ?').run(credits, account).changes === 1;
    });
    return grant.immediate();
  }

  projectsOf(account: number): Project[] {
    return this.db.prepare<[number], ProjectRow>(`${PROJECT_SELECT} WHERE p.account_id = ? AND t.token = (${SHOWN_TOKEN}) ORDER BY p.created, p.id`).all(account).map(project);
  }

  projectOf(account: number, id: number): Project | undefined {
    const row = this.db.prepare<[number, number], ProjectRow>(`${PROJECT_SELECT} WHERE p.account_id = ? AND p.id = ? AND t.token = (${SHOWN_TOKEN})`).get(account, id);
    return row && project(row);
  }

  renameProject(account: number, id: number, name: string): boolean {
    return this.db.prepare('UPDATE projects SET name = ? WHERE id = ? AND account_id = ?').run(name, id, account).changes === 1;
  }

  deleteProject(account: number, id: number): boolean {
    return this.db.prepare('DELETE FROM projects WHERE id = ? AND account_id = ?').run(id, account).changes === 1;
  }

  regenerateProject(account: number, id: number): string | undefined {
    const fresh = randomUUID();
    const done = this.db.transaction(() => {
      if (!this.db.prepare('SELECT 1 FROM projects WHERE id = ? AND account_id = ?').get(id, account)) return false;
      this.db.prepare(`UPDATE tokens SET revoked = ${NOW_ISO} WHERE project_id = ? AND revoked IS NULL`).run(id);
      this.db.prepare('INSERT INTO tokens (token, project_id) VALUES (?, ?)').run(fresh, id);
      return true;
    });
    return done.immediate() ? fresh : undefined;
  }

  projectUsage(account: number, id: number, days: number): Usage | undefined {
    const found = this.projectOf(account, id);
    return found && this.usageOf(found, days);
  }

  createSession(id: string, account: number, now: number, expires: number, also: SessionStart = {}): void {
    const create = this.db.transaction(() => {
      if (also.ends !== undefined) this.endSession(also.ends);
      this.forgetAttempts(also.forgets ?? []);
      this.db.prepare('DELETE FROM sessions WHERE expires <= ?').run(now);
      this.db.prepare('INSERT INTO sessions (id, account_id, created, expires) VALUES (?, ?, ?, ?)').run(id, account, now, expires);
    });
    create.immediate();
  }

  session(id: string, now: number): Account | undefined {
    const row = this.db.prepare<[string, number], AccountRow>(`${ACCOUNT_SELECT} JOIN sessions s ON s.account_id = a.id WHERE s.id = ? AND s.expires > ? AND a.disabled = 0`).get(id, now);
    return row && account(row);
  }

  endSession(id: string): void {
    this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
  }

  attempt(limits: readonly AttemptLimit[], now: number): number[] | undefined {
    // IMMEDIATE: the count and the insert are one step for every process sharing the file.
    const attempt = this.db.transaction(() => {
      this.db.prepare('DELETE FROM attempts WHERE at <= ?').run(now - ATTEMPTS_KEPT_MS);
      const count = this.db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM attempts WHERE key = ? AND at > ?');
      if (limits.some(({ key, limit, windowMs }) => count.get(key, now - windowMs)!.n >= limit)) return undefined;
      const insert = this.db.prepare<[string, number], { id: number }>('INSERT INTO attempts (key, at) VALUES (?, ?) RETURNING id');
      return limits.map(({ key }) => insert.get(key, now)!.id);
    });
    return attempt.immediate();
  }

  forgetAttempts(ids: readonly number[]): void {
    const forget = this.db.prepare('DELETE FROM attempts WHERE id = ?');
    this.db.transaction(() => {
      for (const id of ids) forget.run(id);
    })();
  }

  panelSecret(fresh: string): string {
    this.db.prepare('INSERT INTO panel_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING').run(fresh);
    return (this.db.prepare('SELECT secret FROM panel_secret WHERE id = 1').get() as { secret: string }).secret;
  }

  usage(token: string, days: number): Usage | undefined {
    const found = this.get(token);
    return found && this.usageOf(found, days);
  }

  private usageOf(found: Project, days: number): Usage {
    const token = found.token;
    const window = windowDays(days);
    const rows = this.db
      .prepare<[number, string], { day: string; requests: number; credits: number }>(
        'SELECT u.day, sum(u.requests) AS requests, sum(u.credits) AS credits FROM usage u JOIN tokens t ON t.token = u.token WHERE t.project_id = ? AND u.day >= ? GROUP BY u.day',
      )
      .all(found.project, window[0]!);
    const errors = this.db
      .prepare<[number], ErrorSeen>(`SELECT at, code, count, token FROM errors WHERE project_id = ? ORDER BY id DESC LIMIT ${ERRORS_KEPT}`)
      .all(found.project);
    return usageOf(token, found, window, rows, errors);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** The management interface over a SQLite store (the same promises as PostgreSQL's). */
export function sqliteAdmin(path: string, create = false): AdminRegistry {
  const store = new SqliteStore(path, { create });
  const later = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));
  return {
    ...forwardPanel((method, args) => later(() => callPanel(store, method, args))),
    location: path,
    createProject: (options) => later(() => store.createProject(options)),
    list: () => later(() => store.list()),
    get: (token) => later(() => store.get(token)),
    credit: (token, credits) => later(() => store.credit(token, credits)),
    revoke: (token) => later(() => store.revoke(token)),
    regenerate: (token) => later(() => store.regenerate(token)),
    usage: (token, days) => later(() => store.usage(token, days)),
    close: () => later(() => store.close()),
  };
}

/** Runs one panel method of a synchronous store (the arguments as its caller gave them). */
export function callPanel(store: SqliteStore, method: PanelMethod, args: unknown[]): unknown {
  return (store[method] as (...args: unknown[]) => unknown).apply(store, args);
}
