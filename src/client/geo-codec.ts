/**
 * The geodata's code that no lookup of the catalog needs: reading and decoding the file into
 * the index, the two methods' answers and checks, the helpers beyond COPOMEX. The Node bundles
 * load it at the first geo call, not on the lookup path: scripts/bundle.mjs builds it as
 * dist/cpmx-geo.cjs and swaps geo-codec.lazy.ts (and geo-answers.lazy.ts) in for it.
 */
import { GeoFormatError } from '../core/geo/format.js';
import { openGeo, type GeoIndex } from '../core/geo/geo-index.js';
import { nodeFs } from '../node-builtins.js';

export { geoHelpers } from '../core/geo/helpers.js';
export { answerGeocoding, answerGeocodingReverse, checkCoordinates, testGeocoding, testGeocodingReverse } from '../core/geo/answers.js';

/** The largest geodata file read: the 32 states take a few MB. */
export const MAX_GEO_BYTES = 512 * 1024 * 1024;

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

