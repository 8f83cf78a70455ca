/**
 * Where `validate` and `parse` read their input from: stdin, or a file named.
 *
 * A regular file is read into two buffers, reused in turn for every chunk. A stream gives a
 * new buffer for each read, and the memory of those read past is freed only when the collector
 * gets round to it, which on a loaded machine may be after the whole file: a 64 MB line that is
 * skipped unread (longer than any record) once took the process to 162 MB, where reading it so
 * keeps it at the memory of two chunks. A chunk is therefore valid only until the next one is asked for:
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
    // Two buffers in turn: the next chunk is read into one while the caller uses the other. A
    // read waited for alone took far longer than reading (0.6 s of a 1,000,000-record run,
    // 765 reads from the page cache, measured; reading them in a loop takes 0.07 s): the
    // thread that reads has to be woken, and this one sat idle meanwhile.
    let filling = Buffer.allocUnsafeSlow(chunkBytes);
    let spare = Buffer.allocUnsafeSlow(chunkBytes);
    let reading = handle.read(filling, 0, chunkBytes, null);
    try {
      for (;;) {
        if (stopped?.error) throw stopped.error;
        if (stopped) return;
        const { bytesRead } = await reading;
        if (bytesRead === 0) return;
        const chunk = filling.subarray(0, bytesRead);
        // The spare buffer held the chunk given before this one, which its caller let go by asking for this one.
        [filling, spare] = [spare, filling];
        reading = handle.read(filling, 0, chunkBytes, null);
        yield chunk;
      }
    } finally {
      // A read still under way is let end before the file is closed under it.
      await reading.catch(() => undefined);
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
