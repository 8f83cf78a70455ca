/**
 * Reads the official SEPOMEX catalog (`CPdescarga.txt`, or the `CPdescargatxt.zip` it is
 * published in) as a stream of validated rows.
 *
 * The format has traps (see the data README): Latin-1 with CRLF, a free-text first line,
 * `|` separators with no quoting although names contain `"`, padded and empty fields, and
 * columns whose order changes between downloads (they are found by header name). Every
 * refusal is a CatalogError naming the file and, where there is one, the line.
 *
 * What is read is verified before it is trusted: the whole input is hashed, its size is
 * bounded, a zip's catalog member is the only one of its name and passes its CRC-32 check
 * before a single row is taken from it, and no line may exceed the line limit.
 */
import { CatalogError } from './errors.js';
import { DEFAULT_LIMITS, type ReadLimits } from './limits.js';
import { LineSplitter } from './lines.js';
import { nameProblem, shown } from './name-rule.js';
import { SourceBytes } from './source.js';
import { findMember, inflateMember, readZipDirectory, ZipError, type ZipEntry } from './zip.js';

export { DEFAULT_LIMITS, type ReadLimits };

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
  /** `id_asenta_cpcons`, the settlement's id (what tells apart two settlements of a code with one name and type), when the catalog has the column: corrections address a settlement by it. */
  settlementId?: string;
}

/** What is known about the source once it has been read to the end. */
export interface CatalogSourceInfo {
  file: string;
  sha256: string;
  bytes: number;
  encoding: 'latin1' | 'utf8';
  notice: string;
  format: 'zip' | 'txt';
  /** The catalog's own date: its zip member's timestamp, else a regular file's modification time. */
  date?: string;
  dateFrom?: 'zip-entry' | 'file-mtime';
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
const POSTAL_CODE = /^\d{5}$/;
const HEADER_START = /^d_codigo\|/i;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export interface ReaderOptions {
  limits?: Partial<ReadLimits>;
  /** Called when the source is a FIFO waiting for a writer. */
  onWaiting?: (path: string) => void;
}

/** Reads a catalog file; iterate `rows()` once, then read `info()`. */
export class CatalogReader {
  /** The file's base name, for messages until the read says more (`x.zip (CPdescarga.txt)`). */
  readonly file: string;
  /** The file, and inside a zip the member, as refusals name it. */
  where: string;
  private readonly limits: ReadLimits;
  private source: SourceBytes | undefined;
  private encoding: 'latin1' | 'utf8' = 'latin1';
  private notice = '';
  private format: 'zip' | 'txt' = 'txt';
  private date: Pick<CatalogSourceInfo, 'date' | 'dateFrom'> = {};

  constructor(
    readonly path: string,
    private readonly options: ReaderOptions = {},
  ) {
    this.file = path === '-' ? 'stdin' : path.split(/[\\/]/).pop()!;
    this.where = this.file;
    this.limits = { ...DEFAULT_LIMITS, ...definedOnly(options.limits ?? {}) };
  }

  info(): CatalogSourceInfo {
    if (!this.source) throw new Error(`${this.path} has not been read`);
    return {
      file: this.source.file,
      sha256: this.source.sha256,
      bytes: this.source.bytes,
      encoding: this.encoding,
      notice: this.notice,
      format: this.format,
      ...this.date,
    };
  }

  /** The data rows in file order; throws CatalogError on the first bad line. */
  async *rows(): AsyncGenerator<CatalogRow> {
    const source = (this.source = await SourceBytes.open(this.path, { ...this.limits, onWaiting: this.options.onWaiting }));
    // Made on the first chunk of text, once the zip (if it is one) has named its member.
    let splitter: LineSplitter | undefined;
    try {
      for await (const chunk of this.text(source)) {
        splitter ??= new LineSplitter(this.where, this.limits.maxLineBytes);
        const lines = splitter.push(chunk);
        let number = splitter.lines - lines.length;
        for (const line of lines) {
          const row = this.take(line, ++number);
          if (row) yield row;
        }
      }
      for (const line of splitter?.end() ?? []) {
        const row = this.take(line, splitter!.lines);
        if (row) yield row;
      }
    } catch (error) {
      throw asCatalogError(error, this.where);
    }
    if (!splitter?.lines) throw new CatalogError(this.where, 'the file is empty');
    if (splitter.encoding) this.encoding = splitter.encoding;
    if (!this.header) throw new CatalogError(this.where, 'missing header: no line starts "d_codigo|d_asenta|"');
  }

  private header: Positions | undefined;
  private fieldCount = 0;

  /**
   * One line's row; undefined for the notice, the header and blank lines. Line 1 is the
   * notice unless it is the header itself; the first line after it must be the header.
   */
  private take(line: string, number: number): CatalogRow | undefined {
    if (number === 1 && !HEADER_START.test(line)) {
      this.notice = line.trim();
      return undefined;
    }
    if (line === '') return undefined;
    const record = line.split('|');
    if (!this.header) {
      this.header = readHeader(record);
      if (!this.header) {
        throw new CatalogError(this.where, `missing header: expected a line starting "d_codigo|d_asenta|", found "${clip(line)}"`, number);
      }
      this.fieldCount = record.length;
      return undefined;
    }
    if (record.length !== this.fieldCount) {
      throw new CatalogError(this.where, `expected ${this.fieldCount} fields separated by "|", found ${record.length}`, number);
    }
    return toRow(record, this.header, number, this.where);
  }

  /** The catalog text: the source itself, or its zip's catalog member once verified whole. */
  private async *text(source: SourceBytes): AsyncGenerator<Buffer> {
    const chunks = source.chunks()[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let headBytes = 0;
    while (headBytes < ZIP_MAGIC.length) {
      const next = await chunks.next();
      if (next.done) break;
      head.push(next.value);
      headBytes += next.value.length;
    }
    const start = Buffer.concat(head, headBytes);
    const rest = { [Symbol.asyncIterator]: () => chunks };
    if (!ZIP_MAGIC.every((byte, i) => start[i] === byte)) {
      this.format = 'txt';
      if (source.modified) this.date = { date: source.modified.toISOString(), dateFrom: 'file-mtime' };
      if (start.length) yield start;
      yield* rest;
      return;
    }
    this.format = 'zip';
    // The zip is read whole (it is bounded by maxBytes), for its directory sits at its end.
    const parts: Buffer[] = [start];
    for await (const chunk of rest) parts.push(chunk);
    const zip = Buffer.concat(parts);
    const entry = this.catalogEntry(zip);
    this.where = `${this.file} (${entry.name})`;
    if (entry.modified) this.date = { date: entry.modified, dateFrom: 'zip-entry' };
    // First pass: the member must inflate whole to its size and CRC-32 before any row is used,
    // so damage is reported as damage, not as whatever line it happens to garble.
    for await (const _ of inflateMember(zip, entry, this.limits.maxBytes));
    yield* inflateMember(zip, entry, this.limits.maxBytes);
  }

  private catalogEntry(zip: Buffer): ZipEntry {
    try {
      return findMember(readZipDirectory(zip), CATALOG_MEMBER);
    } catch (error) {
      throw asCatalogError(error, this.file);
    }
  }
}

/** The optional column of the settlement's id. */
const SETTLEMENT_ID = 'id_asenta_cpcons';

type Positions = Record<Column, number> & { settlementId?: number };

/** Column positions when `record` is the header line, else undefined. */
function readHeader(record: string[]): Positions | undefined {
  const names = record.map((field) => field.trim().toLowerCase());
  if (names[0] !== COLUMNS.postalCode) return undefined;
  const positions = {} as Positions;
  for (const [column, name] of Object.entries(COLUMNS) as [Column, string][]) {
    const at = names.indexOf(name);
    if (at < 0) return undefined;
    positions[column] = at;
  }
  const id = names.indexOf(SETTLEMENT_ID);
  if (id >= 0) positions.settlementId = id;
  return positions;
}

function toRow(record: string[], at: Positions, line: number, where: string): CatalogRow {
  const field = (column: Column) => record[at[column]]!.trim();
  const postalCode = field('postalCode');
  if (!POSTAL_CODE.test(postalCode)) {
    throw new CatalogError(where, `d_codigo "${clip(postalCode)}" is not a 5-digit postal code`, line);
  }
  /** A name, by the one name rule (build/name-rule.ts) that corrections follow too. */
  const name = (column: Column) => {
    const value = field(column);
    const problem = value === '' ? undefined : nameProblem(value);
    if (problem) throw new CatalogError(where, `${COLUMNS[column]} "${shown(value)}" ${problem}`, line);
    return value;
  };
  const required = (column: Column) => {
    const value = name(column);
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
    city: name('city'),
    stateKey: key('stateKey', TWO_DIGITS, 2),
    municipalityKey: key('municipalityKey', THREE_DIGITS, 3),
    cityKey: field('cityKey') === '' ? undefined : key('cityKey', THREE_DIGITS, 3),
    ...(at.settlementId === undefined || !record[at.settlementId]?.trim() ? {} : { settlementId: record[at.settlementId]!.trim() }),
  };
}

function asCatalogError(error: unknown, where: string): Error {
  if (error instanceof CatalogError) return error;
  if (error instanceof ZipError) return new CatalogError(where, `the zip ${error.message}`);
  const code = (error as NodeJS.ErrnoException).code;
  return new CatalogError(where, `cannot be read (${code ?? (error as Error).message})`);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
