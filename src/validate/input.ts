/**
 * Opens a text input for validation: its encoding (given, from a byte-order mark, or from its
 * first non-ASCII line), its format (NDJSON when it starts with `{`), for a CSV its header
 * (delimiter, columns), and the ranges of whole records that follow (ranges.ts).
 */
import { isAscii } from 'node:buffer';
import { COLUMN_SLOTS, columnMatcher, type ColumnOverrides, type Field } from './fields.js';
import { bomOf, decodeCarried, sniffEncoding, utf16ToUtf8, type CarriedEncoding, type Encoding } from './encoding.js';
import { InputError } from './errors.js';
import type { JudgePlan } from './judge.js';
import { cutRecords, type Piece } from './ranges.js';
import type { ParseCsv } from './read.js';

export type InputFormat = 'csv' | 'ndjson';

export interface InputOptions {
  /** Detected from the first character when absent (`{` means NDJSON). */
  format?: InputFormat | undefined;
  /** Detected from a byte-order mark or the bytes when absent. */
  encoding?: Encoding | undefined;
  /** Input column (CSV header or NDJSON key) to read each field from, overriding the names found. */
  columns?: ColumnOverrides | undefined;
  /** A record longer than this gets 130 (default 65,536 bytes). */
  maxRecordBytes?: number | undefined;
  /** A range for one worker holds about this many bytes. */
  rangeBytes?: number | undefined;
}

export const DEFAULT_MAX_RECORD_BYTES = 65_536;
const RANGE_BYTES = 64 * 1024;

/** What the input decides of how records are read and judged. */
export type InputPlan = Omit<JudgePlan, 'results' | 'invalidOnly' | 'fix' | 'canonical'>;

export interface OpenedInput {
  format: InputFormat;
  encoding: Encoding;
  /** Whether the input started with a byte-order mark. */
  bom: boolean;
  /** CSV: the header line as written, and its line end. */
  header: { text: string; lineEnd: string; names: string[] } | undefined;
  plan: InputPlan;
  /** The rest of the input, as ranges of whole records (and records too long to keep). */
  pieces: AsyncIterable<Piece>;
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

/** A header as shown in an error: printable, and short even when the input is not a CSV. */
function showHeader(names: string[]): string {
  const text = names.join(', ').replace(/[^\x20-\x7e\u00a0-\u024f]/g, '?');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The column of each field in a header, in the judge's order; refuses a header without a code column. */
function headerColumns(names: string[], overrides: ColumnOverrides = {}): JudgePlan['columns'] {
  const match = columnMatcher(overrides);
  const at = new Map<Field, number>();
  names.forEach((name, i) => {
    const field = match(name);
    if (field && !at.has(field)) at.set(field, i);
  });
  for (const [field, name] of Object.entries(overrides) as [Field, string][]) {
    if (!at.has(field)) throw new InputError(`--column ${field}=${name}: the header has no column "${name}" (it has: ${showHeader(names)})`);
  }
  if (!at.has('cp')) {
    throw new InputError(`no postal-code column in the header (${showHeader(names)}): name it cp, "C.P.", codigo_postal, "código postal", d_codigo or zip, or use --column cp=NAME`);
  }
  const column = (field: Field) => at.get(field) ?? -1;
  return COLUMN_SLOTS.map(column) as JudgePlan['columns'];
}

/**
 * Checks the header of a CSV whose first line is ASCII (so reads the same in any encoding)
 * as soon as the line is whole; false while it is not.
 */
function checkAsciiHeader(head: Buffer, options: InputOptions, parse: ParseCsv): boolean {
  const lf = head.indexOf(LF);
  const cr = head.indexOf(CR);
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  if (end < 0) return false;
  const line = head.subarray(0, end);
  const text = line.toString('latin1');
  if (options.format === 'ndjson' || !isAscii(line) || !text.trim() || text.trimStart().startsWith('{')) return true;
  const delimiter = detectDelimiter(text);
  let names: string[];
  try {
    names = parse(text, { delimiter, relax_quotes: true, relax_column_count: true })[0] ?? [];
  } catch {
    return true; // refused, with its reason, once the whole header is read
  }
  headerColumns(names, options.columns);
  return true;
}

function hintFor(given: boolean, encoding: Encoding): string {
  if (given) return '';
  if (encoding === 'utf-8') return ': its start was read as UTF-8; if the file is Windows-1252 (Latin-1), give the encoding: --encoding windows-1252';
  return '';
}

const LF = 10;
const CR = 13;

/** Opens a text input; throws InputError (or EncodingError) when it cannot be read at all. */
export async function openInput(chunks: AsyncIterable<Uint8Array>, options: InputOptions, parse: ParseCsv): Promise<OpenedInput> {
  const raw = chunks[Symbol.asyncIterator]();
  try {
    return await open(raw, options, parse);
  } catch (error) {
    // Refused: the input is let go at once (stdin from a pipe that stays open must not hold the process).
    await raw.return?.();
    throw error;
  }
}

async function open(raw: AsyncIterator<Uint8Array>, options: InputOptions, parse: ParseCsv): Promise<OpenedInput> {
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  let head: Buffer = Buffer.alloc(0);
  let ended = false;
  const more = async () => {
    const next = await raw.next();
    if (next.done) ended = true;
    else head = Buffer.concat([head, next.value]);
  };
  while (!ended && head.length < 3) await more();
  const marked = bomOf(head);
  let encoding = options.encoding;
  const bom = marked !== undefined && (encoding === undefined || encoding === marked);
  if (encoding === undefined) {
    encoding = marked;
    let headerSeen = false;
    while (encoding === undefined) {
      // An ASCII start can take up to SNIFF_BYTES to tell its encoding: its header is checked
      // first, so a wrong file is refused at once, even from a pipe that stays open.
      if (!headerSeen) headerSeen = checkAsciiHeader(head, options, parse);
      encoding = sniffEncoding(head, ended);
      if (encoding === undefined) await more();
    }
  }
  const hint = hintFor(options.encoding !== undefined, encoding);
  const start = bom ? head.subarray(marked === 'utf-8' ? 3 : 2) : head;
  const rest = (async function* () {
    try {
      if (start.length) yield start;
      for (let next = await raw.next(); !next.done; next = await raw.next()) yield next.value;
    } finally {
      // Left early (an error, a consumer that stops): the input is let go (a stream is destroyed).
      await raw.return?.();
    }
  })();
  const carried: CarriedEncoding = encoding === 'windows-1252' ? 'windows-1252' : 'utf-8';
  const stream = encoding === 'utf-16le' || encoding === 'utf-16be' ? utf16ToUtf8(rest, encoding, () => hint) : rest;

  // Up to the end of the first line (a CR is judged with the byte after it).
  const source = stream[Symbol.asyncIterator]();
  let first: Buffer = Buffer.alloc(0);
  let done = false;
  let lineEndAt = -1;
  const blank = () => /^\s*$/.test(first.toString('latin1'));
  for (;;) {
    const lf = first.indexOf(LF);
    const cr = first.indexOf(CR);
    lineEndAt = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    const lineDone = lineEndAt >= 0 && (lineEndAt < first.length - 1 || first[lineEndAt] === LF);
    // Blank lines first: read on to the first character (it tells NDJSON from CSV), or the end.
    if (done || (lineDone && !(blank() && first.length <= maxRecordBytes))) break;
    if (lineEndAt < 0 && first.length > maxRecordBytes) throw new InputError(`the first line is longer than ${maxRecordBytes} bytes: no CSV header or NDJSON record is that long`);
    const next = await source.next();
    if (next.done) done = true;
    else first = Buffer.concat([first, next.value]);
  }
  if (done && blank()) throw new InputError(first.length ? 'the input holds only blank lines' : 'the input is empty');
  async function* remaining(from: Buffer): AsyncGenerator<Uint8Array> {
    try {
      if (from.length) yield new Uint8Array(from);
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } finally {
      await source.return?.(undefined);
    }
  }

  const firstByte = first.find((byte) => byte !== 0x20 && byte !== 0x09 && byte !== LF && byte !== CR);
  const format = options.format ?? (firstByte === 0x7b ? 'ndjson' : 'csv');
  const base = { maxRecordBytes, utf8: carried === 'utf-8', carried, overrides: options.columns ?? {}, encodingHint: hint };
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  if (format === 'ndjson') {
    return {
      format,
      encoding,
      bom,
      header: undefined,
      plan: { ...base, format, delimiter: ',', width: 0, columns: [-1, -1, -1, -1, -1] },
      pieces: cutRecords(remaining(first), { delimiter: undefined, maxRecordBytes, rangeBytes, line: 1 }),
    };
  }
  const end = lineEndAt < 0 ? first.length : lineEndAt;
  const next = lineEndAt < 0 ? end : first[end] === CR && first[end + 1] === LF ? end + 2 : end + 1;
  const text = decodeCarried(first.subarray(0, end), carried, 1, () => hint);
  if (!text.trim()) throw new InputError('the first line is blank: a CSV needs a header line naming its columns');
  const delimiter = detectDelimiter(text);
  let names: string[];
  try {
    names = parse(text, { delimiter, relax_quotes: true, relax_column_count: true })[0] ?? [];
  } catch (error) {
    throw new InputError(`the header line cannot be read (${(error as Error).message})`);
  }
  const columns = headerColumns(names, options.columns);
  return {
    format,
    encoding,
    bom,
    header: { text, lineEnd: first.subarray(end, next).toString('latin1'), names },
    plan: { ...base, format, delimiter, width: names.length, columns },
    pieces: cutRecords(remaining(first.subarray(next)), { delimiter: delimiter.charCodeAt(0), maxRecordBytes, rangeBytes, line: 2 }),
  };
}
