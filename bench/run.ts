/**
 * `npm run bench`: says what it will do and about how long it takes, measures
 * (bench/measure.ts) part by part, and writes results.json, then renders RESULTS.md and
 * chart.svg from those results (bench/report/), as `npm run bench:report` does from the file.
 *
 * Its options: `npm run bench -- --help` (USAGE below). Results go to the ignored bench/work/ (a
 * run leaves the checkout as it was); --publish writes the committed bench/results.json,
 * RESULTS.md and chart.svg (a whole run only), --out DIR anywhere else. --quick measures the
 * lookups and cold starts alone, in a minute or two, into quick.json and QUICK.md. --plan says
 * what a run would do and writes nothing; --no-write measures and prints the targets, writing
 * nothing; --no-browser leaves out what is measured in Chromium (otherwise the one the tests use:
 * npm's, unpacked on first need, bench/chromium.ts); --no-geo leaves out the geodata, measured
 * otherwise when ../shared/data/sepomex-geo/ is there.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findCatalog } from '../build/build.js';
import { writeFileAtomic } from '../build/write.js';
import { packageRoot } from '../src/package-root.js';
import { dataPaths } from './contestants/types.js';
import { inferredCodesBench } from './inferred-codes.js';
import { DEFAULT_POLYGONS, benchGeo } from './geo.js';
import { measure } from './measure.js';
import { measureQuick } from './measure/quick.js';
import { benchPlan, describePlan, duration, followParts, outputDirectory, type BenchSettings } from './plan.js';
import { publishReport } from './report/publish.js';
import { renderQuick } from './report/quick.js';
import type { Results } from './results.js';

const USAGE = `usage: npm run bench -- [--publish | --out DIR] [--quick] [--catalog FILE] [--work DIR] [--time MS]
  [--cold-runs N] [--no-http] [--http-seconds S] [--no-validate] [--validate-records N]
  [--no-browser] [--no-geo] [--no-write] [--plan]

  --publish      a whole run into the committed bench/results.json, RESULTS.md and chart.svg
  --out DIR      results into DIR (otherwise the ignored bench/work/)
  --quick        the lookups and cold starts alone, in a minute or two (bench/work/QUICK.md)
  --plan         say what a run would do, and how long it takes; measure nothing
  --no-write     measure and print the targets, writing nothing
  --no-http, --no-validate, --no-browser, --no-geo   leave that part out
  --time MS, --cold-runs N, --http-seconds S, --validate-records N   how long or how many
`;

/** The options given, or the usage and exit status 2 for one that is not (a mistyped flag must not start a long run). */
function readOptions() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const OPTIONS = {
  catalog: { type: 'string' },
  work: { type: 'string' },
  out: { type: 'string' },
  time: { type: 'string' },
  'cold-runs': { type: 'string' },
  'no-write': { type: 'boolean' },
  'no-http': { type: 'boolean' },
  'no-validate': { type: 'boolean' },
  'no-browser': { type: 'boolean' },
  'no-geo': { type: 'boolean' },
  'validate-records': { type: 'string' },
  'http-seconds': { type: 'string' },
  publish: { type: 'boolean' },
  quick: { type: 'boolean' },
  plan: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
const options = readOptions();
if (options.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

// The catalog the bench can get is years old; a user with a current one pays no age warning
// (one date comparison), and neither does what is measured here, in this process and its children.
process.env.CPMX_NO_AGE_WARNING = '1';

const here = join(packageRoot, 'bench');
const write = !options['no-write'];
const say = (line: string) => process.stderr.write(`${line}\n`);

/** A numeric flag, or its default; anything but a positive number (whole, for counts) stops the run. */
function positive(flag: 'time' | 'cold-runs' | 'http-seconds' | 'validate-records', fallback: number, whole = false): number {
  const text = options[flag];
  const value = text === undefined ? fallback : Number(text);
  if (!(Number.isFinite(value) && value > 0 && (!whole || Number.isInteger(value)))) {
    throw new Error(`--${flag} must be a positive ${whole ? 'whole ' : ''}number, not ${JSON.stringify(text)}`);
  }
  return value;
}

async function main(): Promise<void> {
  // Every flag is checked before the first minute of measuring is spent.
  const settings: BenchSettings = {
    quick: options.quick === true,
    taskTimeMs: positive('time', 400),
    coldRuns: positive('cold-runs', options.quick ? 5 : 11, true),
    httpSeconds: positive('http-seconds', 3),
    validateRecords: positive('validate-records', 1_000_000, true),
    http: !options['no-http'],
    validate: !options['no-validate'],
    browser: !options['no-browser'],
    geo: !options['no-geo'] && existsSync(DEFAULT_POLYGONS),
  };
  const partial = !settings.http || !settings.validate || !settings.browser || options['no-geo'] === true;
  const out = resolve(outputDirectory({ out: options.out, publish: options.publish === true, quick: settings.quick, partial }, here));
  const parts = benchPlan(settings);
  say(describePlan(parts, write ? out : undefined));
  if (options.plan) return;
  const location = findCatalog(options.catalog);
  if (!location) throw new Error('no catalog found: pass --catalog FILE or set CPMX_CATALOG');
  const progress = followParts(parts, say);
  const work = resolve(options.work ?? join(here, 'work'));
  if (settings.quick) {
    const results = await measureQuick({ catalog: location.path, work, taskTimeMs: settings.taskTimeMs, coldRuns: settings.coldRuns, log: progress.log });
    const durations = progress.finish();
    const markdown = renderQuick(results);
    if (write) {
      mkdirSync(out, { recursive: true });
      writeFileAtomic(join(out, 'quick.json'), Buffer.from(`${JSON.stringify({ ...results, durations }, null, 2)}\n`));
      writeFileAtomic(join(out, 'QUICK.md'), Buffer.from(markdown));
      say(`wrote ${join(out, 'quick.json')} and QUICK.md`);
    }
    process.stdout.write(`${markdown}\n`);
    say(`bench: took ${duration(Object.values(durations).reduce((sum, s) => sum + s, 0))}`);
    return;
  }
  const measured = await measure({ ...settings, catalog: location.path, work, log: progress.log });
  progress.log('inferred codes: records without a code, their code found from their names, one core ...');
  const inferredCodes = await inferredCodesBench({ artifact: dataPaths(work).artifact, taskTimeMs: settings.taskTimeMs });
  // Geodata (bench/geo.ts), when the polygons are beside the repository; without them results.json has no `geo` and the report says so.
  const geo = settings.geo ? await benchGeo({ polygons: DEFAULT_POLYGONS, artifact: join(packageRoot, 'data', 'cpmx.msgpack'), work, log: progress.log }) : undefined;
  const durations = progress.finish();
  const results: Results = { ...measured, inferredCodes, ...(geo ? { geo } : {}), durations };
  const json = `${JSON.stringify(results, null, 2)}\n`;
  if (write) {
    mkdirSync(out, { recursive: true });
    writeFileAtomic(join(out, 'results.json'), Buffer.from(json));
    say(`wrote ${join(out, 'results.json')}`);
  }
  // Rendered from the JSON text, not the object in memory, so it is exactly what bench:report renders.
  publishReport(JSON.parse(json) as Results, { out, write, log: say });
  say(`bench: took ${duration(Object.values(durations).reduce((sum, s) => sum + s, 0))}; each part, in seconds: ${JSON.stringify(durations)}`);
  if (!options.publish && write) say('bench: the committed bench/RESULTS.md, chart.svg and results.json were left as they were; npm run bench -- --publish rewrites them');
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
