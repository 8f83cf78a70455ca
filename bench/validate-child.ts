/**
 * One timed pass over an address CSV, in its own process, reporting records/s and peak RSS:
 *   node dist/bench/validate-child.js cpmx <file> <artifact> <jobs>   (cpmx validate, output to stdout)
 *   node dist/bench/validate-child.js csv-parse <file>                (csv-parse alone, counting records)
 * Run with stdout sent to /dev/null. Prints its JSON line on stderr.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { createClient } from '../src/client/client.js';
import { runValidate } from '../src/validate/run.js';

const [mode, file, artifact, jobs] = process.argv.slice(2) as [string, string, string | undefined, string | undefined];
const started = performance.now();
let records = 0;
if (mode === 'cpmx') {
  // The command's own code path, as `cpmx validate FILE --quiet --jobs N` runs it.
  const token = 'bench';
  await runValidate({
    input: file,
    format: 'ndjson',
    invalidOnly: false,
    columns: {},
    jobs: Number(jobs ?? 1),
    quiet: true,
    token,
    client: createClient({ token, dataPath: artifact }),
  });
  const { stdout } = process;
  await new Promise((resolve) => stdout.write('', resolve));
} else {
  for await (const _ of createReadStream(file).pipe(parse({ bom: true, relax_column_count: true }))) records++;
}
const seconds = (performance.now() - started) / 1000;
process.stderr.write(`${JSON.stringify({ mode, seconds, records, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
