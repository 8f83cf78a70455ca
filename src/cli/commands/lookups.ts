/**
 * One command per method of the contract, under its COPOMEX name: the method's path segment
 * is the positional argument and its query parameters are options, both taken from the
 * contract's method table (METHODS), so a command cannot take other arguments than its path;
 * its help is the row's texts (METHOD_TEXTS), as the OpenAPI document's and MCP's are.
 */
import { isSuccess } from '../../core/contract.js';
import { METHOD_TEXTS, PARAMETER_TEXTS } from '../../core/method-texts.js';
import { METHODS, rawRequest, type Method, type Parameter } from '../../core/request.js';
import { answerer } from '../../client/answerer.js';
import { EXIT, HELP_OPTION, UsageError, command, onePositional, print, usageLine, type Command, type OptionSpec } from '../command.js';
import { DATA_HELP, TOKEN_HELP, dataOption, tokenOption } from '../environment.js';
import { afterLookup } from '../hints.js';
import { LOCAL_TOKEN } from '../../client/local-token.js';

const EXIT_TEXT = `Prints the JSON body the COPOMEX API would return: indented on a terminal, one line when
piped. No token is needed: the answer comes from the local catalog, as the library's
createClient() gives it (--token pruebas gives test mode). Exit status: 0 on a success, 1 on an
error envelope, 2 on a usage error (a missing argument, with the usage) or when the catalog
cannot be loaded.`;

/** The command line names a parameter as its option. */
const optionName = (parameter: Parameter, value?: string) => `--${parameter}${value === undefined ? '' : ` ${value}`}`;

const PARAMETER_OPTIONS = Object.fromEntries(
  (Object.entries(PARAMETER_TEXTS) as [Parameter, { value: string; help: string }][]).map(([name, { value, help }]) => [name, { type: 'string', value, help }]),
) as Record<Parameter, OptionSpec>;

/** The usage line's options: required ones bare, optional ones in brackets. */
function usageOf(method: Method): string | undefined {
  const spec = METHODS[method] as { parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const parts = spec.parameters.map((parameter) => {
    const flag = optionName(parameter, PARAMETER_TEXTS[parameter].value);
    return spec.required?.includes(parameter) ? flag : `[${flag}]`;
  });
  return parts.length ? parts.join(' ') : undefined;
}

function lookupCommand(method: Method): Command {
  const spec = METHODS[method] as { segment?: string; parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const segment = spec.segment;
  const parameters = Object.fromEntries(spec.parameters.filter((p) => p !== 'type').map((p) => [p, PARAMETER_OPTIONS[p]]));
  const lookup: Command = command({
    name: method,
    synopsis: segment ? `<${segment}>` : '',
    usageOptions: usageOf(method),
    summary: METHOD_TEXTS[method].summary,
    description: METHOD_TEXTS[method].description(optionName),
    exit: EXIT_TEXT,
    negativeNumbers: true,
    lookup: true,
    options: {
      ...(parameters as Record<string, OptionSpec>),
      // The API ignores `type` outside info_cp; so does the command line.
      type: method === 'info_cp' ? PARAMETER_OPTIONS.type : { ...PARAMETER_OPTIONS.type, help: 'ignored, as the API ignores type here' },
      token: { type: 'string', value: 'T', help: TOKEN_HELP },
      data: { type: 'string', value: 'FILE', help: DATA_HELP },
      ...HELP_OPTION,
    },
    run({ values, positionals }) {
      let value: string | undefined;
      if (segment) value = onePositional(positionals, method, segment);
      else if (positionals.length) throw new UsageError(`cpmx ${method} takes no argument, got: ${positionals.join(' ')}`);
      const given = values as Record<string, string | undefined>;
      const missing = [...(segment && value === undefined ? [`<${segment}>`] : []), ...(spec.required ?? []).filter((p) => given[p] === undefined).map((p) => optionName(p))];
      if (missing.length) throw new UsageError(`cpmx ${method} needs ${missing.join(' and ')}.\n${usageLine(lookup)}\nRun "cpmx ${method} --help" for more.`);
      // Without a token the local catalog answers, as createClient() does without one (the
      // command line has no registry to count tokens); the account method reads no catalog.
      const token = tokenOption(values.token) || LOCAL_TOKEN;
      const answer = answerer(dataOption(values.data), token, method !== 'cuenta/consultas_disponibles');
      const option = (name: string) => given[name] || undefined;
      const body = answer(rawRequest({ method, segment: value, parameters: Object.fromEntries(spec.parameters.map((name) => [name, option(name)])) }));
      print(body);
      afterLookup(method, value, body, answer, token);
      return isSuccess(body) ? EXIT.ok : EXIT.failed;
    },
  });
  return lookup;
}

export const lookupCommands: Command[] = (Object.keys(METHODS) as Method[]).map(lookupCommand);
