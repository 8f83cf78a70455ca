/** One command per method of the contract: a positional segment and the method's parameters as options. */
import { isSuccess } from '../../core/contract.js';
import type { Method } from '../../core/request.js';
import { answerer } from '../answer.js';
import { EXIT, HELP_OPTION, UsageError, command, onePositional, print, type Command } from '../command.js';
import { DATA_HELP, TOKEN_HELP, dataOption, tokenOption } from '../environment.js';
import { afterLookup } from '../hints.js';

const EXIT_TEXT = `Prints the JSON body the COPOMEX API would return: indented on a terminal, one line when
piped. Exit status: 0 on a success, 1 on an error envelope, 2 on a usage error or when the
catalog cannot be loaded.`;

interface MethodCommand {
  method: Method;
  /** The path segment, as named in the usage line; none for a method without one. */
  segment?: string;
  summary: string;
  description: string;
}

const METHOD_COMMANDS: MethodCommand[] = [
  {
    method: 'info_cp',
    segment: 'cp',
    summary: 'the settlements of a postal code',
    description: `The settlements of a 5-digit postal code. Without --type, an array with one envelope per
settlement in catalog order; with --type simplified, one envelope listing every name.`,
  },
  {
    method: 'search_cp',
    segment: 'partial',
    summary: 'the codes that start with 1 to 5 digits',
    description: 'Every postal code that starts with <partial> (1 to 5 digits), ascending.',
  },
  {
    method: 'get_estados',
    summary: 'the 32 states',
    description: 'The 32 states as the catalog names them, ordered by their key (c_estado).',
  },
  {
    method: 'get_municipio_por_estado',
    segment: 'estado',
    summary: 'the municipalities of a state (aliases: CDMX, Edomex, ...)',
    description: `The municipalities of a state, ordered by their key (c_mnpio). <estado> is matched ignoring
case, accents and surrounding spaces; CDMX, Distrito Federal, Estado de México, Edomex,
Coahuila, Michoacán and Veracruz are accepted too. Quote names with spaces.`,
  },
];

function lookupCommand({ method, segment, summary, description }: MethodCommand): Command {
  return command({
    name: method,
    synopsis: segment ? `<${segment}>` : '',
    usageOptions: method === 'info_cp' ? '[--type simplified]' : undefined,
    summary,
    description,
    exit: EXIT_TEXT,
    negativeNumbers: true,
    options: {
      type: {
        type: 'string',
        value: 'simplified',
        // The API ignores `type` outside info_cp; so does the command line.
        help: method === 'info_cp' ? 'the simplified answer (any other value answers error 112)' : 'ignored, as the API ignores type here',
      },
      token: { type: 'string', value: 'T', help: TOKEN_HELP },
      data: { type: 'string', value: 'FILE', help: DATA_HELP },
      ...HELP_OPTION,
    },
    run({ values, positionals }) {
      let value: string | undefined;
      if (segment) value = onePositional(positionals, method, segment) ?? '';
      else if (positionals.length) throw new UsageError(`cpmx ${method} takes no argument, got: ${positionals.join(' ')}`);
      const answer = answerer(dataOption(values.data), tokenOption(values.token), true);
      const body = answer({ method, segment: value, token: undefined, type: method === 'info_cp' ? values.type : undefined });
      print(body);
      afterLookup(method, value, body, answer, tokenOption(values.token));
      return isSuccess(body) ? EXIT.ok : EXIT.failed;
    },
  });
}

export const lookupCommands: Command[] = METHOD_COMMANDS.map(lookupCommand);
