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
