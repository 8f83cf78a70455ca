/** What a SQLite registry file holds, read by a connection of the test's own (never the server's). */
import Database from 'better-sqlite3';

/**
 * The credits left on the file's account and those its usage rows spent. `options` are the
 * connection's: read-only where the file must not be touched, writable where its journal files
 * may have been deleted (a read-only connection cannot make them anew).
 */
export function creditsOf(path: string, options: Database.Options = {}): { credits: number; spent: number } {
  const db = new Database(path, options);
  try {
    return db
      .prepare('SELECT a.credits, coalesce(sum(u.credits), 0) AS spent FROM accounts a JOIN projects p ON p.account_id = a.id JOIN tokens t ON t.project_id = p.id LEFT JOIN usage u ON u.token = t.token')
      .get() as { credits: number; spent: number };
  } finally {
    db.close();
  }
}
