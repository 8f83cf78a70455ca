/**
 * The zip the catalog is published in, read from its central directory (the archive's own
 * table of contents, at its end) rather than by scanning local headers front to back: that is
 * where the members' names, sizes, CRC-32s and dates are authoritative, so a second catalog
 * member, a member after the catalog or a header that lies is seen before any byte is used.
 *
 * A member is inflated as a stream, counting what comes out against both the size its header
 * declares and the caller's limit (a zip bomb stops there), and its CRC-32 is checked at the
 * end. Only stored and deflated members are read; zip64, encrypted and multi-disk archives are
 * refused by name (the official catalog is a 2 MB zip with one deflated member).
 */
import { basename } from 'node:path';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { crc32 } from './crc32.js';

/** The zip is damaged, or not one cpmx reads. The message is said of the zip (`the zip ${message}`), without its file name. */
export class ZipError extends Error {
  override readonly name = 'ZipError';
}

export interface ZipEntry {
  /** As stored (UTF-8 when the entry says so, else read as Latin-1). */
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  /** Its size once inflated, as the central directory declares it. */
  size: number;
  localHeaderOffset: number;
  /**
   * When the member was last modified: the extended-timestamp field's UTC time (`...Z`) when
   * the zip has one, else the DOS date and time, which carry no time zone (the zipping
   * machine's local time, written without an offset). Undefined when the zip holds no valid date.
   */
  modified: string | undefined;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const EXTENDED_TIMESTAMP = 0x5455;
const STORED = 0;
const DEFLATED = 8;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DATA_DESCRIPTOR = 0x8;
const FLAG_UTF8 = 0x800;
const CHUNK = 64 * 1024;

/** The members listed in the zip's central directory, in its order. */
export function readZipDirectory(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = findEndOfDirectory(view);
  if (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) {
    throw new ZipError('is a zip64 archive, which cpmx does not read; extract CPdescarga.txt and pass the text file instead');
  }
  const disk = view.getUint16(end + 4, true);
  const directoryDisk = view.getUint16(end + 6, true);
  const entriesHere = view.getUint16(end + 8, true);
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (disk !== 0 || directoryDisk !== 0 || entriesHere !== count) throw new ZipError('is one part of a multi-part zip; cpmx reads whole archives only');
  if (offset + size > end) throw new ZipError('is damaged: its central directory lies outside the file (truncated?)');

  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > offset + size || view.getUint32(at, true) !== CENTRAL_HEADER) {
      throw new ZipError(`is damaged: entry ${i + 1} of its central directory is missing or cut`);
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > offset + size) throw new ZipError(`is damaged: entry ${i + 1} of its central directory runs past its end`);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    const entry: ZipEntry = {
      name: Buffer.from(nameBytes.buffer, nameBytes.byteOffset, nameBytes.length).toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1'),
      method: view.getUint16(at + 10, true),
      flags,
      crc32: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
      modified: extendedTimestamp(view, at + 46 + nameLength, extraLength) ?? dosDateTime(view.getUint16(at + 14, true), view.getUint16(at + 12, true)),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localHeaderOffset === 0xffffffff) {
      throw new ZipError(`is a zip64 archive (${entry.name} needs 64-bit sizes), which cpmx does not read`);
    }
    entries.push(entry);
    at = next;
  }
  return entries;
}

/**
 * The one member named `member` (by base name, ignoring case, in any folder). None, or more
 * than one, is refused, naming what the zip does hold.
 */
export function findMember(entries: readonly ZipEntry[], member: string): ZipEntry {
  const wanted = member.toLowerCase();
  const found = entries.filter((entry) => basename(entry.name).toLowerCase() === wanted);
  const listed = (list: readonly ZipEntry[]) => list.map((entry) => `"${entry.name}"`).join(', ');
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new ZipError(`holds no ${member}${entries.length ? `; it holds ${clipList(listed(entries), entries.length)}` : ': it is empty'}`);
  }
  throw new ZipError(`holds ${found.length} ${member} members (${listed(found)}); expected exactly one, as the official download has`);
}

/** The member's compressed bytes, after checking its local header agrees with the central directory. */
export function memberData(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (entry.flags & FLAG_ENCRYPTED) throw new ZipError(`encrypts ${entry.name}, which cpmx cannot read`);
  if (entry.method !== STORED && entry.method !== DEFLATED) {
    throw new ZipError(`compresses ${entry.name} with method ${entry.method}, which cpmx does not read (only stored and deflated); extract it and pass the text file instead`);
  }
  if (at + 30 > zip.length || view.getUint32(at, true) !== LOCAL_HEADER) throw new ZipError(`is damaged: the local header of ${entry.name} is missing`);
  const localFlags = view.getUint16(at + 6, true);
  const disagree = (what: string) => new ZipError(`is damaged: the local header of ${entry.name} disagrees with the central directory about its ${what}`);
  if (view.getUint16(at + 8, true) !== entry.method) throw disagree('compression method');
  if (!(localFlags & FLAG_DATA_DESCRIPTOR)) {
    // Without a data descriptor, the local header carries the sizes and CRC too: both must agree.
    if (view.getUint32(at + 14, true) !== entry.crc32) throw disagree('CRC-32');
    if (view.getUint32(at + 18, true) !== entry.compressedSize || view.getUint32(at + 22, true) !== entry.size) throw disagree('size');
  }
  const nameLength = view.getUint16(at + 26, true);
  const extraLength = view.getUint16(at + 28, true);
  const localName = zip.subarray(at + 30, at + 30 + nameLength);
  if (Buffer.from(localName.buffer, localName.byteOffset, localName.length).toString(localFlags & FLAG_UTF8 ? 'utf8' : 'latin1') !== entry.name) {
    throw disagree('name');
  }
  const start = at + 30 + nameLength + extraLength;
  if (start + entry.compressedSize > zip.length) throw new ZipError(`is truncated: ${entry.name} runs past the end of the file`);
  if (entry.method === STORED && entry.compressedSize !== entry.size) throw disagree('size');
  return zip.subarray(start, start + entry.compressedSize);
}

/**
 * Inflates the member as a stream of chunks, refusing it as soon as it grows past its declared
 * size or `maxBytes`, and checking its size and CRC-32 once it ends.
 */
export async function* inflateMember(zip: Uint8Array, entry: ZipEntry, maxBytes: number): AsyncGenerator<Buffer> {
  if (entry.size > maxBytes) throw tooLarge(entry, maxBytes);
  const data = memberData(zip, entry);
  let crc = 0;
  let bytes = 0;
  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    // entry.size is within maxBytes (checked above), so a member that lies about it stops here.
    if (bytes > entry.size) throw new ZipError(`is damaged: ${entry.name} inflates to more than the ${entry.size} bytes its header declares`);
    crc = crc32(chunk, crc);
  };
  if (entry.method === STORED) {
    for (let at = 0; at < data.length; at += CHUNK) {
      const chunk = Buffer.from(data.buffer, data.byteOffset + at, Math.min(CHUNK, data.length - at));
      count(chunk);
      yield chunk;
    }
  } else {
    const inflate = createInflateRaw({ chunkSize: CHUNK });
    inflate.end(data);
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        count(chunk);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof ZipError) throw error;
      throw new ZipError(`is damaged: ${entry.name} cannot be inflated (${(error as Error).message})`);
    } finally {
      inflate.destroy();
    }
  }
  checkWhole(entry, bytes, crc);
}

/** The member inflated whole, checked the same way: for small zips already held in memory. */
export function inflateMemberSync(zip: Uint8Array, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.size > maxBytes) throw tooLarge(entry, maxBytes);
  const data = memberData(zip, entry);
  let text: Buffer;
  if (entry.method === STORED) text = Buffer.from(data.buffer, data.byteOffset, data.length);
  else {
    try {
      // One byte past the declared size is enough to know it lies.
      text = inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(entry.size, maxBytes) + 1) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') throw new ZipError(`is damaged: ${entry.name} inflates to more than the ${entry.size} bytes its header declares`);
      throw new ZipError(`is damaged: ${entry.name} cannot be inflated (${(error as Error).message})`);
    }
  }
  checkWhole(entry, text.length, crc32(text));
  return text;
}

function checkWhole(entry: ZipEntry, bytes: number, crc: number): void {
  if (bytes !== entry.size) throw new ZipError(`is damaged: ${entry.name} inflates to ${bytes} bytes, but its header declares ${entry.size}`);
  if (crc !== entry.crc32) {
    throw new ZipError(`is damaged: ${entry.name} fails its CRC-32 check (the zip says ${hex(entry.crc32)}, the data gives ${hex(crc)})`);
  }
}

function tooLarge(entry: ZipEntry, maxBytes: number): ZipError {
  return new ZipError(`declares ${entry.name} to be ${entry.size} bytes once inflated, over the limit of ${maxBytes} (--max-bytes raises it)`);
}

function findEndOfDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of up to 65,535 bytes, at the very end.
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY && at + 22 + view.getUint16(at + 20, true) <= view.byteLength) return at;
  }
  throw new ZipError('has no central directory: it is truncated, damaged or not a zip');
}

/** The extended timestamp extra field's modification time (UTC seconds), if the entry has one. */
function extendedTimestamp(view: DataView, start: number, length: number): string | undefined {
  for (let at = start; at + 4 <= start + length; ) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === EXTENDED_TIMESTAMP && size >= 5 && view.getUint8(at + 4) & 1) {
      return new Date(view.getUint32(at + 5, true) * 1000).toISOString().replace('.000Z', 'Z');
    }
    at += 4 + size;
  }
  return undefined;
}

/** DOS date and time as `YYYY-MM-DDTHH:MM:SS`, without a zone (DOS time has none). */
function dosDateTime(date: number, time: number): string | undefined {
  const year = 1980 + (date >>> 9);
  const month = (date >>> 5) & 0xf;
  const day = date & 0x1f;
  const hour = time >>> 11;
  const minute = (time >>> 5) & 0x3f;
  const second = (time & 0x1f) * 2;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}`;
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

function clipList(list: string, count: number): string {
  return list.length > 300 ? `${count} members, among them ${list.slice(0, 280)}...` : list;
}
