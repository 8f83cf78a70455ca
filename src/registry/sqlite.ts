/**
 * The token registry: projects, their tokens and credits, in a SQLite database that several
 * server processes share. better-sqlite3 is a native module, so it is loaded only here, only
 * when a registry is asked for; the library's lookup path never needs it.
 *
 * Credits: one `UPDATE ... WHERE credits > 0` per answer. SQLite serialises writers across
 * processes, so the last credit is sold once; with WAL and `synchronous = FULL` the update is
 * on disk when `consume` returns, before the server sends a byte of the answer.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Consumption, TokenRegistry } from '../core/credits.js';

/** The registry cannot be opened: the message says why and what to do. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** New projects get 50 credits, as the service's free registration does. */
export const DEFAULT_CREDITS = 50;

export interface Project {
  token: string;
  name: string;
  /** Credits left. */
  credits: number;
  used: number;
  revoked: boolean;
  /** ISO 8601 creation time. */
  created: string;
}

interface ProjectRow {
  token: string;
  name: string;
  credits: number;
  used: number;
  revoked: number;
  created: string;
}

function loadDriver(): typeof BetterSqlite3 {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND') {
      throw new RegistryError('the token registry needs better-sqlite3, which is not installed: run `npm install better-sqlite3` beside cpmx');
    }
    throw new RegistryError(`better-sqlite3 is installed but cannot be loaded (${(error as Error).message}); reinstall it with \`npm rebuild better-sqlite3\``);
  }
}

export class SqliteRegistry implements TokenRegistry {
  private readonly db: BetterSqlite3.Database;
  private readonly spend: BetterSqlite3.Statement<[string]>;
  private readonly left: BetterSqlite3.Statement<[string], { credits: number }>;

  /** Opens (creating if needed) the registry at `path`. */
  constructor(readonly path: string) {
    const Database = loadDriver();
    try {
      this.db = new Database(path, { timeout: 10_000 });
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.exec(`CREATE TABLE IF NOT EXISTS projects (
        token TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        credits INTEGER NOT NULL CHECK (credits >= 0),
        used INTEGER NOT NULL DEFAULT 0,
        revoked INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL
      ) STRICT`);
    } catch (error) {
      throw new RegistryError(`${path}: cannot be opened as a token registry (${(error as Error).message})`);
    }
    this.spend = this.db.prepare('UPDATE projects SET credits = credits - 1, used = used + 1 WHERE token = ? AND revoked = 0 AND credits > 0');
    this.left = this.db.prepare('SELECT credits FROM projects WHERE token = ? AND revoked = 0');
  }

  credits(token: string): number | undefined {
    return this.left.get(token)?.credits;
  }

  consume(token: string): Consumption {
    if (this.spend.run(token).changes === 1) return 'spent';
    return this.credits(token) === undefined ? 'unknown' : 'none-left';
  }

  create(name: string, credits = DEFAULT_CREDITS): Project {
    const project: Project = { token: randomUUID(), name, credits, used: 0, revoked: false, created: new Date().toISOString() };
    this.db
      .prepare('INSERT INTO projects (token, name, credits, used, revoked, created) VALUES (?, ?, ?, 0, 0, ?)')
      .run(project.token, project.name, project.credits, project.created);
    return project;
  }

  list(): Project[] {
    return this.db
      .prepare<[], ProjectRow>('SELECT token, name, credits, used, revoked, created FROM projects ORDER BY created, rowid')
      .all()
      .map((row) => ({ ...row, revoked: row.revoked !== 0 }));
  }

  get(token: string): Project | undefined {
    const row = this.db.prepare<[string], ProjectRow>('SELECT token, name, credits, used, revoked, created FROM projects WHERE token = ?').get(token);
    return row && { ...row, revoked: row.revoked !== 0 };
  }

  /** Adds `credits` to a project; false when the registry has no such token. */
  credit(token: string, credits: number): boolean {
    return this.db.prepare('UPDATE projects SET credits = credits + ? WHERE token = ?').run(credits, token).changes === 1;
  }

  /** Revokes a token for good; false when the registry has no such token. */
  revoke(token: string): boolean {
    return this.db.prepare('UPDATE projects SET revoked = 1 WHERE token = ?').run(token).changes === 1;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
