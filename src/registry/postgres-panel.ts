/** What the control panel keeps in a PostgreSQL registry (panel-types.ts). */
import { randomUUID } from 'node:crypto';
import { ATTEMPTS_KEPT_MS, type Account, type AccountSummary, type AttemptLimit, type NewAccount, type PanelStore, type SessionStart } from './panel-types.js';
import { ISO, PostgresAdmin, PROJECT_SELECT, SHOWN_TOKEN } from './postgres-admin.js';
import type { Project, Usage } from './types.js';
import { POSTGRES } from './sql.js';

const ACCOUNT_COLUMNS = `a.id::float8 AS id, a.email, a.name, a.credits::float8 AS credits, a.disabled, a.admin, to_char(a.created AT TIME ZONE 'UTC', ${ISO}) AS created`;
const ACCOUNT_SELECT = `SELECT ${ACCOUNT_COLUMNS} FROM cpmx.accounts a`;
const FORGET_ATTEMPTS = 'DELETE FROM cpmx.attempts WHERE id = ANY ($1::bigint[])';

export abstract class PostgresPanel extends PostgresAdmin implements PanelStore {
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
      if (row) await client.query(POSTGRES.endSessionsOf, [row.id]);
      return row;
    });
  }

  rehashPassword(account: number, from: string, to: string): Promise<boolean> {
    return this.transaction(async (client) => (await client.query(POSTGRES.rehashPassword, [to, account, from])).rowCount === 1);
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
    return this.transaction(async (client) => (await client.query(POSTGRES.renameProject, [name, id, account])).rowCount === 1);
  }

  deleteProject(account: number, id: number): Promise<boolean> {
    return this.transaction(async (client) => (await client.query(POSTGRES.deleteProject, [id, account])).rowCount === 1);
  }

  regenerateProject(account: number, id: number): Promise<string | undefined> {
    const fresh = randomUUID();
    return this.transaction(async (client) => {
      // The project's row lock: two regenerations at once leave one live token.
      if ((await client.query('SELECT 1 FROM cpmx.projects WHERE id = $1 AND account_id = $2 FOR UPDATE', [id, account])).rowCount === 0) return undefined;
      await client.query('UPDATE cpmx.tokens SET revoked = now() WHERE project_id = $1 AND revoked IS NULL', [id]);
      await client.query(POSTGRES.insertToken, [fresh, id]);
      return fresh;
    });
  }

  async projectUsage(account: number, id: number, days: number): Promise<Usage | undefined> {
    const found = await this.projectOf(account, id);
    return found && this.usageOf(found, days);
  }

  createSession(id: string, account: number, now: number, expires: number, also: SessionStart = {}): Promise<void> {
    return this.transaction(async (client) => {
      if (also.ends !== undefined) await client.query(POSTGRES.endSession, [also.ends]);
      if (also.forgets?.length) await client.query(FORGET_ATTEMPTS, [also.forgets]);
      await client.query(POSTGRES.dropExpiredSessions, [now]);
      await client.query(POSTGRES.insertSession, [id, account, now, expires]);
    });
  }

  session(id: string, now: number): Promise<Account | undefined> {
    return this.admin(
      async (client) =>
        (await client.query<Account>(`${ACCOUNT_SELECT} JOIN cpmx.sessions s ON s.account_id = a.id WHERE s.id = $1 AND s.expires > $2 AND NOT a.disabled`, [id, now])).rows[0],
    );
  }

  async endSession(id: string): Promise<void> {
    await this.transaction((client) => client.query(POSTGRES.endSession, [id]));
  }

  attempt(limits: readonly AttemptLimit[], now: number): Promise<number[] | undefined> {
    return this.transaction(async (client) => {
      // One lock per key, taken in one order: attempts on a key are counted and recorded one
      // at a time across every connection, and two attempts cannot deadlock.
      for (const key of [...new Set(limits.map((limit) => limit.key))].sort()) {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('cpmx attempt'), hashtext($1))", [key]);
      }
      await client.query(POSTGRES.dropOldAttempts, [now - ATTEMPTS_KEPT_MS]);
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
      await client.query(POSTGRES.keepPanelSecret, [fresh]);
      return (await client.query<{ secret: string }>(POSTGRES.panelSecret)).rows[0]!.secret;
    });
  }
}
