/**
 * `npm run bench -- --quick`: the lookup figures (and the cold starts, which take seconds) in a
 * minute or two, with the same contestants, workload, checks and timing as a whole run.
 */
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { WARMUP_MS } from '../ops.js';
import { prepare } from '../prepare.js';
import type { Results } from '../results.js';
import { SEED } from '../workload.js';
import { timeColdStarts } from './cold-starts.js';
import { machineFacts } from './facts.js';
import { checkedWorkload, timeLookups } from './lookups.js';

/** What a quick run measures: a whole run's fields of the same names. */
export type QuickResults = Pick<Results, 'date' | 'machine' | 'seed' | 'settings' | 'cold' | 'lookups'> & { quick: true; catalog: string };

export async function measureQuick(options: { catalog: string; work: string; taskTimeMs: number; coldRuns: number; log: (line: string) => void }): Promise<QuickResults> {
  const { catalog, work, log } = options;
  const compiled = join(packageRoot, 'dist', 'bench');
  log(`catalog: ${catalog}`);
  log(`preparing contestants in ${work} ...`);
  await prepare(catalog, work);
  log(`cold start: ${options.coldRuns} runs of each, interleaved ...`);
  const cold = timeColdStarts({ compiled, work, runs: options.coldRuns, code: '09810' });
  log('opening every contestant to check they answer alike ...');
  const { workloadPath } = await checkedWorkload(work);
  const lookups = timeLookups({ compiled, work, workloadPath, taskTimeMs: options.taskTimeMs, log });
  return {
    quick: true,
    date: new Date().toISOString(),
    machine: machineFacts(),
    catalog,
    seed: SEED,
    settings: { taskTimeMs: options.taskTimeMs, warmupMs: WARMUP_MS, coldRuns: options.coldRuns },
    cold,
    lookups,
  };
}
