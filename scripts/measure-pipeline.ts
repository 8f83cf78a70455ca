/**
 * Reproduces issue 33's experiment on the real catalog (data/cpmx.msgpack, or --data FILE):
 * 5,000 records with mistyped or missing codes and right names, misspelt settlements, right
 * records in everyday forms, and one-line addresses with an accented word before the code;
 * prints what the issue counts, then the rate of codes inferred from names on one core.
 *   npx tsx scripts/measure-pipeline.ts [--data FILE] [--seed N] [--records N]
 * Nothing is written: the figures go to stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalog } from '../src/client/catalog-source.js';
import { createClient } from '../src/index.js';
import { validatorFor } from '../src/validate/address.js';
import { accentedLines, codesLost, everydayRecords, measurePipeline, pipelineCases, typeForms } from '../test/support/pipeline-cases.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, seed: { type: 'string' }, records: { type: 'string' } } });
const root = join(import.meta.dirname, '..');
const data = values.data ?? join(root, 'data', 'cpmx.msgpack');
const seed = Number(values.seed ?? 33);
const count = Number(values.records ?? 5000);
const catalog = loadCatalog(data);
const client = createClient({ token: 'measure-pipeline', dataPath: data });

const cases = pipelineCases(catalog, count, seed);
const figures = measurePipeline(client, cases);
const percent = (n: number, of: number) => `${n}/${of} (${((100 * n) / Math.max(of, 1)).toFixed(1)}%)`;
console.log(`records: ${JSON.stringify(figures.records)}`);
console.log(`right names rewritten: ${figures.rightNamesRewritten}`);
console.log(`left invalid with changed fields: ${figures.invalidWithChanges}`);
for (const kind of ['mistyped', 'missing'] as const) console.log(`right code suggested, ${kind}: ${percent(figures.rightCodeSuggested[kind], figures.records[kind])}`);
console.log(`codes written by --fix (mistyped + missing): ${percent(figures.codeFilled, figures.records.mistyped + figures.records.missing)}`);
console.log(`misspelt settlements restored: ${percent(figures.restored, figures.records.misspelt)}`);
console.log(`right records judged invalid: ${percent(figures.rightInvalid, figures.records.right)}`);

const everyday = everydayRecords(catalog, typeForms(readFileSync(join(root, 'test', 'fixtures', 'settlement-type-forms.csv'), 'utf8')), count, seed + 1);
const everydayFigures = measurePipeline(client, everyday);
console.log(`right records in everyday forms judged invalid: ${percent(everydayFigures.rightInvalid, everyday.length)}`);

const lines = accentedLines(catalog, 2000, seed + 2);
const lost = codesLost(client, lines);
console.log(`codes lost after accented words: ${percent(lost.length, lines.length)}${lost.length ? ` e.g. ${JSON.stringify(lost.slice(0, 3))}` : ''}`);

// Codes inferred from names, one core: records without a code, judged again and again.
const missing = pipelineCases(catalog, 20_000, seed + 3).map((record) => ({ ...record, cp: '' }));
const validator = validatorFor(client);
for (const record of missing.slice(0, 2000)) validator.validateFields('', record.asentamiento, record.municipio, record.estado, '');
const rates: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  let suggested = 0;
  for (const record of missing) if (validator.validateFields('', record.asentamiento, record.municipio, record.estado, '').suggestions.cp) suggested++;
  rates.push(missing.length / ((performance.now() - started) / 1000));
  if (suggested === 0) throw new Error('no code inferred');
}
rates.sort((a, b) => a - b);
console.log(`codes inferred from names, one core: median ${Math.round(rates[2]!).toLocaleString('en-US')} records/s (min ${Math.round(rates[0]!).toLocaleString('en-US')}, max ${Math.round(rates[4]!).toLocaleString('en-US')}; 5 rounds of ${missing.length.toLocaleString('en-US')} distinct records)`);
