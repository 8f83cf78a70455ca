/**
 * The geodata of a loaded catalog, for the Node adapters: the file beside its artifact
 * (`cpmx.geo` beside `cpmx.msgpack`), read at the first geo call and kept with that catalog
 * (a catalog reloaded from a rebuilt artifact reads its geodata anew). Lookups that use no
 * geodata never come here. When there is none, or it is damaged, the reason is what 113 says.
 */
import type { Catalog } from '../core/catalog.js';
import { NO_GEODATA } from '../core/geo/messages.js';
import type { GeoIndex } from '../core/geo/geo-index.js';
import { geoPathOf } from '../core/geo/path.js';
import { readGeo } from './geo-codec.js';

const loaded = new WeakMap<Catalog, GeoIndex | string>();

/** The geodata beside `catalog`'s artifact, or why there is none (a missing file is looked for again next time). */
export function geoForCatalog(catalog: Catalog): GeoIndex | string {
  const known = loaded.get(catalog);
  if (known !== undefined) return known;
  if (!catalog.path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(catalog.path)) return `${NO_GEODATA} (artefacto dado como bytes)`;
  const path = geoPathOf(catalog.path);
  const result = readGeo(path);
  if (result !== undefined) loaded.set(catalog, result);
  return result ?? `${NO_GEODATA} (no hay ${path})`;
}
