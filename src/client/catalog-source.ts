/**
 * The artifact file as an adapter's catalog source: read and decoded on first need, once per
 * path for the whole process. A load that fails is tried again on the next need, so a server
 * started before `cpmx build` picks up the artifact once it is written.
 */
import { dirname, join } from 'node:path';
import { ArtifactError, REBUILD, decodeCatalog, type Catalog } from '../core/catalog.js';
import { crc32 } from '../core/crc32.js';
import { packageArtifactPath } from '../default-artifact.js';
import type { CatalogSource } from './bytes-source.js';
import { nodeFs, nodeZlib } from './node-builtins.js';
import { geoForCatalog } from './geodata.js';

export type { CatalogSource } from './bytes-source.js';

const loaded = new Map<string, Catalog>();

/**
 * Why the package's own artifact is missing: in an installed package (its package.json beside
 * data/), the install made none; elsewhere cpmx's code is inside an app's bundle, and the
 * artifact was not copied where that bundle looks.
 */
function ownArtifactMissing(path: string): string {
  if (nodeFs().existsSync(join(dirname(path), '..', 'package.json'))) return NO_DATA_YET;
  return 'no artifact here: cpmx runs from a bundle, and data/cpmx.msgpack was not copied there; give the artifact to createClient as dataPath (node_modules/cpmx/data/cpmx.msgpack copied beside the bundle) or as data (its bytes), or set CPMX_DATA to its path';
}

/**
 * The package's own artifact is missing where an install made none: from git, or from a
 * checkout with no catalog (the catalog's terms forbid shipping its data). One command gets it.
 */
export const NO_DATA_YET =
  'cpmx was installed without data (an install from git, or with no catalog to build from, makes none): run `npx cpmx build --download` to download the official catalog and build it here; `npx cpmx build --download --out FILE` with CPMX_DATA=FILE keeps it outside node_modules';

let checksum: ((data: Uint8Array) => number) | undefined;

/** zlib's CRC-32 (Node 20.15 and later) checks the artifact four times faster than the core's own, which older Nodes use. */
export function nodeCrc32(data: Uint8Array): number {
  checksum ??= (nodeZlib() as { crc32?: (data: Uint8Array) => number }).crc32 ?? crc32;
  return checksum(data);
}

/** The largest artifact read: a hundred times the official catalog's (2 MB), and a bound on memory. */
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

/**
 * The artifact's bytes: a regular file only, of at most MAX_ARTIFACT_BYTES. Opened without
 * blocking, so a FIFO is refused at once rather than waited on, and a device (`/dev/zero`)
 * is never read without end.
 */
function readArtifactFile(path: string): Buffer {
  const { closeSync, constants, fstatSync, openSync, readSync } = nodeFs();
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      const kind = stats.isFIFO() ? 'a FIFO' : stats.isCharacterDevice() ? 'a device' : stats.isDirectory() ? 'a directory' : 'not a regular file';
      throw new ArtifactError(path, `is ${kind}, not an artifact file; give the path of the artifact (a regular file)`);
    }
    if (stats.size > MAX_ARTIFACT_BYTES) throw new ArtifactError(path, `is ${stats.size} bytes, more than an artifact can be (${MAX_ARTIFACT_BYTES}); ${REBUILD}`);
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    for (let n = 1; read < bytes.length && n > 0; read += n) n = readSync(fd, bytes, read, bytes.length - read, read);
    return read === bytes.length ? bytes : bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Reads and decodes the artifact at `path`. */
export function loadCatalog(path: string): Catalog {
  let bytes: Buffer;
  try {
    bytes = readArtifactFile(path);
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && path === packageArtifactPath()) throw new ArtifactError(path, ownArtifactMissing(path));
    throw new ArtifactError(path, code === 'ENOENT' ? `no artifact here; ${REBUILD}` : `cannot be read (${code}); ${REBUILD}`);
  }
  return decodeCatalog(bytes, path, { crc32: nodeCrc32 });
}

/** The process-wide source of the artifact at `path` (an absolute path). */
export function catalogSource(path: string): CatalogSource {
  return {
    path,
    get() {
      let catalog = loaded.get(path);
      if (!catalog) {
        catalog = loadCatalog(path);
        loaded.set(path, catalog);
      }
      return catalog;
    },
    loaded: () => loaded.get(path),
    geo: geoForCatalog,
  };
}
