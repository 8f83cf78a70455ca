/**
 * `npm run bench`: measures (bench/measure.ts) and writes bench/results.json, then renders
 * bench/RESULTS.md and bench/chart.svg from those results (bench/report/), as
 * `npm run bench:report` does from the file.
 *
 *   node dist/bench/run.js [--catalog FILE] [--work DIR] [--out DIR] [--time MS] [--cold-runs N]
 *     [--no-http] [--http-seconds S] [--no-validate] [--validate-records N] [--no-browser] [--no-write]
 *
 * --out (default bench/) is where results.json, RESULTS.md and chart.svg go; --no-write
 * prints the targets and writes nothing; --no-browser leaves out what is measured in Chromium
 * (otherwise the one the tests use: npm's, unpacked on first need, bench/chromium.ts).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findCatalog } from '../build/build.js';
import { writeFileAtomic } from '../build/write.js';
import { packageRoot } from '../src/package-root.js';
import { dataPaths } from './contestants/types.js';
import { inferredCodesBench } from './inferred-codes.js';
import { DEFAULT_POLYGONS, benchGeo } from './geo.js';
import { measure } from './measure.js';
import { publishReport } from './report/publish.js';
import type { Results } from './results.js';

const { values: options } = parseArgs({
  options: {
    catalog: { type: 'string' },
    work: { type: 'string' },
    out: { type: 'string' },
    time: { type: 'string' },
    'cold-runs': { type: 'string' },
    'no-write': { type: 'boolean' },
    'no-http': { type: 'boolean' },
    'no-validate': { type: 'boolean' },
    'no-browser': { type: 'boolean' },
    'validate-records': { type: 'string' },
    'http-seconds': { type: 'string' },
  },
});

const here = join(packageRoot, 'bench');
const out = resolve(options.out ?? here);
const write = !options['no-write'];
const log = (line: string) => process.stderr.write(`${line}\n`);

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
  const settings = {
    taskTimeMs: positive('time', 400),
    coldRuns: positive('cold-runs', 11, true),
    httpSeconds: positive('http-seconds', 3),
    validateRecords: positive('validate-records', 1_000_000, true),
  };
  const location = findCatalog(options.catalog);
  if (!location) throw new Error('no catalog found: pass --catalog FILE or set CPMX_CATALOG');
  const work = resolve(options.work ?? join(here, 'work'));
  const results = await measure({
    ...settings,
    catalog: location.path,
    work,
    http: !options['no-http'],
    validate: !options['no-validate'],
    browser: !options['no-browser'],
    log,
  });
  log('inferred codes: records without a code, their code found from their names, one core ...');
  const inferredCodes = await inferredCodesBench({ artifact: dataPaths(work).artifact, taskTimeMs: settings.taskTimeMs });
  const json = `${JSON.stringify({ ...results, inferredCodes }, null, 2)}\n`;
  if (write) {
    writeFileAtomic(join(out, 'results.json'), Buffer.from(json));
    log(`wrote ${join(out, 'results.json')}`);
  }
  // Rendered from the JSON text, not the object in memory, so it is exactly what bench:report renders.
  publishReport(JSON.parse(json) as Results, { out, write, log });
  // Geodata (bench/geo.ts), when the polygons are beside the repository: its figures go to the work folder's geo.json.
  if (existsSync(DEFAULT_POLYGONS)) await benchGeo({ polygons: DEFAULT_POLYGONS, artifact: join(packageRoot, 'data', 'cpmx.msgpack'), work, log });
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
