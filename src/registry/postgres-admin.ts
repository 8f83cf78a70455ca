/** Managing a PostgreSQL registry, as `cpmx tokens` does (and the panel, which builds on it). */
import { randomUUID } from 'node:crypto';
import type * as Pg from 'pg';
import { RegistryError } from './errors.js';
import { PostgresPool } from './postgres-pool.js';
import { DEFAULT_CREDITS, ERRORS_KEPT, MAX_CREDITS, tooManyCredits, usageOf, windowDays, type ErrorSeen, type NewProject, type Project, type Usage } from './types.js';
import { POSTGRES } from './sql.js';

export const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
export const PROJECT_SELECT = `SELECT t.token, p.name, p.id::float8 AS project, p.account_id::float8 AS account, a.credits::float8 AS credits,
    (p.legacy_used + coalesce((SELECT sum(u.credits) FROM cpmx.usage u JOIN cpmx.tokens t2 ON t2.token = u.token WHERE t2.project_id = p.id), 0))::float8 AS used,
    t.revoked IS NOT NULL AS revoked, to_char(p.created AT TIME ZONE 'UTC', ${ISO}) AS created
  FROM cpmx.tokens t JOIN cpmx.projects p ON p.id = t.project_id JOIN cpmx.accounts a ON a.id = p.account_id`;

/** The token a project shows: its live one, else the one revoked last. */
export const SHOWN_TOKEN = POSTGRES.shownToken;

export abstract class PostgresAdmin extends PostgresPool {
  async createProject({ name, credits = DEFAULT_CREDITS, account }: NewProject): Promise<Project> {
    const token = randomUUID();
    await this.transaction(async (client) => {
      let accountId = account;
      if (accountId === undefined) {
        accountId = Number((await client.query<{ id: string }>('INSERT INTO cpmx.accounts (name, credits) VALUES ($1, $2) RETURNING id', [name, credits])).rows[0]!.id);
      } else if ((await client.query(POSTGRES.accountExists, [accountId])).rowCount === 0) {
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
  protected addCredits(accountOf: string, key: string | number, credits: number): Promise<boolean> {
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
      await client.query(POSTGRES.insertToken, [fresh, row.project_id]);
      return fresh;
    });
  }

  setDisabled(account: number, disabled: boolean): Promise<boolean> {
    return this.transaction(async (client) => {
      if (disabled) await client.query(POSTGRES.endSessionsOf, [account]);
      return (await client.query(POSTGRES.setDisabled, [disabled, account])).rowCount === 1;
    });
  }

  async usage(token: string, days: number): Promise<Usage | undefined> {
    const found = await this.get(token);
    return found && this.usageOf(found, days);
  }

  protected usageOf(found: Project, days: number): Promise<Usage> {
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

  protected async insertProject(client: Pg.PoolClient, account: number, name: string, token: string): Promise<void> {
    const projectId = (await client.query<{ id: string }>('INSERT INTO cpmx.projects (account_id, name) VALUES ($1, $2) RETURNING id', [account, name])).rows[0]!.id;
    await client.query(POSTGRES.insertToken, [token, projectId]);
  }
}
