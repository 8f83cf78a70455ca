#!/usr/bin/env node
/**
 * The `cpmx` command: finds the command in the table, parses its arguments, runs it, and
 * turns what can go wrong into a message and an exit status, never a stack trace.
 */
import { markOldCatalogSaid } from '../client/said-once.js';
import { ArtifactError } from '../core/catalog.js';
import { packageVersion } from '../paths.js';
import { EXIT, UsageError, parseInvocation, type Command } from './command.js';
import { enableCompileCache } from './compile-cache.js';
import { commandHelp, overview } from './help.js';

// Before the commands' modules load: what they compile is then kept for the next run.
enableCompileCache();

/**
 * The command named `name`. A run loads only the command it runs: the lookups' table first
 * (most runs are a lookup, and it imports only what answers one), the whole table (every
 * command's modules) only for another name.
 */
async function commandNamed(name: string): Promise<Command | undefined> {
  const { lookupCommands } = await import('./commands/lookups.js');
  return lookupCommands.find((command) => command.name === name) ?? (await import('./commands/index.js')).findCommand(name);
}

/** The whole table, for the overview, `help` and an unknown name's hint. */
const wholeTable = () => import('./commands/index.js');

/** Exit status when stdout cannot be written (sysexits' EX_IOERR). */
const EXIT_OUTPUT = 74;

function write(text: string): number {
  process.stdout.write(`${text}\n`);
  return EXIT.ok;
}

/** Runs the command line; resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  try {
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
    const cmd = await commandNamed(name);
    if (!cmd) {
      const { COMMANDS } = await wholeTable();
      const unknown = { word: name, candidates: COMMANDS.map((command) => command.name), as: (found: string) => found };
      throw new UsageError(`unknown command "${name}".\nRun "cpmx --help" for the commands.`, unknown);
    }
    // The library's own age warning (createClient, in validate, parse, mcp) would come out as a
    // Node warning among their output: only build and serve say the age, in their own words.
    if (!cmd.warnsOldCatalog) markOldCatalogSaid();
    const { values, positionals } = parseInvocation(cmd, args);
    const help = () => write(commandHelp(cmd));
    if (values.help) return help();
    return await cmd.run({ values, positionals, help });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ArtifactError) {
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
    throw error;
  }
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  // A full disk, a closed descriptor: said in one line, never a stack trace.
  process.stderr.write(`cpmx: cannot write to stdout (${error.code ?? error.message})\n`);
  process.exit(EXIT_OUTPUT);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cpmx: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
