/**
 * The command line's start, whole processes timed from outside: `cpmx info_cp 09810` (the
 * package's bin, dist/cli.cjs, with its own artifact) against `node -e 0`, Node starting and doing
 * nothing. The two alternate run by run, which goes first alternating too, and each run's
 * ratio is taken against the run beside it, so drift on a shared machine falls on both alike.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { CommandLineStart } from '../results.js';
import { spread } from '../stats.js';

/** Wall milliseconds of one process, from its spawn to its exit; it must succeed. */
function wallMs(args: string[], cwd: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

export function timeCommandLineStart(options: { root: string; runs: number; code: string }): CommandLineStart {
  const cli = [join(options.root, 'dist', 'cli.cjs'), 'info_cp', options.code];
  const node = ['-e', '0'];
  // One of each first, not counted: the files are in the page cache by then, and (on Node 20)
  // the command line's code cache is written, as after any first run of a user's.
  wallMs(cli, options.root);
  wallMs(node, options.root);
  const cliMs: number[] = [];
  const nodeMs: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    // Which goes first alternates, so neither always runs right after the other.
    let cliRun: number;
    let nodeRun: number;
    if (run % 2 === 0) {
      cliRun = wallMs(cli, options.root);
      nodeRun = wallMs(node, options.root);
    } else {
      nodeRun = wallMs(node, options.root);
      cliRun = wallMs(cli, options.root);
    }
    cliMs.push(cliRun);
    nodeMs.push(nodeRun);
    ratios.push(cliRun / nodeRun);
  }
  return { command: `cpmx info_cp ${options.code}`, cliMs: spread(cliMs), nodeMs: spread(nodeMs), ratio: spread(ratios) };
}
