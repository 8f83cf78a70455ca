/**
 * Writes the artifact atomically: a temporary file beside the target, then a rename, so a
 * failed or interrupted build never leaves a half-written artifact nor replaces a good one.
 * A process killed before its rename (SIGKILL, power loss) cannot remove its temporary file;
 * the next write to the same target does, once the process that made it is gone. What may be
 * written, and how, is decided once for every command in src/output-file.ts.
 */
import { Packr } from 'msgpackr';
import { MSGPACK_OPTIONS, type Artifact, type ArtifactFile } from '../src/core/format.js';
import { crc32 } from '../src/core/crc32.js';
import { OutputError, planOutput, writeOutputFile } from '../src/output-file.js';
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

/**
 * Writes `bytes` to `path` by the one output rule (src/output-file.ts): a temporary file
 * renamed over a regular file, a device or FIFO written in place, never an input (`inputs`:
 * paths, or 0 for stdin). Returns the number of bytes.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, inputs: readonly (string | number)[] = []): number {
  return asWriteError(path, () => writeOutputFile(path, bytes, { inputs, createDirectories: true }));
}

/** Throws ArtifactWriteError now when `path` could not be written later (an input, a directory, ...). */
export function checkArtifactPath(path: string, inputs: readonly (string | number)[] = []): void {
  asWriteError(path, () => planOutput(path, { inputs }));
}

function asWriteError<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof OutputError) throw new ArtifactWriteError(path, error.reason);
    throw error;
  }
}
