/**
 * The one-line address benchmark: `parseAddress` (what `cpmx parse` runs per line) on every
 * real address of test/fixtures/one-line-addresses.csv, next to csv-parse alone reading the
 * same lines as a one-column CSV, side by side in one tinybench run in this process (one
 * core). Each sample is one pass over every line; addresses/s come from the median sample.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { Bench } from 'tinybench';
import { createClient } from '../../src/client/client.js';
import { packageRoot } from '../../src/package-root.js';
import { parseAddress } from '../../src/validate/parse.js';
import { WARMUP_MS } from '../ops.js';
import type { ParseResults } from '../results.js';
import { median } from '../stats.js';

export const PARSE_FIXTURE = join(packageRoot, 'test', 'fixtures', 'one-line-addresses.csv');

export async function parseBench(options: { artifact: string; taskTimeMs: number }): Promise<ParseResults> {
  const rows = parseCsv(readFileSync(PARSE_FIXTURE), { columns: true }) as { address: string }[];
  const lines = rows.map((row) => row.address);
  const csv = `address\n${lines.map((line) => `"${line.replaceAll('"', '""')}"`).join('\n')}\n`;
  const client = createClient({ token: 'bench', dataPath: options.artifact });
  // The first pass builds what is built once (the catalog's settlement index): not timed.
  for (const line of lines) parseAddress(client, line);
  let sink: unknown;
  const bench = new Bench({ time: options.taskTimeMs, warmupTime: WARMUP_MS, retainSamples: true });
  bench.add('csv-parse', () => {
    sink = parseCsv(csv, { columns: true });
  });
  bench.add('cpmx', () => {
    for (const line of lines) sink = parseAddress(client, line);
  });
  await bench.run();
  void sink;
  const perSecond = (name: string) => {
    const task = bench.tasks.find((t) => t.name === name)!;
    const result = task.result as { state: string; latency?: { samples?: readonly number[] }; error?: Error };
    if (result.state !== 'completed' || !result.latency?.samples) throw new Error(`parse ${name} did not complete: ${result.error?.message ?? result.state}`);
    return Math.round(lines.length / (median(result.latency.samples) / 1000));
  };
  return { lines: lines.length, cpmx: perSecond('cpmx'), csvParse: perSecond('csv-parse') };
}
