/**
 * The geodata of a loaded catalog, for the Node adapters: the file beside its artifact
 * (`cpmx.geo` beside `cpmx.msgpack`), read at the first geo call and kept with that catalog
 * (a catalog reloaded from a rebuilt artifact reads its geodata anew). Lookups that use no
 * geodata never come here. When there is none, or it is damaged, the reason is what 113 says.
 */
import { nodeFs } from './node-builtins.js';
import type { Catalog } from '../core/catalog.js';
import { NO_GEODATA } from '../core/geo/answers.js';
import { GeoFormatError, geoPathOf } from '../core/geo/format.js';
import { openGeo, type GeoIndex } from '../core/geo/geo-index.js';

/** The largest geodata file read: the 32 states take a few MB. */
export const MAX_GEO_BYTES = 512 * 1024 * 1024;

const loaded = new WeakMap<Catalog, GeoIndex | string>();

/** The geodata beside `catalog`'s artifact, or why there is none (a missing file is looked for again next time). */
export function geoForCatalog(catalog: Catalog): GeoIndex | string {
  const known = loaded.get(catalog);
  if (known !== undefined) return known;
  if (!catalog.path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(catalog.path)) return `${NO_GEODATA} (el artefacto se dio como bytes: la geodata se lee junto a un archivo)`;
  const path = geoPathOf(catalog.path);
  const result = readGeo(path);
  if (result !== undefined) loaded.set(catalog, result);
  return result ?? `${NO_GEODATA} (no hay ${path})`;
}

/** The geodata at `path`; undefined when there is no file; a reason when it cannot be used. */
export function readGeo(path: string): GeoIndex | string | undefined {
  const { closeSync, constants, fstatSync, openSync, readSync } = nodeFs();
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `${path} no se puede leer (${code})`;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return `${path} no es un archivo regular`;
    if (stats.size > MAX_GEO_BYTES) return `${path} tiene ${stats.size} bytes, más de los ${MAX_GEO_BYTES} que puede tener`;
    const bytes = new Uint8Array(stats.size);
    let read = 0;
    for (let n = 1; read < bytes.length && n > 0; read += n) n = readSync(fd, bytes, read, bytes.length - read, read);
    return openGeo(bytes.subarray(0, read));
  } catch (error) {
    if (error instanceof GeoFormatError || error instanceof RangeError) return `${path} está dañado (${error.message}); reconstrúyalo con \`cpmx build --geo FILE...\``;
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** What `cpmx status` says of the geodata: its file, the polygons' version, the states and codes it covers; or why there is none. */
export function geoStatus(catalog: Catalog): { file: string; version: string | null; states: { estado: string; codes: number }[]; codes: number; builtAt: string } | { file: string; missing: string } {
  const file = geoPathOf(catalog.path);
  const geo = geoForCatalog(catalog);
  if (typeof geo === 'string') return { file, missing: geo };
  const { version, states, codes, builtAt } = geo.header;
  return { file, version, states, codes, builtAt };
}
