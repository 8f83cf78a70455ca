/** `cpmx parse`: one-line addresses read into their parts and judged against the catalog. */
import { createClient } from '../../client/client.js';
import { HELP_OPTION, UsageError, command, onePositional } from '../command.js';
import { DATA_HELP, dataOption, tokenOption } from '../environment.js';
import { ENCODING_OPTION, encodingOption } from '../encoding-option.js';

const LOCAL_TOKEN = 'cpmx-parse';

export const parseCommand = command({
  name: 'parse',
  synopsis: '[FILE|-]',
  usageOptions: '[--column NAME] [--id-column NAME] [--output FILE] [--format ndjson|csv] [--encoding NAME] [--quiet]',
  summary: 'read one-line addresses into their parts and check them',
  description: `Reads one address a line (or one a record of a CSV's column), such as
  Av. Insurgentes Sur 1602, Col. Crédito Constructor, Benito Juárez, 03940 Ciudad de México, CDMX
and writes one NDJSON line per input line, in order:
{"line", "cp", "estado", "municipio", "asentamiento", "tipo_asentamiento", "ciudad", "calle",
"numero_exterior", "numero_interior", "valid", "errors", "suggestions", "read", "inferred"}
estado, municipio and asentamiento in the catalog's spelling; "read" lists the parts found in
the text, "inferred" those filled from the catalog (the code's state, municipality, city; a
code found from the settlement, municipality and state when none is written). When several
codes fit a line without one, "codes" lists up to 10. Errors are cpmx validate's (101-105 for
the code, 124 "retired since DATE; last in PLACE", 120-123, 130 for a line that holds no
address, with its "reason": an empty line, binary data, a line longer than 1024 characters).
Reads stdin when FILE is - or absent.

Read: the code (C.P., CP, Código Postal, or five digits that are a code), street and number
(No., #, Núm., S/N, Int., Depto., Local, Planta Baja, Mz., Lt.), the settlement with its type
(Col., Fracc., U.H., ...), municipality (with Alcaldía, Del., Mpio.), city and state (N.L.,
CDMX, Edo. Méx., ...), in any order, separated by commas or not.

A CSV: --column NAME names the column of addresses. Without it, a FILE named .csv or .tsv, or
whose first line is a header naming a known column, is read as a CSV and its address column
is found by name (direccion, domicilio, address, ubicacion, ...); a CSV without one (or with
several) is refused, exit 2, listing its columns. --id-column NAME carries that column's value
into each result as "id". --format csv writes CSV rows (line, id, the parts, valid, errors,
reason, suggested_cp, codes) instead of NDJSON; --output FILE writes them there, whole or not
at all.`,
  exit: 'Exit status: 0 when every address is valid, 1 when any is not, 2 when the input cannot be read (missing, a CSV without the column).',
  options: {
    column: { type: 'string', value: 'NAME', help: 'the input is a CSV (header row) and its column NAME holds the addresses' },
    'id-column': { type: 'string', value: 'NAME', help: "a CSV's column passed through to each result as id" },
    output: { type: 'string', value: 'FILE', help: 'write the results there (complete or not at all) instead of stdout' },
    format: { type: 'string', value: 'ndjson|csv', help: 'the results: NDJSON lines (default) or CSV rows' },
    ...ENCODING_OPTION,
    token: { type: 'string', value: 'T', help: 'the token (default: CPMX_TOKEN, else a local one; "pruebas" is test mode)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    quiet: { type: 'boolean', help: 'no summary on stderr' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    const input = onePositional(positionals, 'parse', 'FILE') ?? '-';
    if (values.column !== undefined && !values.column.trim()) throw new UsageError('--column needs the name of the column that holds the addresses');
    if (values['id-column'] !== undefined && !values['id-column'].trim()) throw new UsageError('--id-column needs the name of a column');
    if (values.format !== undefined && values.format !== 'ndjson' && values.format !== 'csv') throw new UsageError(`--format must be ndjson or csv, got "${values.format}"`);
    const encoding = await encodingOption(values.encoding);
    // An empty CPMX_TOKEN is no token: the local one answers.
    const token = tokenOption(values.token) || LOCAL_TOKEN;
    const { runParse } = await import('../../validate/parse-run.js');
    return runParse({
      input,
      column: values.column,
      idColumn: values['id-column'],
      output: values.output,
      format: values.format as 'ndjson' | 'csv' | undefined,
      encoding,
      client: createClient({ token, dataPath: dataOption(values.data) }),
      results: 'parse',
      command: 'parse',
      quiet: values.quiet === true,
    });
  },
});
