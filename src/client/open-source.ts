/**
 * The catalog source an option set names: the artifact's bytes when given, else its file
 * (dataPath, else CPMX_DATA, else the package's own). The web bundle replaces this module with
 * open-source.web.ts, which reads no file, so nothing from `node:` is bundled for browsers and
 * edge runtimes (scripts/bundle.mjs).
 */
import { fileURLToPath } from 'node:url';
import { artifactPath } from '../paths.js';
import { bytesSource, type ArtifactData, type CatalogSource } from './bytes-source.js';
import { catalogSource, nodeCrc32 } from './catalog-source.js';

export interface SourceOptions {
  /** The artifact's bytes; nothing is read from disk. */
  data?: ArtifactData | undefined;
  /** The artifact's file (a path, or a `file:` URL); default CPMX_DATA, else the package's data/cpmx.msgpack. */
  dataPath?: string | URL | undefined;
}

export function openSource({ data, dataPath }: SourceOptions): CatalogSource {
  if (data === undefined) return catalogSource(artifactPath(dataPath instanceof URL ? fileURLToPath(dataPath) : dataPath));
  if (dataPath !== undefined) throw new TypeError('cpmx: give the artifact as data or as dataPath, not both');
  return bytesSource(data, { crc32: nodeCrc32 });
}
