/** `cpmx validate`: check address records of a CSV or NDJSON file against the catalog. */
import { availableParallelism } from 'node:os';
import { createClient } from '../../client/client.js';
import { HELP_OPTION, UsageError, command, integer, onePositional } from '../command.js';
import { DATA_HELP, dataOption, tokenOption } from '../environment.js';
import { ENCODING_OPTION, encodingOption } from '../encoding-option.js';

const LOCAL_TOKEN = 'cpmx-validate';

export const validateCommand = command({
  name: 'validate',
  synopsis: '[FILE|-]',
  usageOptions: '[--output FILE] [--format ndjson|csv] [--invalid-only] [--fix FILE [--canonical]] [--jobs N] [--address-column NAME] [--coordinates]',
  summary: 'check addresses in a CSV or NDJSON file',
  description: `Checks every address record of a CSV (header row; delimiter , ; | or tab detected) or NDJSON
file against the catalog, and writes one result per record, in order: NDJSON lines
{"line", "valid", "errors": [{"field", "code_error", "error_message"}], "suggestions"}, or CSV
rows with --format csv (line,valid,errors,reason,suggested_cp,...). Reads stdin when FILE is -
or absent.

Encoding: UTF-8 (with or without BOM), UTF-16 with BOM, or Windows-1252 (Latin-1), told from
the bytes; --encoding says it instead. A file that is not valid in its encoding is refused
with the line.

Columns are found by name, ignoring case and accents: cp, C.P., codigo_postal, "código
postal", d_codigo, cod_postal, zip; asentamiento, colonia, nomb_asent; municipio, alcaldia,
delegacion; estado, entidad; ciudad, city (all: docs/validate.md). A field without a column
goes unchecked, and the summary says so.

Errors: 101, 102, 104, 105 for the code (as the API answers them); 124 for a code an earlier
catalog had (an artifact built with --previous), with its "reason": "retired since DATE; last
in PLACE"; 120 estado, 121 municipio, 122 asentamiento, 123 ciudad not matching the code; 130 a record that cannot be read, with its
"reason" ("expected 5 fields, found 4", "unterminated quote opened on line 7; reading resumed
on line 8", "invalid JSON at column 17", "record longer than 65536 bytes", "not a JSON object").
Warning 125 (the record stays valid, counted apart in the summary): a city where the
catalog has none for the code, which it cannot check.
Matching ignores case, accents, punctuation and repeated spaces, and reads names as people
write them: states abbreviated or by code (N.L., Edo. Mex., Q. Roo, NLE, 19), municipalities
with a title or shortened words (Alc. Iztapalapa, Mpio. de Zapopan, Gral. Escobedo) or written
short (Ecatepec for Ecatepec de Morelos, Tlaquepaque for San Pedro Tlaquepaque, Magdalena
Contreras for La Magdalena Contreras),
a Ciudad de México city written as its alcaldía (Iztapalapa for 09770, as INEGI names it),
settlements with their type in front and shortened words (Col. Roma Norte, FRACC LAS PALMAS,
U.H. ..., Sta., Secc., 1ra.) or without their joining words (Granjas San Antonio), a town by
its municipality's name (Tepetlaoxtoc), unless the name as written is another code's
settlement of the municipality. A wrong value is still wrong in any form. Empty fields are not
checked.
Suggestions: a code that lost its leading zero (1000 -> 01000), the code's state,
municipality and city, and the closest settlement of the code when it is close enough.
Which field is wrong: when the settlement, municipality and state agree with one another and
with another code than the one written (or none is written), that code is suggested
(suggestions.cp), never the names of the code written; when they fit a few codes, "codes"
lists them and none is suggested.

--fix FILE writes the input back, same encoding, delimiter and line ends, with two more
columns: cpmx_status (valid, fixed, invalid) and cpmx_errors (the codes found). Suggestions
are applied only when the record is valid with them (fixed); a record that stays invalid is
written back as it was. A value without an error is never changed; with --canonical, every
value accepted in another form is written in the catalog's spelling too (N.L. -> Nuevo León).

--output and --fix replace a regular file at the end (complete or not at all; a symlink's
target, the link kept), write a device or a FIFO (/dev/null, /dev/stdout) in place, and
refuse the input itself, however it is named.

--coordinates (needs an artifact built with --geo): each result gets "lat" and "lng", the
point of the record's code (inside its area; null for an invalid record or a code without
one). When the input has lat and lng columns or keys (lat/lng, latitud/longitud or
latitude/longitude, lon too), a point outside the written code's area is error 126 with its
"metros" to the area and "cp_del_punto" (the code whose area holds it, or null), and a point
that cannot be read (one of the two empty, not a decimal number, out of range) is error 127;
a record with both empty is not checked. With --format csv the rows end with lat,lng.

--address-column NAME: the CSV column NAME holds one-line addresses, read as cpmx parse
reads them and judged; --output and --format csv apply.

A summary goes to stderr at the end (with the format and encoding read, and where the first
records a quote made unreadable start), and a progress bar while it runs on a terminal.`,
  exit: 'Exit status: 0 when every record is valid, 1 when any is not, 2 when the input cannot be read (missing, empty, no header, no postal-code column, not valid in its encoding) or an output cannot be written.',
  options: {
    output: { type: 'string', value: 'FILE', help: 'write the results there (complete or not at all) instead of stdout' },
    format: { type: 'string', value: 'ndjson|csv', help: 'the results: NDJSON lines (default) or CSV rows' },
    'invalid-only': { type: 'boolean', help: 'write results for invalid records only' },
    fix: { type: 'string', value: 'FILE', help: 'write the input there with suggestions applied and cpmx_status, cpmx_errors added' },
    canonical: { type: 'boolean', help: "with --fix: also write every accepted value in the catalog's spelling (N.L. -> Nuevo León)" },
    'input-format': { type: 'string', value: 'csv|ndjson', help: "the input's format (default: detected from its first character)" },
    ...ENCODING_OPTION,
    column: { type: 'string', multiple: true, value: 'FIELD=NAME', help: 'read FIELD (cp, asentamiento, municipio, estado, ciudad) from column NAME' },
    coordinates: { type: 'boolean', help: "add each valid record's point; check lat/lng columns against the code's area (126, 127)" },
    'address-column': { type: 'string', value: 'NAME', help: 'the CSV column NAME holds one-line addresses: each is read as cpmx parse reads it, then judged' },
    jobs: { type: 'string', value: 'N', help: 'threads that validate (default: 1 below 4 cores, else one per core)' },
    'max-record-bytes': { type: 'string', value: 'N', help: 'a longer record is not read: 130 (default 65536)' },
    token: { type: 'string', value: 'T', help: 'the token (default: CPMX_TOKEN, else a local one; "pruebas" is test mode)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    quiet: { type: 'boolean', help: 'no progress bar and no summary on stderr' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    const input = onePositional(positionals, 'validate', 'FILE') ?? '-';
    const oneOf = <T extends string>(value: string | undefined, option: string, allowed: readonly T[]): T | undefined => {
      if (value !== undefined && !allowed.includes(value as T)) throw new UsageError(`${option} must be ${allowed.join(' or ')}, got "${value}"`);
      return value as T | undefined;
    };
    const format = oneOf(values.format, '--format', ['ndjson', 'csv'] as const) ?? 'ndjson';
    const inputFormat = oneOf(values['input-format'], '--input-format', ['csv', 'ndjson'] as const);
    const encoding = await encodingOption(values.encoding);
    if (values.fix !== undefined && values.fix === values.output) throw new UsageError('--fix and --output must be different files');
    if (values.canonical && values.fix === undefined) throw new UsageError('--canonical rewrites the file --fix writes: give --fix FILE too');
    const { FIELDS } = await import('../../validate/fields.js');
    type Field = (typeof FIELDS)[number];
    const columns: Partial<Record<Field, string>> = {};
    for (const spec of values.column ?? []) {
      const [field, ...name] = spec.split('=');
      if (!FIELDS.includes(field as Field) || !name.join('=').trim()) {
        throw new UsageError(`--column takes FIELD=NAME with FIELD one of ${FIELDS.join(', ')}, got "${spec}"`);
      }
      columns[field as Field] = name.join('=');
    }
    const jobs = values.jobs === undefined ? defaultJobs(availableParallelism()) : integer(values.jobs, '--jobs', 1, 64);
    const maxRecordBytes = values['max-record-bytes'] === undefined ? undefined : integer(values['max-record-bytes'], '--max-record-bytes', 1024, 1 << 30);
    const token = tokenOption(values.token) ?? LOCAL_TOKEN;
    const addressColumn = values['address-column'];
    if (addressColumn !== undefined) {
      const alone = ['fix', 'canonical', 'column', 'input-format', 'invalid-only', 'coordinates'].filter((name) => values[name as keyof typeof values] !== undefined);
      if (alone.length) throw new UsageError(`--address-column does not go with ${alone.map((name) => `--${name}`).join(', ')}`);
      if (!addressColumn.trim()) throw new UsageError('--address-column needs the name of the column that holds the addresses');
      const { runParse } = await import('../../validate/parse-run.js');
      return runParse({
        input,
        column: addressColumn,
        output: values.output,
        format,
        encoding,
        client: createClient({ token, dataPath: dataOption(values.data) }),
        results: 'validate',
        command: 'validate',
        quiet: values.quiet === true,
      });
    }
    const client = createClient({ token, dataPath: dataOption(values.data) });
    if (values.coordinates) {
      const { geodataMissing } = await import('../../validate/coordinates.js');
      const missing = geodataMissing(client);
      if (missing !== undefined) throw new UsageError(`--coordinates needs geodata: ${missing.replace(/^cpmx: /, '').trim()}`);
    }
    const { runValidate } = await import('../../validate/run.js');
    return runValidate({
      input,
      output: values.output,
      fix: values.fix,
      canonical: values.canonical === true,
      inputFormat,
      encoding,
      format,
      invalidOnly: values['invalid-only'] === true,
      columns,
      maxRecordBytes,
      jobs,
      client,
      token,
      coordinates: values.coordinates === true,
      quiet: values.quiet === true,
    });
  },
});

/**
 * Threads by default: one below 4 cores. Measured on 2 cores, a second thread cost more than
 * it gave: the worker's copy of the catalog and the hand-over of ranges to it took a core that
 * reading and writing in the main thread needed (docs/validate.md, --jobs).
 */
export function defaultJobs(cores: number): number {
  return cores < 4 ? 1 : cores;
}
