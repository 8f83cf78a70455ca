/**
 * The artifact file, format 6: laid out so that the runtime reads it in place, with no
 * MessagePack decoder and no pass over the catalog at load, and reads and checks only the pages
 * it touches (pages.ts).
 *
 * The file is one MessagePack map, `{ format, version, check, payload }`, written with fixed
 * widths so that the payload starts at PAYLOAD_AT: any MessagePack reader (an older cpmx among
 * them) reads its name and version and so can say which version it is. The payload is not
 * MessagePack; its integers are little-endian. It begins with its head, which `check` covers
 * (`headCheck`):
 *
 *   u32 where the head ends (the first page, a multiple of PAGE_BYTES);
 *   u32 length of the header, the header as JSON (UTF-8), zero bytes up to a multiple of 4;
 *   u32 number of sections (SECTIONS.length), then per section: u32 kind, u32 offset (from the
 *   file's first byte), u32 number of elements;
 *   u32 number of pages, u32 offset of the page table, u32 number of table pages, then one
 *   hash per table page (the roots); zero bytes up to the first page.
 *
 * Then the pages: the sections' elements, each section at an offset that is a multiple of its
 * width, zero bytes up to a whole page; then the page table, one hash per page, padded to whole
 * table pages. The roots check the table, the table checks the pages (pages.ts).
 *
 * A section's kind is its element width for an unsigned column (1, 2 or 4), ABSENT for an
 * optional section the artifact lacks, OTHER for any other typed array (which a reader refuses).
 * Every sum and index the runtime needs is a section the compiler made (string table starts,
 * settlement starts, the trie's first children), so loading views columns in place, checks
 * sizes and the head's checksum, and reads nothing else.
 */
import { FORMAT_NAME, type ArtifactHeader, type UintArray } from './format.js';
import { PAGE_BYTES, TABLE_PAGE_BITS, pageHash, type PageLayout } from './pages.js';

/** String tables, in file order: each is three sections, `bytes` (UTF-8), `lengths` (bytes per entry), `starts`. */
export const STRING_TABLES = ['states', 'municipalities', 'cities', 'types', 'settlements'] as const;
export type StringTableName = (typeof STRING_TABLES)[number];

/** The columns after the string tables, in file order. */
export const COLUMNS = [
  'stateKeys',
  'municipalityState',
  'municipalityKey',
  'municipalityName',
  /** Child masks of the trie's nodes, breadth first (the model's `trie`). */
  'trie',
  /** Index of each trie node's first child (a code index below depth 4). */
  'trieFirstChild',
  /** First node of each depth 0 to 4, then the node count. */
  'trieLevels',
  'codeMunicipality',
  'codeCity',
  /** Settlements of code `i` are `settlementStart[i]` to `settlementStart[i + 1]`. */
  'settlementStart',
  'settlements',
  'settlementRanks',
  /** Cities of state `i` are `stateCities[stateCityStart[i]]` to `stateCities[stateCityStart[i + 1]]`. */
  'stateCityStart',
  'stateCities',
  /** The codes earlier catalogs had (catalog-history.ts), UTF-8 JSON; optional, read only when asked for. */
  'history',
] as const;
export type ColumnName = (typeof COLUMNS)[number];

/** Every section, in file order. */
export const SECTIONS: readonly string[] = [...STRING_TABLES.flatMap((table) => [`${table}.bytes`, `${table}.lengths`, `${table}.starts`]), ...COLUMNS];

/**
 * A string table stores the byte offset of every STRING_BLOCK-th entry (and the total at the
 * end): an entry's offset is its block's plus the lengths before it in the block, summed on
 * its first use. Offsets of every entry would add a quarter of a megabyte to the file.
 */
export const STRING_BLOCK_BITS = 4;
export const STRING_BLOCK = 1 << STRING_BLOCK_BITS;

export const ABSENT = 0;
export const OTHER = 0xff;

/** The envelope before the version: a map of 4, `format: "cpmx-catalog"`, the key `version`. Formats 3 and 4 began so too. */
const ENVELOPE_HEAD = [0x84, 0xa6, ...ascii('format'), 0xa0 | FORMAT_NAME.length, ...ascii(FORMAT_NAME), 0xa7, ...ascii('version')];
/** After the version (a positive fixint): `check` as a uint 32, `payload` as a bin 32. */
const CHECK_KEY = [0xa5, ...ascii('check'), 0xce];
const PAYLOAD_KEY = [0xa7, ...ascii('payload'), 0xc6];
const VERSION_AT = ENVELOPE_HEAD.length;
const CHECK_AT = VERSION_AT + 1 + CHECK_KEY.length;
const LENGTH_AT = CHECK_AT + 4 + PAYLOAD_KEY.length;
/** Where the payload begins in the file. */
export const PAYLOAD_AT = LENGTH_AT + 4;

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

/** The envelope of a payload of `length` bytes whose head's hash is `check`. */
export function envelope(version: number, check: number, length: number): Uint8Array {
  const bytes = new Uint8Array(PAYLOAD_AT);
  bytes.set(ENVELOPE_HEAD);
  bytes[VERSION_AT] = version & 0x7f;
  bytes.set(CHECK_KEY, VERSION_AT + 1);
  const view = new DataView(bytes.buffer);
  view.setUint32(CHECK_AT, check >>> 0);
  bytes.set(PAYLOAD_KEY, CHECK_AT + 4);
  view.setUint32(LENGTH_AT, length);
  return bytes;
}

/**
 * The bytes of an artifact where its columns can be viewed in place (at offsets aligned from
 * its first byte): as they are when they start at a multiple of 4 in their buffer, else a copy.
 * A copy made by `new Uint8Array`, not `slice`: a Node Buffer's `slice` is a view, not a copy.
 */
export function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
}

/** The envelope's version and check, or undefined when the bytes are not a whole envelope of this layout. */
export function openEnvelope(bytes: Uint8Array): { version: number; check: number } | undefined {
  if (bytes.length < PAYLOAD_AT) return undefined;
  for (let i = 0; i < VERSION_AT; i++) if (bytes[i] !== ENVELOPE_HEAD[i]) return undefined;
  for (let i = 0; i < CHECK_KEY.length; i++) if (bytes[VERSION_AT + 1 + i] !== CHECK_KEY[i]) return undefined;
  for (let i = 0; i < PAYLOAD_KEY.length; i++) if (bytes[CHECK_AT + 4 + i] !== PAYLOAD_KEY[i]) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, PAYLOAD_AT);
  if (view.getUint32(LENGTH_AT) !== bytes.length - PAYLOAD_AT) return undefined;
  return { version: bytes[VERSION_AT]!, check: view.getUint32(CHECK_AT) };
}

/**
 * The `format` and `version` a file names, read without a MessagePack library: the first two
 * entries of its map (in format 2 and before, of its `header` map, its first entry); undefined
 * when the bytes do not begin as such a map does.
 */
export function peekFormat(bytes: Uint8Array): { format: unknown; version: unknown } | undefined {
  let at = 0;
  const byte = () => {
    if (at >= bytes.length) throw new RangeError('truncated');
    return bytes[at++]!;
  };
  const uint = (size: number) => {
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + byte();
    return value;
  };
  const mapSize = () => {
    const b = byte();
    if (b >= 0x80 && b <= 0x8f) return b & 0x0f;
    if (b === 0xde) return uint(2);
    if (b === 0xdf) return uint(4);
    throw new TypeError('not a map');
  };
  /** A string, an unsigned integer or nil; anything else stands for itself as `undefined`. */
  const value = (): unknown => {
    const b = byte();
    if (b < 0x80) return b;
    let length = -1;
    if (b >= 0xa0 && b <= 0xbf) length = b & 0x1f;
    else if (b === 0xd9) length = uint(1);
    else if (b === 0xda) length = uint(2);
    else if (b === 0xcc) return uint(1);
    else if (b === 0xcd) return uint(2);
    else if (b === 0xce) return uint(4);
    else if (b === 0xc0) return null;
    if (length < 0 || length > 64) return undefined;
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(byte());
    return text;
  };
  try {
    if (mapSize() < 1) return undefined;
    let key = value();
    if (key === 'header') {
      if (mapSize() < 1) return undefined;
      key = value();
    }
    if (key !== 'format') return { format: undefined, version: undefined };
    const format = value();
    return { format, version: value() === 'version' ? value() : undefined };
  } catch {
    return undefined;
  }
}

/** One section as read: its kind and, for an unsigned column, its elements viewed in place. */
export interface Section {
  kind: number;
  column: UintArray | undefined;
}

export interface Payload {
  header: ArtifactHeader;
  sections: Section[];
  pages: PageLayout;
}

/**
 * The hash (pages.ts) of the file's head: its words from the payload's first (the word holding
 * it) to the first page, every byte of the head but the envelope's before them.
 */
export function headCheck(file: Uint8Array, dataStart: number): number {
  return pageHash(new Int32Array(file.buffer, file.byteOffset, dataStart >>> 2), PAYLOAD_AT >>> 2, dataStart >>> 2);
}

/** Where the payload's head ends (the first page), as its first word says; undefined when the bytes are too short to say. */
export function headEnd(file: Uint8Array): number | undefined {
  return file.length < PAYLOAD_AT + 4 ? undefined : new DataView(file.buffer, file.byteOffset, file.length).getUint32(PAYLOAD_AT, true);
}

/**
 * The payload's header, sections and pages, viewed in place in `file` (the whole file's buffer,
 * its first byte at a multiple of 4 in its buffer; only the head need be read yet). Throws an
 * Error saying what does not fit.
 */
export function readPayload(file: Uint8Array): Payload {
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const dataStart = headEnd(file) ?? 0;
  const u32 = (at: number, what: string) => {
    if (at + 4 > dataStart) throw new Error(`${what} is cut short`);
    return view.getUint32(at, true);
  };
  let at = PAYLOAD_AT + 4;
  const headerLength = u32(at, 'the header');
  at += 4;
  if (at + headerLength > dataStart) throw new Error('the header is cut short');
  let header: ArtifactHeader;
  try {
    header = JSON.parse(utf8(file, at, at + headerLength)) as ArtifactHeader;
  } catch {
    throw new Error('the header is not JSON');
  }
  at = align(at + headerLength, 4);
  const count = u32(at, 'the section table');
  if (count !== SECTIONS.length) throw new Error(`${count} sections where the format has ${SECTIONS.length}`);
  at += 4;
  const pageCount = u32(at + 12 * count, 'the page table');
  const tableAt = u32(at + 12 * count + 4, 'the page table');
  const rootCount = u32(at + 12 * count + 8, 'the page table');
  const dataEnd = dataStart + pageCount * PAGE_BYTES;
  if (dataStart % PAGE_BYTES !== 0 || tableAt !== dataEnd || rootCount !== Math.ceil(pageCount / (1 << TABLE_PAGE_BITS)) || tableAt + rootCount * PAGE_BYTES !== file.length) {
    throw new Error('its pages do not fit the file');
  }
  const sections: Section[] = [];
  for (let i = 0; i < count; i++, at += 12) {
    const kind = u32(at, 'the section table');
    const offset = u32(at + 4, 'the section table');
    const length = u32(at + 8, 'the section table');
    if (kind === 1 || kind === 2 || kind === 4) {
      if (offset % kind !== 0 || offset < dataStart || offset + length * kind > dataEnd) throw new Error(`the section ${SECTIONS[i]!} lies outside the file's pages`);
      sections.push({ kind, column: uintView(file, kind, offset, length) });
    } else sections.push({ kind, column: undefined });
  }
  at += 12;
  if (at + 4 * rootCount > dataStart) throw new Error('the page table is cut short');
  const roots = new Uint32Array(file.buffer, file.byteOffset + at, rootCount);
  return { header, sections, pages: { dataStart, pages: pageCount, tableAt, roots } };
}

function uintView(file: Uint8Array, width: 1 | 2 | 4, offset: number, length: number): UintArray {
  const at = file.byteOffset + offset;
  return width === 1 ? new Uint8Array(file.buffer, at, length) : width === 2 ? new Uint16Array(file.buffer, at, length) : new Uint32Array(file.buffer, at, length);
}

export function align(at: number, to: number): number {
  return Math.ceil(at / to) * to;
}

type NodeBuffer = Uint8Array & { utf8Slice?: (start: number, end: number) => string; toString(encoding: string, start: number, end: number): string };
const NodeBufferClass = (globalThis as { Buffer?: { from(buffer: ArrayBufferLike, offset: number, length: number): NodeBuffer } }).Buffer;
/** TextDecoder, which every runtime cpmx runs in has (typed here: the core is built without DOM types). */
type Utf8Decoder = { decode(bytes: Uint8Array): string };
let decoder: Utf8Decoder | undefined;

/** A reader of UTF-8 text in `bytes`: Node's Buffer decodes in one native call; elsewhere TextDecoder. */
export function utf8Reader(bytes: Uint8Array): (start: number, end: number) => string {
  if (NodeBufferClass) {
    const buffer = NodeBufferClass.from(bytes.buffer, bytes.byteOffset, bytes.length);
    return buffer.utf8Slice ? (start, end) => buffer.utf8Slice!(start, end) : (start, end) => buffer.toString('utf8', start, end);
  }
  return (start, end) => (decoder ??= new (globalThis as { TextDecoder?: new () => Utf8Decoder }).TextDecoder!()).decode(bytes.subarray(start, end));
}

function utf8(bytes: Uint8Array, start: number, end: number): string {
  return utf8Reader(bytes)(start, end);
}
