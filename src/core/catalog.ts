/**
 * The loaded catalog, opened from an artifact's bytes: the catalog read in place
 * (catalog-in-place.ts) with what names it (its build id) and what is said when it cannot be
 * read. Importers take the catalog and its parts from here.
 */
import { ArtifactError, REBUILD } from './artifact-error.js';
import { Catalog } from './catalog-in-place.js';
import { crc32 } from './crc32.js';
import { FORMAT_NAME, FORMAT_VERSION } from './format.js';
import { openEnvelope, peekFormat, readPayload } from './layout.js';

export { readArtifact } from './artifact-read.js';
export { ArtifactError, CATALOG_URL, isArtifactError, REBUILD } from './artifact-error.js';
export type { ArtifactSections } from './catalog-columns.js';
export { Catalog } from './catalog-in-place.js';
export type { CatalogReader } from './catalog-reader.js';
export { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type CodeEntry } from './code-entry.js';

/**
 * The payload checksum of a catalog decoded from a file's bytes (its envelope's CRC-32), kept on
 * the catalog under a registered symbol rather than in this module: the library's HTTP side is a
 * file of its own with its own copy of this module (scripts/bundle.mjs), and reads it too.
 */
const CHECKSUM = Symbol.for('cpmx.catalogChecksum');

/**
 * The build id of a decoded catalog: its artifact's CRC-32 (over everything but the envelope,
 * the header with its build time included), as 8 hex digits. Every build that changes a byte
 * gets another; undefined for a catalog not decoded from bytes.
 */
export function buildIdOf(catalog: Catalog): string | undefined {
  const checksum = Reflect.get(catalog, CHECKSUM) as number | undefined;
  return checksum === undefined ? undefined : checksum.toString(16).padStart(8, '0');
}

export interface DecodeOptions {
  /** The CRC-32 to check the payload with; Node's zlib.crc32 is faster than the portable one. */
  crc32?: ((bytes: Uint8Array) => number) | undefined;
}

/**
 * Opens an artifact from its bytes, reading them in place (they must not change after); `path`
 * names it in errors. The version is read first, so another version gets its own message; the
 * checksum is checked before anything else is read, so a damaged file is refused.
 */
export function decodeCatalog(bytes: Uint8Array, path: string, options: DecodeOptions = {}): Catalog {
  const named = peekFormat(bytes);
  if (!named) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  if (named.format !== FORMAT_NAME) throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
  if (named.version !== FORMAT_VERSION) {
    throw new ArtifactError(path, `is an artifact of format version ${String(named.version)}, and this cpmx reads version ${FORMAT_VERSION}; ${REBUILD}`);
  }
  const envelope = openEnvelope(bytes);
  if (!envelope) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  if ((options.crc32 ?? crc32)(envelope.payload) !== envelope.crc32) {
    throw new ArtifactError(path, `is damaged (its checksum does not match: it changed after it was built); ${REBUILD}`);
  }
  // Columns are viewed in place at offsets aligned from the file's first byte: bytes that do not
  // start at a multiple of 4 in their buffer (a slice of a larger one) are copied once.
  const file = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  try {
    const catalog = new Catalog(readPayload(file), path);
    Object.defineProperty(catalog, CHECKSUM, { value: envelope.crc32 });
    return catalog;
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    throw new ArtifactError(path, `is damaged (${(error as Error).message}); ${REBUILD}`);
  }
}
