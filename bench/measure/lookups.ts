/**
 * The lookups: every contestant must first give the same bodies as cpmx (or the comparison is
 * void), then each is timed by bench/lookups.ts in a process of its own.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTESTANTS, dataPaths, type ContestantModule, type ContestantName, type Lookups } from '../contestants/types.js';
import { CPMX_EXTRAS, OPS } from '../ops.js';
import type { LookupStat, Results } from '../results.js';
import { makeWorkload, type Workload } from '../workload.js';

/**
 * Opens every contestant on the data in `work`, makes the workload from cpmx's catalog, checks
 * that they all answer it alike, and writes it to `work` for the timing children.
 */
export async function checkedWorkload(work: string): Promise<{ workload: Workload; workloadPath: string }> {
  const apis = {} as Record<ContestantName, Lookups>;
  for (const name of CONTESTANTS) apis[name] = ((await import(`../contestants/${name}.js`)) as ContestantModule).open(dataPaths(work));
  const workload = makeWorkload(apis.cpmx);
  const workloadPath = join(work, 'workload.json');
  writeFileSync(workloadPath, JSON.stringify(workload));
  checkAlike(apis, workload);
  for (const api of Object.values(apis)) api.close?.();
  return { workload, workloadPath };
}

/** Throws at the first query a contestant answers differently from cpmx. */
export function checkAlike(apis: Record<ContestantName, Lookups>, workload: Workload, perOp = 300): void {
  for (const op of OPS) {
    for (const query of op.queries(workload).slice(0, perOp)) {
      const expected = JSON.stringify(op.run(apis.cpmx, query));
      for (const name of CONTESTANTS) {
        if (JSON.stringify(op.run(apis[name], query)) !== expected) throw new Error(`${name} answers ${op.id}(${JSON.stringify(query)}) differently from cpmx`);
      }
    }
  }
}

export function timeLookups(options: { compiled: string; work: string; workloadPath: string; taskTimeMs: number; log: (line: string) => void }): Results['lookups'] {
  const lookups: Results['lookups'] = {};
  for (const name of CONTESTANTS) {
    options.log(`lookups of ${name}: ${OPS.length + (name === 'cpmx' ? CPMX_EXTRAS.length : 0)} tasks of ${options.taskTimeMs} ms, in a process of its own ...`);
    const out = execFileSync(process.execPath, [join(options.compiled, 'lookups.js'), name, options.work, options.workloadPath, String(options.taskTimeMs)], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const [id, stat] of Object.entries(JSON.parse(out) as Record<string, LookupStat>)) (lookups[id] ??= {})[name] = stat;
  }
  return lookups;
}
