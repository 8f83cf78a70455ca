/** `cpmx build`: compile the official catalog into the artifact the lookups read. */
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_LIMITS, SHAPE_LIMITS } from '../../../build/limits.js';
import { groupDigits } from '../../core/format.js';
import { defaultDownloadPath, insideNodeModules } from '../../../build/locations.js';
import { warnOldCatalog } from '../../client/old-catalog.js';
import { EXIT, HELP_OPTION, UsageError, command, integer, noPositionals } from '../command.js';
import { buildTimeOption, downloadPageOption } from '../environment.js';
import { runDownload, stateOption } from './download.js';

export const buildCommand = command({
  name: 'build',
  synopsis: '',
  usageOptions: '[--source FILE ...] [--download [--state CLAVE]] [--geo FILE ...] [--corrections CSV] [--previous OLD ...] [--update] [--out FILE] [--if-found]',
  summary: 'compile the official catalog into the artifact',
  warnsOldCatalog: true,
  description: `Compiles the official catalog of Correos de México (CPdescarga.txt, or the CPdescargatxt.zip
it is downloaded as; Latin-1 or a UTF-8 re-save) into the artifact the lookups read.

The catalog is looked for in this order: --source FILE; the CPMX_CATALOG environment
variable; data/CPdescarga.txt and data/CPdescargatxt.zip beside the artifact (and, in a git
checkout of cpmx, ../shared/data/sepomex/CPdescargatxt.zip). --download fetches it first, as cpmx download does, into
CPdescargatxt.zip beside the artifact (in --out's folder when given), and builds from that. --source may be given
several times (the catalog per state, for instance): the files are merged, and refused if two
of them disagree about a postal code. A FIFO, a pipe, or - (stdin) is read as a stream.

What is read is checked: a zip must hold exactly one CPdescarga.txt that inflates to its
declared size and passes its CRC-32; the size, the length of a line and the number of rows
are bounded (the options below raise the bounds), and so is the catalog's shape, so that no
answer can be large: names of at most ${SHAPE_LIMITS.maxNameChars} characters, ${groupDigits(SHAPE_LIMITS.maxSettlementsPerCode)} settlements
per code, ${groupDigits(SHAPE_LIMITS.maxSettlementsPerMunicipalityName)} per municipality name (all states), ${groupDigits(SHAPE_LIMITS.maxCitiesPerState)} cities per state.
The artifact records the catalog's own date
(the zip member's timestamp, or the text file's modification time) and the build time
(SOURCE_DATE_EPOCH, if set, for byte-identical rebuilds). A catalog more than a year old is
built, with a warning on stderr (CPMX_NO_AGE_WARNING=1 silences it). It is written to --out FILE, default
data/cpmx.msgpack in the package, through a temporary file: a refused catalog never replaces
a good artifact, and temporary files left by killed builds are removed. A device or a FIFO
is written in place, a symlink to a file through to its target; the catalog itself is
never written over.

--corrections CSV applies an operator's fixes to the catalog (UTF-8 CSV, header by name:
action,cp,asentamiento,tipo_asentamiento,id_asenta_cpcons,nuevo_asentamiento,nuevo_tipo_asentamiento,estado,municipio,ciudad,nota;
actions add-settlement, remove-settlement, rename-settlement, move-code-municipality,
move-code-city; see the README). Every row is checked against the catalog: if one does not
apply, the build is refused with each problem and its line, and nothing is written. The
artifact records them (cpmx status lists them).

--previous OLD (repeatable: earlier catalog files, or earlier artifacts, whose own history is
carried on) records the codes they had and this catalog lacks, with their last place and the
date of the first catalog without them; cpmx validate and parse then say "retired since".
Catalogs are dated and ordered as above; a code counts as gone only in the states the catalog
built covers.

--update builds over the artifact at --out (or the default) as cpmx serve --refresh-every
does: the corrections it records are applied again (one that no longer applies, its fix now
in the official file or its code gone, is dropped, listed here and in the new artifact's
header, which cpmx status prints) and its history is carried forward with it as the earlier
catalog. cpmx build --download --update is the monthly update that keeps both.

--geo FILE (repeatable: Correos de México's postal-code polygons, GeoJSON or KML as Correos
publishes it, one file per state) writes the geodata beside the artifact (cpmx.geo beside cpmx.msgpack), which answers
info_cp_geocoding, info_cp_geocoding_reverse and cpmx geojson; the other lookups never read it.
The files are checked first (sizes, vertex counts, every coordinate): one refused, nothing is
written. The build says which codes have a polygon and no settlements, and which have
settlements and no polygon. See docs/geo.md.`,
  exit: 'Exit status: 0 when built, 1 when the catalog is missing, refused or cannot be downloaded, 2 on a usage error.',
  options: {
    source: { type: 'string', multiple: true, value: 'FILE', help: 'a catalog to compile; several are merged; - is stdin' },
    download: { type: 'boolean', help: 'download the catalog first (see cpmx download)' },
    state: { type: 'string', value: 'CLAVE', help: 'with --download: one state, 01 to 32, instead of all' },
    out: { type: 'string', value: 'FILE', help: 'where to write the artifact' },
    corrections: { type: 'string', value: 'CSV', help: 'apply these corrections (see above); refused wholly if any row does not apply' },
    previous: { type: 'string', multiple: true, value: 'OLD', help: 'an earlier catalog or artifact: record the codes it had that are gone' },
    update: { type: 'boolean', help: "build over the artifact at --out keeping its corrections and history (see above)" },
    'max-bytes': { type: 'string', value: 'N', help: `the largest source, and catalog text in a zip (default ${DEFAULT_LIMITS.maxBytes})` },
    'max-line-bytes': { type: 'string', value: 'N', help: `the longest line (default ${DEFAULT_LIMITS.maxLineBytes})` },
    'max-rows': { type: 'string', value: 'N', help: `the most rows, all sources together (default ${DEFAULT_LIMITS.maxRows})` },
    geo: { type: 'string', multiple: true, value: 'FILE', help: "Correos de México's postal-code polygons (GeoJSON or KML, one file per state; the files after it too): write the geodata beside the artifact" },
    'geo-max-bytes': { type: 'string', value: 'N', help: 'the largest polygon file (default 268435456)' },
    'geo-max-vertices': { type: 'string', value: 'N', help: 'the most polygon vertices, all files together (default 20000000)' },
    'if-found': { type: 'boolean', help: 'when no catalog is found by default, say so and exit 0 (used by npm install)' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    // `--geo FILE...`: the files after --geo (a shell glob) are all polygon files.
    const geoFiles = values.geo?.length ? [...values.geo, ...positionals] : undefined;
    if (!geoFiles) noPositionals(positionals, 'build', 'Use --source FILE.');
    const limit = (name: 'max-bytes' | 'max-line-bytes' | 'max-rows') => {
      const value = values[name];
      return value === undefined ? undefined : integer(value, `--${name}`, 1);
    };
    const limits = { maxBytes: limit('max-bytes'), maxLineBytes: limit('max-line-bytes'), maxRows: limit('max-rows') };
    const builtAt = buildTimeOption();
    if (values.state !== undefined && !values.download) throw new UsageError('--state goes with --download (cpmx download --state CLAVE fetches one state).');
    if (values.update && (values.corrections !== undefined || values.previous?.length)) {
      throw new UsageError('--update keeps the corrections and history of the artifact at --out; it takes no --corrections or --previous (build without --update to change them).');
    }
    if (values.download && values.source?.length) {
      throw new UsageError('--download and --source are exclusive: cpmx download --out FILE, then cpmx build --source FILE.');
    }
    const { buildArtifact, findCatalog, CatalogError, ArtifactWriteError } = await import('../../../build/build.js');
    const geo = geoFiles ? await readGeoOption(geoFiles, values) : undefined;
    if (typeof geo === 'number') return geo;

    let location = findCatalog(values.source);
    if (values.download) {
      // Beside the artifact: --out's folder when given (never the package's data/ then, which may be in node_modules).
      const zip = values.out === undefined ? defaultDownloadPath : join(dirname(resolve(values.out)), basename(defaultDownloadPath));
      const downloaded = await runDownload({ out: zip, state: stateOption(values.state), pageUrl: downloadPageOption(undefined) });
      if (downloaded.status !== EXIT.ok) return downloaded.status;
      location = findCatalog(downloaded.path);
    }
    if (!location) {
      process.stderr.write(await noCatalogMessage());
      return values['if-found'] ? EXIT.ok : EXIT.failed;
    }
    const tty = process.stderr.isTTY === true;
    process.stderr.write(`cpmx build: reading ${location.paths.join(', ')} (${values.download ? '--download' : location.from})\n`);
    try {
      const summary = await buildArtifact({
        source: location.paths,
        out: values.out,
        limits,
        builtAt,
        corrections: values.corrections,
        previous: values.previous,
        update: values.update === true,
        onWaiting: (path) => process.stderr.write(`cpmx build: ${path} is a FIFO; waiting for a process to write to it (at most ${DEFAULT_LIMITS.openTimeoutMs / 1000} s)\n`),
        onProgress: (rows) => {
          if (tty) process.stderr.write(`\r  ${rows.toLocaleString('en-US')} rows`);
          else if (rows % 50_000 === 0) process.stderr.write(`  ${rows.toLocaleString('en-US')} rows\n`);
        },
      });
      if (tty) process.stderr.write('\r\x1b[K');
      const n = (value: number) => value.toLocaleString('en-US');
      process.stdout.write(
        `cpmx build: wrote ${summary.out}\n` +
          `  rows ${n(summary.rows)}, codes ${n(summary.codes)}, states ${n(summary.states)}, municipalities ${n(summary.municipalities)}\n` +
          `  ${n(summary.bytes)} bytes in ${(summary.milliseconds / 1000).toFixed(2)} s; source ${summary.encoding}, sha256 ${summary.sha256}\n` +
          `  catalog dated ${summary.catalogDate ?? 'unknown (read from a pipe)'}\n` +
          (summary.corrections ? `  ${n(summary.corrections)} corrections applied\n` : '') +
          summary.dropped.map((row) => `  correction dropped (no longer applies): line ${row.line}, ${row.action} ${row.cp}: ${row.reason}\n`).join('') +
          (summary.history
            ? `  against ${summary.history.previous.length} earlier catalog(s): ${n(summary.history.retired)} codes retired, ${n(summary.history.added)} added\n`
            : ''),
      );
      warnOldCatalog({ source: { date: summary.catalogDate } }, (message) => process.stderr.write(`cpmx build: warning: ${message}\n`));
      return geo ? await writeGeo(geo, summary.out) : EXIT.ok;
    } catch (error) {
      if (tty) process.stderr.write('\n');
      if (error instanceof CatalogError) {
        process.stderr.write(`cpmx build: refused: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
        return EXIT.failed;
      }
      if (error instanceof ArtifactWriteError) {
        process.stderr.write(`cpmx build: ${error.message}\nThe existing artifact, if any, was left as it was.\n`);
        return EXIT.failed;
      }
      throw error;
    }
  },
});

type GeoInput = { paths: string[]; polygons: import('../../../build/geo/read-geojson.js').PolygonFile[] };

/** The polygon files of --geo, read and checked before anything is written; the exit status when refused. */
async function readGeoOption(files: string[], values: { 'geo-max-bytes'?: string | undefined; 'geo-max-vertices'?: string | undefined }): Promise<GeoInput | number> {
  const { readPolygonInputs, GeoInputError } = await import('../../../build/geo/build-geo.js');
  const limit = (name: 'geo-max-bytes' | 'geo-max-vertices') => (values[name] === undefined ? undefined : integer(values[name]!, `--${name}`, 1));
  const paths = files.map((path) => resolve(path));
  try {
    return { paths, polygons: await readPolygonInputs(paths, { maxBytes: limit('geo-max-bytes'), maxVertices: limit('geo-max-vertices') }) };
  } catch (error) {
    if (!(error instanceof GeoInputError)) throw error;
    process.stderr.write(`cpmx build: refused: ${error.message}\nNothing was written.\n`);
    return EXIT.failed;
  }
}

/** The geodata beside the artifact just built, and what the build found comparing polygons and catalog. */
async function writeGeo(geo: GeoInput, artifact: string): Promise<number> {
  const { buildGeo } = await import('../../../build/geo/build-geo.js');
  const { loadCatalog } = await import('../../client/catalog-source.js');
  const summary = buildGeo({ polygons: geo.polygons, inputs: geo.paths, artifact, catalog: loadCatalog(artifact), builtAt: buildTimeOption() });
  const n = (value: number) => value.toLocaleString('en-US');
  const some = (codes: string[]) => (codes.length > 12 ? `${codes.slice(0, 12).join(' ')} and ${codes.length - 12} more` : codes.join(' '));
  process.stdout.write(
    `cpmx build: wrote ${summary.out} (geodata${summary.version ? ` ${summary.version}` : ''})\n` +
      `  ${n(summary.codes)} codes with an area in ${summary.states.length} states (${summary.states.map((state) => state.estado).join(', ')}); ${n(summary.vertices)} vertices\n` +
      `  ${n(summary.bytes)} bytes in ${(summary.milliseconds / 1000).toFixed(2)} s\n` +
      (summary.withoutSettlements.length ? `  ${n(summary.withoutSettlements.length)} codes with a polygon and no settlements in the catalog: ${some(summary.withoutSettlements)}\n` : '') +
      (summary.withoutArea.length ? `  ${n(summary.withoutArea.length)} codes with settlements and no polygon (in those states): ${some(summary.withoutArea)}\n` : '') +
      (summary.arealess.length ? `  ${n(summary.arealess.length)} codes whose polygons enclose no area (left out): ${some(summary.arealess)}\n` : ''),
  );
  return EXIT.ok;
}

/** What to do when no catalog is found: download it, or name one; never a place inside node_modules. */
async function noCatalogMessage(): Promise<string> {
  const { dataDirectory, defaultCatalogPaths } = await import('../../../build/locations.js');
  const { manualDownloadSteps, OFFICIAL_PAGE_URL } = await import('../../../build/download/index.js');
  const places = defaultCatalogPaths.filter((path) => !insideNodeModules(path));
  // Installed as a dependency, the package's own data/ is replaced by the next npm install:
  // the catalog and the artifact go in the app's folder, and the app is told where.
  const next = insideNodeModules(dataDirectory)
    ? 'cpmx build: no catalog found. Download it and build the artifact in your own folder:\n' +
      '  npx cpmx download --out CPdescargatxt.zip\n' +
      '  npx cpmx build --source CPdescargatxt.zip --out data/cpmx.msgpack\n' +
      'then give your app that file: CPMX_DATA=data/cpmx.msgpack, or createClient({ dataPath }).\n'
    : 'cpmx build: no catalog found. Download it and build with: cpmx build --download\n' +
      `(or: cpmx download --out FILE, then cpmx build --source FILE; or set CPMX_CATALOG).\n`;
  return (
    next +
    `${manualDownloadSteps(OFFICIAL_PAGE_URL)}\n` +
    (places.length ? `Looked for:\n${places.map((path) => `  ${path}\n`).join('')}` : '') +
    'Test mode (token "pruebas") works without a catalog; real-data lookups need one.\n'
  );
}
