/**
 * The whole command line: finds the command in the table, runs it (invoke.ts), and gives
 * the overview, `help` and an unknown name's hint. Lookups come here only through `cpmx help`.
 */
import { packageVersion } from '../paths.js';
import { UsageError } from './command.js';
import { commandHelp, overview } from './help.js';
import { invoke, settled, write } from './invoke.js';

/** The whole table: every command's modules. */
const wholeTable = () => import('./commands/index.js');

/** Runs the command line; resolves to the exit status. */
export function runProgram(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  return settled(async () => {
    switch (name) {
      case undefined:
      case '-h':
      case '--help': {
        const { COMMANDS } = await wholeTable();
        return write(overview(COMMANDS));
      }
      case 'help': {
        const { COMMANDS, findCommand } = await wholeTable();
        const cmd = args[0] ? findCommand(args[0]) : undefined;
        return write(cmd ? commandHelp(cmd) : overview(COMMANDS));
      }
      case '-v':
      case '--version':
        return write(packageVersion());
    }
    const { COMMANDS, findCommand } = await wholeTable();
    const cmd = findCommand(name);
    if (!cmd) {
      const unknown = { word: name, candidates: COMMANDS.map((command) => command.name), as: (found: string) => found };
      throw new UsageError(`unknown command "${name}".\nRun "cpmx --help" for the commands.`, unknown);
    }
    return invoke(cmd, args);
  });
}
