/**
 * `geo-codec.ts` in the browser and edge bundles (scripts/bundle.mjs swaps it in): no file
 * system, so no geodata file is read (the geo calls answer 113); the helpers are the core's.
 */
import type { GeoIndex } from '../core/geo/geo-index.js';

export { geoHelpers } from '../core/geo/helpers.js';

export function readGeo(_path: string): GeoIndex | string | undefined {
  return undefined;
}
