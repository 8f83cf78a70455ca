/**
 * Checks that a downloaded zip is the catalog before it is written anywhere: one member named
 * `CPdescarga.txt` (by base name, ignoring case, as the reader finds it), that inflates whole
 * to its declared size and CRC-32, whose second line is the header `d_codigo|...` and which
 * holds at least one row after it. The zip is read by the same module as the build's.
 */
import { DEFAULT_LIMITS } from '../limits.js';
import { CATALOG_MEMBER } from '../reader.js';
import { findMember, inflateMemberSync, readZipDirectory, ZipError, type ZipEntry } from '../zip.js';
import { DownloadError } from './errors.js';

/** The build's own bound (far above the whole catalog's ~14 MB of text); a zip claiming more is refused before inflating. */
export const MAX_CATALOG_TEXT_BYTES = DEFAULT_LIMITS.maxBytes;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export interface CatalogMember {
  /** The member's name as stored in the zip. */
  name: string;
  /** Its size once inflated. */
  bytes: number;
  /** Its header line (line 2), as read. */
  header: string;
  /** The member's timestamp as the zip records it (see ZipEntry.modified), when it has one. */
  modified?: string;
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** Returns the catalog member's facts, or throws DownloadError `bad-catalog`. */
export function checkCatalogZip(bytes: Uint8Array, maxTextBytes = MAX_CATALOG_TEXT_BYTES): CatalogMember {
  let entry: ZipEntry;
  let text: Buffer;
  try {
    entry = findMember(readZipDirectory(bytes), CATALOG_MEMBER);
  } catch (error) {
    throw asDownloadError(error);
  }
  if (entry.size > maxTextBytes) throw new DownloadError('bad-catalog', `${entry.name} in the downloaded zip claims ${entry.size} bytes, over the limit of ${maxTextBytes}`);
  try {
    text = inflateMemberSync(bytes, entry, maxTextBytes);
  } catch (error) {
    throw asDownloadError(error);
  }
  const name = entry.name;
  // The first lines are ASCII apart from the notice's accents; Latin-1 reads any byte.
  const head = text.toString('latin1', 0, Math.min(text.length, 64 * 1024));
  // Line endings as the build reads them: CRLF, LF or a lone CR.
  const lines = head.split(/\r\n|\n|\r/);
  const header = lines[1] ?? '';
  if (!/^d_codigo\|/i.test(header)) {
    throw new DownloadError('bad-catalog', `${name} in the downloaded zip lacks the catalog header: line 2 is "${clip(header)}", expected "d_codigo|d_asenta|..."`);
  }
  if (!lines[2]?.trim()) throw new DownloadError('bad-catalog', `${name} in the downloaded zip has the header but no settlement after it`);
  return { name, bytes: text.length, header, ...(entry.modified ? { modified: entry.modified } : {}) };
}

function asDownloadError(error: unknown): DownloadError {
  if (!(error instanceof ZipError)) throw error;
  // Damage in transit is the usual cause (a connection closed early with no length announced): worth another attempt.
  const damaged = /^(is damaged|is truncated|has no central directory)/.test(error.message);
  const reason = damaged ? `the downloaded zip is damaged or incomplete (it ${error.message})` : `the downloaded zip ${error.message}`;
  return new DownloadError('bad-catalog', reason, { transient: damaged, cause: error });
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
