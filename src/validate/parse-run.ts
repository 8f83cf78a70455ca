/**
 * The I/O shell of `cpmx parse` (and `cpmx validate --address-column`): one-line addresses,
 * one a line or one a record in a CSV column, read in order and written as NDJSON, one result
 * per input line (per record for a CSV). Memory is bounded by bytes: records are cut into
 * ranges as validation cuts them, and a line too long to keep is reported, not kept.
 */
import { createReadStream, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CpmxClient } from '../client/client.js';
import { bomOf, decodeCarried, decodeWindows1252, sniffEncoding, utf16ToUtf8, type Encoding } from './encoding.js';
import { InputError } from './errors.js';
import { DEFAULT_MAX_RECORD_BYTES, openInput } from './input.js';
import { parseAddress, unreadableAddress, type ParsedAddress } from './parse.js';
import { cutRecords, type Piece } from './ranges.js';
import { readCsv, tooLong, type ParseCsv, type RecordVisitor } from './read.js';

export interface RunParseOptions {
  /** A path, or `-` for stdin. */
  input: string;
  /** The CSV column holding the addresses; absent: one address a line. */
  column?: string | undefined;
  encoding?: Encoding | undefined;
  client: CpmxClient;
  /** `parse`: every part read; `validate`: validate's results (`line`, `valid`, `errors`, `suggestions`). */
  results: 'parse' | 'validate';
  /** The command, for messages. */
  command: string;
  quiet: boolean;
  /** Where results go (stdout by default). */
  out?: Writable | undefined;
}

const RANGE_BYTES = 64 * 1024;

/** One result line. */
function resultLine(line: number, parsed: ParsedAddress, shape: RunParseOptions['results']): string {
  if (shape === 'validate') return `${JSON.stringify({ line, valid: parsed.valid, errors: parsed.errors, suggestions: parsed.suggestions })}\n`;
  return `${JSON.stringify({ line, ...parsed })}\n`;
}

/** Results of a run, counted for the summary and the exit status. */
class Tally {
  lines = 0;
  valid = 0;
  text = '';

  constructor(private readonly shape: RunParseOptions['results']) {}

  add(line: number, parsed: ParsedAddress): void {
    this.lines++;
    if (parsed.valid) this.valid++;
    this.text += resultLine(line, parsed, this.shape);
  }

  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

/** The byte chunks of a plain-text input, as UTF-8 or Windows-1252 (a BOM's UTF-16 converted). */
async function plainText(chunks: AsyncIterable<Uint8Array>, given: Encoding | undefined): Promise<{ chunks: AsyncIterable<Uint8Array>; latin1: boolean }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  const marked = bomOf(head);
  let encoding = given ?? marked;
  if (encoding === undefined) {
    try {
      encoding = sniffEncoding(head, true) ?? 'utf-8';
    } catch {
      encoding = 'utf-8'; // NUL bytes: binary, answered line by line
    }
  }
  const skip = marked && (given === undefined || given === marked) ? (marked === 'utf-8' ? 3 : 2) : 0;
  const rest = (async function* () {
    if (head.length > skip) yield head.subarray(skip);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return { chunks: utf16ToUtf8(rest, encoding, () => ''), latin1: false };
  return { chunks: rest, latin1: encoding === 'windows-1252' };
}

/** Each line of a range of whole lines, with its number; the line end after the last line is no line. */
function* linesOf(bytes: Uint8Array, firstLine: number): Generator<[number, Uint8Array]> {
  let line = firstLine;
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte !== 10 && byte !== 13) continue;
    yield [line++, bytes.subarray(start, i)];
    if (byte === 13 && bytes[i + 1] === 10) i++;
    start = i + 1;
  }
  if (start < bytes.length) yield [line, bytes.subarray(start)];
}

/** A line's text; U+FFFD where its bytes are not UTF-8 (so it reads as binary, for that line only). */
function lineText(bytes: Uint8Array, latin1: boolean): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (latin1) return decodeWindows1252(buffer);
  return isUtf8(buffer) ? buffer.toString('utf8') : '\ufffd';
}

async function put(out: Writable, text: string): Promise<void> {
  if (text && !out.write(text)) await once(out, 'drain');
}

export async function runParse(options: RunParseOptions): Promise<number> {
  const started = performance.now();
  const out = options.out ?? process.stdout;
  const fail = (message: string) => {
    process.stderr.write(`cpmx ${options.command}: ${message}\n`);
    return 2;
  };
  if (options.input !== '-') {
    try {
      if (statSync(options.input).isDirectory()) return fail(`${options.input} is a directory`);
    } catch (error) {
      return fail(`${options.input}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
    }
  }
  const source = options.input === '-' ? process.stdin : createReadStream(options.input, { highWaterMark: RANGE_BYTES });
  const tally = new Tally(options.results);
  const { client } = options;
  try {
    if (options.column === undefined) {
      const text = await plainText(source, options.encoding);
      const pieces: AsyncIterable<Piece> = cutRecords(text.chunks, { delimiter: undefined, maxRecordBytes: DEFAULT_MAX_RECORD_BYTES, rangeBytes: RANGE_BYTES, line: 1 });
      for await (const piece of pieces) {
        if (piece.kind === 'overlong') tally.add(piece.line, unreadableAddress(`line longer than ${DEFAULT_MAX_RECORD_BYTES} bytes: not an address`));
        else for (const [line, bytes] of linesOf(piece.bytes, piece.line)) tally.add(line, parseAddress(client, lineText(bytes, text.latin1)));
        await put(out, tally.take());
      }
    } else {
      const { parse } = await import('csv-parse/sync');
      const input = await openInput(source, { format: 'csv', encoding: options.encoding, columns: { cp: options.column } }, parse as ParseCsv);
      const plan = input.plan;
      const visitor: RecordVisitor = {
        csv: (line, values) => tally.add(line, parseAddress(client, values[0] ?? '')),
        json: () => undefined,
        unreadable: (line, reason) => tally.add(line, unreadableAddress(reason)),
        blank: () => undefined,
      };
      for await (const piece of input.pieces) {
        if (piece.kind === 'overlong') visitor.unreadable(piece.line, tooLong(plan.maxRecordBytes), 0, 0, 0);
        else readCsv(decodeCarried(piece.bytes, plan.carried, piece.line, () => plan.encodingHint), piece.line, plan, parse as ParseCsv, visitor);
        await put(out, tally.take());
      }
    }
  } catch (error) {
    if (error instanceof InputError) return fail(`${options.input === '-' ? 'stdin' : options.input}: ${error.message.replace(/^--column cp=/, '--column ')}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return fail(`${options.input}: cannot be read (${code})`);
    throw error;
  } finally {
    source.destroy();
  }
  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const what = options.column === undefined ? 'line' : 'record';
    process.stderr.write(
      `cpmx ${options.command}: ${tally.lines.toLocaleString('en-US')} ${what}${tally.lines === 1 ? '' : 's'}, ${tally.valid.toLocaleString('en-US')} valid, ` +
        `${(tally.lines - tally.valid).toLocaleString('en-US')} invalid; ${seconds.toFixed(2)} s, ${Math.round(tally.lines / Math.max(seconds, 1e-9)).toLocaleString('en-US')} addresses/s\n`,
    );
  }
  return tally.lines === tally.valid ? 0 : 1;
}
