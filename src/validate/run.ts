/**
 * The I/O shell of `cpmx validate`: opens the input, writes results (to a temporary file
 * renamed at the end when --output is given), draws progress, prints the summary.
 */
import { createReadStream, createWriteStream, openSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CpmxClient } from '../client/client.js';
import { InputError, validateBatches, type InputFormat, type LineResult } from './stream.js';
import type { Field } from './address.js';

export interface RunValidateOptions {
  input: string;
  output?: string | undefined;
  format?: InputFormat | undefined;
  columns: Partial<Record<Field, string>>;
  client: CpmxClient;
  quiet: boolean;
}

const FLUSH_BYTES = 64 * 1024;

/** One output line; valid records, the common case, skip JSON.stringify. */
function line(result: LineResult): string {
  return result.valid ? `{"line":${result.line},"valid":true,"errors":[],"suggestions":{}}\n` : `${JSON.stringify(result)}\n`;
}

export async function runValidate(options: RunValidateOptions): Promise<number> {
  const started = performance.now();
  let size: number | undefined;
  if (options.input !== '-') {
    try {
      const stats = statSync(options.input);
      if (stats.isDirectory()) throw new InputError(`${options.input} is a directory`);
      size = stats.size;
    } catch (error) {
      if (error instanceof InputError) return fail(error.message);
      return fail(`${options.input}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
    }
  }
  const source = options.input === '-' ? process.stdin : createReadStream(options.input);
  const temporary = options.output ? `${options.output}.${process.pid}.tmp` : undefined;
  let out: WriteStream | NodeJS.WriteStream = process.stdout;
  let writeError: NodeJS.ErrnoException | undefined;
  if (temporary) {
    // Opened here, synchronously, so a bad --output path is reported before any work.
    let fd: number;
    try {
      fd = openSync(temporary, 'w');
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      return fail(`cannot write --output ${options.output}: ${code ?? message}`);
    }
    out = createWriteStream('', { fd });
    out.on('error', (error) => (writeError ??= error));
  }

  const tty = !options.quiet && process.stderr.isTTY === true;
  let bytes = 0;
  let records = 0;
  let valid = 0;
  const invalidByCode = new Map<number, number>();
  let lastDraw = 0;
  const draw = (final = false) => {
    const now = performance.now();
    if (!tty || (!final && now - lastDraw < 150)) return;
    lastDraw = now;
    const share = size ? Math.min(1, bytes / size) : undefined;
    const bar = share === undefined ? '' : `[${'#'.repeat(Math.round(share * 30)).padEnd(30, '.')}] ${(share * 100).toFixed(0).padStart(3)}% `;
    process.stderr.write(`\r${bar}${records.toLocaleString('en-US')} records, ${(records - valid).toLocaleString('en-US')} invalid`);
  };

  let buffer = '';
  const flush = async () => {
    if (writeError) throw writeError;
    if (!buffer) return;
    const chunk = buffer;
    buffer = '';
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), once(out, 'error')]);
    if (writeError) throw writeError;
  };
  try {
    for await (const batch of validateBatches(options.client, source, { format: options.format, columns: options.columns, onBytes: (n) => (bytes = n) })) {
      for (const result of batch) {
        records++;
        if (result.valid) valid++;
        else for (const { code_error } of result.errors) invalidByCode.set(code_error, (invalidByCode.get(code_error) ?? 0) + 1);
        buffer += line(result);
      }
      if (buffer.length >= FLUSH_BYTES) {
        await flush();
        draw();
      }
    }
    await flush();
    if (temporary) {
      await new Promise<void>((resolve, reject) => (out as WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())));
      renameSync(temporary, options.output!);
    }
  } catch (error) {
    if (temporary) {
      (out as WriteStream).destroy();
      rmSync(temporary, { force: true });
    }
    if (tty) process.stderr.write('\n');
    if (error instanceof InputError) return fail(`${options.input === '-' ? 'stdin' : options.input}: ${error.message}`);
    if (writeError && error === writeError) return fail(`cannot write --output ${options.output}: ${writeError.code ?? writeError.message}; nothing was written`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return fail(`${options.input}: cannot be read (${code})`);
    throw error;
  }
  draw(true);
  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const byCode = [...invalidByCode].sort(([a], [b]) => a - b).map(([code, n]) => `${code}: ${n.toLocaleString('en-US')}`).join(', ');
    process.stderr.write(
      `${tty ? '\n' : ''}cpmx validate: ${records.toLocaleString('en-US')} record${records === 1 ? '' : 's'}, ${valid.toLocaleString('en-US')} valid, ` +
        `${(records - valid).toLocaleString('en-US')} invalid${byCode ? ` (${byCode})` : ''}; ` +
        `${seconds.toFixed(2)} s, ${Math.round(records / Math.max(seconds, 1e-9)).toLocaleString('en-US')} records/s\n`,
    );
  }
  return records === valid ? 0 : 1;
}

function fail(message: string): number {
  process.stderr.write(`cpmx validate: ${message}\n`);
  return 2;
}
