/**
 * Running one command and turning what can go wrong into a message and an exit status, never
 * a stack trace: the one rule both ways in use (the lookups' own file, the whole program).
 * Each is a bundle of its own, with its own copy of this module and of the error classes it
 * checks, so an error is always checked against the classes of the file that threw it.
 */
import { markOldCatalogSaid } from '../client/said-once.js';
import { ArtifactError } from '../core/catalog.js';
import { EXIT, UsageError, parseInvocation, type Command } from './command.js';
import { commandHelp } from './help.js';

/** Writes one text and a newline to stdout; the command succeeded. */
export function write(text: string): number {
  process.stdout.write(`${text}\n`);
  return EXIT.ok;
}

/** Parses `args` for `cmd` and runs it (or prints its help). */
export async function invoke(cmd: Command, args: string[]): Promise<number> {
  // The library's own age warning (createClient, in validate, parse, mcp) would come out as a
  // Node warning among their output: only build and serve say the age, in their own words.
  if (!cmd.warnsOldCatalog) markOldCatalogSaid();
  const { values, positionals } = parseInvocation(cmd, args);
  const help = () => write(commandHelp(cmd));
  if (values.help) return help();
  return await cmd.run({ values, positionals, help });
}

/** Runs `run`; a usage error or an unreadable catalog becomes its message on stderr and exit 2. */
export async function settled(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ArtifactError)) throw error;
    let message = error.message;
    if (error instanceof UsageError && error.unknown) {
      const { word, candidates, as } = error.unknown;
      const { closest } = await import('./hints.js');
      const near = await closest(word, candidates);
      if (near !== undefined) message = message.replace(/\n|$/, ` Did you mean ${as(near)}?$&`);
    }
    process.stderr.write(`cpmx: ${message}\n`);
    return EXIT.usage;
  }
}
