/**
 * `npm run bench:report`: RESULTS.md and chart.svg rendered again from results.json alone,
 * without measuring (after a change of targets, notes or wording).
 *
 *   node dist/bench/report.js [--results FILE] [--out DIR] [--no-write]
 *
 * --results defaults to bench/results.json, --out to the directory holding the results.
 */
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/package-root.js';
import { publishReport } from './report/publish.js';
import { readResults } from './results.js';

const { values: options } = parseArgs({
  options: {
    results: { type: 'string' },
    out: { type: 'string' },
    'no-write': { type: 'boolean' },
  },
});

const path = resolve(options.results ?? join(packageRoot, 'bench', 'results.json'));
try {
  publishReport(readResults(path), { out: resolve(options.out ?? dirname(path)), write: !options['no-write'], log: (line) => process.stderr.write(`${line}\n`) });
} catch (error) {
  process.stderr.write(`bench:report: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
