/**
 * The start-up parts of the benchmark alone (`npm run bench` runs them with the rest): the cold
 * starts of every contestant, interleaved, and the library's browser bundle, side by side in
 * one run:
 *
 *   npm run compile && node dist/bench/startup.js [--catalog FILE] [--work DIR] [--cold-runs N]
 *
 * prints results.json's `cold` and `embed` parts, and the two start-up targets, as JSON.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findCatalog } from '../build/build.js';
import { packageRoot } from '../src/package-root.js';
import { dataPaths } from './contestants/types.js';
import { timeColdStarts } from './measure/cold-starts.js';
import { measureEmbedding } from './measure/embed.js';
import { prepare } from './prepare.js';

// As in run.ts: the bench's old catalog would cost a user with a current one no age warning.
process.env.CPMX_NO_AGE_WARNING = '1';
const { values } = parseArgs({ options: { catalog: { type: 'string' }, work: { type: 'string' }, 'cold-runs': { type: 'string' } } });
const work = resolve(values.work ?? join(packageRoot, 'bench', 'work'));
const runs = Number(values['cold-runs'] ?? 11);
if (!(Number.isInteger(runs) && runs > 0)) throw new Error(`--cold-runs must be a positive whole number, not ${JSON.stringify(values['cold-runs'])}`);
const paths = dataPaths(work);
// The contestants' data, built once (bench/prepare.ts) unless a run left it in the work directory.
if (![paths.artifact, paths.sqlite, paths.json].every((path) => existsSync(path))) {
  const location = findCatalog(values.catalog);
  if (!location) throw new Error('no catalog found: pass --catalog FILE or set CPMX_CATALOG');
  await prepare(location.path, work);
}
const compiled = join(packageRoot, 'dist', 'bench');
const cold = timeColdStarts({ compiled, work, runs, code: '09810' });
const embed = await measureEmbedding({ root: packageRoot, compiled, work, runs, code: '09810' });
const median = (name: keyof typeof cold) => cold[name]!.importToAnswerMs.median;
process.stdout.write(
  `${JSON.stringify(
    {
      cold,
      embed,
      targets: {
        coldVsSqlite: median('cpmx') / median('sqlite'),
        coldVsSqliteLeast: median('cpmx') / median('sqlite-least'),
        coldMs: median('cpmx'),
        browserBundleGzipBytes: embed.browserBundle.gzipBytes,
      },
    },
    null,
    2,
  )}\n`,
);
