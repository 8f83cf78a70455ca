/** `cpmx status`: the artifact's header and the catalog's age, or why it cannot be loaded. */
import { catalogSource } from '../../client/catalog-source.js';
import { catalogAge } from '../../core/format.js';
import { geoStatus } from '../../client/geo-status.js';
import { EXIT, HELP_OPTION, UsageError, command, integer, print } from '../command.js';
import { DATA_HELP, dataOption } from '../environment.js';
import { statusText } from '../status-text.js';

/** Correos de México updates the catalog monthly; three months behind is worth a warning. */
export const DEFAULT_MAX_AGE_DAYS = 90;

export const statusCommand = command({
  name: 'status',
  synopsis: '',
  usageOptions: '[--max-age DAYS] [--json]',
  summary: "show the artifact's header and the catalog's age, or why it cannot be loaded",
  description: `Prints the artifact's header (format version, counts, source file and sha256, the catalog's
date, the build time) with the catalog's date and age in days, and the geodata beside it
(cpmx build --geo: the polygons' version, the states and codes they cover, or why there is
none): as text to read on a terminal; as JSON with --json, and whenever stdout is not a
terminal (a pipe, a file), so scripts read the same JSON as before: the header, catalogDate
and catalogAgeDays (null when the artifact does not record them, as artifacts built before
cpmx recorded dates do not) and geodata.

Warns on stderr when the catalog is older than --max-age days (default ${DEFAULT_MAX_AGE_DAYS}): Correos de México
updates it every month. "cpmx build --download" brings it up to date.`,
  exit: 'Exit status: 0 when the artifact loads (old or not), 2 when it cannot (the message says why).',
  options: {
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    'max-age': { type: 'string', value: 'DAYS', help: `warn when the catalog is older than this (default ${DEFAULT_MAX_AGE_DAYS})` },
    json: { type: 'boolean', help: 'JSON even on a terminal (it is the output whenever stdout is not one)' },
    ...HELP_OPTION,
  },
  run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`cpmx status takes no argument, got: ${positionals.join(' ')}`);
    const maxAge = values['max-age'] === undefined ? DEFAULT_MAX_AGE_DAYS : integer(values['max-age'], '--max-age', 0);
    const source = catalogSource(dataOption(values.data));
    const catalog = source.get();
    const header = catalog.header;
    const age = catalogAge(header, Date.now());
    const geodata = geoStatus(catalog);
    if (values.json || process.stdout.isTTY !== true) print({ artifact: source.path, loaded: true, header, ...age, geodata });
    else process.stdout.write(`${statusText(source.path, header, age, geodata)}\n`);
    if (age.catalogAgeDays === null) {
      process.stderr.write(
        `cpmx status: the catalog's date is unknown (this artifact does not record it: it was built by an older cpmx, or from a pipe); rebuild it to record it.\n`,
      );
    } else if (age.catalogAgeDays > maxAge) {
      process.stderr.write(
        `cpmx status: warning: the catalog is ${age.catalogAgeDays} days old (dated ${age.catalogDate!.slice(0, 10)}), more than ${maxAge}; ` +
          'Correos de México updates it monthly: run "cpmx build --download" to bring it up to date.\n',
      );
    }
    return EXIT.ok;
  },
});
