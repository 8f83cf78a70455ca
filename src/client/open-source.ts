/**
 * The catalog source an option set names: the artifact's bytes when given, else its file
 * (dataPath, else CPMX_DATA, else the package's own). The web bundle replaces this module with
 * open-source.web.ts, which reads no file, so nothing from `node:` is bundled for browsers and
 * edge runtimes (scripts/bundle.mjs).
 */
import { ArtifactError } from '../core/catalog.js';
import { artifactPath } from '../paths.js';
import { bytesSource, missingSource, type ArtifactData, type CatalogSource } from './bytes-source.js';
import { catalogSource } from './catalog-source.js';
import { nodeUrl } from '../node-builtins.js';

/** Where a process is, an old catalog and a code passed as a number are said once (old-catalog.ts); the web build says nothing. */
export { emitCpNumberWarning as warnCpNumber, emitOldCatalogWarning as warnIfOld } from './old-catalog.js';

export interface SourceOptions {
  /** The artifact's bytes; nothing is read from disk. */
  data?: ArtifactData | undefined;
  /** The artifact's file (a path, or a `file:` URL); default CPMX_DATA, else the package's data/cpmx.msgpack. */
  dataPath?: string | URL | undefined;
}

export function openSource({ data, dataPath }: SourceOptions): CatalogSource {
  if (data === undefined) return fileSource(dataPath instanceof URL ? nodeUrl().fileURLToPath(dataPath) : dataPath);
  if (dataPath !== undefined) throw new TypeError('cpmx: give the artifact as data or as dataPath, not both');
  return bytesSource(data);
}

/**
 * The artifact's file; where the package's own cannot be located (inside some bundles), a
 * source that fails at first real-data need with the advice, as a missing file does.
 */
function fileSource(given: string | undefined): CatalogSource {
  let path: string;
  try {
    path = artifactPath(given);
  } catch (error) {
    if (error instanceof ArtifactError) return missingSource(error.reason, error.path);
    throw error;
  }
  return catalogSource(path);
}
