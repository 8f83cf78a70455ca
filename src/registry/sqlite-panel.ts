/**
 * What the control panel keeps in a SQLite registry (panel-types.ts): accounts with an email
 * and a password hash, sessions, attempts, and the projects of one account; and the store
 * whole, as `cpmx tokens` and the registry thread reach it.
 */
import { randomUUID } from 'node:crypto';
import { ATTEMPTS_KEPT_MS, forwardPanel, type Account, type AccountSummary, type AdminRegistry, type AttemptLimit, type NewAccount, type PanelMethod, type SessionStart, type SyncPanelStore } from './panel-types.js';
import { NOW_ISO, PROJECT_SELECT, SHOWN_TOKEN, project, type ProjectRow, SqliteAdmin } from './sqlite-admin.js';
import type { Project, Usage } from './types.js';
import { SQLITE } from './sql.js';

const ACCOUNT_SELECT = 'SELECT a.id, a.email, a.name, a.credits, a.disabled, a.admin, a.created FROM accounts a';

type AccountRow = Omit<Account, 'disabled' | 'admin'> & { disabled: number; admin: number };

const account = <R extends AccountRow>(row: R): Omit<R, 'disabled' | 'admin'> & { disabled: boolean; admin: boolean } => ({ ...row, disabled: row.disabled !== 0, admin: row.admin !== 0 });

/** The SQLite store: the file, the paying visit, management and the panel's part. */
export class SqliteStore extends SqliteAdmin implements SyncPanelStore {
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
      if (row) this.db.prepare(SQLITE.endSessionsOf).run(row.id);
      return row && this.account(row.id);
    });
    return done.immediate();
  }

  rehashPassword(account: number, from: string, to: string): boolean {
    return this.db.prepare(SQLITE.rehashPassword).run(to, account, from).changes === 1;
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


  projectsOf(account: number): Project[] {
    return this.db.prepare<[number], ProjectRow>(`${PROJECT_SELECT} WHERE p.account_id = ? AND t.token = (${SHOWN_TOKEN}) ORDER BY p.created, p.id`).all(account).map(project);
  }

  projectOf(account: number, id: number): Project | undefined {
    const row = this.db.prepare<[number, number], ProjectRow>(`${PROJECT_SELECT} WHERE p.account_id = ? AND p.id = ? AND t.token = (${SHOWN_TOKEN})`).get(account, id);
    return row && project(row);
  }

  renameProject(account: number, id: number, name: string): boolean {
    return this.db.prepare(SQLITE.renameProject).run(name, id, account).changes === 1;
  }

  deleteProject(account: number, id: number): boolean {
    return this.db.prepare(SQLITE.deleteProject).run(id, account).changes === 1;
  }

  regenerateProject(account: number, id: number): string | undefined {
    const fresh = randomUUID();
    const done = this.db.transaction(() => {
      if (!this.db.prepare('SELECT 1 FROM projects WHERE id = ? AND account_id = ?').get(id, account)) return false;
      this.db.prepare(`UPDATE tokens SET revoked = ${NOW_ISO} WHERE project_id = ? AND revoked IS NULL`).run(id);
      this.db.prepare(SQLITE.insertToken).run(fresh, id);
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
      this.db.prepare(SQLITE.dropExpiredSessions).run(now);
      this.db.prepare(SQLITE.insertSession).run(id, account, now, expires);
    });
    create.immediate();
  }

  session(id: string, now: number): Account | undefined {
    const row = this.db.prepare<[string, number], AccountRow>(`${ACCOUNT_SELECT} JOIN sessions s ON s.account_id = a.id WHERE s.id = ? AND s.expires > ? AND a.disabled = 0`).get(id, now);
    return row && account(row);
  }

  endSession(id: string): void {
    this.db.prepare(SQLITE.endSession).run(id);
  }

  attempt(limits: readonly AttemptLimit[], now: number): number[] | undefined {
    // IMMEDIATE: the count and the insert are one step for every process sharing the file.
    const attempt = this.db.transaction(() => {
      this.db.prepare(SQLITE.dropOldAttempts).run(now - ATTEMPTS_KEPT_MS);
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
    this.db.prepare(SQLITE.keepPanelSecret).run(fresh);
    return (this.db.prepare(SQLITE.panelSecret).get() as { secret: string }).secret;
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
