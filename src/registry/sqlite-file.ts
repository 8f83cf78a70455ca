/**
 * The SQLite registry's files as a server sees them: the file opened, its -wal and -shm, and
 * what can be wrong with them while serving (deleted, replaced, unreadable, read-only), from
 * their identity (device and inode) rather than their names.
 */
import { accessSync, constants, statSync } from 'node:fs';

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

export function identityOf(path: string): FileIdentity | undefined {
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
