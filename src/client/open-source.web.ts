/**
 * open-source.ts for runtimes without a file system (browsers, edge and worker runtimes): the
 * artifact comes as bytes or not at all. Without them test mode still answers, and real-data
 * requests fail with an ArtifactError that says how to give them.
 */
import { REBUILD } from '../core/catalog.js';
import { bytesSource, missingSource, type CatalogSource } from './bytes-source.js';
import type { ArtifactHeader } from '../core/format.js';
import type { SourceOptions } from './open-source.js';

/** A browser's page has no stderr to warn on and no command to run: an old catalog is not said here. */
export function warnIfOld(_header: ArtifactHeader): void {}

let cpNumberSaid = false;

/** `infoCp(9810)` in a page: said once on the console (the answer stays 102). */
export function warnCpNumber(message: string): void {
  if (cpNumberSaid) return;
  cpNumberSaid = true;
  console.warn(`cpmx: ${message}`);
}

export function openSource({ data, dataPath }: SourceOptions): CatalogSource {
  if (dataPath !== undefined) throw new TypeError(`cpmx: this build reads no files (dataPath "${String(dataPath)}"); give the artifact's bytes as data`);
  if (data === undefined) {
    return missingSource(`no artifact: this build reads no files, so pass the artifact's bytes as data (fetch data/cpmx.msgpack, or import it with your bundler's binary loader); to make one, ${REBUILD}`);
  }
  return bytesSource(data);
}
