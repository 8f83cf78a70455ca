/**
 * One command per method of the contract, under its COPOMEX name: the method's path segment
 * is the positional argument and its query parameters are options, both taken from the
 * contract's method table (METHODS), so a command cannot take other arguments than its path.
 */
import { isSuccess } from '../../core/contract.js';
import { METHODS, MAX_LIMIT, rawRequest, type Method, type Parameter } from '../../core/request.js';
import { answerer } from '../answer.js';
import { EXIT, HELP_OPTION, UsageError, command, onePositional, print, type Command, type OptionSpec } from '../command.js';
import { DATA_HELP, TOKEN_HELP, dataOption, tokenOption } from '../environment.js';
import { afterLookup } from '../hints.js';

const EXIT_TEXT = `Prints the JSON body the COPOMEX API would return: indented on a terminal, one line when
piped. Exit status: 0 on a success, 1 on an error envelope, 2 on a usage error or when the
catalog cannot be loaded.`;

const STATE_NAMES = `<estado> is matched ignoring case, accents and surrounding spaces; CDMX, Distrito Federal,
Estado de México, Edomex, Coahuila, Michoacán and Veracruz are accepted too. Quote names with
spaces.`;

const MUNICIPALITY_NAMES = `<municipio> is matched ignoring case, accents and surrounding spaces. A name that several
states share (Benito Juárez is in seven) answers for all of them, unless --estado names one.`;

/** What the help says of each method; its arguments come from METHODS. */
const TEXTS: Record<Method, { summary: string; description: string }> = {
  info_cp: {
    summary: 'the settlements of a postal code',
    description: `The settlements of a 5-digit postal code. Without --type, an array with one envelope per
settlement in catalog order; with --type simplified, one envelope listing every name.`,
  },
  search_cp: {
    summary: 'the codes that start with 1 to 5 digits',
    description: 'Every postal code that starts with <partial> (1 to 5 digits), ascending.',
  },
  get_estados: {
    summary: 'the 32 states',
    description: 'The 32 states as the catalog names them, ordered by their key (c_estado).',
  },
  get_municipio_por_estado: {
    summary: 'the municipalities of a state (aliases: CDMX, Edomex, ...)',
    description: `The municipalities of a state, ordered by their key (c_mnpio).
${STATE_NAMES}`,
  },
  get_colonia_por_cp: {
    summary: 'the settlement names of a postal code',
    description: 'The settlement names of a 5-digit postal code, in catalog order, as info_cp --type simplified lists them.',
  },
  get_cp_por_estado: {
    summary: 'the postal codes of a state',
    description: `Every postal code of a state, ascending.
${STATE_NAMES}`,
  },
  get_cp_por_municipio: {
    summary: 'the postal codes of a municipality',
    description: `Every postal code of a municipality, ascending.
${MUNICIPALITY_NAMES}`,
  },
  get_colonia_por_municipio: {
    summary: 'the settlement names of a municipality',
    description: `The settlement names of a municipality, each once, in catalog order.
${MUNICIPALITY_NAMES}`,
  },
  get_colonia_por_estado_municipio: {
    summary: 'the settlement names of a municipality of a state',
    description: `The settlement names of the municipality --municipio of the state --estado, each once, in
catalog order (get_colonia_por_municipio with --estado; both are required: without one the
answer is error 109 or 114).`,
  },
  search_cp_advanced: {
    summary: 'the codes of a state, narrowed by municipality, settlement and count',
    description: `The postal codes of a state, ascending, narrowed to those of --municipio, to those with a
settlement whose name contains --colonia (ignoring case, accents and repeated spaces), and
to the first --limit.
${STATE_NAMES}`,
  },
  get_cp_advanced: {
    summary: 'the same as search_cp_advanced (its older name)',
    description: 'search_cp_advanced under its older COPOMEX name: the same arguments, the same answers.',
  },
  get_estado_clave: {
    summary: 'the 32 states with their keys',
    description: 'Every state name to its two-digit key (c_estado), in key order.',
  },
  get_municipio_clave_por_estado: {
    summary: 'the municipalities of a state with their keys',
    description: `A state's municipality names to their three-digit keys (c_mnpio), in key order.
${STATE_NAMES}`,
  },
  get_municipio_clave_por_clave_estado: {
    summary: 'the same, the state given by its key',
    description: `A state's municipality names to their three-digit keys (c_mnpio), in key order.
<clave> is the state's key, 1 or 2 digits (9 and 09 are the same).`,
  },
  getCitiesByStateCode: {
    summary: 'the cities of a state, the state given by its key',
    description: `A state's city names (d_ciudad), each once, ordered by their key (c_cve_ciudad).
<clave> is the state's key, 1 or 2 digits (9 and 09 are the same).`,
  },
  'cuenta/consultas_disponibles': {
    summary: "the token's credits left (null: nothing counts them)",
    description: `The credits left to the token. The command line keeps no token registry, so the answer is
null (nothing counts them); it still needs a token, and reads no catalog.`,
  },
};

const PARAMETER_OPTIONS: Record<Exclude<Parameter, 'type'>, OptionSpec> = {
  estado: { type: 'string', value: 'E', help: 'the state (name or alias)' },
  municipio: { type: 'string', value: 'M', help: 'the municipality' },
  colonia: { type: 'string', value: 'C', help: 'only codes with a settlement whose name contains C' },
  limit: { type: 'string', value: 'N', help: `at most N codes (1 to ${MAX_LIMIT.toLocaleString('en')}; others answer error 117)` },
};

/** The usage line's options: required ones bare, optional ones in brackets. */
function usageOf(method: Method): string | undefined {
  const spec = METHODS[method] as { parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const parts = spec.parameters.map((parameter) => {
    const flag = parameter === 'type' ? '--type simplified' : `--${parameter} ${PARAMETER_OPTIONS[parameter].value}`;
    return spec.required?.includes(parameter) ? flag : `[${flag}]`;
  });
  return parts.length ? parts.join(' ') : undefined;
}

function lookupCommand(method: Method): Command {
  const spec = METHODS[method] as { segment?: string; parameters: readonly Parameter[] };
  const segment = spec.segment;
  const parameters = Object.fromEntries(spec.parameters.filter((p) => p !== 'type').map((p) => [p, PARAMETER_OPTIONS[p as Exclude<Parameter, 'type'>]]));
  return command({
    name: method,
    synopsis: segment ? `<${segment}>` : '',
    usageOptions: usageOf(method),
    summary: TEXTS[method].summary,
    description: TEXTS[method].description,
    exit: EXIT_TEXT,
    negativeNumbers: true,
    options: {
      ...(parameters as Record<string, OptionSpec>),
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
      // The account method reads no catalog, so only the others need it loaded first.
      const answer = answerer(dataOption(values.data), tokenOption(values.token), method !== 'cuenta/consultas_disponibles');
      const option = (name: string) => (values as Record<string, string | undefined>)[name] || undefined;
      const body = answer(
        rawRequest(method, value, undefined, method === 'info_cp' ? option('type') : undefined, option('estado'), option('municipio'), option('colonia'), option('limit')),
      );
      print(body);
      afterLookup(method, value, body, answer, tokenOption(values.token));
      return isSuccess(body) ? EXIT.ok : EXIT.failed;
    },
  });
}

export const lookupCommands: Command[] = (Object.keys(METHODS) as Method[]).map(lookupCommand);
