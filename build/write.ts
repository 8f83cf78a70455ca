/**
 * Writes the artifact atomically: a temporary file beside the target, then a rename, so a
 * failed or interrupted build never leaves a half-written artifact nor replaces a good one.
 * A process killed before its rename (SIGKILL, power loss) cannot remove its temporary file;
 * the next write to the same target does, once the process that made it is gone.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Packr } from 'msgpackr';
import { MSGPACK_OPTIONS, type Artifact, type ArtifactFile } from '../src/core/format.js';
import { crc32 } from '../src/core/crc32.js';
import { ArtifactWriteError } from './errors.js';

const packr = new Packr(MSGPACK_OPTIONS);

/** Encodes the artifact in its checksummed envelope; the same artifact always gives the same bytes. */
export function encodeArtifact(artifact: Artifact): Buffer {
  // A copy: msgpackr's packer reuses its buffer for the next pack.
  const payload = Buffer.from(packr.pack(artifact));
  // The envelope repeats the header's name and version, so they are read before the payload.
  const { format, version } = artifact.header ?? {};
  const file: ArtifactFile = { format, version, crc32: crc32(payload), payload };
  return Buffer.from(packr.pack(file));
}

/** Writes `bytes` to `path` by temporary file and rename; returns the number of bytes. */
export function writeFileAtomic(path: string, bytes: Uint8Array): number {
  const temporary = temporaryPath(path, process.pid);
  try {
    mkdirSync(dirname(path), { recursive: true });
    removeStaleTemporaries(path);
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was created there (its directory cannot hold it)
    }
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ArtifactWriteError(path, code ? `${code} (${message})` : message);
  }
  return bytes.length;
}

/** The temporary file a process writes `path` through. */
export function temporaryPath(path: string, pid: number): string {
  return `${path}.${pid}.tmp`;
}

/**
 * Removes the temporary files of earlier writes to `path` whose process no longer exists.
 * One whose process is alive (a build running beside this one, or a reused pid) is left alone.
 */
export function removeStaleTemporaries(path: string): string[] {
  const prefix = `${basename(path)}.`;
  const removed: string[] = [];
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -'.tmp'.length);
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    const stale = join(dirname(path), name);
    rmSync(stale, { force: true });
    removed.push(stale);
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
