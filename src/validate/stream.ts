/**
 * Validation of whole files: CSV (delimiter detected, BOM or not) or NDJSON, or any iterable
 * of records. Results come one per input record, in input order, pulled one at a time, so
 * memory stays flat whatever the input's size. A record that cannot be read gets error 130
 * in its place; nothing is dropped.
 */
import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import type { CpmxClient } from '../client/client.js';
import { foldAccents } from '../core/names.js';
import { FIELDS, VALIDATION_ERRORS, validatorFor, type AddressRecord, type Field, type ValidationResult } from './address.js';

export type InputFormat = 'csv' | 'ndjson';

export interface ValidateStreamOptions {
  /** For text input; detected from the first character when absent (`{` means NDJSON). */
  format?: InputFormat | undefined;
  /** Input column (CSV header or NDJSON key) to read each field from, overriding the names found. */
  columns?: Partial<Record<Field, string>> | undefined;
  /** Called as text is consumed, with the bytes read so far (for progress). */
  onBytes?: ((bytes: number) => void) | undefined;
}

/** A result, with the record's line in the input (its ordinal, for an iterable of records). */
export interface LineResult extends ValidationResult {
  line: number;
}

/** The input cannot be read at all (no header, no postal-code column, ...). */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** Column names recognised for each field, folded as `foldColumn` folds them. */
export const COLUMN_NAMES: Readonly<Record<Field, readonly string[]>> = {
  cp: ['cp', 'codigo_postal', 'd_codigo', 'c_p'],
  asentamiento: ['asentamiento', 'colonia', 'd_asenta'],
  municipio: ['municipio', 'alcaldia', 'delegacion', 'd_mnpio'],
  estado: ['estado', 'd_estado'],
  ciudad: ['ciudad', 'd_ciudad'],
};

/** Folds a column name: case, accents, and runs of spaces, dots, hyphens or underscores. */
export function foldColumn(name: string): string {
  return foldAccents(name)
    .trim()
    .replace(/[\s._-]+/g, '_');
}

/** The field a column feeds, given the overrides; undefined for columns of no interest. */
function columnMatcher(overrides: Partial<Record<Field, string>> = {}): (name: string) => Field | undefined {
  const byName = new Map<string, Field>();
  const overridden = new Set(Object.keys(overrides) as Field[]);
  for (const field of FIELDS) {
    const override = overrides[field];
    if (override !== undefined) byName.set(foldColumn(override), field);
  }
  for (const field of FIELDS) {
    if (overridden.has(field)) continue;
    for (const name of COLUMN_NAMES[field]) if (!byName.has(name)) byName.set(name, field);
  }
  const seen = new Map<string, Field | undefined>();
  return (name) => {
    if (!seen.has(name)) seen.set(name, byName.get(foldColumn(name)));
    return seen.get(name);
  };
}

function unreadable(line: number): LineResult {
  return { line, valid: false, errors: [{ field: null, code_error: 130, error_message: VALIDATION_ERRORS[130] }], suggestions: {} };
}

function withLine(line: number, result: ValidationResult): LineResult {
  return { line, valid: result.valid, errors: result.errors, suggestions: result.suggestions };
}

type TextChunk = string | Uint8Array;

/**
 * Validates a stream: bytes or text of a CSV or NDJSON file (a Readable, or an async iterable
 * of chunks), or an iterable of records. Yields one result per record, in order.
 */
export async function* validateStream(
  client: CpmxClient,
  source: Readable | AsyncIterable<unknown> | Iterable<unknown>,
  options: ValidateStreamOptions = {},
): AsyncGenerator<LineResult> {
  for await (const batch of validateBatches(client, source, options)) yield* batch;
}

/** As `validateStream`, in batches (one per chunk of input): fewer promises per record. */
export async function* validateBatches(
  client: CpmxClient,
  source: Readable | AsyncIterable<unknown> | Iterable<unknown>,
  options: ValidateStreamOptions = {},
): AsyncGenerator<LineResult[]> {
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]()) as
    | AsyncIterator<unknown>
    | Iterator<unknown>;
  const first = await iterator.next();
  if (first.done) return;
  const rest = (async function* () {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (typeof first.value === 'string' || first.value instanceof Uint8Array) {
    yield* validateText(client, rest as AsyncIterable<TextChunk>, options);
  } else {
    for await (const result of validateRecords(client, rest, options)) yield [result];
  }
}

async function* validateRecords(client: CpmxClient, records: AsyncIterable<unknown>, options: ValidateStreamOptions): AsyncGenerator<LineResult> {
  const validator = validatorFor(client);
  const toAddress = recordMapper(options.columns);
  let line = 0;
  for await (const item of records) {
    line++;
    const address = toAddress(item);
    yield address ? withLine(line, validator.validate(address)) : unreadable(line);
  }
}

/** Maps an object's keys to the address fields; undefined when it is not an object. */
function recordMapper(columns?: Partial<Record<Field, string>>): (item: unknown) => AddressRecord | undefined {
  const match = columnMatcher(columns);
  return (item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const address: AddressRecord = { cp: undefined };
    for (const key in item) {
      const field = match(key);
      if (field && address[field] === undefined) address[field] = (item as Record<string, AddressRecord[Field]>)[key];
    }
    return address;
  };
}

/** Decodes chunks as UTF-8 (a BOM is dropped). */
async function* decode(chunks: AsyncIterable<TextChunk> | Iterable<TextChunk>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

function hasNewline(chunk: TextChunk): boolean {
  return typeof chunk === 'string' ? chunk.includes('\n') : chunk.includes(10);
}

async function* validateText(client: CpmxClient, chunks: AsyncIterable<TextChunk>, options: ValidateStreamOptions): AsyncGenerator<LineResult[]> {
  const iterator = chunks[Symbol.asyncIterator]();
  let bytes = 0;
  const count = (chunk: TextChunk) => {
    bytes += chunk.length;
    options.onBytes?.(bytes);
  };
  // Read up to the end of the first line: it decides the format and, for CSV, the delimiter.
  // The chunks themselves go on untouched: csv-parse reads bytes, and decoding them here only
  // for it to encode them again would cost a pass over the file each way.
  const head: TextChunk[] = [];
  let headLength = 0;
  let ended = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
    count(next.value);
    if (hasNewline(next.value) || headLength > 1 << 20) break;
  }
  let headText = '';
  for await (const piece of decode(head)) headText += piece;
  const all = (async function* () {
    yield* head;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      count(next.value);
      yield next.value;
    }
  })();
  const format = options.format ?? (headText.trimStart().startsWith('{') ? 'ndjson' : 'csv');
  if (format === 'ndjson') yield* validateNdjson(client, decode(all), options);
  else yield* validateCsv(client, all, headText, options);
}

async function* validateNdjson(client: CpmxClient, text: AsyncIterable<string>, options: ValidateStreamOptions): AsyncGenerator<LineResult[]> {
  const validator = validatorFor(client);
  const toAddress = recordMapper(options.columns);
  let pending = '';
  let line = 0;
  const one = (raw: string, batch: LineResult[]) => {
    line++;
    if (!raw.trim()) return;
    let item: unknown;
    try {
      item = JSON.parse(raw);
    } catch {
      batch.push(unreadable(line));
      return;
    }
    const address = toAddress(item);
    batch.push(address ? withLine(line, validator.validate(address)) : unreadable(line));
  };
  for await (const piece of text) {
    pending += piece;
    const batch: LineResult[] = [];
    let start = 0;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
      one(pending.slice(start, end), batch);
      start = end + 1;
    }
    pending = pending.slice(start);
    if (batch.length) yield batch;
  }
  if (pending) {
    const batch: LineResult[] = [];
    one(pending, batch);
    if (batch.length) yield batch;
  }
}

/** The delimiter of a header line: the most frequent of `,` `;` `|` and tab (`,` when none). */
export function detectDelimiter(headerLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = headerLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

async function* validateCsv(client: CpmxClient, input: AsyncIterable<TextChunk>, head: string, options: ValidateStreamOptions): AsyncGenerator<LineResult[]> {
  const validator = validatorFor(client);
  const headerLine = head.split('\n', 1)[0]!.replace(/^\uFEFF/, '');
  if (!headerLine.trim()) throw new InputError('the input is empty or its first line is blank: a CSV needs a header line naming its columns');
  // csv-parse is loaded only when a CSV is validated, never by the lookup path.
  const { parse } = await import('csv-parse');
  const parser = parse({
    delimiter: detectDelimiter(headerLine),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    record_delimiter: ['\r\n', '\n'],
    bom: true,
  });
  // Only a quoted field can hold a newline: until the input has shown a quote, no field is
  // searched for one.
  let quotes = false;
  const watched = (async function* () {
    for await (const chunk of input) {
      if (!quotes) quotes = typeof chunk === 'string' ? chunk.includes('"') : chunk.includes(34);
      yield chunk;
    }
  })();
  const feed = Readable.from(watched, { objectMode: false });
  feed.on('error', (error) => parser.destroy(error));
  feed.pipe(parser);
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  parser.on('readable', signal);
  parser.on('end', () => {
    finished = true;
    signal();
  });
  parser.on('error', (error) => {
    failure = error;
    finished = true;
    signal();
  });

  const match = columnMatcher(options.columns);
  let columns: { field: Field; at: number }[] | undefined;
  let width = 0;
  // Where each field is in a row; -1 for a field the file does not have.
  let cpAt = -1;
  let asentamientoAt = -1;
  let municipioAt = -1;
  let estadoAt = -1;
  let ciudadAt = -1;
  /** Start line of the next record: each record takes one line plus the newlines inside it. */
  let line = 1;
  for (;;) {
    const batch: LineResult[] = [];
    for (let record = parser.read() as string[] | null; record !== null; record = parser.read() as string[] | null) {
      const start = line;
      line++;
      if (quotes) for (let i = 0; i < record.length; i++) if (record[i]!.includes('\n')) line += record[i]!.split('\n').length - 1;
      if (record.length === 1 && record[0] === '') continue;
      if (!columns) {
        columns = header(record, match, options.columns);
        width = record.length;
        const at = (field: Field) => columns!.find((column) => column.field === field)?.at ?? -1;
        [cpAt, asentamientoAt, municipioAt, estadoAt, ciudadAt] = [at('cp'), at('asentamiento'), at('municipio'), at('estado'), at('ciudad')];
        continue;
      }
      if (record.length !== width) {
        batch.push(unreadable(start));
        continue;
      }
      const field = (at: number) => (at < 0 ? undefined : record[at]);
      batch.push(withLine(start, validator.validateFields(field(cpAt), field(asentamientoAt), field(municipioAt), field(estadoAt), field(ciudadAt))));
    }
    if (batch.length) yield batch;
    if (finished && parser.readableLength === 0) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (finished || parser.readableLength > 0) signal();
    });
  }
  if (failure) {
    const code = (failure as { code?: string }).code;
    // A quote left open swallows the rest of the file into one record: that record is unreadable.
    if (code === 'CSV_QUOTE_NOT_CLOSED' && columns) yield [unreadable(line)];
    else throw new InputError(`the CSV cannot be read (${(failure as Error).message})`);
  }
}

/** A header as shown in an error: printable, and short even when the input is not a CSV. */
function showHeader(record: string[]): string {
  const text = record.join(', ').replace(/[^\x20-\x7e\u00a0-\u024f]/g, '?');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function header(record: string[], match: (name: string) => Field | undefined, overrides: Partial<Record<Field, string>> = {}): { field: Field; at: number }[] {
  const columns: { field: Field; at: number }[] = [];
  const taken = new Set<Field>();
  record.forEach((name, at) => {
    const field = match(name);
    if (field && !taken.has(field)) {
      taken.add(field);
      columns.push({ field, at });
    }
  });
  for (const [field, name] of Object.entries(overrides) as [Field, string][]) {
    if (!taken.has(field)) throw new InputError(`--column ${field}=${name}: the header has no column "${name}" (it has: ${showHeader(record)})`);
  }
  if (!taken.has('cp')) {
    throw new InputError(`no postal-code column in the header (${showHeader(record)}): name it cp, codigo_postal, "código postal" or d_codigo, or use --column cp=NAME`);
  }
  return columns;
}
