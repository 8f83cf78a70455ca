/**
 * The validation benchmark: `cpmx validate` on a 1,000,000-record CSV next to csv-parse alone
 * reading the same file (alternating, in child processes), and peak memory at two sizes.
 */
import { spawnSync } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { writeAddressCsv } from '../addresses.js';
import type { Lookups } from '../contestants/types.js';
import type { ValidateResults } from '../results.js';
import { median } from '../stats.js';

function runChild(compiled: string, args: string[]): { seconds: number; maxRssBytes: number } {
  const devNull = openSync('/dev/null', 'w');
  try {
    const result = spawnSync(process.execPath, [join(compiled, 'validate-child.js'), ...args], { stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8' });
    const line = result.stderr.trim().split('\n').pop() ?? '';
    if (result.status !== 0 && result.status !== 1) throw new Error(`validate child ${args[0]} failed (${result.status}): ${result.stderr}`);
    return JSON.parse(line) as { seconds: number; maxRssBytes: number };
  } finally {
    closeSync(devNull);
  }
}

export async function validateBench(options: { compiled: string; work: string; artifact: string; cpmx: Lookups; codes: string[]; records?: number; rounds?: number; log?: (line: string) => void }): Promise<ValidateResults> {
  const records = options.records ?? 1_000_000;
  const smallRecords = Math.round(records / 4);
  const rounds = options.rounds ?? 2;
  const big = join(options.work, 'addresses-large.csv');
  const small = join(options.work, 'addresses-small.csv');
  options.log?.(`validate: writing ${records.toLocaleString('en-US')} and ${smallRecords.toLocaleString('en-US')} address records ...`);
  await writeAddressCsv(options.cpmx, options.codes, big, records);
  await writeAddressCsv(options.cpmx, options.codes, small, smallRecords);
  const cpmxRuns: { seconds: number; maxRssBytes: number }[] = [];
  const csvRuns: { seconds: number; maxRssBytes: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    options.log?.(`validate: round ${round + 1} of ${rounds} ...`);
    cpmxRuns.push(runChild(options.compiled, ['cpmx', big, options.artifact]));
    csvRuns.push(runChild(options.compiled, ['csv-parse', big]));
  }
  const smallRun = runChild(options.compiled, ['cpmx', small, options.artifact]);
  // The rate is that of the median time; peak memory is the highest of the rounds.
  const summary = (runs: { seconds: number; maxRssBytes: number }[]) => {
    const seconds = median(runs.map((r) => r.seconds));
    return { recordsPerSecond: records / seconds, seconds, maxRssBytes: Math.max(...runs.map((r) => r.maxRssBytes)) };
  };
  return { records, smallRecords, rounds, cpmx: summary(cpmxRuns), csvParse: summary(csvRuns), smallMaxRssBytes: smallRun.maxRssBytes };
}
