/**
 * The validation benchmark: `cpmx validate` on a 1,000,000-record CSV with one thread and with
 * every core, and on the same file in Windows-1252, next to csv-parse alone reading the
 * same file on one thread (alternating, in child processes); peak memory at two sizes; and a
 * file whose every record has a quoted field, next to csv-parse alone on that file.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { writeAddressCsv } from '../addresses.js';
import type { Lookups } from '../contestants/types.js';
import type { ValidateResults, ValidateRun } from '../results.js';
import { median } from '../stats.js';

interface ChildRun {
  seconds: number;
  maxRssBytes: number;
}

function runChild(compiled: string, args: string[]): ChildRun {
  const devNull = openSync('/dev/null', 'w');
  try {
    const result = spawnSync(process.execPath, [join(compiled, 'validate-child.js'), ...args], { stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8' });
    const line = result.stderr.trim().split('\n').pop() ?? '';
    if (result.status !== 0 && result.status !== 1) throw new Error(`validate child ${args[0]} failed (${result.status}): ${result.stderr}`);
    return JSON.parse(line) as ChildRun;
  } finally {
    closeSync(devNull);
  }
}

/** The same file in Windows-1252, as Excel on Windows saves it (the catalog's names are all Latin-1). */
function writeWindows1252(from: string, to: string): void {
  const text = readFileSync(from, 'utf8');
  if (/[\u0100-\uffff]/.test(text)) throw new Error(`${from} holds characters beyond Latin-1`);
  writeFileSync(to, Buffer.from(text, 'latin1'));
}

export async function validateBench(options: {
  compiled: string;
  work: string;
  artifact: string;
  cpmx: Lookups;
  codes: string[];
  records?: number;
  rounds?: number;
  jobs?: number;
  log?: (line: string) => void;
}): Promise<ValidateResults> {
  const records = options.records ?? 1_000_000;
  const smallRecords = Math.round(records / 4);
  const rounds = options.rounds ?? 2;
  const jobs = options.jobs ?? availableParallelism();
  const big = join(options.work, 'addresses-large.csv');
  const small = join(options.work, 'addresses-small.csv');
  const latin1 = join(options.work, 'addresses-large-windows-1252.csv');
  const quoted = join(options.work, 'addresses-large-quoted.csv');
  options.log?.(`validate: writing ${records.toLocaleString('en-US')} and ${smallRecords.toLocaleString('en-US')} address records ...`);
  await writeAddressCsv(options.cpmx, options.codes, big, records);
  await writeAddressCsv(options.cpmx, options.codes, small, smallRecords);
  await writeAddressCsv(options.cpmx, options.codes, quoted, records, undefined, 'quoted');
  writeWindows1252(big, latin1);
  const cpmx = (file: string, threads: number) => runChild(options.compiled, ['cpmx', file, options.artifact, String(threads)]);
  const runs = {
    single: [] as ChildRun[],
    parallel: [] as ChildRun[],
    latin1: [] as ChildRun[],
    csvParse: [] as ChildRun[],
    quoted: [] as ChildRun[],
    quotedCsvParse: [] as ChildRun[],
  };
  for (let round = 0; round < rounds; round++) {
    options.log?.(`validate: round ${round + 1} of ${rounds} (--jobs 1, --jobs ${jobs}, Windows-1252, csv-parse, quoted) ...`);
    runs.single.push(cpmx(big, 1));
    runs.parallel.push(cpmx(big, jobs));
    runs.latin1.push(cpmx(latin1, jobs));
    runs.csvParse.push(runChild(options.compiled, ['csv-parse', big]));
    runs.quoted.push(cpmx(quoted, jobs));
    runs.quotedCsvParse.push(runChild(options.compiled, ['csv-parse', quoted]));
  }
  const smallSingle = cpmx(small, 1);
  const smallParallel = cpmx(small, jobs);
  // The rate is that of the median time; peak memory is the highest of the rounds.
  const summary = (done: ChildRun[]): ValidateRun => {
    const seconds = median(done.map((r) => r.seconds));
    return { recordsPerSecond: records / seconds, seconds, maxRssBytes: Math.max(...done.map((r) => r.maxRssBytes)) };
  };
  return {
    records,
    smallRecords,
    rounds,
    cpmx: summary(runs.single),
    csvParse: summary(runs.csvParse),
    smallMaxRssBytes: smallSingle.maxRssBytes,
    jobs,
    parallel: summary(runs.parallel),
    latin1: summary(runs.latin1),
    parallelSmallMaxRssBytes: smallParallel.maxRssBytes,
    quoted: summary(runs.quoted),
    quotedCsvParse: summary(runs.quotedCsvParse),
  };
}
