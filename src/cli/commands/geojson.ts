/** `cpmx geojson CP`: a code's area as a GeoJSON Feature, from the geodata beside the artifact. */
import { catalogSource } from '../../client/catalog-source.js';
import { isPostalCode } from '../../core/checks.js';
import { GeodataError, geoHelpers } from '../../core/geo/helpers.js';
import { EXIT, HELP_OPTION, UsageError, command, onePositional } from '../command.js';
import { DATA_HELP, dataOption } from '../environment.js';

export const geojsonCommand = command({
  name: 'geojson',
  synopsis: '<cp>',
  summary: "print a postal code's area as GeoJSON (geodata: cpmx build --geo)",
  description: `Prints the area of a 5-digit postal code as a GeoJSON Feature: its polygons as the geodata keeps
them (simplified to within 2 m, vertices to 1e-5 degrees), its bounding box, and as properties
the code, its point (inside the area) and its area in square metres. Reads the geodata beside
the artifact (cpmx build --geo FILE...); see docs/geo.md. Pipe it to a file to open it in a
map viewer (geojson.io, QGIS).`,
  exit: 'Exit status: 0 when printed, 1 when the code has no area or there is no geodata, 2 on a usage error.',
  options: {
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  run({ values, positionals }) {
    const cp = onePositional(positionals, 'geojson', 'cp') ?? '';
    if (!isPostalCode(cp)) throw new UsageError(`cpmx geojson takes a postal code of 5 digits, got: ${JSON.stringify(cp)}`);
    const source = catalogSource(dataOption(values.data));
    try {
      const feature = geoHelpers(() => source.geo!(source.get())).codeArea(cp);
      if (!feature) {
        process.stderr.write(`cpmx geojson: ${cp} has no area in the geodata (no polygon was given for it, or it encloses none)\n`);
        return EXIT.failed;
      }
      process.stdout.write(`${JSON.stringify(feature)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof GeodataError)) throw error;
      process.stderr.write(`cpmx geojson: ${error.message.replace(/^cpmx: /, '')}\n`);
      return EXIT.failed;
    }
  },
});
