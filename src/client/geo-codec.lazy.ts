/**
 * `geo-codec.ts` in the Node bundles (scripts/bundle.mjs swaps it in): the decoder and index are
 * dist/cpmx-geo.cjs, required at the first geo call, so that a lookup's cold start loads none
 * of them. Found beside the package's own files; inside an app's bundle that keeps no trace of
 * them, the geo calls say so (113).
 */
import { packageArtifactPath } from '../default-artifact.js';
import type * as codec from './geo-codec.js';
import type { GeoIndex } from '../core/geo/geo-index.js';
import { GeodataError } from '../core/geo/geodata-error.js';
import type { GeoHelpers } from '../core/geo/helpers.js';
import type * as answers from '../core/geo/answers.js';
import { failureSaying } from '../core/contract.js';
import { nodePath, requireFile } from '../node-builtins.js';

let loaded: typeof codec | undefined;

/** dist/cpmx-geo.cjs, required once; undefined inside a bundle that keeps no trace of the package. */
export function load(): typeof codec | undefined {
  if (!loaded) {
    const artifact = packageArtifactPath();
    if (artifact === undefined) return undefined;
    const { dirname, join } = nodePath();
    const file = join(dirname(artifact), '..', 'dist', 'cpmx-geo.cjs');
    loaded = requireFile(file) as typeof codec;
  }
  return loaded;
}

/** Why there is no geodata where dist/cpmx-geo.cjs cannot be found. */
export const NO_GEO_CODE = 'dist/cpmx-geo.cjs no está junto a este bundle';

export function readGeo(path: string): GeoIndex | string | undefined {
  const module = load();
  return module ? module.readGeo(path) : NO_GEO_CODE;
}

/**
 * The helpers beyond COPOMEX, made in dist/cpmx-geo.cjs at their first call; the geodata is
 * looked for here first, so that GeodataError is this bundle's own class (callers test it with
 * instanceof).
 */
export function geoHelpers(geo: () => GeoIndex | string): GeoHelpers {
  const call =
    (name: keyof GeoHelpers) =>
    (...args: unknown[]): never => {
      const index = geo();
      if (typeof index === 'string') throw new GeodataError(`cpmx: ${index}`);
      return (load()!.geoHelpers(() => index)[name] as (...args: unknown[]) => never)(...args);
    };
  return { nearestCodes: call('nearestCodes'), codeDistance: call('codeDistance'), codeArea: call('codeArea'), checkPoint: call('checkPoint') };
}

/* core/geo/answers.ts in the Node bundles too: the table's geocoding rows call these. */
export { NO_GEODATA } from '../core/geo/messages.js';

export const checkCoordinates: typeof answers.checkCoordinates = (lat, lng, token) =>
  load()?.checkCoordinates(lat, lng, token) ?? { method: 'info_cp_geocoding_reverse', token, lat: Number.NaN, lng: Number.NaN };
export const answerGeocoding: typeof answers.answerGeocoding = (context, cp) => load()?.answerGeocoding(context, cp) ?? failureSaying(113, NO_GEO_CODE);
export const testGeocoding: typeof answers.testGeocoding = (cp) => load()!.testGeocoding(cp);
export const testGeocodingReverse: typeof answers.testGeocodingReverse = (lat, lng) => load()!.testGeocodingReverse(lat, lng);
export const answerGeocodingReverse: typeof answers.answerGeocodingReverse = (context, lat, lng) => load()?.answerGeocodingReverse(context, lat, lng) ?? failureSaying(113, NO_GEO_CODE);
