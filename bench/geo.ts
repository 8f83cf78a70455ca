/**
 * The geodata's part of the bench (issue 35): building it from the polygons of the states in
 * ../shared/data/sepomex-geo/ (time, size, and the size extrapolated to 32 states), and reverse
 * geocoding per point against what a user would write with well-kept libraries: a flatbush
 * index of the polygons' boxes and @turf/boolean-point-in-polygon over the candidates, on the
 * same points, over the original polygons and over cpmx's own (simplified) ones. Returns the
 * figures: `npm run bench` keeps them in results.json as `geo` (bench/run.ts); run alone, this
 * file writes them to geo.json in the work folder.
 *
 *   node dist/bench/geo.js [--polygons DIR] [--artifact FILE] [--work DIR] [--points N]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import Flatbush from 'flatbush';
import { buildGeo, readPolygonFiles } from '../build/geo/build-geo.js';
import { loadCatalog } from '../src/client/catalog-source.js';
import { openGeo, type GeoIndex } from '../src/core/geo/geo-index.js';
import { packageRoot } from '../src/package-root.js';

export interface GeoBench {
  states: number;
  codes: number;
  buildMs: number;
  bytes: number;
  /** `bytes` times 32 over the states measured: the states left are larger, so a floor. */
  bytes32States: number;
  points: number;
  /** Nanoseconds per point, the median of the rounds. */
  cpmxNs: number;
  turfOriginalNs: number;
  turfSimplifiedNs: number;
  /** How much faster cpmx is than flatbush + turf over the original polygons, and over cpmx's own. */
  speedupOriginal: number;
  speedupSimplified: number;
  /** Points on which cpmx and flatbush + turf over the original polygons answer the same code (or none). */
  agreement: number;
  openMs: number;
}

type Feature = { type: 'Feature'; properties: { cp: string }; geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] } };

/** flatbush over the features' boxes, turf over the candidates: the first feature holding the point. */
function turfLocator(features: Feature[]): (lng: number, lat: number) => string | undefined {
  const index = new Flatbush(features.length);
  for (const feature of features) {
    let [w, s, e, n] = [180, 90, -180, -90];
    const rings = feature.geometry.type === 'Polygon' ? (feature.geometry.coordinates as number[][][]) : (feature.geometry.coordinates as number[][][][]).flat();
    for (const ring of rings)
      for (const [x, y] of ring) {
        w = Math.min(w, x!);
        e = Math.max(e, x!);
        s = Math.min(s, y!);
        n = Math.max(n, y!);
      }
    index.add(w, s, e, n);
  }
  index.finish();
  return (lng, lat) => {
    for (const i of index.search(lng, lat, lng, lat)) if (booleanPointInPolygon([lng, lat], features[i] as never)) return features[i]!.properties.cp;
    return undefined;
  };
}

/** Median nanoseconds per point of `locate` over `points`, in `rounds` rounds. */
function perPoint(points: Float64Array, locate: (lng: number, lat: number) => unknown, rounds: number): number {
  const times: number[] = [];
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < points.length; i += 2) if (locate(points[i]!, points[i + 1]!) !== undefined) sink++;
    times.push(Number(process.hrtime.bigint() - started) / (points.length / 2));
  }
  if (sink < 0) throw new Error('unreachable');
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function benchGeo(options: { polygons: string; artifact: string; work: string; points?: number; log: (line: string) => void }): Promise<GeoBench> {
  const { log } = options;
  const files = readdirSync(options.polygons)
    .filter((name) => name.endsWith('.geojson'))
    .sort()
    .map((name) => join(options.polygons, name));
  mkdirSync(options.work, { recursive: true });
  const artifact = join(options.work, 'geo-bench.msgpack');
  writeFileSync(artifact, readFileSync(options.artifact));
  log(`geo: building the geodata of ${files.length} states ...`);
  const started = performance.now();
  const summary = buildGeo({ polygons: readPolygonFiles(files), inputs: files, artifact, catalog: loadCatalog(artifact) });
  const buildMs = performance.now() - started;

  const opened = performance.now();
  const geo: GeoIndex = openGeo(readFileSync(summary.out));
  const openMs = performance.now() - opened;

  // The points: a random code, a random point in its box (inside it or near it), as GPS points of customers fall.
  const count = options.points ?? 200_000;
  let seed = 35;
  const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const points = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    const [w, s, e, n] = geo.bbox(Math.floor(random() * geo.size));
    points[i * 2] = w + random() * (e - w);
    points[i * 2 + 1] = s + random() * (n - s);
  }

  const original: Feature[] = [];
  for (const file of files) {
    const collection = JSON.parse(readFileSync(file, 'utf8')) as { features: { properties: { d_codigo: number | string }; geometry: Feature['geometry'] }[] };
    for (const { properties, geometry } of collection.features) original.push({ type: 'Feature', properties: { cp: String(properties.d_codigo).padStart(5, '0') }, geometry });
  }
  const simplified: Feature[] = [];
  for (let slot = 0; slot < geo.size; slot++) {
    const feature = geo.geoJson(slot);
    simplified.push({ type: 'Feature', properties: { cp: feature.properties.cp }, geometry: feature.geometry as Feature['geometry'] });
  }
  const cpmx = (lng: number, lat: number) => {
    const slot = geo.locate(lat, lng);
    return slot < 0 ? undefined : slot;
  };
  const turfOriginal = turfLocator(original);
  const turfSimplified = turfLocator(simplified);

  let agree = 0;
  for (let i = 0; i < points.length; i += 2) {
    const slot = cpmx(points[i]!, points[i + 1]!);
    if ((slot === undefined ? undefined : geo.codeAt(slot)) === turfOriginal(points[i]!, points[i + 1]!)) agree++;
  }

  log(`geo: reverse geocoding ${count} points, 5 rounds each, interleaved ...`);
  const rounds = { cpmx: [] as number[], original: [] as number[], simplified: [] as number[] };
  for (let round = 0; round < 5; round++) {
    rounds.cpmx.push(perPoint(points, cpmx, 1));
    rounds.original.push(perPoint(points, turfOriginal, 1));
    rounds.simplified.push(perPoint(points, turfSimplified, 1));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cpmxNs = median(rounds.cpmx);
  const turfOriginalNs = median(rounds.original);
  const turfSimplifiedNs = median(rounds.simplified);
  const result: GeoBench = {
    states: files.length,
    codes: summary.codes,
    buildMs: Math.round(buildMs),
    bytes: summary.bytes,
    bytes32States: Math.round((summary.bytes * 32) / files.length),
    points: count,
    cpmxNs: Math.round(cpmxNs),
    turfOriginalNs: Math.round(turfOriginalNs),
    turfSimplifiedNs: Math.round(turfSimplifiedNs),
    speedupOriginal: Math.round((turfOriginalNs / cpmxNs) * 100) / 100,
    speedupSimplified: Math.round((turfSimplifiedNs / cpmxNs) * 100) / 100,
    agreement: Math.round((agree / count) * 100_000) / 100_000,
    openMs: Math.round(openMs),
  };
  log(
    `geo: build ${result.buildMs} ms for ${result.states} states (${result.codes} codes), ${result.bytes} bytes (32 states: about ${result.bytes32States}); ` +
      `reverse ${result.cpmxNs} ns/point, flatbush + turf ${result.turfOriginalNs} ns (original polygons, ${result.speedupOriginal}x) and ${result.turfSimplifiedNs} ns (cpmx's, ${result.speedupSimplified}x); agreement ${result.agreement}; open ${result.openMs} ms`,
  );
  return result;
}

/** The polygons beside the repository, when they are there (the bench runs without them too). */
export const DEFAULT_POLYGONS = resolve(packageRoot, '..', 'shared', 'data', 'sepomex-geo');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { polygons: { type: 'string' }, artifact: { type: 'string' }, work: { type: 'string' }, points: { type: 'string' } } });
  const polygons = values.polygons ?? DEFAULT_POLYGONS;
  if (!existsSync(polygons)) throw new Error(`no polygons at ${polygons}: pass --polygons DIR`);
  const work = values.work ?? join(packageRoot, 'bench', 'work');
  const result = await benchGeo({
    polygons,
    artifact: values.artifact ?? join(packageRoot, 'data', 'cpmx.msgpack'),
    work,
    points: values.points === undefined ? undefined : Number(values.points),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  writeFileSync(join(work, 'geo.json'), `${JSON.stringify(result, null, 2)}\n`);
}
