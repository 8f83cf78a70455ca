/**
 * The loaded catalog, opened from an artifact's bytes: the catalog read in place
 * (catalog-in-place.ts) with what names it (its build id) and what is said when it cannot be
 * read. Importers take the catalog and its parts from here.
 */
import { ArtifactError, REBUILD } from './artifact-error.js';
import { Catalog } from './catalog-in-place.js';
import { FORMAT_NAME, FORMAT_VERSION } from './format.js';
import { PAYLOAD_AT, aligned, headCheck, headEnd, openEnvelope, peekFormat, readPayload } from './layout.js';
import type { Fill } from './pages.js';

export { readArtifact } from './artifact-read.js';
export { ArtifactError, CATALOG_URL, isArtifactError, REBUILD } from './artifact-error.js';
export type { ArtifactSections } from './catalog-columns.js';
export { Catalog } from './catalog-in-place.js';
export type { CatalogReader } from './catalog-reader.js';
export { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type CodeEntry } from './code-entry.js';

/**
 * The check of a catalog decoded from a file's bytes (its envelope's hash of its head), kept on
 * the catalog under a registered symbol rather than in this module: the library's HTTP side is a
 * file of its own with its own copy of this module (scripts/bundle.mjs), and reads it too.
 */
const CHECKSUM = Symbol.for('cpmx.catalogChecksum');

/**
 * The build id of a decoded catalog: its artifact's check (the hash of its head, which holds the
 * header with its build time and the hashes every other byte is checked by), as 8 hex digits.
 * Every build that changes a byte gets another; undefined for a catalog not decoded from bytes.
 */
export function buildIdOf(catalog: Catalog): string | undefined {
  const checksum = Reflect.get(catalog, CHECKSUM) as number | undefined;
  return checksum === undefined ? undefined : checksum.toString(16).padStart(8, '0');
}

/**
 * Opens an artifact from its bytes, reading them in place (they must not change after); `path`
 * names it in errors. The version is read first, so another version gets its own message; the
 * head's checksum is checked before anything else is read, and each page where it is first
 * read (pages.ts), so a damaged file never answers.
 *
 * `fill`, for a source that reads lazily: `bytes` is then the whole file's buffer with only its
 * first bytes read, and `fill(from, to)` reads more of it where it is needed.
 */
export function decodeCatalog(bytes: Uint8Array, path: string, fill?: Fill): Catalog {
  const envelope = openEnvelope(bytes);
  if (envelope?.version !== FORMAT_VERSION) {
    // Not this format: what the file names says which message (read only then, as a first answer needs none of it).
    const named = peekFormat(bytes);
    if (!named) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
    if (named.format !== FORMAT_NAME) throw new ArtifactError(path, `is not a cpmx artifact; ${REBUILD}`);
    if (named.version !== FORMAT_VERSION) {
      throw new ArtifactError(path, `is an artifact of format version ${String(named.version)}, and this cpmx reads version ${FORMAT_VERSION}; ${REBUILD}`);
    }
  }
  const head = envelope && headEnd(bytes);
  if (!envelope || head === undefined || head > bytes.length || head < PAYLOAD_AT + 4 || head % 4 !== 0) throw new ArtifactError(path, `is truncated or not a cpmx artifact; ${REBUILD}`);
  fill?.(0, head);
  const file = aligned(bytes);
  if (headCheck(file, head) !== envelope.check) {
    throw new ArtifactError(path, `is damaged (its checksum does not match: it changed after it was built); ${REBUILD}`);
  }
  try {
    const catalog = new Catalog(readPayload(file), path, file, fill);
    Object.defineProperty(catalog, CHECKSUM, { value: envelope.check });
    return catalog;
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    throw new ArtifactError(path, `is damaged (${(error as Error).message}); ${REBUILD}`);
  }
}
