/** `cpmx status`: the artifact's header, or why it cannot be loaded. */
import { catalogSource } from '../../client/catalog-source.js';
import { EXIT, HELP_OPTION, UsageError, command, print } from '../command.js';
import { DATA_HELP, dataOption } from '../environment.js';

export const statusCommand = command({
  name: 'status',
  synopsis: '',
  summary: "show the artifact's header, or why it cannot be loaded",
  description: "Prints the artifact's header (format version, counts, source file and sha256) as JSON.",
  exit: 'Exit status: 0 when the artifact loads, 2 when it cannot (the message says why).',
  options: {
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`cpmx status takes no argument, got: ${positionals.join(' ')}`);
    const source = catalogSource(dataOption(values.data));
    print({ artifact: source.path, loaded: true, header: source.get().header });
    return EXIT.ok;
  },
});
