/**
 * Managing a SQLite registry, as `cpmx tokens` does (and the panel, which builds on it):
 * projects, their tokens, credits and usage.
 */
import { randomUUID } from 'node:crypto';
import { RegistryError } from './errors.js';
import { SqliteVisits } from './sqlite.js';
import { DEFAULT_CREDITS, ERRORS_KEPT, MAX_CREDITS, tooManyCredits, usageOf, windowDays, type ErrorSeen, type NewProject, type Project, type Usage } from './types.js';
import { SQLITE } from './sql.js';

/** A project as SQLite gives it: `revoked` is the time of revocation, or null. */
export type ProjectRow = Omit<Project, 'revoked'> & { revoked: string | null };

export const PROJECT_SELECT = `SELECT t.token, p.name, p.id AS project, p.account_id AS account, a.credits,
    p.legacy_used + coalesce((SELECT sum(u.credits) FROM usage u JOIN tokens t2 ON t2.token = u.token WHERE t2.project_id = p.id), 0) AS used,
    t.revoked, p.created
  FROM tokens t JOIN projects p ON p.id = t.project_id JOIN accounts a ON a.id = p.account_id`;

export const project = (row: ProjectRow): Project => ({ ...row, revoked: row.revoked !== null });

/** The token a project shows: its live one, else the one revoked last. */
export const SHOWN_TOKEN = SQLITE.shownToken;

export const NOW_ISO = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export class SqliteAdmin extends SqliteVisits {
  createProject({ name, credits = DEFAULT_CREDITS, account }: NewProject): Project {
    const token = randomUUID();
    const create = this.db.transaction(() => {
      let accountId = account;
      if (accountId === undefined) {
        accountId = Number(this.db.prepare('INSERT INTO accounts (name, credits) VALUES (?, ?)').run(name, credits).lastInsertRowid);
      } else if (!this.db.prepare(SQLITE.accountExists).get(accountId)) {
        throw new RegistryError(`${this.path}: no account ${accountId}`);
      }
      const projectId = Number(this.db.prepare('INSERT INTO projects (account_id, name) VALUES (?, ?)').run(accountId, name).lastInsertRowid);
      this.db.prepare(SQLITE.insertToken).run(token, projectId);
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
      this.db.prepare(SQLITE.insertToken).run(fresh, row.project_id);
      return true;
    });
    return done.immediate() ? fresh : undefined;
  }

  setDisabled(account: number, disabled: boolean): boolean {
    const done = this.db.transaction(() => {
      if (disabled) this.db.prepare(SQLITE.endSessionsOf).run(account);
      return this.db.prepare(SQLITE.setDisabled).run(disabled ? 1 : 0, account).changes === 1;
    });
    return done.immediate();
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

  usage(token: string, days: number): Usage | undefined {
    const found = this.get(token);
    return found && this.usageOf(found, days);
  }

  protected usageOf(found: Project, days: number): Usage {
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
}
