/**
 * The cpmx/web part of the benchmark alone (`npm run bench` runs it with the rest):
 *
 *   npm run compile && node dist/bench/web.js [--data ARTIFACT] [--work DIR] [--codes N] [--page-runs N]
 *
 * prints its results (results.json's `web`) as JSON.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/package-root.js';
import { benchBrowsers } from './browser.js';
import { measureWeb } from './measure/web.js';
import { SEED } from './workload.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, work: { type: 'string' }, codes: { type: 'string' }, 'page-runs': { type: 'string' } } });
const artifact = resolve(values.data ?? join(packageRoot, 'data', 'cpmx.msgpack'));
const work = resolve(values.work ?? join(packageRoot, 'bench', 'work'));
mkdirSync(work, { recursive: true });
const { createClient } = await import(join(packageRoot, 'dist', 'cpmx.js'));
const { createWebClient } = await import(join(packageRoot, 'dist', 'web.js'));
const results = await measureWeb({
  root: packageRoot,
  artifact,
  work,
  node: createClient({ token: 'demo', dataPath: artifact }),
  createWebClient,
  browsers: benchBrowsers(),
  seed: SEED,
  codes: Number(values.codes ?? 200),
  pageRuns: Number(values['page-runs'] ?? 15),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
