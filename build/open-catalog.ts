/**
 * A catalog to compare, from whichever form it is given in: an artifact (cpmx.msgpack) is
 * loaded as the lookups load it; a catalog file (text or zip, read with the build's checks)
 * is compiled in memory. Told apart by content: an artifact is a MessagePack map, whose first
 * byte no catalog text or zip starts with.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { loadCatalog } from '../src/client/catalog-source.js';
import { decodeCatalog, type Catalog } from '../src/core/catalog.js';
import { readCatalogs, type ReadOptions } from './read-catalogs.js';
import { provenance } from './provenance.js';
import { encodeArtifact } from './write.js';

export async function openCatalog(path: string, options: ReadOptions = {}): Promise<Catalog> {
  if (isArtifact(path)) return loadCatalog(path);
  const { model, sources } = await readCatalogs([path], options);
  // Through the artifact's bytes, so that a catalog compared is read exactly as a loaded one is.
  return decodeCatalog(encodeArtifact(model.toArtifact(provenance(sources, new Date()))), path);
}

/** True when the file starts as a MessagePack map does (fixmap 0x80–0x8f, map 16, map 32). */
function isArtifact(path: string): boolean {
  let fd: number;
  try {
    // Only a regular file can be an artifact: a pipe or FIFO is left to the catalog reader, unread.
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
  } catch {
    return false; // the catalog reader says what is wrong with it
  }
  try {
    const first = Buffer.alloc(1);
    if (readSync(fd, first, 0, 1, 0) !== 1) return false;
    return (first[0]! >= 0x80 && first[0]! <= 0x8f) || first[0] === 0xde || first[0] === 0xdf;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
