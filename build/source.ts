/**
 * The bytes of a catalog source, read once, front to back, whatever it is: a regular file, a
 * named pipe (FIFO), a pipe such as /dev/stdin or a shell's `<(...)`, or `-` for stdin. Nothing
 * seeks, so pipes read as streams. Every byte read is counted against the size limit and hashed,
 * so the sha256 is always that of the whole input.
 *
 * Opening a FIFO waits for a writer; the wait is bounded, and ended cleanly when it runs out
 * (by opening the FIFO's write end ourselves, which releases the pending open).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { CatalogError } from './errors.js';

export interface SourceOptions {
  /** Bytes read past this are refused. */
  maxBytes: number;
  /** How long to wait for a writer to open a FIFO. */
  openTimeoutMs: number;
  /** Called when a FIFO has no writer yet and the read waits for one. */
  onWaiting?: (path: string) => void;
}

/** The name stdin goes by in messages and in the artifact's header. */
export const STDIN = '-';

/** Long enough for a writer that is starting at the same time; past it, the user is told why nothing happens. */
const QUIET_WAIT_MS = 250;

export class SourceBytes {
  private readonly hash = createHash('sha256');
  private count = 0;
  private digest: string | undefined;

  private constructor(
    /** The path as given, for messages. */
    readonly path: string,
    /** The file's base name (`stdin` for `-`). */
    readonly file: string,
    private readonly stream: Readable,
    /** The modification time of a regular file; undefined for pipes. */
    readonly modified: Date | undefined,
    private readonly maxBytes: number,
  ) {}

  /** Opens `path` for reading, refusing what cannot be a catalog (missing, a directory, too large). */
  static async open(path: string, options: SourceOptions): Promise<SourceBytes> {
    if (path === STDIN) return new SourceBytes(path, 'stdin', process.stdin, undefined, options.maxBytes);
    const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new CatalogError(path, error.code === 'ENOENT' ? 'file not found' : `cannot be read (${error.code ?? error.message})`);
    });
    if (stats.isDirectory()) throw new CatalogError(path, 'is a directory, not a catalog file');
    if (stats.isFile() && stats.size > options.maxBytes) {
      throw new CatalogError(path, `is ${stats.size} bytes, over the limit of ${options.maxBytes} (--max-bytes raises it)`);
    }
    const handle = stats.isFIFO() ? await openFifo(path, options) : await open(path, 'r').catch(cannotRead(path));
    const stream = handle.createReadStream({ highWaterMark: 64 * 1024 });
    return new SourceBytes(path, basename(path), stream, stats.isFile() ? stats.mtime : undefined, options.maxBytes);
  }

  /** The bytes, hashed and counted as they pass; read it once. */
  async *chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of this.stream as AsyncIterable<Buffer>) {
        this.count += chunk.length;
        if (this.count > this.maxBytes) {
          throw new CatalogError(this.path, `is more than ${this.maxBytes} bytes, the limit (--max-bytes raises it)`);
        }
        this.hash.update(chunk);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof CatalogError) throw error;
      throw cannotRead(this.path)(error as NodeJS.ErrnoException);
    } finally {
      // stdin is the process's: left open for others; a file is closed here, read or not.
      if (this.stream !== process.stdin) this.stream.destroy();
    }
    this.digest = this.hash.digest('hex');
  }

  get bytes(): number {
    return this.count;
  }

  /** The hex sha256 of every byte; only once the chunks have been read to the end. */
  get sha256(): string {
    if (this.digest === undefined) throw new Error(`${this.path} has not been read to its end`);
    return this.digest;
  }
}

function cannotRead(path: string) {
  return (error: NodeJS.ErrnoException): never => {
    throw new CatalogError(path, `cannot be read (${error.code ?? error.message})`);
  };
}

/** Opens a FIFO, waiting at most `openTimeoutMs` for a writer. */
async function openFifo(path: string, options: SourceOptions): Promise<FileHandle> {
  const opening = open(path, 'r');
  let timer: NodeJS.Timeout | undefined;
  const waited = (ms: number) => new Promise<'waited'>((resolve) => (timer = setTimeout(resolve, ms, 'waited')));
  try {
    let outcome = await Promise.race([opening, waited(Math.min(QUIET_WAIT_MS, options.openTimeoutMs))]);
    if (outcome === 'waited' && options.openTimeoutMs > QUIET_WAIT_MS) {
      options.onWaiting?.(path);
      outcome = await Promise.race([opening, waited(options.openTimeoutMs - QUIET_WAIT_MS)]);
    }
    if (outcome !== 'waited') return outcome;
  } catch (error) {
    return cannotRead(path)(error as NodeJS.ErrnoException);
  } finally {
    clearTimeout(timer);
  }
  // Our pending open is a reader, so a non-blocking writer can open now; that completes the
  // pending open, whose handle is then closed: no thread stays blocked behind us.
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // The reader side gave up first (ENXIO): nothing is left pending.
  }
  await opening.then((handle) => handle.close()).catch(() => undefined);
  throw new CatalogError(path, `is a FIFO that no process opened for writing within ${seconds(options.openTimeoutMs)}; start the writer first, or pass a file`);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
