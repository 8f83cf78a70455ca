import { OutputError } from '../src/output-file.js';

/** A catalog that cannot be compiled: names the file, the line when there is one, and why. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${file}: ${reason}` : `${file}, line ${line}: ${reason}`);
  }
}

/** The artifact could not be written where it was asked for; names the path and the reason. */
export class ArtifactWriteError extends OutputError {
  override readonly name: string = 'ArtifactWriteError';
}
