/** Help texts, made from the command table: the overview and each command's usage and options. */
import { usageLine, type Command } from './command.js';

/** Usage lines longer than this put their summary on the next line, so the overview fits 100 columns. */
const USAGE_COLUMN = 52;

/**
 * The overview: the lookups (one per COPOMEX method, answered without a token),
 * then the tools, one line each, then how to get more.
 */
export function overview(commands: readonly Command[]): string {
  const usage = (cmd: Command) => `cpmx ${cmd.name}${cmd.synopsis ? ` ${cmd.synopsis}` : ''}${cmd.usageOptions ? ` ${cmd.usageOptions}` : ''}`;
  const width = Math.min(USAGE_COLUMN, Math.max(...commands.map((cmd) => usage(cmd).length)) + 2);
  const line = (cmd: Command) => {
    const text = usage(cmd);
    return text.length < width ? `  ${text.padEnd(width)}${cmd.summary}` : `  ${text}
  ${' '.repeat(width)}${cmd.summary}`;
  };
  const lookups = commands.filter((cmd) => cmd.lookup);
  const tools = commands.filter((cmd) => !cmd.lookup);
  return `cpmx: Mexican postal codes (SEPOMEX catalog) answered offline, by the COPOMEX API's contract.

Lookups, one per COPOMEX method (the body the API returns, from the local catalog: no token
needed; --token pruebas gives test mode):
${lookups.map(line).join('\n')}

Tools:
${tools.map(line).join('\n')}

Run "cpmx <command> --help" for a command's options. Example:
  cpmx info_cp 09810 --type simplified`;
}

/** A command's help: usage line, description, options, exit status. */
export function commandHelp(cmd: Command): string {
  const flags = Object.entries(cmd.options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}${spec.multiple ? ' ...' : ''}`;
    return { flag, help: spec.help };
  });
  const width = Math.max(...flags.map(({ flag }) => flag.length)) + 3;
  const options = flags.map(({ flag, help }) => `  ${flag.padEnd(width)}${help.split('\n').join(`\n  ${' '.repeat(width)}`)}`).join('\n');
  return `${usageLine(cmd)}\n\n${cmd.description}\n\nOptions:\n${options}\n\n${cmd.exit}`;
}
