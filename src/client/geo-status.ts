/** What `cpmx status` says of the geodata beside an artifact. */
import type { Catalog } from '../core/catalog.js';
import { geoPathOf } from '../core/geo/path.js';
import { geoForCatalog } from './geodata.js';

/** What `cpmx status` says of the geodata: its file, the polygons' version, the states and codes it covers; or why there is none. */
export function geoStatus(catalog: Catalog): { file: string; version: string | null; states: { estado: string; codes: number }[]; codes: number; builtAt: string } | { file: string; missing: string } {
  const file = geoPathOf(catalog.path);
  const geo = geoForCatalog(catalog);
  if (typeof geo === 'string') return { file, missing: geo };
  const { version, states, codes, builtAt } = geo.header;
  return { file, version, states, codes, builtAt };
}
