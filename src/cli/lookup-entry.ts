/**
 * The way in for a lookup (`cpmx info_cp 09810`), most runs of the command line: a file of
 * its own (dist/cli-lookup.cjs, one bundle with nothing shared), so that a lookup loads one
 * file, not the program's graph of chunks. Another command name answers undefined, and the
 * whole program (program.ts) runs it.
 */
import { lookupCommands } from './commands/lookups.js';
import { invoke, settled } from './invoke.js';

/** Runs `argv` if it names a lookup: its exit status; undefined for any other command. */
export async function runLookup(argv: string[]): Promise<number | undefined> {
  const [name, ...args] = argv;
  const cmd = lookupCommands.find((command) => command.name === name);
  return cmd ? await settled(() => invoke(cmd, args)) : undefined;
}
