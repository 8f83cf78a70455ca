/**
 * Validation of whole inputs in the library: CSV or NDJSON bytes (a Readable or any async
 * iterable of chunks, in any encoding cpmx validate reads), or an iterable of records.
 * Results come one per input record, in input order, pulled as the input is read, so memory
 * stays bounded whatever the input's size. A record that cannot be read gets error 130 with
 * its reason in its place; nothing is dropped. The command reads and judges with the same code.
 */
import type { CpmxClient } from '../client/client.js';
import { unreadable, validatorFor } from './address.js';
import type { Encoding } from './encoding.js';
import { recordMapper, type ColumnOverrides } from './fields.js';
import { openInput, type InputFormat } from './input.js';
import { createJudge, type LineResult } from './judge.js';
import type { ParseCsv } from './read.js';

export type { InputFormat } from './input.js';
export type { LineResult } from './judge.js';

export interface ValidateStreamOptions {
  /** For text input; detected from the first character when absent (`{` means NDJSON). */
  format?: InputFormat | undefined;
  /** For text input: detected from a byte-order mark or the bytes when absent. */
  encoding?: Encoding | undefined;
  /** Input column (CSV header or NDJSON key) to read each field from, overriding the names found. */
  columns?: ColumnOverrides | undefined;
  /** A record longer than this many bytes gets 130 (default 65,536). */
  maxRecordBytes?: number | undefined;
  /** Called as text is consumed, with the bytes read so far (for progress). */
  onBytes?: ((bytes: number) => void) | undefined;
}

/** A Node Readable is an async iterable of chunks: named so, the types need nothing of Node's. */
type Source = AsyncIterable<unknown> | Iterable<unknown>;

/**
 * Validates a stream: bytes or text of a CSV or NDJSON file (a Readable, or an async iterable
 * of chunks), or an iterable of records. Yields one result per record, in order.
 */
export async function* validateStream(client: CpmxClient, source: Source, options: ValidateStreamOptions = {}): AsyncGenerator<LineResult> {
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]()) as
    | AsyncIterator<unknown>
    | Iterator<unknown>;
  const first = await iterator.next();
  if (first.done) return;
  const rest = (async function* () {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (typeof first.value === 'string' || first.value instanceof Uint8Array) yield* validateText(client, rest as AsyncIterable<string | Uint8Array>, options);
  else yield* validateRecords(client, rest, options);
}

async function* validateRecords(client: CpmxClient, records: AsyncIterable<unknown>, options: ValidateStreamOptions): AsyncGenerator<LineResult> {
  const validator = validatorFor(client);
  const toValues = recordMapper(options.columns);
  let line = 0;
  for await (const item of records) {
    line++;
    const values = toValues(item);
    yield { line, ...(values ? validator.validateValues(values) : unreadable('not an object')) };
  }
}

async function* validateText(client: CpmxClient, chunks: AsyncIterable<string | Uint8Array>, options: ValidateStreamOptions): AsyncGenerator<LineResult> {
  let bytes = 0;
  const asBytes = (async function* () {
    for await (const chunk of chunks) {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      bytes += piece.length;
      options.onBytes?.(bytes);
      yield piece;
    }
  })();
  const { parse } = await import('csv-parse/sync');
  const input = await openInput(asBytes, { format: options.format, encoding: options.encoding, columns: options.columns, maxRecordBytes: options.maxRecordBytes }, parse as ParseCsv);
  const judge = await createJudge(validatorFor(client), { ...input.plan, results: 'objects', invalidOnly: false, fix: null, canonical: false });
  for await (const piece of input.pieces) {
    const outcome = piece.kind === 'range' ? judge.judge(piece.bytes, piece.line) : judge.overlong(piece.line);
    yield* outcome.objects;
  }
}
