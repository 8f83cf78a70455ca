/**
 * Catalog bytes to lines of text, framed and decoded one line at a time, so that every line
 * number is exact and no line costs more than its own length:
 *
 * - A line ends at CRLF, LF or a lone CR, wherever each occurs (a file edited on several
 *   systems mixes them); each ending counts one line. A last line without an ending counts too.
 * - A line longer than the limit is refused when it passes the limit, before it is kept whole:
 *   memory and time stay linear in the input however long a line is.
 * - The encoding is decided on the first line holding a byte above 0x7F (the official notice
 *   line has accents): valid UTF-8 there means UTF-8, anything else Latin-1, the official
 *   encoding. A UTF-8 BOM means UTF-8. Once UTF-8, a line that is not valid UTF-8 is refused by
 *   its number rather than read as replacement characters.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { CatalogError } from './errors.js';

const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];

export type TextEncoding = 'latin1' | 'utf8';

export class LineSplitter {
  /** Lines completed so far: the number of the last line returned. */
  lines = 0;
  /** Undefined until a line decides it (a pure ASCII file reads the same either way). */
  encoding: TextEncoding | undefined;
  private encodingLine = 0;
  private readonly carry: Buffer[] = [];
  private carryBytes = 0;
  /** The previous chunk ended with CR: an LF starting the next one belongs to that ending. */
  private pendingLf = false;
  private atStart = true;

  constructor(
    private readonly where: string,
    private readonly maxLineBytes: number,
  ) {}

  /** The lines that `chunk` completes, decoded, in order; the rest waits for the next chunk. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    if (chunk.length === 0) return lines;
    if (this.pendingLf) {
      this.pendingLf = false;
      if (chunk[0] === LF) start = 1;
    }
    if (this.atStart) start = this.skipBom(chunk, start);
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    for (;;) {
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (end < 0) break;
      lines.push(this.complete(chunk, start, end));
      if (chunk[end] === CR) {
        if (end + 1 === chunk.length) this.pendingLf = true;
        start = chunk[end + 1] === LF ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
    if (start < chunk.length) {
      this.checkLength(this.carryBytes + chunk.length - start);
      this.carry.push(chunk.subarray(start));
      this.carryBytes += chunk.length - start;
    }
    return lines;
  }

  /** The last line when the text does not end with a line ending, else nothing. */
  end(): string[] {
    if (!this.carryBytes) return [];
    return [this.complete(Buffer.alloc(0), 0, 0)];
  }

  private skipBom(chunk: Buffer, start: number): number {
    // The BOM may straddle chunks only in a pathological stream; it is looked for in the first.
    this.atStart = false;
    if (chunk.length - start >= 3 && BOM.every((byte, i) => chunk[start + i] === byte)) {
      this.encoding = 'utf8';
      this.encodingLine = 1;
      return start + 3;
    }
    return start;
  }

  private checkLength(bytes: number): void {
    if (bytes > this.maxLineBytes) {
      throw new CatalogError(this.where, `the line is longer than ${this.maxLineBytes} bytes (--max-line-bytes raises the limit)`, this.lines + 1);
    }
  }

  private complete(chunk: Buffer, start: number, end: number): string {
    let bytes: Buffer;
    let from = start;
    let to = end;
    if (this.carryBytes) {
      this.checkLength(this.carryBytes + end - start);
      this.carry.push(chunk.subarray(start, end));
      bytes = Buffer.concat(this.carry, this.carryBytes + end - start);
      this.carry.length = 0;
      this.carryBytes = 0;
      from = 0;
      to = bytes.length;
    } else {
      this.checkLength(end - start);
      bytes = chunk;
    }
    this.lines++;
    return this.decode(bytes, from, to);
  }

  private decode(bytes: Buffer, start: number, end: number): string {
    if (this.encoding === 'latin1' || start === end) return bytes.toString('latin1', start, end);
    const view = bytes.subarray(start, end);
    if (this.encoding === undefined) {
      if (isAscii(view)) return bytes.toString('latin1', start, end);
      this.encoding = isUtf8(view) ? 'utf8' : 'latin1';
      this.encodingLine = this.lines;
      return bytes.toString(this.encoding, start, end);
    }
    if (!isUtf8(view)) {
      throw new CatalogError(this.where, `not valid UTF-8, although the file is UTF-8 from line ${this.encodingLine} on (a file mixing encodings)`, this.lines);
    }
    return bytes.toString('utf8', start, end);
  }
}
