/** `cpmx validate`: check address records of a CSV or NDJSON file against the catalog. */
import { createClient } from '../../client/client.js';
import { HELP_OPTION, UsageError, command, onePositional } from '../command.js';
import { DATA_HELP, dataOption, tokenOption } from '../environment.js';

export const validateCommand = command({
  name: 'validate',
  synopsis: '[FILE|-]',
  usageOptions: '[--format csv|ndjson] [--column FIELD=NAME ...] [--output FILE]',
  summary: 'check addresses in a CSV or NDJSON file',
  description: `Checks every address record of a CSV (header row; delimiter , ; | or tab detected; UTF-8 with
or without BOM) or NDJSON file against the catalog, and writes one NDJSON line per record, in
order: {"line", "valid", "errors": [{"field", "code_error", "error_message"}], "suggestions"}.
Reads stdin when FILE is - or absent.

Columns are found by name, ignoring case and accents: cp, codigo_postal, "código postal",
d_codigo; asentamiento, colonia; municipio, alcaldia, delegacion; estado; ciudad.

Errors: 101, 102, 104, 105 for the code (as the API answers them); 120 estado, 121 municipio,
122 asentamiento, 123 ciudad not matching the code; 130 a record that cannot be read.
Matching ignores case, accents, punctuation and repeated spaces; empty fields are not checked.
Suggestions: a code that lost its leading zero (1000 -> 01000), the code's state,
municipality and city, and the closest settlement of the code when it is close enough.

A summary goes to stderr at the end, and a progress bar while it runs on a terminal.`,
  exit: 'Exit status: 0 when every record is valid, 1 when any is not, 2 when the input cannot be read.',
  options: {
    format: { type: 'string', value: 'csv|ndjson', help: "the input's format (default: detected from its first character)" },
    column: { type: 'string', multiple: true, value: 'FIELD=NAME', help: 'read FIELD (cp, asentamiento, municipio, estado, ciudad) from column NAME' },
    output: { type: 'string', value: 'FILE', help: 'write the results there (complete or not at all) instead of stdout' },
    token: { type: 'string', value: 'T', help: 'the token (default: CPMX_TOKEN, else a local one; "pruebas" is test mode)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    quiet: { type: 'boolean', help: 'no progress bar and no summary on stderr' },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    const input = onePositional(positionals, 'validate', 'FILE') ?? '-';
    if (values.format !== undefined && values.format !== 'csv' && values.format !== 'ndjson') {
      throw new UsageError(`--format must be csv or ndjson, got "${values.format}"`);
    }
    const { FIELDS } = await import('../../validate/address.js');
    type Field = (typeof FIELDS)[number];
    const columns: Partial<Record<Field, string>> = {};
    for (const spec of values.column ?? []) {
      const [field, ...name] = spec.split('=');
      if (!FIELDS.includes(field as Field) || !name.join('=').trim()) {
        throw new UsageError(`--column takes FIELD=NAME with FIELD one of ${FIELDS.join(', ')}, got "${spec}"`);
      }
      columns[field as Field] = name.join('=');
    }
    const { runValidate } = await import('../../validate/run.js');
    return runValidate({
      input,
      output: values.output,
      format: values.format as 'csv' | 'ndjson' | undefined,
      columns,
      client: createClient({ token: tokenOption(values.token) ?? 'cpmx-validate', dataPath: dataOption(values.data) }),
      quiet: values.quiet === true,
    });
  },
});
