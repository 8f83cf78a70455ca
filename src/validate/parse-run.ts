/**
 * The I/O shell of `cpmx parse` (and `cpmx validate --address-column`): one-line addresses,
 * one a line or one a record in a CSV column (named, or found by name in a file's header),
 * read in order and written as NDJSON or CSV, one result per input line (per record for a
 * CSV), an id column passed through. Memory is bounded by bytes: records are cut into ranges
 * as validation cuts them, and a line too long to keep is reported, not kept. `--output` is
 * written whole or not at all (src/output-file.ts).
 */
import { statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CpmxClient } from '../client/client.js';
import { OutputError, OutputFile } from '../output-file.js';
import { bomOf, decodeCarried, decodeWindows1252, sniffEncoding, utf16ToUtf8, type Encoding } from './encoding.js';
import { InputError } from './errors.js';
import { DEFAULT_MAX_RECORD_BYTES, openInput } from './input.js';
import { inputSource } from './input-source.js';
import { ADDRESS_PARTS, parseAddress, unreadableAddress, type ParsedAddress } from './parse.js';
import { addressColumnOf } from './parse-columns.js';
import { csvField } from './judge.js';
import { resultFields } from './result.js';
import { cutRecords, type Piece } from './ranges.js';
import { readCsv, tooLong, type ParseCsv, type RecordVisitor } from './read.js';

export interface RunParseOptions {
  /** A path, or `-` for stdin. */
  input: string;
  /** The CSV column holding the addresses; absent: found by name in a file's header, else one address a line. */
  column?: string | undefined;
  /** A CSV column whose value each result carries as `id`. */
  idColumn?: string | undefined;
  /** Results as NDJSON lines (default) or CSV rows. */
  format?: 'ndjson' | 'csv' | undefined;
  /** Where results go: a file written whole or not at all (stdout when absent). */
  output?: string | undefined;
  encoding?: Encoding | undefined;
  client: CpmxClient;
  /** `parse`: every part read; `validate`: validate's results (`line`, `valid`, `errors`, `suggestions`). */
  results: 'parse' | 'validate';
  /** The command, for messages. */
  command: string;
  quiet: boolean;
  /** Where results go when there is no `output` (stdout by default). */
  out?: Writable | undefined;
}

const RANGE_BYTES = 64 * 1024;

/** The CSV results' header: the line, the id when passed through, the parts, the judgement. */
function csvHeader(shape: RunParseOptions['results'], id: boolean): string {
  const parts = shape === 'parse' ? ADDRESS_PARTS.join(',') : '';
  return `line${id ? ',id' : ''}${parts ? `,${parts}` : ''},valid,errors,reason,suggested_cp,codes\n`;
}

/** One result line, NDJSON or CSV. */
function resultLine(line: number, id: string | undefined, parsed: ParsedAddress, shape: RunParseOptions['results'], format: 'ndjson' | 'csv'): string {
  if (format === 'csv') {
    const parts = shape === 'parse' ? ADDRESS_PARTS.map((part) => `,${csvField(parsed[part] ?? '')}`).join('') : '';
    const reason = parsed.errors.find((error) => error.reason !== undefined)?.reason ?? '';
    const judged = `${parsed.valid},${parsed.errors.map((error) => error.code_error).join(' ')},${csvField(reason)},${parsed.suggestions.cp ?? ''},${(parsed.codes ?? []).join(' ')}`;
    return `${line}${id === undefined ? '' : `,${csvField(id)}`}${parts},${judged}\n`;
  }
  const head = id === undefined ? { line } : { line, id };
  if (shape === 'validate') return `${JSON.stringify({ ...head, ...resultFields(parsed) })}\n`;
  return `${JSON.stringify({ ...head, ...parsed })}\n`;
}

/** Results of a run, counted for the summary and the exit status. */
class Tally {
  lines = 0;
  valid = 0;
  text = '';

  constructor(
    private readonly shape: RunParseOptions['results'],
    private readonly format: 'ndjson' | 'csv',
  ) {}

  add(line: number, parsed: ParsedAddress, id?: string): void {
    this.lines++;
    if (parsed.valid) this.valid++;
    this.text += resultLine(line, id, parsed, this.shape, this.format);
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

/** Where results go: stdout (or the stream given), or a file written whole at the end. */
interface ResultSink {
  put(text: string): Promise<void>;
  commit(): void;
  discard(): void;
}

async function sinkOf(options: RunParseOptions): Promise<ResultSink> {
  if (options.output === undefined) {
    const out = options.out ?? process.stdout;
    return { put: (text) => put(out, text), commit: () => undefined, discard: () => undefined };
  }
  const file = await OutputFile.open(options.output, { inputs: [options.input === '-' ? 0 : options.input] });
  return {
    put: async (text) => {
      if (text) file.write(Buffer.from(text));
    },
    commit: () => file.commit(),
    discard: () => file.discard(),
  };
}

export async function runParse(options: RunParseOptions): Promise<number> {
  const started = performance.now();
  const name = options.input === '-' ? 'stdin' : options.input;
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
  const { parse } = await import('csv-parse/sync');
  let column = options.column;
  try {
    // A file given without --column: a CSV when its name or its header says so, its address column found by name.
    if (column === undefined && options.input !== '-') column = addressColumnOf(options.input, parse as ParseCsv);
  } catch (error) {
    if (error instanceof InputError) return fail(`${name}: ${error.message}`);
    throw error;
  }
  if (options.idColumn !== undefined && column === undefined) return fail('--id-column needs a CSV input: a header, and the addresses in a column (--column NAME)');
  if (options.idColumn !== undefined && options.idColumn === column) return fail(`--id-column and the address column are both "${column}"`);
  let sink: ResultSink;
  try {
    sink = await sinkOf(options);
  } catch (error) {
    if (error instanceof OutputError) return fail(`cannot write --output ${error.path}: ${error.reason}`);
    throw error;
  }
  const format = options.format ?? 'ndjson';
  const source = inputSource(options.input, RANGE_BYTES);
  const tally = new Tally(options.results, format);
  const { client } = options;
  try {
    if (format === 'csv') await sink.put(csvHeader(options.results, options.idColumn !== undefined));
    if (column === undefined) {
      const text = await plainText(source, options.encoding);
      const pieces: AsyncIterable<Piece> = cutRecords(text.chunks, { delimiter: undefined, maxRecordBytes: DEFAULT_MAX_RECORD_BYTES, rangeBytes: RANGE_BYTES, line: 1 });
      for await (const piece of pieces) {
        if (piece.kind === 'overlong') tally.add(piece.line, unreadableAddress(`line longer than ${DEFAULT_MAX_RECORD_BYTES} bytes: not an address`));
        else for (const [line, bytes] of linesOf(piece.bytes, piece.line)) tally.add(line, parseAddress(client, lineText(bytes, text.latin1)));
        await sink.put(tally.take());
      }
    } else {
      // The address column read as the code's slot, the id column (if any) as the settlement's: only their values are used.
      const columns = options.idColumn === undefined ? { cp: column } : { cp: column, asentamiento: options.idColumn };
      const input = await openInput(source, { format: 'csv', encoding: options.encoding, columns }, parse as ParseCsv);
      const plan = input.plan;
      const withId = options.idColumn !== undefined;
      const visitor: RecordVisitor = {
        csv: (line, values) => tally.add(line, parseAddress(client, values[0] ?? ''), withId ? (values[1] ?? '') : undefined),
        json: () => undefined,
        unreadable: (line, reason) => tally.add(line, unreadableAddress(reason), withId ? '' : undefined),
        blank: () => undefined,
      };
      for await (const piece of input.pieces) {
        if (piece.kind === 'overlong') visitor.unreadable(piece.line, tooLong(plan.maxRecordBytes), 0, 0, 0);
        else readCsv(decodeCarried(piece.bytes, plan.carried, piece.line, () => plan.encodingHint), piece.line, plan, parse as ParseCsv, visitor);
        await sink.put(tally.take());
      }
    }
    sink.commit();
  } catch (error) {
    sink.discard();
    if (error instanceof OutputError) return fail(`cannot write --output ${error.path}: ${error.reason}; nothing was written`);
    if (error instanceof InputError) {
      const message = error.message.replace(/^--column cp=/, '--column ').replace(/^--column asentamiento=/, '--id-column ');
      return fail(`${name}: ${message}`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return fail(`${options.input}: cannot be read (${code})`);
    throw error;
  } finally {
    source.destroy();
  }
  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const what = column === undefined ? 'line' : 'record';
    process.stderr.write(
      `cpmx ${options.command}: ${tally.lines.toLocaleString('en-US')} ${what}${tally.lines === 1 ? '' : 's'}, ${tally.valid.toLocaleString('en-US')} valid, ` +
        `${(tally.lines - tally.valid).toLocaleString('en-US')} invalid; ${seconds.toFixed(2)} s, ${Math.round(tally.lines / Math.max(seconds, 1e-9)).toLocaleString('en-US')} addresses/s\n`,
    );
  }
  return tally.lines === tally.valid ? 0 : 1;
}
