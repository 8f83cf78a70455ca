/**
 * Codes inferred from names (issue 33: at least 50,000 records/s on one core): records with
 * no code but a settlement, municipality and state, judged by `validateAddress`'s validator,
 * which finds the code they name. 20,000 distinct records drawn from the catalog with the
 * bench's seeded generator, all judged in each tinybench sample in this process (one core);
 * records/s come from the median sample. Hooked into `npm run bench` by bench/run.ts, its
 * figure kept in results.json as `inferredCodes`.
 */
import { Bench } from 'tinybench';
import { loadCatalog } from '../src/client/catalog-source.js';
import { createClient } from '../src/client/client.js';
import { validatorFor } from '../src/validate/address.js';
import { WARMUP_MS } from './ops.js';
import { median } from './stats.js';
import { random } from './workload.js';

export interface InferredCodesResults {
  records: number;
  /** Records judged per second (the median pass). */
  recordsPerSecond: number;
  /** Records whose code was found (suggested), of `records`. */
  found: number;
}

export async function inferredCodesBench(options: { artifact: string; taskTimeMs: number; records?: number }): Promise<InferredCodesResults> {
  const catalog = loadCatalog(options.artifact);
  const validator = validatorFor(createClient({ token: 'bench', dataPath: options.artifact }));
  const next = random(33);
  const count = options.records ?? 20_000;
  const codes = catalog.postalCodes().length;
  const records: [string, string, string][] = [];
  while (records.length < count) {
    const code = Math.floor(next() * codes);
    const start = catalog.settlementStartOf(code);
    const settlement = catalog.settlementName(start + Math.floor(next() * (catalog.settlementEndOf(code) - start)));
    records.push([settlement, catalog.municipalityOf(code), catalog.stateOf(code)]);
  }
  // The first pass builds what is built once (the catalog's settlement index): not timed.
  let found = 0;
  for (const [asentamiento, municipio, estado] of records) if (validator.validateFields('', asentamiento, municipio, estado, '').suggestions.cp) found++;
  let sink: unknown;
  const bench = new Bench({ time: options.taskTimeMs, warmupTime: WARMUP_MS, retainSamples: true });
  bench.add('inferred codes', () => {
    for (const [asentamiento, municipio, estado] of records) sink = validator.validateFields('', asentamiento, municipio, estado, '');
  });
  await bench.run();
  void sink;
  const result = bench.tasks[0]!.result as { state: string; latency?: { samples?: readonly number[] }; error?: Error };
  if (result.state !== 'completed' || !result.latency?.samples) throw new Error(`inferred codes did not complete: ${result.error?.message ?? result.state}`);
  return { records: count, recordsPerSecond: Math.round(count / (median(result.latency.samples) / 1000)), found };
}
