/**
 * Where `validate` and `parse` read their input from: stdin, or a file named.
 *
 * A regular file is read into one buffer, reused for every chunk. A stream gives a new buffer
 * for each read, and the memory of those read past is freed only when the collector gets round
 * to it, which on a loaded machine may be after the whole file: a 64 MB line that is skipped
 * unread (longer than any record) once took the process to 162 MB, where reading it so keeps it
 * at the memory of one chunk. A chunk is therefore valid only until the next one is asked for:
 * whatever reads chunks copies what it keeps (the record cutter, the sniffing of the encoding
 * and of the first line, the UTF-16 decoder's carried bytes).
 *
 * Pipes, devices and stdin are read as streams (a read of a pipe may wait: a stream can be
 * ended while it does).
 */
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';

export interface InputSource extends AsyncIterable<Uint8Array> {
  /** Ends the reading and lets the input go; with an error, the next read fails with it. */
  destroy(error?: Error): unknown;
}

export function inputSource(input: string, chunkBytes: number): InputSource {
  if (input === '-') return process.stdin;
  let regular = false;
  try {
    regular = statSync(input).isFile();
  } catch {
    // Not there (any more): the stream fails as the caller expects (ENOENT, EACCES).
  }
  return regular ? reusedBufferReader(input, chunkBytes) : createReadStream(input, { highWaterMark: chunkBytes });
}

function reusedBufferReader(path: string, chunkBytes: number): InputSource {
  let stopped: { error?: Error } | undefined;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafeSlow(chunkBytes);
      for (;;) {
        if (stopped?.error) throw stopped.error;
        if (stopped) return;
        const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }
  const reading = chunks();
  return {
    [Symbol.asyncIterator]: () => reading,
    destroy(error?: Error) {
      stopped ??= error ? { error } : {};
      // Without an error the file is let go at once (or after a read under way); with one,
      // the next read fails with it, as a destroyed stream's does.
      if (!error) reading.return(undefined).catch(() => undefined);
    },
  };
}
