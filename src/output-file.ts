/**
 * The one rule for writing a command's output file (`validate --output/--fix`, `build --out`,
 * `download --out`): a path is written only where nothing of the user's is destroyed.
 *
 * - Absent, or a regular file this process may write: written to a temporary file beside it,
 *   then renamed over it, so it is either complete or as it was. A symlink to a regular file
 *   is written through: its target is replaced (temporary file beside the target), the link
 *   itself stays a link. The replaced file keeps its permission bits.
 * - A character device (`/dev/null`, a terminal), a FIFO, a path naming a descriptor
 *   (`/dev/stdout`, `/dev/fd/N`, `/proc/.../fd/N`, whatever it points at), or a symlink to
 *   one: opened and written in place (appending), never replaced.
 * - Never an input of the command (compared by device and inode, not by name), nor a
 *   directory, a block device, a socket, a dangling symlink or a read-only file.
 */
import {
  accessSync,
  open,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { processAlive } from './process-alive.js';

/** The output cannot be written there; `reason` says why, in words for the user. */
export class OutputError extends Error {
  override readonly name: string = 'OutputError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
  }
}

export interface OutputOptions {
  /** Files the command reads (paths, or descriptors such as 0 for stdin): never written. */
  inputs?: readonly (string | number)[];
  /** Creates the missing directories above a new file (`build --out dir/new.msgpack`). */
  createDirectories?: boolean;
}

/** How an output path is written, decided before anything is. */
export type OutputPlan =
  /** Replaced by rename: `target` is the file itself (a symlink's target, resolved). */
  | { kind: 'replace'; path: string; target: string; mode: number | undefined }
  /** Opened and written in place (a device, a FIFO). */
  | { kind: 'in-place'; path: string };

/**
 * Paths that name a process's descriptors (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`):
 * written in place whatever they lead to, a regular file included (the shell's `> file`).
 */
const DESCRIPTOR_PATH = /^\/(?:proc\/|dev\/(?:fd\/|std(?:in|out|err)$))/;
/** Appending: `/dev/stdout` onto a file opened with `>>` adds to it rather than overwriting it from the start. */
const IN_PLACE_FLAGS = constants.O_WRONLY | constants.O_APPEND;

function identity(input: string | number): Stats | undefined {
  try {
    return typeof input === 'number' ? fstatSync(input) : statSync(input);
  } catch {
    return undefined;
  }
}

/** Decides how `path` may be written, or throws OutputError saying why it may not. */
export function planOutput(path: string, options: OutputOptions = {}): OutputPlan {
  const absolute = resolve(path);
  let link: Stats | undefined;
  try {
    link = lstatSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new OutputError(path, `cannot be examined (${code})`);
  }
  if (!link) return { kind: 'replace', path, target: absolute, mode: undefined };
  let stats: Stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OutputError(path, code === 'ENOENT' ? 'is a symlink to nothing (its target does not exist)' : `cannot be examined (${code})`);
  }
  for (const input of options.inputs ?? []) {
    const read = identity(input);
    if (read && read.dev === stats.dev && read.ino === stats.ino) {
      throw new OutputError(path, `is the input${typeof input === 'string' && resolve(input) !== absolute ? ` (${input})` : ''}; write the output to another file`);
    }
  }
  if (stats.isDirectory()) throw new OutputError(path, 'is a directory');
  if (stats.isBlockDevice()) throw new OutputError(path, 'is a block device (a disk): cpmx does not write to disks');
  if (stats.isSocket()) throw new OutputError(path, 'is a socket');
  if (stats.isCharacterDevice() || stats.isFIFO() || DESCRIPTOR_PATH.test(absolute)) return { kind: 'in-place', path };
  if (!stats.isFile()) throw new OutputError(path, 'is not a regular file');
  try {
    accessSync(absolute, constants.W_OK);
  } catch {
    throw new OutputError(path, 'is read-only: it is not replaced');
  }
  let target: string;
  try {
    target = realpathSync(absolute);
  } catch (error) {
    throw new OutputError(path, `cannot be resolved (${(error as NodeJS.ErrnoException).code})`);
  }
  return { kind: 'replace', path, target, mode: stats.mode & 0o7777 };
}

/** An output being written: complete once committed, or as it was if discarded (a replaced file). */
export class OutputFile {
  private closed = false;

  private constructor(
    readonly plan: OutputPlan,
    /** Where the bytes go: the temporary file, or the device itself. */
    readonly fd: number,
    private readonly temporary: string | undefined,
  ) {}

  get path(): string {
    return this.plan.path;
  }

  /** Written in place (a device, a FIFO): a failure part way cannot be undone. */
  get inPlace(): boolean {
    return this.plan.kind === 'in-place';
  }

  /** Opens `path` for writing, synchronously (a FIFO waits for its reader). */
  static openSync(path: string, options: OutputOptions = {}): OutputFile {
    const plan = planOutput(path, options);
    if (plan.kind === 'in-place') return new OutputFile(plan, guard(path, () => openSync(path, IN_PLACE_FLAGS)), undefined);
    const temporary = prepare(plan, options);
    return new OutputFile(plan, guard(path, () => openTemporary(temporary, plan.mode)), temporary);
  }

  /** Opens `path` for writing without blocking the event loop (a FIFO waits for its reader). */
  static async open(path: string, options: OutputOptions = {}): Promise<OutputFile> {
    const plan = planOutput(path, options);
    if (plan.kind === 'in-place') {
      try {
        // A raw descriptor (fs/promises' FileHandle would close it when collected); a FIFO's
        // open waits for its reader in libuv's pool, not on the event loop.
        const fd = await new Promise<number>((done, failed) => open(path, IN_PLACE_FLAGS, (error, opened) => (error ? failed(error) : done(opened))));
        return new OutputFile(plan, fd, undefined);
      } catch (error) {
        throw new OutputError(path, reasonOf(error));
      }
    }
    const temporary = prepare(plan, options);
    return new OutputFile(plan, guard(path, () => openTemporary(temporary, plan.mode)), temporary);
  }

  /** Writes all of `bytes` (synchronously). */
  write(bytes: Uint8Array): void {
    guard(this.path, () => {
      for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
    });
  }

  /** Makes the output final: the temporary file flushed and renamed into place, or the device closed. */
  commit(): void {
    if (this.closed) return;
    this.closed = true;
    const { plan, temporary } = this;
    try {
      if (plan.kind === 'replace') fsyncSync(this.fd);
      closeSync(this.fd);
      if (plan.kind === 'replace') {
        // Looked at again: what the path names may have changed while the command ran.
        const now = planOutput(plan.path);
        if (now.kind !== 'replace' || now.target !== plan.target) throw new OutputError(plan.path, 'was replaced by something else while the command ran; nothing was written');
        renameSync(temporary!, plan.target);
      }
    } catch (error) {
      if (temporary) rmSync(temporary, { force: true });
      if (error instanceof OutputError) throw error;
      throw new OutputError(plan.path, reasonOf(error));
    }
  }

  /** Gives up: a temporary file is removed (a replaced file stays as it was). */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // already closed by a stream that failed
    }
    if (this.temporary) rmSync(this.temporary, { force: true });
  }
}

/** Writes `bytes` to `path` by the rule above; returns the number of bytes. */
export function writeOutputFile(path: string, bytes: Uint8Array, options: OutputOptions = {}): number {
  const file = OutputFile.openSync(path, options);
  try {
    file.write(bytes);
  } catch (error) {
    file.discard();
    throw error;
  }
  file.commit();
  return bytes.length;
}

function reasonOf(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code} (${message})` : message;
}

function guard<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof OutputError) throw error;
    throw new OutputError(path, reasonOf(error));
  }
}

/** The temporary file for a replaced output: beside its target, after clearing killed runs' leftovers. */
function prepare(plan: OutputPlan & { kind: 'replace' }, options: OutputOptions): string {
  return guard(plan.path, () => {
    if (options.createDirectories) mkdirSync(dirname(plan.target), { recursive: true });
    removeStaleTemporaries(plan.target);
    return temporaryPath(plan.target, process.pid);
  });
}

function openTemporary(temporary: string, mode: number | undefined): number {
  const fd = openSync(temporary, 'w');
  // The replaced file's permissions are kept: private results stay private.
  if (mode !== undefined) fchmodSync(fd, mode);
  return fd;
}

/** The temporary file a process writes `path` through. */
export function temporaryPath(path: string, pid: number): string {
  return `${path}.${pid}.tmp`;
}

/**
 * Removes the temporary files of earlier writes to `path` whose process no longer exists
 * (killed before its rename). One whose process is alive (a run beside this one, or a reused
 * pid) is left alone.
 */
export function removeStaleTemporaries(path: string): string[] {
  const prefix = `${basename(path)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -'.tmp'.length);
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    const stale = join(dirname(path), name);
    rmSync(stale, { force: true });
    removed.push(stale);
  }
  return removed;
}

/** Whether two paths name the same file (device and inode), for outputs that must differ from each other. */
export function sameFile(a: string, b: string): boolean {
  const x = identity(a);
  const y = identity(b);
  return x !== undefined && y !== undefined ? x.dev === y.dev && x.ino === y.ino : resolve(a) === resolve(b);
}
