/** `cpmx build` and `cpmx diff` timed in child processes, so each run pays its own start and peak memory. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Results } from '../results.js';
import { spread } from '../stats.js';

export function timeBuilds(options: { compiled: string; catalog: string; work: string; runs: number }): Results['build'] {
  const builds = Array.from({ length: options.runs }, () => {
    const out = execFileSync(process.execPath, [join(options.compiled, 'build-child.js'), options.catalog, join(options.work, 'build-run.msgpack')], { encoding: 'utf8' });
    return JSON.parse(out) as { ms: number; maxRssBytes: number };
  });
  return { ms: spread(builds.map((b) => b.ms)), maxRssBytes: spread(builds.map((b) => b.maxRssBytes)) };
}

/** `cpmx diff` of the whole catalog (as given: text or zip) against the artifact built from it. */
export function timeDiffs(options: { compiled: string; catalog: string; artifact: string; runs: number }): NonNullable<Results['diff']> {
  const diffs = Array.from({ length: options.runs }, () => {
    const out = execFileSync(process.execPath, [join(options.compiled, 'diff-child.js'), options.catalog, options.artifact], { encoding: 'utf8' });
    return JSON.parse(out) as { ms: number; maxRssBytes: number; changes: number };
  });
  if (diffs.some((d) => d.changes !== 0)) throw new Error(`cpmx diff found changes between ${options.catalog} and the artifact built from it`);
  return { ms: spread(diffs.map((d) => d.ms)), maxRssBytes: spread(diffs.map((d) => d.maxRssBytes)) };
}
