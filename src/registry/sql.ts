/**
 * The statements both stores run alike, written once: in SQLite's words (tables by their bare
 * names, `?` for each value), and for PostgreSQL made from them (its tables in the schema
 * `cpmx`, its values numbered `$1`, `$2`...). What the dialects say differently (casts to
 * float8, booleans, `now()`, RETURNING ids) stays in each store's file.
 */
const SHARED = {
  /** The token a project shows: its live one, else the one revoked last (inside a query over projects `p`). */
  shownToken: 'SELECT l.token FROM tokens l WHERE l.project_id = p.id ORDER BY l.revoked IS NULL DESC, l.revoked DESC, l.created DESC LIMIT 1',
  accountExists: 'SELECT 1 FROM accounts WHERE id = ?',
  insertToken: 'INSERT INTO tokens (token, project_id) VALUES (?, ?)',
  setDisabled: 'UPDATE accounts SET disabled = ? WHERE id = ?',
  rehashPassword: 'UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?',
  renameProject: 'UPDATE projects SET name = ? WHERE id = ? AND account_id = ?',
  deleteProject: 'DELETE FROM projects WHERE id = ? AND account_id = ?',
  endSession: 'DELETE FROM sessions WHERE id = ?',
  endSessionsOf: 'DELETE FROM sessions WHERE account_id = ?',
  dropExpiredSessions: 'DELETE FROM sessions WHERE expires <= ?',
  insertSession: 'INSERT INTO sessions (id, account_id, created, expires) VALUES (?, ?, ?, ?)',
  dropOldAttempts: 'DELETE FROM attempts WHERE at <= ?',
  keepPanelSecret: 'INSERT INTO panel_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING',
  panelSecret: 'SELECT secret FROM panel_secret WHERE id = 1',
} as const;

type Statements = { readonly [K in keyof typeof SHARED]: string };

/** A statement in PostgreSQL's words. */
export function inPostgres(sql: string): string {
  let n = 0;
  return sql.replace(/\b(FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)/g, '$1 cpmx.$2').replace(/\?/g, () => `$${++n}`);
}

export const SQLITE: Statements = SHARED;

export const POSTGRES: Statements = Object.fromEntries(Object.entries(SHARED).map(([name, sql]) => [name, inPostgres(sql)])) as Statements;
