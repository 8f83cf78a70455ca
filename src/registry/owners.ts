/**
 * Which server processes using a SQLite registry are gone, so that the credits they had in
 * flight can be given back (the journal, schema.ts). A process is named by its host, its pid
 * and, where the system says it (Linux's /proc), its start time: a pid reused by a later
 * process is not taken for the one that died. A process on another host is never judged
 * (SQLite files are shared on one host); its credits in flight wait for it to come back.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessIdentity {
  host: string;
  pid: number;
  /** The process's start time in clock ticks since boot, or '' where it cannot be read. */
  started: string;
}

/** Fields of /proc/PID/stat after the command's name (which may hold spaces and parentheses). */
function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function thisProcess(): ProcessIdentity {
  return { host: hostname(), pid: process.pid, started: stat(process.pid)?.[19] ?? '' };
}

/** Whether the process is known to be gone: ended (or a zombie), or its pid now another process's. */
export function processGone(owner: ProcessIdentity): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it is there, run by another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = stat(owner.pid);
  if (!now) return false;
  // State 'Z': ended, not yet reaped by its parent.
  return now[0] === 'Z' || (owner.started !== '' && now[19] !== owner.started);
}
