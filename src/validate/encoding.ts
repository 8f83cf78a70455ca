/**
 * The encodings address files come in: UTF-8 (with or without BOM), UTF-16 with BOM (Excel's
 * "Unicode text") and Windows-1252 (Excel on Windows, Latin-1 files): recognised from the
 * bytes, decoded strictly (a file that is not valid in its encoding is refused with the line,
 * never misread), and written back in the same encoding by `--fix`.
 *
 * Inside, every file is carried as bytes that ASCII reads the same way (UTF-8 or
 * Windows-1252), so records can be cut at newline, quote and delimiter bytes: UTF-16 is
 * transcoded to UTF-8 as it is read.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { InputError } from './errors.js';

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export const ENCODINGS: readonly Encoding[] = Object.freeze(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']);

/** The bytes a file is carried in once read: both read ASCII as ASCII. */
export type CarriedEncoding = 'utf-8' | 'windows-1252';

/** The file is not valid in its encoding: refused, with the line. */
export class EncodingError extends InputError {
  override readonly name: string = 'EncodingError';
  constructor(
    readonly line: number,
    readonly encoding: Encoding,
    hint: string,
  ) {
    super(`line ${line} is not valid ${encoding === 'windows-1252' ? 'Windows-1252' : encoding.toUpperCase()}${hint}`);
  }
}

/** The encoding a label names (any WHATWG label of the four: latin1, cp1252, utf8, utf-16 ...). */
export function encodingNamed(label: string): Encoding | undefined {
  try {
    const encoding = new TextDecoder(label.trim()).encoding as Encoding;
    return ENCODINGS.includes(encoding) ? encoding : undefined;
  } catch {
    return undefined;
  }
}

const BOMS: Record<Encoding, readonly number[]> = {
  'utf-8': [0xef, 0xbb, 0xbf],
  'utf-16le': [0xff, 0xfe],
  'utf-16be': [0xfe, 0xff],
  'windows-1252': [],
};

export function byteOrderMark(encoding: Encoding): Uint8Array {
  return Uint8Array.from(BOMS[encoding]);
}

/** The encoding whose byte-order mark starts `head`, if any. */
export function bomOf(head: Uint8Array): Encoding | undefined {
  const starts = (bytes: readonly number[]) => bytes.length > 0 && head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
  return (['utf-8', 'utf-16le', 'utf-16be'] as const).find((encoding) => starts(BOMS[encoding]));
}

/** How much of a file without a BOM is looked at, at most, for its first non-ASCII line. */
export const SNIFF_BYTES = 1 << 20;

/**
 * The encoding of a file without a BOM, from its start, or undefined when more bytes are
 * needed (`final`: there are no more). UTF-8 when the first line holding a non-ASCII byte is
 * valid UTF-8 (or when there is none), else Windows-1252: Latin-1 accents are never valid
 * UTF-8 on their own, and UTF-8 accents read as Latin-1 are pairs no Spanish text holds.
 */
export function sniffEncoding(head: Uint8Array, final: boolean): Encoding | undefined {
  if (head.subarray(0, 4096).includes(0)) {
    throw new EncodingError(1, 'utf-8', ': it holds NUL bytes, as UTF-16 does; a UTF-16 file without a byte-order mark needs --encoding utf-16le (or utf-16be)');
  }
  if (isAscii(head)) return final || head.length >= SNIFF_BYTES ? 'utf-8' : undefined;
  let first = 0;
  while (head[first]! < 0x80) first++;
  let end = head.indexOf(10, first);
  if (end < 0) {
    if (!final && head.length < SNIFF_BYTES) return undefined;
    // A line cut short may end inside a character: judge only its whole characters.
    end = head.length;
    while (!final && end > first && (head[end - 1]! & 0xc0) === 0x80) end--;
    if (!final && end > first && head[end - 1]! >= 0xc0) end--;
  }
  return isUtf8(head.subarray(first, end)) ? 'utf-8' : 'windows-1252';
}

/**
 * Windows-1252's characters for bytes 0x80–0x9F (the WHATWG Encoding Standard's table; the
 * five undefined bytes map to the C1 control of the same number). Node 20's TextDecoder reads
 * these bytes as Latin-1's C1 controls, so they are mapped here.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
const FROM_C1 = new Map(CP1252_HIGH.map((code, i) => [String.fromCharCode(0x80 + i), String.fromCharCode(code)]));
const TO_CP1252 = new Map(CP1252_HIGH.map((code, i) => [String.fromCharCode(code), String.fromCharCode(0x80 + i)]));
const C1 = /[\x80-\x9f]/;
const C1_ALL = /[\x80-\x9f]/g;
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
const BEYOND_LATIN1_ALL = /[\u0100-\uffff]/g;

/** Decodes Windows-1252 bytes (never fails: every byte is a character). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return C1.test(text) ? text.replace(C1_ALL, (c) => FROM_C1.get(c)!) : text;
}

/** Decodes carried bytes; UTF-8 strictly, refusing the file at the first invalid line. */
export function decodeCarried(bytes: Uint8Array, encoding: CarriedEncoding, firstLine: number, hint: () => string): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buffer)) return buffer.toString('latin1');
  if (encoding === 'windows-1252') return decodeWindows1252(buffer);
  if (isUtf8(buffer)) return buffer.toString('utf8');
  throw new EncodingError(firstLine + linesBefore(buffer, firstInvalidUtf8(buffer)), 'utf-8', hint());
}

/** Offset of the first byte of `bytes` that does not start or continue a valid UTF-8 character. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  // Lines never split a character: find the first line that is not valid on its own.
  let start = 0;
  for (;;) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) return start;
    start = end + 1;
  }
}

/** Line ends (LF, CR LF, or a CR alone) in `bytes` before `offset`. */
export function linesBefore(bytes: Uint8Array, offset: number): number {
  return countLineEnds(bytes.subarray(0, offset));
}

/** Line ends in `bytes`: LF, CR LF (one), or a CR alone (old Mac files); a CR at the very end counts. */
export function countLineEnds(bytes: Uint8Array): number {
  let count = 0;
  if (bytes.indexOf(13) < 0) {
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
    return count;
  }
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 10 || (byte === 13 && bytes[i + 1] !== 10)) count++;
  }
  return count;
}

/** Encodes text for writing back in `encoding` (what `--fix` writes). */
export function encoderFor(encoding: Encoding): (text: string) => Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return (text) => Buffer.from(text, 'utf8');
    case 'utf-16le':
      return (text) => Buffer.from(text, 'utf16le');
    case 'utf-16be':
      return (text) => Buffer.from(text, 'utf16le').swap16();
    case 'windows-1252':
      // Text read from the file and the catalog's names are all Windows-1252 characters; a
      // character beyond it (none is expected) is written as "?".
      return (text) => Buffer.from(BEYOND_LATIN1.test(text) ? text.replace(BEYOND_LATIN1_ALL, (c) => TO_CP1252.get(c) ?? '?') : text, 'latin1');
  }
}

/**
 * Transcodes UTF-16 chunks to UTF-8 ones, refusing the file at the line of an unpaired
 * surrogate or an odd trailing byte. `little`: UTF-16LE, else big-endian.
 */
export async function* utf16ToUtf8(chunks: AsyncIterable<Uint8Array>, encoding: 'utf-16le' | 'utf-16be', hint: () => string): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  let line = 1;
  const transcode = (bytes: Uint8Array, final: boolean): Uint8Array | undefined => {
    const whole = bytes.length - (bytes.length % 2);
    if (final && whole < bytes.length) throw new EncodingError(line + countNewlines(toText(bytes.subarray(0, whole))), encoding, `: it ends in half a character${hint()}`);
    let text = toText(bytes.subarray(0, whole));
    // Copied: a chunk may be a buffer the next read reuses (see input-source.ts).
    carry = new Uint8Array(bytes.subarray(whole));
    // A high surrogate at the end may be completed by the next chunk, and a CR by its LF.
    const last = text.charCodeAt(text.length - 1);
    if (!final && ((last >= 0xd800 && last <= 0xdbff) || last === 13)) {
      carry = new Uint8Array(bytes.subarray(whole - 2));
      text = text.slice(0, -1);
    }
    // String#isWellFormed is in Node 20 (V8 11.3), not yet in TypeScript's ES2023 library.
    if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
      const at = firstLoneSurrogate(text);
      throw new EncodingError(line + countNewlines(text.slice(0, at)), encoding, hint());
    }
    line += countNewlines(text);
    return text ? Buffer.from(text, 'utf8') : undefined;
  };
  const toText = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return (encoding === 'utf-16le' ? buffer : Buffer.from(buffer).swap16()).toString('utf16le');
  };
  for await (const chunk of chunks) {
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const out = transcode(bytes, false);
    if (out) yield out;
  }
  if (carry.length) {
    const out = transcode(carry, true);
    if (out) yield out;
  }
}

function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return text.length;
}

/** Line ends in text, as `countLineEnds` counts them in bytes (a CR at the end counts). */
function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  for (let at = text.indexOf('\r'); at >= 0; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 10) count++;
  return count;
}
