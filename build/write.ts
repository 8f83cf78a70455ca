/**
 * Writes the artifact: encodes the model in format 6 (src/core/layout.ts), then writes it
 * atomically: a temporary file beside the target, then a rename, so a failed or interrupted
 * build never leaves a half-written artifact nor replaces a good one. A process killed before
 * its rename (SIGKILL, power loss) cannot remove its temporary file; the next write to the
 * same target does, once the process that made it is gone. What may be written, and how, is
 * decided once for every command in src/output-file.ts.
 */
import { CODE_LENGTH, compactUints, stringTableText, type Artifact, type StringTable } from '../src/core/format.js';
import { ABSENT, COLUMNS, OTHER, PAYLOAD_AT, SECTIONS, STRING_BLOCK, STRING_TABLES, align, envelope, headCheck, peekFormat, type ColumnName } from '../src/core/layout.js';
import { PAGE_BYTES, TABLE_PAGE_BITS, pageHashes } from '../src/core/pages.js';
import { OutputError, planOutput, writeOutputFile } from '../src/output-file.js';
import { ArtifactWriteError } from './errors.js';

/**
 * Encodes the artifact in format 6; the same artifact always gives the same bytes. The sums and
 * indices the runtime needs (string-table offsets, settlement and state-city starts, the trie's
 * first children) are made here. Parts are written as given, even when they do not fit together
 * (tests forge such files): the runtime is the one that refuses them.
 */
export function encodeArtifact(artifact: Artifact): Buffer {
  const header = Buffer.from(JSON.stringify(artifact.header ?? {}));
  const sections: (ArrayBufferView | undefined)[] = [
    ...STRING_TABLES.flatMap((name) => stringSections(artifact.strings?.[name])),
    ...COLUMNS.map((name) => columnOf(artifact, name)),
  ];
  // The head holds a root for each table page, so its room for them is counted from the most
  // pages the sections can fill (each may add up to 3 bytes of alignment); the pages follow it.
  const sizes = sections.reduce((total, section) => total + (section ? section.byteLength + 3 : 0), 0);
  const rootRoom = Math.ceil(Math.ceil(sizes / PAGE_BYTES) / (1 << TABLE_PAGE_BITS));
  const dataStart = align(align(PAYLOAD_AT + 8 + header.length, 4) + 4 + 12 * SECTIONS.length + 12 + 4 * rootRoom, PAGE_BYTES);
  let end = dataStart;
  const offsets = sections.map((section) => {
    if (!section) return 0;
    const offset = align(end, 4);
    end = offset + section.byteLength;
    return offset;
  });
  const pages = Math.ceil((end - dataStart) / PAGE_BYTES);
  const tableAt = dataStart + pages * PAGE_BYTES;
  const rootCount = Math.ceil(pages / (1 << TABLE_PAGE_BITS));
  const file = Buffer.alloc(tableAt + rootCount * PAGE_BYTES);
  let at = PAYLOAD_AT;
  file.writeUInt32LE(dataStart, at);
  file.writeUInt32LE(header.length, at + 4);
  file.set(header, at + 8);
  at = align(at + 8 + header.length, 4);
  file.writeUInt32LE(SECTIONS.length, at);
  at += 4;
  sections.forEach((section, i) => {
    file.writeUInt32LE(kindOf(section), at);
    file.writeUInt32LE(offsets[i]!, at + 4);
    file.writeUInt32LE(section ? (section as unknown as ArrayLike<number>).length : 0, at + 8);
    at += 12;
    if (section) file.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), offsets[i]);
  });
  file.writeUInt32LE(pages, at);
  file.writeUInt32LE(tableAt, at + 4);
  file.writeUInt32LE(rootCount, at + 8);
  return sealPages(file, artifact.header?.version ?? 0);
}

/**
 * Writes the checksums of a laid-out file in place: each page's hash in the page table, each
 * table page's in the head, then the head's in the envelope. The last step of encoding, and
 * how tests make a file whose insides they changed check again (a forged file); `version` is
 * the envelope's (by default the one the file names).
 */
export function sealPages(file: Buffer, version = Number(peekFormat(file)?.version ?? 0)): Buffer {
  const dataStart = file.readUInt32LE(PAYLOAD_AT);
  const headerEnd = align(PAYLOAD_AT + 8 + file.readUInt32LE(PAYLOAD_AT + 4), 4);
  const rootsAt = headerEnd + 4 + 12 * file.readUInt32LE(headerEnd) + 12;
  const pages = file.readUInt32LE(rootsAt - 12);
  const tableAt = file.readUInt32LE(rootsAt - 8);
  // Hashed in a copy: the words are read in place, so they must start at a multiple of 4, and a small Buffer may not.
  const hashes = pageHashes(new Uint8Array(file), dataStart, pages);
  file.set(new Uint8Array(hashes.table.buffer), tableAt);
  file.set(new Uint8Array(hashes.roots.buffer), rootsAt);
  // The envelope first: the head's hash covers the payload's length, in the word the payload starts in.
  file.set(envelope(version, 0, file.length - PAYLOAD_AT));
  file.set(envelope(version, headCheck(new Uint8Array(file.subarray(0, dataStart)), dataStart), file.length - PAYLOAD_AT));
  return file;
}

function kindOf(section: ArrayBufferView | undefined): number {
  if (!section) return ABSENT;
  if (section instanceof Uint8Array) return 1;
  if (section instanceof Uint16Array) return 2;
  if (section instanceof Uint32Array) return 4;
  return OTHER;
}

/** A string table's three sections: its UTF-8 bytes, each entry's length in bytes, and every STRING_BLOCK-th entry's offset (then the total). */
function stringSections(table: StringTable | undefined): (ArrayBufferView | undefined)[] {
  if (!table) return [undefined, undefined, undefined];
  const text = stringTableText(table);
  const byteLengths: number[] = [];
  const starts: number[] = [];
  let total = 0;
  for (let i = 0, at = 0; i < table.lengths.length; i++) {
    if (i % STRING_BLOCK === 0) starts.push(total);
    const end = at + table.lengths[i]!;
    // Characters the lengths claim beyond the text count one byte each, so that lengths that
    // do not add up to the text make a table that does not add up to its bytes.
    const length = Buffer.byteLength(text.slice(at, end)) + Math.max(0, end - Math.max(at, text.length));
    byteLengths.push(length);
    total += length;
    at = end;
  }
  starts.push(total);
  return [Buffer.from(text), compactUints(byteLengths), compactUints(starts)];
}

/** A column of the file, from the model's own or made from them. */
function columnOf(artifact: Artifact, name: ColumnName): ArrayBufferView | undefined {
  switch (name) {
    case 'trieFirstChild':
    case 'trieLevels':
      return artifact.trie && trieIndex(artifact.trie)[name];
    case 'settlementStart':
      return artifact.codeSettlements && runningSums(artifact.codeSettlements);
    case 'stateCityStart':
      return artifact.stateCityCounts && runningSums(artifact.stateCityCounts);
    default:
      return artifact[name];
  }
}

/** `[0, a, a + b, ...]`: where each count's items start, then their total. */
function runningSums(counts: ArrayLike<number>): ArrayBufferView {
  const sums = [0];
  for (let i = 0; i < counts.length; i++) sums.push(sums[i]! + counts[i]!);
  return compactUints(sums);
}

/** Each trie node's first child and each depth's first node, as the runtime walks them (a trie cut short gives levels that do not fit it). */
function trieIndex(masks: ArrayLike<number>): { trieFirstChild: ArrayBufferView; trieLevels: ArrayBufferView } {
  const firstChild: number[] = [];
  const levels = [0];
  let node = 0;
  let levelEnd = 1;
  let next = 1;
  for (let depth = 0; depth < CODE_LENGTH; depth++) {
    if (depth === CODE_LENGTH - 1) next = 0; // the children of the last level are codes
    for (; node < levelEnd && node < masks.length; node++) {
      firstChild.push(next);
      next += popcount(masks[node]! & 0x3ff);
    }
    levels.push(levelEnd);
    if (depth < CODE_LENGTH - 1) levelEnd = next;
  }
  return { trieFirstChild: compactUints(firstChild), trieLevels: compactUints(levels) };
}

function popcount(mask: number): number {
  let count = 0;
  for (; mask; mask &= mask - 1) count++;
  return count;
}

/**
 * Writes `bytes` to `path` by the one output rule (src/output-file.ts): a temporary file
 * renamed over a regular file, a device or FIFO written in place, never an input (`inputs`:
 * paths, or 0 for stdin). Returns the number of bytes.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, inputs: readonly (string | number)[] = []): number {
  return asWriteError(path, () => writeOutputFile(path, bytes, { inputs, createDirectories: true }));
}

/** Throws ArtifactWriteError now when `path` could not be written later (an input, a directory, ...). */
export function checkArtifactPath(path: string, inputs: readonly (string | number)[] = []): void {
  asWriteError(path, () => planOutput(path, { inputs }));
}

function asWriteError<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof OutputError) throw new ArtifactWriteError(path, error.reason);
    throw error;
  }
}
