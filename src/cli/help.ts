/** Help texts, made from the command table: the overview and each command's usage and options. */
import type { Command } from './command.js';

/** The overview: one line per command, then how to get more. */
export function overview(commands: readonly Command[]): string {
  const usage = (cmd: Command) => `cpmx ${cmd.name}${cmd.synopsis ? ` ${cmd.synopsis}` : ''}${cmd.usageOptions ? ` ${cmd.usageOptions}` : ''}`;
  const width = Math.max(...commands.map((cmd) => usage(cmd).length)) + 2;
  return `cpmx: Mexican postal codes (SEPOMEX catalog) answered offline, by the COPOMEX API's contract.

Usage:
${commands.map((cmd) => `  ${usage(cmd).padEnd(width)}${cmd.summary}`).join('\n')}

Run "cpmx <command> --help" for a command's options. Example:
  cpmx info_cp 09810 --type simplified --token demo`;
}

/** A command's help: usage line, description, options, exit status. */
export function commandHelp(cmd: Command): string {
  const flags = Object.entries(cmd.options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}${spec.multiple ? ' ...' : ''}`;
    return { flag, help: spec.help };
  });
  const width = Math.max(...flags.map(({ flag }) => flag.length)) + 3;
  const options = flags.map(({ flag, help }) => `  ${flag.padEnd(width)}${help.split('\n').join(`\n  ${' '.repeat(width)}`)}`).join('\n');
  const line = `Usage: cpmx ${cmd.name}${cmd.synopsis ? ` ${cmd.synopsis}` : ''}${cmd.usageOptions ? ` ${cmd.usageOptions}` : ''}`;
  return `${line}\n\n${cmd.description}\n\nOptions:\n${options}\n\n${cmd.exit}`;
}
