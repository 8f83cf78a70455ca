/**
 * Reads the records of one range of decoded text (whole records, see ranges.ts) and hands
 * each to a visitor with its line and where its text is (for `--fix`, which writes records
 * back). A CSV line without a quote is split here; a record holding a quote goes to
 * csv-parse, which knows every rule of quoting. A record that cannot be read gets its reason.
 */
import { jsonDepthColumn, jsonErrorColumn, MAX_JSON_DEPTH } from './json-error.js';

/** csv-parse's synchronous parser, as the caller loaded it (loaded only when a CSV is read). */
export type ParseCsv = (input: string, options: Record<string, unknown>) => string[][];

export interface RecordVisitor {
  /**
   * A CSV record of the header's width: the values of cp, asentamiento, municipio, estado and
   * ciudad (undefined for a column the header lacks; the array is reused for the next record);
   * every field when the record was quoted (else its text splits at the delimiter);
   * `start`..`end` its text, `end`..`next` its line end.
   */
  csv(line: number, values: (string | undefined)[], fields: string[] | undefined, start: number, end: number, next: number): void;
  /** An NDJSON line holding an object. */
  json(line: number, item: object, start: number, end: number, next: number): void;
  /** A record that cannot be read, with the reason. */
  unreadable(line: number, reason: string, start: number, end: number, next: number): void;
  /** A line with no record (blank). */
  blank(start: number, next: number): void;
}

/** What every worker needs to read records: plain data, sent to workers as it is. */
export interface ReadPlan {
  format: 'csv' | 'ndjson';
  /** CSV: the delimiter, and the header's number of fields. */
  delimiter: string;
  width: number;
  /** CSV: the column of each field, in the order of `COLUMN_SLOTS` (-1 when absent). */
  columns: [number, number, number, number, number];
  maxRecordBytes: number;
  /** Whether the text's bytes were UTF-8 (else one byte a character), to measure records. */
  utf8: boolean;
}

export function tooLong(maxRecordBytes: number): string {
  return `record longer than ${maxRecordBytes} bytes`;
}

/** Finds line ends (LF, CR LF, or a CR alone) in a text, remembering where the next CR is. */
class LineEnds {
  end = 0;
  next = 0;
  private nextCR: number;

  constructor(private readonly text: string) {
    this.nextCR = text.indexOf('\r');
  }

  /** Sets `end` (where the line from `at` ends) and `next` (where the next line starts). */
  find(at: number): void {
    const text = this.text;
    const lf = text.indexOf('\n', at);
    if (this.nextCR >= 0 && this.nextCR < at) this.nextCR = text.indexOf('\r', at);
    const cr = this.nextCR;
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      this.end = cr;
      this.next = lf === cr + 1 ? lf + 1 : cr + 1;
    } else if (lf >= 0) {
      this.end = lf;
      this.next = lf + 1;
    } else this.end = this.next = text.length;
  }
}

/** Whether the record from `start` to `end` is longer than the maximum, in the file's bytes. */
function overMaximum(text: string, start: number, end: number, plan: ReadPlan): boolean {
  const chars = end - start;
  if (!plan.utf8) return chars > plan.maxRecordBytes;
  // A UTF-16 code unit is at most 3 bytes of UTF-8: measure only when it could matter.
  return chars * 3 > plan.maxRecordBytes && Buffer.byteLength(text.slice(start, end), 'utf8') > plan.maxRecordBytes;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The extent of a record starting at `start` whose line holds a quote: quotes read as the
 * range cutter reads them. `unterminated` when a quoted field does not close in the text (the
 * cutter ended the range with the quote's own line, which is then the record).
 */
function quotedRecord(text: string, start: number, delimiter: number, ends: LineEnds): { end: number; next: number; unterminated: boolean } {
  let at = start;
  for (;;) {
    ends.find(at);
    const quote = text.indexOf('"', at);
    if (quote < 0 || quote >= ends.end) return { end: ends.end, next: ends.next, unterminated: false };
    const before = quote === start ? LF : text.charCodeAt(quote - 1);
    if (before === delimiter || before === LF || before === CR) {
      let close = text.indexOf('"', quote + 1);
      while (close >= 0 && text.charCodeAt(close + 1) === QUOTE) close = text.indexOf('"', close + 2);
      if (close < 0) {
        ends.find(quote);
        return { end: ends.end, next: ends.next, unterminated: true };
      }
      at = close + 1;
    } else at = quote + 1;
  }
}

/**
 * The fields of a quoted record in its plain form, where every quote opens a field and closes
 * it right before a delimiter or the record's end (`"Cliente 17, S.A. de C.V."`, `"a ""b"""`):
 * what csv-parse gives for it, without a call to csv-parse per record. Undefined for anything
 * else (a quote inside an unquoted field, text after a closing quote, one field), which then
 * goes to csv-parse, so every record is read by csv-parse's rules.
 */
export function splitQuoted(record: string, delimiter: string): string[] | undefined {
  const fields: string[] = [];
  const length = record.length;
  let at = 0;
  for (;;) {
    if (record.charCodeAt(at) === QUOTE) {
      let value = '';
      let from = at + 1;
      for (;;) {
        const close = record.indexOf('"', from);
        if (close < 0) return undefined;
        if (record.charCodeAt(close + 1) === QUOTE) {
          value += record.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        value += record.slice(from, close);
        at = close + 1;
        break;
      }
      fields.push(value);
      if (at === length) break;
      if (record[at] !== delimiter) return undefined;
      at++;
    } else {
      let stop = record.indexOf(delimiter, at);
      if (stop < 0) stop = length;
      const quote = record.indexOf('"', at);
      if (quote >= 0 && quote < stop) return undefined;
      // An unquoted line end is a record's end: csv-parse would make two records of it.
      const value = record.slice(at, stop);
      if (value.includes('\n') || value.includes('\r')) return undefined;
      fields.push(value);
      if (stop === length) break;
      at = stop + 1;
    }
  }
  return fields.length > 1 ? fields : undefined;
}

/** The reason csv-parse gives for a record it cannot read, as a short phrase. */
function parseFailure(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'CSV_QUOTE_NOT_CLOSED') return 'unterminated quote';
  return (message ?? String(error)).split(':')[0]!.trim().toLowerCase() || 'unreadable CSV';
}

export function readCsv(text: string, firstLine: number, plan: ReadPlan, parse: ParseCsv, visitor: RecordVisitor): void {
  const { delimiter, width } = plan;
  const delimiterCode = delimiter.charCodeAt(0);
  // The value slot (0-4) each column feeds, -1 for columns of no interest.
  const slotOf = new Int8Array(width).fill(-1);
  plan.columns.forEach((column, slot) => {
    if (column >= 0) slotOf[column] = slot;
  });
  const values: (string | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
  let nextQuote = text.indexOf('"');
  const ends = new LineEnds(text);
  const options = { delimiter, relax_quotes: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] };
  let line = firstLine;
  let start = 0;
  // After a quote that swallowed lines, up to where it closed: each record is its own line
  // (the range cutter ended a record there, so what follows reads the same however cut).
  let oneLineUntil = -1;
  while (start < text.length) {
    ends.find(start);
    let end = ends.end;
    let next = ends.next;
    let lines = next > end ? 1 : 0;
    if (nextQuote >= 0 && nextQuote < start) nextQuote = text.indexOf('"', start);
    if (nextQuote >= 0 && nextQuote < end) {
      const lineEnd = end;
      const lineNext = next;
      let record = quotedRecord(text, start, delimiterCode, ends);
      if (start < oneLineUntil && record.end > lineEnd) record = { end: lineEnd, next: lineNext, unterminated: true };
      end = record.end;
      next = record.next;
      lines = countEnds(text, start, end) + (next > end ? 1 : 0);
      let fields: string[] | undefined;
      let reason: string | undefined;
      const lastLine = line + countEnds(text, start, end);
      if (record.unterminated) reason = `unterminated quote opened on line ${lastLine}; reading resumed on line ${lastLine + 1}`;
      else if (overMaximum(text, start, end, plan)) reason = tooLong(plan.maxRecordBytes);
      else {
        const raw = text.slice(start, end);
        fields = splitQuoted(raw, delimiter);
        if (!fields) {
          try {
            const records = parse(raw, options);
            if (records.length === 1) fields = records[0]!;
            else reason = `a quote splits it into ${records.length} records`;
          } catch (error) {
            reason = parseFailure(error);
          }
        }
      }
      if (end > lineEnd && !record.unterminated && (!fields || fields.length !== width) && reason !== tooLong(plan.maxRecordBytes) && !hasLoneCr(text, start, end)) {
        // A quote that opens on this line and closes lines later, leaving no record of the
        // header's width (a stray quote in a name): only this line is unreadable, and reading
        // resumes on the next, so the records it swallowed are read as what they are.
        oneLineUntil = end;
        const resumed = line + countEnds(text, start, lineEnd) + (lineNext > lineEnd ? 1 : 0);
        visitor.unreadable(line, `a quote opened on line ${line} runs to line ${lastLine} (${reason ?? wrongWidth(width, fields!.length)}); reading resumed on line ${resumed}`, start, lineEnd, lineNext);
        line = resumed;
        start = lineNext;
        continue;
      }
      if (fields && fields.length === 1 && fields[0] === '') visitor.blank(start, next);
      else if (!fields) visitor.unreadable(line, reason!, start, end, next);
      else if (fields.length !== width) visitor.unreadable(line, wrongWidth(width, fields.length), start, end, next);
      else {
        for (let k = 0; k < width; k++) if (slotOf[k]! >= 0) values[slotOf[k]!] = fields[k];
        visitor.csv(line, values, fields, start, end, next);
      }
    } else if (end === start) visitor.blank(start, next);
    else if (overMaximum(text, start, end, plan)) visitor.unreadable(line, tooLong(plan.maxRecordBytes), start, end, next);
    else {
      // Only the fields validation reads are cut out of the line; the others are counted.
      let count = 0;
      for (let at = start; ; count++) {
        let stop = text.indexOf(delimiter, at);
        if (stop < 0 || stop > end) stop = end;
        if (count < width && slotOf[count]! >= 0) values[slotOf[count]!] = text.slice(at, stop);
        if (stop === end) break;
        at = stop + 1;
      }
      count++;
      if (count === width) visitor.csv(line, values, undefined, start, end, next);
      else visitor.unreadable(line, wrongWidth(width, count), start, end, next);
    }
    line += lines;
    start = next;
  }
}

/**
 * Whether [start, end) holds a CR alone: csv-parse ends a record there, lines do not, so a
 * record read line by line would not read as the range cutter cut it. Such a record (an old
 * Mac file's) stays one unreadable record.
 */
function hasLoneCr(text: string, start: number, end: number): boolean {
  for (let at = text.indexOf('\r', start); at >= 0 && at < end; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== LF) return true;
  return false;
}

function wrongWidth(width: number, found: number): string {
  return `expected ${width} field${width === 1 ? '' : 's'}, found ${found}`;
}

/** Line ends inside [start, end) of a text. */
function countEnds(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) count++;
  }
  return count;
}

export function readNdjson(text: string, firstLine: number, plan: ReadPlan, visitor: RecordVisitor): void {
  const ends = new LineEnds(text);
  let line = firstLine;
  let start = 0;
  while (start < text.length) {
    ends.find(start);
    const { end, next } = ends;
    const raw = text.slice(start, end);
    if (!raw.trim()) visitor.blank(start, next);
    else if (overMaximum(text, start, end, plan)) visitor.unreadable(line, tooLong(plan.maxRecordBytes), start, end, next);
    else {
      let item: unknown;
      let parsed = true;
      // Nesting is bounded before anything walks the record (a value nested 4,000 deep would
      // overflow the stack of whatever turns it into text).
      const tooDeep = jsonDepthColumn(raw);
      if (!tooDeep) {
        try {
          item = JSON.parse(raw);
        } catch {
          parsed = false;
        }
      }
      if (tooDeep) visitor.unreadable(line, `nested deeper than ${MAX_JSON_DEPTH} levels at column ${tooDeep}`, start, end, next);
      else if (!parsed) visitor.unreadable(line, `invalid JSON at column ${jsonErrorColumn(raw)}`, start, end, next);
      else if (item === null || typeof item !== 'object' || Array.isArray(item)) visitor.unreadable(line, 'not a JSON object', start, end, next);
      else visitor.json(line, item, start, end, next);
    }
    if (next > end) line++;
    start = next;
  }
}
