/** `cpmx build` timed in child processes, so each run pays its own start and peak memory. */
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
