/**
 * Writes the artifact atomically: a temporary file beside the target, then a rename, so a
 * failed or interrupted build never leaves a half-written artifact nor replaces a good one.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
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
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
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
