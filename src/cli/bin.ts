#!/usr/bin/env node
/**
 * The `cpmx` command, dist/cli.cjs: CommonJS, because Node starts a CommonJS main without its
 * ES module loader, and requires a CommonJS file more cheaply than it imports a module (about
 * 2 ms of a lookup's 15). Most runs are a lookup: its own file answers it (lookup-entry.ts,
 * dist/cli-lookup.cjs, one bundle); any other command imports the whole program (program.ts,
 * dist/cli-program.js and its chunks). What can go wrong becomes a message and an exit status,
 * never a stack trace (invoke.ts).
 */
import { join } from 'node:path';
import { requireCached } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';
import type * as LookupEntry from './lookup-entry.js';

// Before the commands' modules load: what they compile is then kept for the next run.
enableCompileCache();

/** Exit status when stdout cannot be written (sysexits' EX_IOERR). */
const EXIT_OUTPUT = 74;

async function main(argv: string[]): Promise<number> {
  // This file is dist/cli.cjs, CommonJS: __dirname is dist/, where the lookups' file is.
  const lookups = requireCached(join(__dirname, 'cli-lookup.cjs'));
  const code = await (lookups.exports as typeof LookupEntry).runLookup(argv);
  if (code === undefined) return (await import('./program.js')).runProgram(argv);
  lookups.settle();
  return code;
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
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
