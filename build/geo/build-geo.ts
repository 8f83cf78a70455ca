/**
 * `cpmx build --geo FILE...`: the polygon files read and checked, each code's geodata computed,
 * and the geodata file written beside the artifact (src/geo/format.ts), atomically. Compared
 * with the catalog, so that the build can say which codes have an area and no settlements,
 * and which have settlements and no area, in the states the files cover.
 */
import type { Catalog } from '../../src/core/catalog.js';
import { GEO_FORMAT, RING_QUANTUM, encodeGeo, geoPathOf, type CodeGeometry, type GeoHeader, type LandRing } from '../../src/core/geo/format.js';
import { writeFileAtomic } from '../write.js';
import { LAND } from './land.js';
import { TOLERANCE_METRES, codeGeometry } from './compile.js';
import { GEO_LIMITS, readPolygonFile, type GeoLimits, type Polygon, type PolygonFile } from './read-geojson.js';

export { GeoInputError } from './read-geojson.js';

export interface GeoSummary {
  out: string;
  bytes: number;
  milliseconds: number;
  codes: number;
  vertices: number;
  states: GeoHeader['states'];
  version: string | null;
  /** Codes with an area that the catalog does not have. */
  withoutSettlements: string[];
  /** Codes of the covered states that the catalog has and no file gives an area. */
  withoutArea: string[];
  /** Codes whose polygons enclose no area (left out). */
  arealess: string[];
}

/** Land outlines (Natural Earth, scripts/make-land.mjs), quantized like the rings. */
function landRings(): LandRing[] {
  return LAND.map((ring) => ({ mexico: ring.mexico, coordinates: ring.coordinates.map((value) => Math.round(value / RING_QUANTUM)) }));
}

/** Reads and checks every polygon file (before anything is written: a refused file leaves all as it was). */
export function readPolygonFiles(paths: readonly string[], limits: Partial<GeoLimits> = {}): PolygonFile[] {
  const counted = { vertices: 0 };
  return paths.map((path) => readPolygonFile(path, { ...GEO_LIMITS, ...limits }, counted));
}

/** Computes the geodata of the polygons read and writes it beside `artifact`. */
export function buildGeo(options: { polygons: readonly PolygonFile[]; inputs: readonly string[]; artifact: string; catalog: Catalog; builtAt?: Date }): GeoSummary {
  const started = performance.now();
  const { catalog } = options;
  const byCode = new Map<string, Polygon[]>();
  const files: GeoHeader['files'] = [];
  const stateCounts = new Map<string, number>();
  let version: string | null = null;
  for (const file of options.polygons) {
    version ??= file.version;
    files.push({ name: file.name, codes: file.codes.size });
    for (const [cp, polygons] of file.codes) {
      const known = byCode.get(cp);
      if (known) known.push(...polygons);
      else byCode.set(cp, polygons);
    }
  }
  const geometries: CodeGeometry[] = [];
  const withoutSettlements: string[] = [];
  const arealess: string[] = [];
  const coveredStates = new Set<string>();
  for (const cp of [...byCode.keys()].sort()) {
    const geometry = codeGeometry(Number(cp), byCode.get(cp)!);
    if (!geometry) {
      arealess.push(cp);
      continue;
    }
    geometries.push(geometry);
    const code = catalog.codeIndex(cp);
    if (code < 0) withoutSettlements.push(cp);
    else {
      const estado = catalog.stateOf(code);
      coveredStates.add(estado);
      stateCounts.set(estado, (stateCounts.get(estado) ?? 0) + 1);
    }
  }
  const withArea = new Set(geometries.map((geometry) => String(geometry.code).padStart(5, '0')));
  const withoutArea: string[] = [];
  catalog.stateNames().forEach((estado, state) => {
    if (!coveredStates.has(estado)) return;
    for (const cp of catalog.codesOfState(state)) if (!withArea.has(cp)) withoutArea.push(cp);
  });
  const vertices = geometries.reduce((sum, geometry) => sum + geometry.rings.reduce((n, ring) => n + ring.coordinates.length / 2, 0), 0);
  const header: GeoHeader = {
    format: GEO_FORMAT,
    version,
    files,
    states: [...stateCounts].map(([estado, codes]) => ({ estado, codes })).sort((a, b) => a.estado.localeCompare(b.estado, 'es')),
    codes: geometries.length,
    vertices,
    toleranceMetres: TOLERANCE_METRES,
    builtAt: (options.builtAt ?? new Date()).toISOString(),
  };
  const out = geoPathOf(options.artifact);
  const bytes = writeFileAtomic(out, encodeGeo(header, geometries, landRings()), [...options.inputs]);
  return { out, bytes, milliseconds: performance.now() - started, codes: geometries.length, vertices, states: header.states, version, withoutSettlements, withoutArea: withoutArea.sort(), arealess };
}
