/**
 * RESULTS.md's section on the geodata (issue 35, bench/geo.ts): its build and size, and reverse
 * geocoding per point beside what a user would write with well-kept libraries. A run without
 * the polygons beside the repository has no `geo`: the section then says it was not measured.
 */
import type { GeoBench } from '../geo.js';
import { count, format, megabytes } from './format.js';

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

export function geodata(geo: GeoBench | undefined): string[] {
  if (!geo) {
    return [
      '## Geodata (`cpmx build --geo`, reverse geocoding)',
      '',
      'Not measured in this run: the polygons (`../shared/data/sepomex-geo/`) were not beside the repository, or the run predates this part. ' +
        'Issue 35’s targets (reverse geocoding at least 2× faster per point than flatbush + `@turf/boolean-point-in-polygon`, on the original polygons and on cpmx’s simplified ones; ' +
        'the geodata of the 10 states at most 3 MB; its build at most 10 s) are judged by a run that measures it.',
      '',
    ];
  }
  const versus = (ns: number) => `${(ns / geo.cpmxNs).toFixed(2)}×`;
  return [
    '## Geodata (`cpmx build --geo`, reverse geocoding)',
    '',
    `Built in this process from the GeoJSON of ${geo.states} states (${count(geo.codes)} codes with a polygon) beside the catalog's artifact: ${(geo.buildMs / 1000).toFixed(1)} s, ` +
      `${megabytes(geo.bytes, 2)} of geodata (${count(geo.bytes)} bytes); for the 32 states, scaled by the count of states, about ${megabytes(geo.bytes32States, 1)}. ` +
      `Opening it took ${format(geo.openMs, 'ms')}.`,
    '',
    `Reverse geocoding: ${count(geo.points)} points, each drawn in the box of a random code (inside its area or near it, as customers' GPS points fall), the same points for every contestant; ` +
      'each timed over all the points in 5 interleaved rounds, the median round per point. flatbush indexes the polygons\' boxes and `@turf/boolean-point-in-polygon` tests the candidates, ' +
      'over the original polygons and over cpmx\'s own simplified ones.',
    '',
    row(['reverse geocoding', 'per point', 'vs cpmx']),
    row(['---', '---:', '---:']),
    row(['cpmx, its geodata\'s index', format(geo.cpmxNs, 'ns'), '']),
    row(['flatbush + turf, the original polygons', format(geo.turfOriginalNs, 'ns'), versus(geo.turfOriginalNs)]),
    row(['flatbush + turf, cpmx\'s simplified polygons', format(geo.turfSimplifiedNs, 'ns'), versus(geo.turfSimplifiedNs)]),
    '',
    `cpmx and flatbush + turf over the original polygons answer the same code (or none) for ${(geo.agreement * 100).toFixed(2)}% of the points.`,
    '',
  ];
}
