/**
 * Reads the official SEPOMEX catalog (`CPdescarga.txt`, or the `CPdescargatxt.zip` it is
 * published in) as a stream of validated rows.
 *
 * The format has traps (see the data README): Latin-1 with CRLF, a free-text first line,
 * `|` separators with no quoting although names contain `"`, padded and empty fields.
 * Every refusal is a CatalogError naming the file and line.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { parse } from 'csv-parse';
import { Unzip, UnzipInflate } from 'fflate';
import { CatalogError } from './errors.js';

/** The catalog's member name inside the official zip. */
export const CATALOG_MEMBER = 'CPdescarga.txt';

/** One settlement row, trimmed as the contract requires. */
export interface CatalogRow {
  /** 1-based line of the row in the catalog text. */
  line: number;
  postalCode: string;
  settlement: string;
  settlementType: string;
  municipality: string;
  state: string;
  /** `""` when the row has none. */
  city: string;
  stateKey: number;
  municipalityKey: number;
  /** `c_cve_ciudad`, the city's key within its state; undefined when the row has none. */
  cityKey: number | undefined;
}

/** What is known about the source once it has been read to the end. */
export interface CatalogSourceInfo {
  file: string;
  sha256: string;
  bytes: number;
  encoding: 'latin1' | 'utf8';
  notice: string;
  format: 'zip' | 'txt';
}

/** The columns cpmx reads, by their header names (matched ignoring case). */
const COLUMNS = {
  postalCode: 'd_codigo',
  settlement: 'd_asenta',
  settlementType: 'd_tipo_asenta',
  municipality: 'd_mnpio',
  state: 'd_estado',
  city: 'd_ciudad',
  stateKey: 'c_estado',
  municipalityKey: 'c_mnpio',
  cityKey: 'c_cve_ciudad',
} as const;
type Column = keyof typeof COLUMNS;

const TWO_DIGITS = /^\d{1,2}$/;
const THREE_DIGITS = /^\d{1,3}$/;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** Reads a catalog file; iterate `rows()` once, then read `info()`. */
export class CatalogReader {
  readonly file: string;
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;
  private notice = '';
  private encoding: 'latin1' | 'utf8' = 'latin1';
  private readonly format: 'zip' | 'txt';

  constructor(readonly path: string) {
    this.file = basename(path);
    this.format = sniffFormat(path);
  }

  private sha256: string | undefined;

  info(): CatalogSourceInfo {
    this.sha256 ??= this.hash.digest('hex');
    return {
      file: this.file,
      sha256: this.sha256,
      bytes: this.bytes,
      encoding: this.encoding,
      notice: this.notice,
      format: this.format,
    };
  }

  /** The data rows in file order; throws CatalogError on the first bad line. */
  async *rows(): AsyncGenerator<CatalogRow> {
    const where = this.format === 'zip' ? `${this.file} (${CATALOG_MEMBER})` : this.file;
    const raw = createReadStream(this.path);
    raw.on('data', (chunk) => {
      this.hash.update(chunk);
      this.bytes += chunk.length;
    });
    const text = this.format === 'zip' ? extractMember(raw, this.file) : raw;
    const decoder = new CatalogDecoder(where, (encoding) => (this.encoding = encoding));
    const notice = new NoticeSplitter();
    // No quoting (names hold `"`), every line one record: lines are counted here, which is far
    // cheaper than csv-parse's `info`, and rows of the wrong width are refused here by line.
    const parser = parse({ delimiter: '|', quote: false, relax_column_count: true, skip_empty_lines: false });
    for (const stage of [text, decoder, notice]) stage.on('error', (error: Error) => parser.destroy(error));
    text.pipe(decoder).pipe(notice).pipe(parser);

    let header: Record<Column, number> | undefined;
    let fieldCount = 0;
    let line = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (line === 0) line = notice.lines;
        line++;
        if (record.length === 1 && record[0] === '') continue;
        if (!header) {
          header = readHeader(record);
          if (!header) {
            throw new CatalogError(where, `missing header: expected a line starting "d_codigo|d_asenta|", found "${clip(record.join('|'))}"`, line);
          }
          fieldCount = record.length;
          continue;
        }
        if (record.length !== fieldCount) {
          throw new CatalogError(where, `expected ${fieldCount} fields separated by "|", found ${record.length}`, line);
        }
        yield toRow(record, header, line, where);
      }
    } catch (error) {
      throw asCatalogError(error, where);
    }
    this.notice = notice.notice;
    if (line === 0 && !notice.lines) throw new CatalogError(where, 'the file is empty');
    if (!header) throw new CatalogError(where, 'missing header: no line starts "d_codigo|d_asenta|"');
  }
}

/** `zip` when the file starts with a zip local header, else `txt`; never decided by name. */
function sniffFormat(path: string): 'zip' | 'txt' {
  let fd: number;
  try {
    if (statSync(path).isDirectory()) throw new CatalogError(path, 'is a directory, not a catalog file');
    fd = openSync(path, 'r');
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CatalogError(path, code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? String(error)})`);
  }
  try {
    const head = Buffer.alloc(4);
    const read = readSync(fd, head, 0, 4, 0);
    return read === 4 && ZIP_MAGIC.every((byte, i) => head[i] === byte) ? 'zip' : 'txt';
  } finally {
    closeSync(fd);
  }
}

/** Streams the bytes of `CPdescarga.txt` out of the official zip. */
function extractMember(zip: Readable, file: string): Readable {
  const out = new PassThrough();
  let found = false;
  let finished = false;
  const fail = (reason: string) => out.destroy(new CatalogError(file, reason));
  const unzip = new Unzip((member) => {
    if (found || basename(member.name).toLowerCase() !== CATALOG_MEMBER.toLowerCase()) return;
    found = true;
    member.ondata = (error, chunk, final) => {
      if (error) return fail(`${member.name} cannot be inflated (${error.message})`);
      out.write(chunk);
      if (final) {
        finished = true;
        out.end();
      }
    };
    member.start();
  });
  unzip.register(UnzipInflate);
  zip.on('data', (chunk) => {
    try {
      unzip.push(chunk as Buffer);
    } catch (error) {
      fail(`not a readable zip (${(error as Error).message})`);
    }
  });
  zip.on('end', () => {
    try {
      unzip.push(new Uint8Array(0), true);
    } catch (error) {
      return fail(`not a readable zip (${(error as Error).message})`);
    }
    if (!found) fail(`the zip holds no ${CATALOG_MEMBER}`);
    else if (!finished) fail(`${CATALOG_MEMBER} is truncated inside the zip`);
  });
  zip.on('error', (error) => out.destroy(error));
  return out;
}

/**
 * Bytes to text. The official file is Latin-1; a UTF-8 re-save is accepted too. The choice
 * is made on the first line with non-ASCII bytes (the official notice line has some): valid
 * UTF-8 there means UTF-8, anything else Latin-1. A UTF-8 file that later turns invalid is
 * refused rather than read as mojibake.
 */
class CatalogDecoder extends Transform {
  private utf8: TextDecoder | undefined;
  private decided = false;
  private line = 1;

  constructor(
    private readonly where: string,
    private readonly onDecide: (encoding: 'latin1' | 'utf8') => void,
  ) {
    super({ decodeStrings: true, readableObjectMode: false, encoding: 'utf8' });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.decided) {
      const firstHigh = chunk.findIndex((byte) => byte >= 0x80);
      if (firstHigh >= 0) this.decide(chunk.subarray(firstHigh));
    }
    try {
      done(null, this.utf8 ? this.utf8.decode(chunk, { stream: true }) : chunk.toString('latin1'));
    } catch {
      done(new CatalogError(this.where, `not valid UTF-8 at or after this line, although the file began as UTF-8`, this.line));
    }
    this.line += countLines(chunk);
  }

  override _flush(done: TransformCallback): void {
    try {
      done(null, this.utf8 ? this.utf8.decode() : '');
    } catch {
      done(new CatalogError(this.where, 'ends inside a UTF-8 character', this.line));
    }
  }

  /** Decides on the rest of the line holding the first non-ASCII byte. */
  private decide(sample: Buffer): void {
    this.decided = true;
    const lineEnd = sample.indexOf(10);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(lineEnd >= 0 ? sample.subarray(0, lineEnd) : sample, { stream: true });
      this.utf8 = new TextDecoder('utf-8', { fatal: true });
      this.onDecide('utf8');
    } catch {
      this.onDecide('latin1');
    }
  }
}

/**
 * Takes the free-text first line (the terms of use) off the text, unless the file starts with
 * the header itself, so that the parser only ever sees the header and rows of one width.
 */
class NoticeSplitter extends Transform {
  /** The notice line, trimmed; "" when the file has none. */
  notice = '';
  /** Lines taken off: 0 or 1. */
  lines = 0;
  private head: string | undefined = '';

  constructor() {
    super({ decodeStrings: false, encoding: 'utf8' });
  }

  override _transform(chunk: string, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.head === undefined) {
      done(null, chunk);
      return;
    }
    this.head += chunk;
    const end = this.head.indexOf('\n');
    done(null, end < 0 ? undefined : this.split(end));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.head === undefined || this.head === '' ? undefined : this.split(this.head.length));
  }

  private split(end: number): string {
    const head = this.head!;
    this.head = undefined;
    if (/^d_codigo\|/i.test(head)) return head;
    this.notice = head.slice(0, end).trim();
    this.lines = 1;
    return head.slice(end + 1);
  }
}

function countLines(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}

/** Column positions when `record` is the header line, else undefined. */
function readHeader(record: string[]): Record<Column, number> | undefined {
  const names = record.map((field) => field.trim().toLowerCase());
  if (names[0] !== COLUMNS.postalCode) return undefined;
  const positions = {} as Record<Column, number>;
  for (const [column, name] of Object.entries(COLUMNS) as [Column, string][]) {
    const at = names.indexOf(name);
    if (at < 0) return undefined;
    positions[column] = at;
  }
  return positions;
}

function toRow(record: string[], at: Record<Column, number>, line: number, where: string): CatalogRow {
  const field = (column: Column) => record[at[column]]!.trim();
  const postalCode = field('postalCode');
  if (!/^\d{5}$/.test(postalCode)) {
    throw new CatalogError(where, `d_codigo "${clip(postalCode)}" is not a 5-digit postal code`, line);
  }
  const required = (column: Column) => {
    const value = field(column);
    if (!value) throw new CatalogError(where, `${COLUMNS[column]} is empty for postal code ${postalCode}`, line);
    return value;
  };
  const key = (column: Column, pattern: RegExp, digits: number) => {
    const value = field(column);
    if (!pattern.test(value)) {
      throw new CatalogError(where, `${COLUMNS[column]} "${clip(value)}" is not a number of up to ${digits} digits`, line);
    }
    return Number(value);
  };
  return {
    line,
    postalCode,
    settlement: required('settlement'),
    settlementType: required('settlementType'),
    municipality: required('municipality'),
    state: required('state'),
    city: field('city'),
    stateKey: key('stateKey', TWO_DIGITS, 2),
    municipalityKey: key('municipalityKey', THREE_DIGITS, 3),
    cityKey: field('cityKey') === '' ? undefined : key('cityKey', THREE_DIGITS, 3),
  };
}

function asCatalogError(error: unknown, where: string): Error {
  if (error instanceof CatalogError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const line = (error as { lines?: number }).lines;
  return new CatalogError(where, `cannot be read (${code ?? (error as Error).message})`, line);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
