/** Geodata for tests: the hand-written fixture polygons, or the real ones, built beside an artifact. */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildGeo, readPolygonFiles, type GeoSummary } from '../../build/geo/build-geo.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { root } from '../helpers.js';

export const GEO_FIXTURE = join(root, 'test', 'fixtures', 'geo', 'mini.geojson');

/** The real polygons of 10 states beside the repository. Their absence fails the run, never skips it. */
export function realPolygonPaths(): string[] {
  const dir = resolve(root, '..', 'shared', 'data', 'sepomex-geo');
  if (!existsSync(dir)) throw new Error(`the real polygons are missing at ${dir}: geodata tests need ../shared/data/sepomex-geo/`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.geojson'))
    .sort()
    .map((name) => join(dir, name));
}

/** Builds the geodata of `files` beside the artifact at `dataPath` (as `cpmx build --geo` does after the artifact). */
export function buildGeoBeside(dataPath: string, files: string[] = [GEO_FIXTURE]): GeoSummary {
  return buildGeo({ polygons: readPolygonFiles(files), inputs: files, artifact: dataPath, catalog: loadCatalog(dataPath), builtAt: new Date('2025-01-01T00:00:00Z') });
}
