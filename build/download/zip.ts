/**
 * Checks that a downloaded zip is the catalog before it is written anywhere: one member named
 * `CPdescarga.txt` (by base name, ignoring case, as the reader finds it), that inflates whole,
 * whose second line is the header `d_codigo|...` and which holds at least one row after it.
 */
import { basename } from 'node:path';
import { unzipSync } from 'fflate';
import { CATALOG_MEMBER } from '../reader.js';
import { DownloadError } from './errors.js';

/** Far above the whole catalog's ~14 MB of text; a zip claiming more is refused before inflating. */
export const MAX_CATALOG_TEXT_BYTES = 256 * 1024 * 1024;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export interface CatalogMember {
  /** The member's name as stored in the zip. */
  name: string;
  /** Its size once inflated. */
  bytes: number;
  /** Its header line (line 2), as read. */
  header: string;
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** Returns the catalog member's facts, or throws DownloadError `bad-catalog`. */
export function checkCatalogZip(bytes: Uint8Array, maxTextBytes = MAX_CATALOG_TEXT_BYTES): CatalogMember {
  const members: string[] = [];
  let oversize: number | undefined;
  let text: Uint8Array | undefined;
  let name = '';
  try {
    const files = unzipSync(bytes, {
      filter: (file) => {
        if (basename(file.name).toLowerCase() !== CATALOG_MEMBER.toLowerCase()) return false;
        members.push(file.name);
        if (file.originalSize > maxTextBytes) oversize = file.originalSize;
        return members.length === 1 && oversize === undefined;
      },
    });
    name = members[0] ?? '';
    text = files[name];
  } catch (error) {
    // Damage in transit is the usual cause (a connection closed early with no length announced).
    throw new DownloadError('bad-catalog', `the downloaded zip is damaged or incomplete (${(error as Error).message})`, { transient: true, cause: error });
  }
  if (!members.length) throw new DownloadError('bad-catalog', `the downloaded zip holds no ${CATALOG_MEMBER}`);
  if (members.length > 1) throw new DownloadError('bad-catalog', `the downloaded zip holds ${members.length} ${CATALOG_MEMBER} members (${members.join(', ')}); expected one`);
  if (oversize !== undefined) throw new DownloadError('bad-catalog', `${name} in the downloaded zip claims ${oversize} bytes, over the limit of ${maxTextBytes}`);
  if (!text) throw new DownloadError('bad-catalog', `${name} could not be extracted from the downloaded zip`);

  // The first lines are ASCII apart from the notice's accents; Latin-1 reads any byte.
  const head = Buffer.from(text.buffer, text.byteOffset, Math.min(text.length, 64 * 1024)).toString('latin1');
  const lines = head.split('\n').map((line) => line.replace(/\r$/, ''));
  const header = lines[1] ?? '';
  if (!/^d_codigo\|/i.test(header)) {
    throw new DownloadError('bad-catalog', `${name} in the downloaded zip lacks the catalog header: line 2 is "${clip(header)}", expected "d_codigo|d_asenta|..."`);
  }
  if (!lines[2]?.trim()) throw new DownloadError('bad-catalog', `${name} in the downloaded zip has the header but no settlement after it`);
  return { name, bytes: text.length, header };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
