/**
 * Where an adapter's catalog comes from, and the source that needs no file system: the
 * artifact's bytes, handed over by the app (fetched in a browser, bundled into a worker,
 * read by the app itself). Nothing here touches `node:`, so every runtime can run it.
 */
import type { GeoIndex } from '../core/geo/geo-index.js';
import { ArtifactError, decodeCatalog, type Catalog } from '../core/catalog.js';

export interface CatalogSource {
  /** What is read: the artifact's path, or DATA_NAME for bytes. */
  readonly path: string;
  /** The catalog, loading it now if needed; throws ArtifactError when it cannot be read. */
  get(): Catalog;
  /** The catalog if it is loaded, without trying to load it. */
  loaded(): Catalog | undefined;
  /** The geodata beside a catalog's artifact file (Node only), or why there is none: read at the first geo call. */
  geo?: ((catalog: Catalog) => GeoIndex | string) | undefined;
}

/** The artifact's bytes, as `fetch`, `readFile` or a bundler's binary loader give them. */
export type ArtifactData = Uint8Array | ArrayBuffer;

/** How bytes are named in errors and in /health. */
export const DATA_NAME = 'the artifact given as data';

/** Decoded catalogs by the bytes they came from: clients and handlers given the same bytes share one. */
const decoded = new WeakMap<object, Catalog>();

/** Throws a TypeError that says what `data` must be, unless it is bytes. */
export function checkData(data: unknown): asserts data is ArtifactData {
  if (!(data instanceof Uint8Array) && !(data instanceof ArrayBuffer)) {
    const what = data === null ? 'null' : typeof data === 'object' ? (data.constructor?.name ?? 'an object') : typeof data;
    throw new TypeError(`cpmx: data must be the artifact's bytes (a Uint8Array or an ArrayBuffer), got ${what}; a file's path goes in dataPath`);
  }
}

/**
 * The source of a catalog given as bytes, decoded on first need (the bytes must not change
 * after).
 */
export function bytesSource(data: ArtifactData): CatalogSource {
  checkData(data);
  return {
    path: DATA_NAME,
    get() {
      let catalog = decoded.get(data);
      if (!catalog) {
        catalog = decodeCatalog(data instanceof Uint8Array ? data : new Uint8Array(data), DATA_NAME);
        decoded.set(data, catalog);
      }
      return catalog;
    },
    loaded: () => decoded.get(data),
  };
}

/** A source with nothing to read: every real-data request fails with `reason` (test mode still answers). */
export function missingSource(reason: string, path = DATA_NAME): CatalogSource {
  return {
    path,
    get() {
      throw new ArtifactError(path, reason);
    },
    loaded: () => undefined,
  };
}
