/**
 * Cuts a stream of bytes into ranges of whole records, in order, each with its first line's
 * number: the unit that workers validate. Memory is bounded by bytes: a range is cut once it
 * holds `rangeBytes`, and no record is kept past `maxRecordBytes`.
 *
 * A line ends at LF, CR LF or a CR alone (Excel for Mac). In a CSV, a quoted field may hold
 * line ends, so a range is never cut inside one: quotes are found by jumping from one quote
 * byte to the next (most files have few), reading them as csv-parse does with relaxed
 * quoting: a quote opens a field only at the field's start, `""` inside is a quote, and the
 * field closes at the next lone quote. A quote left open is not allowed to fold the rest of
 * the file into one record: when it does not close within `maxRecordBytes` of its record's
 * start, or before the end of the input, the record ends with the quote's own line (the
 * worker reads it as "unterminated quote") and reading goes on from the next line.
 */
import { countLineEnds } from './encoding.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;

export interface RangePiece {
  kind: 'range';
  /** Whole records (and blank lines), in the carried encoding. */
  bytes: Uint8Array;
  /** The line number of the range's first byte. */
  line: number;
}

/** A record longer than the maximum, not kept: it is reported, not read. */
export interface OverlongPiece {
  kind: 'overlong';
  line: number;
}

export type Piece = RangePiece | OverlongPiece;

export interface CutOptions {
  /** The CSV delimiter's byte; undefined for NDJSON (no quoting). */
  delimiter: number | undefined;
  maxRecordBytes: number;
  /** A range is cut at the first record end past this many bytes. */
  rangeBytes: number;
  /** The number of the first line. */
  line: number;
  /** The bytes before ended with a CR: a LF first is the rest of that line end. */
  afterCR?: boolean | undefined;
}

export class RecordCutter {
  private data: Buffer = Buffer.alloc(0);
  private end = 0;
  /** Where the next range starts (a record's start). */
  private start = 0;
  /** After the last record end found so far. */
  private boundary = 0;
  /** How far quotes and line ends have been looked at. */
  private scanned = 0;
  /** The open quote of a quoted field not yet closed, and the start of its record; -1 when none. */
  private quoteAt = -1;
  private recordAt = 0;
  /** Discarding an overlong record up to its line end. */
  private skipping = false;
  private dropLF: boolean;
  private line: number;
  private readonly pieces: Piece[] = [];

  constructor(private readonly options: CutOptions) {
    this.line = options.line;
    this.dropLF = options.afterCR === true;
  }

  /** Takes the next chunk; returns the pieces now complete. */
  push(chunk: Uint8Array): Piece[] {
    let bytes = chunk;
    if (this.dropLF && bytes.length) {
      if (bytes[0] === LF) bytes = bytes.subarray(1);
      this.dropLF = false;
    }
    if (this.skipping) bytes = this.skip(bytes);
    if (bytes.length) {
      this.append(bytes);
      this.scan(false);
    }
    return this.take();
  }

  /** The input has ended: the pieces left. */
  finish(): Piece[] {
    this.scan(true);
    if (this.end > this.start) this.cut(this.end);
    return this.take();
  }

  private take(): Piece[] {
    return this.pieces.splice(0);
  }

  /** Drops an overlong record's bytes up to its line end; gives what follows it. */
  private skip(bytes: Uint8Array): Uint8Array {
    const lf = bytes.indexOf(LF);
    const cr = bytes.indexOf(CR);
    const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    if (at < 0) return bytes.subarray(bytes.length);
    this.skipping = false;
    this.line++;
    if (bytes[at] === CR) {
      if (at + 1 === bytes.length) this.dropLF = true;
      else if (bytes[at + 1] === LF) return bytes.subarray(at + 2);
    }
    return bytes.subarray(at + 1);
  }

  private append(bytes: Uint8Array): void {
    const needed = this.end - this.start + bytes.length;
    if (this.end + bytes.length > this.data.length) {
      // Kept bytes move to the front, into a larger buffer only when they do not fit.
      const target = needed <= this.data.length ? this.data : Buffer.allocUnsafe(Math.max(needed * 2, 1 << 16));
      if (target === this.data) this.data.copyWithin(0, this.start, this.end);
      else this.data.copy(target, 0, this.start, this.end);
      const shift = this.start;
      this.data = target;
      this.end -= shift;
      this.start = 0;
      this.boundary -= shift;
      this.scanned -= shift;
      if (this.quoteAt >= 0) {
        this.quoteAt -= shift;
        this.recordAt -= shift;
      }
    }
    this.data.set(bytes, this.end);
    this.end += bytes.length;
  }

  private scan(final: boolean): void {
    const { delimiter, maxRecordBytes } = this.options;
    const data = this.data;
    // A CR at the very end may be the first half of a CR LF: it is judged with the next byte.
    const limit = !final && this.end > this.start && data[this.end - 1] === CR ? this.end - 1 : this.end;
    const upToLimit = data.subarray(0, limit);
    const upToEnd = data.subarray(0, this.end);
    for (;;) {
      if (this.quoteAt < 0) {
        if (this.scanned >= limit) break;
        const quote = delimiter === undefined ? -1 : upToLimit.indexOf(QUOTE, this.scanned);
        const stop = quote < 0 ? limit : quote;
        const after = this.lastLineEnd(this.scanned, stop);
        if (after > this.boundary) this.boundary = after;
        if (quote < 0) {
          this.scanned = limit;
          break;
        }
        const before = quote > 0 ? data[quote - 1] : LF;
        if (quote === this.start || before === delimiter || before === LF || before === CR) {
          this.quoteAt = quote;
          this.recordAt = this.boundary;
        }
        this.scanned = quote + 1;
      } else {
        const close = upToEnd.indexOf(QUOTE, this.scanned);
        if (close < 0 || (close + 1 === this.end && !final)) {
          this.scanned = close < 0 ? this.end : close;
          if (final || this.end - this.recordAt > maxRecordBytes) this.breakQuote(final);
          else break;
          continue;
        }
        if (close + 1 < this.end && data[close + 1] === QUOTE) {
          this.scanned = close + 2;
          continue;
        }
        if (close - this.recordAt > maxRecordBytes && this.lineEndIn(this.quoteAt, close) >= 0) {
          this.breakQuote(final);
          continue;
        }
        this.quoteAt = -1;
        this.scanned = close + 1;
      }
    }
    if (this.skipping) return;
    // Records before an open quote are whole: they may go.
    if (this.boundary - this.start >= this.options.rangeBytes) this.cut(this.boundary);
    if (this.quoteAt < 0 && !final && this.end - this.boundary > maxRecordBytes) this.overlong(limit);
  }

  /**
   * The open quote is not to be trusted (it did not close in time): its record ends with the
   * quote's own line, cut here so that no range holds the quote with what follows.
   */
  private breakQuote(final: boolean): void {
    const at = this.lineEndIn(this.quoteAt, final ? this.end : this.end - 1);
    this.quoteAt = -1;
    if (at < 0) {
      if (final) {
        this.boundary = this.scanned = this.end;
        return;
      }
      // The quote's own line has no end yet and is already too long.
      this.boundary = this.recordAt;
      this.overlong(this.end);
      return;
    }
    const after = this.data[at] === CR && this.data[at + 1] === LF ? at + 2 : at + 1;
    this.boundary = this.scanned = after;
    this.cut(after);
  }

  /** The record after the last boundary is longer than the maximum: reported, then skipped. */
  private overlong(limit: number): void {
    if (this.boundary > this.start) this.cut(this.boundary);
    this.pieces.push({ kind: 'overlong', line: this.line });
    if (limit < this.end) {
      // It ended at a CR that was the last byte.
      this.line++;
      this.dropLF = true;
    } else this.skipping = true;
    this.start = this.boundary = this.scanned = this.end;
  }

  private cut(at: number): void {
    const bytes = new Uint8Array(this.data.subarray(this.start, at));
    this.pieces.push({ kind: 'range', bytes, line: this.line });
    this.line += countLineEnds(bytes);
    this.start = at;
    if (this.boundary < at) this.boundary = at;
    if (this.scanned < at) this.scanned = at;
  }

  /** After the last line end in [from, to), or -1. A CR there is never half of a CR LF (see `limit`). */
  private lastLineEnd(from: number, to: number): number {
    if (to <= from) return -1;
    const segment = this.data.subarray(from, to);
    const at = Math.max(segment.lastIndexOf(LF), segment.lastIndexOf(CR));
    return at < 0 ? -1 : from + at + 1;
  }

  /** The first line end (LF or CR) in [from, to), or -1. */
  private lineEndIn(from: number, to: number): number {
    const segment = this.data.subarray(from, to);
    const lf = segment.indexOf(LF);
    const cr = segment.indexOf(CR);
    const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    return at < 0 ? -1 : from + at;
  }
}

/** Cuts chunks into pieces as they come (see RecordCutter). */
export async function* cutRecords(chunks: AsyncIterable<Uint8Array>, options: CutOptions): AsyncGenerator<Piece> {
  const cutter = new RecordCutter(options);
  for await (const chunk of chunks) yield* cutter.push(chunk);
  yield* cutter.finish();
}
