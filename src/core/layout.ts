/**
 * The artifact file, format 5: laid out so that the runtime reads it in place, with no
 * MessagePack decoder and no pass over the catalog at load.
 *
 * The file is one MessagePack map, `{ format, version, crc32, payload }`, written with fixed
 * widths so that the payload starts at PAYLOAD_AT: any MessagePack reader (an older cpmx among
 * them) reads its name and version and so can say which version it is. The payload (what the
 * CRC-32 covers) is not MessagePack; its integers are little-endian:
 *
 *   u32 length of the header, the header as JSON (UTF-8), zero bytes up to a multiple of 4;
 *   u32 number of sections (SECTIONS.length), then per section: u32 kind, u32 offset (from the
 *   file's first byte), u32 number of elements;
 *   the sections' elements, each section at an offset that is a multiple of its width.
 *
 * A section's kind is its element width for an unsigned column (1, 2 or 4), ABSENT for an
 * optional section the artifact lacks, OTHER for any other typed array (which a reader refuses).
 * Every sum and index the runtime needs is a section the compiler made (string table starts,
 * settlement starts, the trie's first children), so loading views columns in place, checks
 * sizes and the checksum, and reads nothing else.
 */
import { FORMAT_NAME, type ArtifactHeader, type UintArray } from './format.js';

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
 * Optional sections added to format 5 after its first files were written, at the end of the
 * table: a file that ends its table before them (written by an earlier cpmx) reads as lacking them.
 */
export const LATER_SECTIONS = 1;

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
/** After the version (a positive fixint): `crc32` as a uint 32, `payload` as a bin 32. */
const CRC_KEY = [0xa5, ...ascii('crc32'), 0xce];
const PAYLOAD_KEY = [0xa7, ...ascii('payload'), 0xc6];
const VERSION_AT = ENVELOPE_HEAD.length;
const CRC_AT = VERSION_AT + 1 + CRC_KEY.length;
const LENGTH_AT = CRC_AT + 4 + PAYLOAD_KEY.length;
/** Where the payload begins in the file. */
export const PAYLOAD_AT = LENGTH_AT + 4;

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

/** The envelope of a payload of `length` bytes with checksum `crc32`. */
export function envelope(version: number, crc32: number, length: number): Uint8Array {
  const bytes = new Uint8Array(PAYLOAD_AT);
  bytes.set(ENVELOPE_HEAD);
  bytes[VERSION_AT] = version & 0x7f;
  bytes.set(CRC_KEY, VERSION_AT + 1);
  const view = new DataView(bytes.buffer);
  view.setUint32(CRC_AT, crc32 >>> 0);
  bytes.set(PAYLOAD_KEY, CRC_AT + 4);
  view.setUint32(LENGTH_AT, length);
  return bytes;
}

/** The envelope's checksum and payload, or undefined when the bytes are not a whole format-5 envelope. */
export function openEnvelope(bytes: Uint8Array): { crc32: number; payload: Uint8Array } | undefined {
  if (bytes.length < PAYLOAD_AT) return undefined;
  for (let i = 0; i < VERSION_AT; i++) if (bytes[i] !== ENVELOPE_HEAD[i]) return undefined;
  for (let i = 0; i < CRC_KEY.length; i++) if (bytes[VERSION_AT + 1 + i] !== CRC_KEY[i]) return undefined;
  for (let i = 0; i < PAYLOAD_KEY.length; i++) if (bytes[CRC_AT + 4 + i] !== PAYLOAD_KEY[i]) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, PAYLOAD_AT);
  if (view.getUint32(LENGTH_AT) !== bytes.length - PAYLOAD_AT) return undefined;
  return { crc32: view.getUint32(CRC_AT), payload: bytes.subarray(PAYLOAD_AT) };
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
}

/**
 * The payload's header and sections, viewed in place in `file` (the whole file, its first byte
 * at a multiple of 4 in its buffer). Throws an Error saying what does not fit.
 */
export function readPayload(file: Uint8Array): Payload {
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const u32 = (at: number, what: string) => {
    if (at + 4 > file.length) throw new Error(`${what} is cut short`);
    return view.getUint32(at, true);
  };
  let at = PAYLOAD_AT;
  const headerLength = u32(at, 'the header');
  at += 4;
  if (at + headerLength > file.length) throw new Error('the header is cut short');
  let header: ArtifactHeader;
  try {
    header = JSON.parse(utf8(file, at, at + headerLength)) as ArtifactHeader;
  } catch {
    throw new Error('the header is not JSON');
  }
  at = align(at + headerLength, 4);
  const count = u32(at, 'the section table');
  if (count !== SECTIONS.length && count !== SECTIONS.length - LATER_SECTIONS) throw new Error(`${count} sections where the format has ${SECTIONS.length}`);
  at += 4;
  const sections: Section[] = [];
  for (let i = 0; i < count; i++, at += 12) {
    const kind = u32(at, 'the section table');
    const offset = u32(at + 4, 'the section table');
    const length = u32(at + 8, 'the section table');
    sections.push({ kind, column: kind === 1 || kind === 2 || kind === 4 ? uintView(file, kind, offset, length, SECTIONS[i]!) : undefined });
  }
  while (sections.length < SECTIONS.length) sections.push({ kind: ABSENT, column: undefined });
  return { header, sections };
}

function uintView(file: Uint8Array, width: 1 | 2 | 4, offset: number, length: number, name: string): UintArray {
  if (offset % width !== 0 || offset + length * width > file.length) throw new Error(`the section ${name} lies outside the file`);
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
