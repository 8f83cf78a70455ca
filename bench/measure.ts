/**
 * The measuring step: cpmx against what its users would pick instead, side by side in one run
 * on one catalog. Returns the facts and numbers of bench/results.json; judging and wording
 * them is the report's (bench/report/).
 */
import { join } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { dataPaths, type ContestantModule, type ContestantName, type Lookups } from './contestants/types.js';
import { timeBuilds, timeDiffs } from './measure/builds.js';
import { timeCommandLineStart } from './measure/cli-start.js';
import { timeColdStarts } from './measure/cold-starts.js';
import { measureEmbedding } from './measure/embed.js';
import { catalogFacts, machineFacts } from './measure/facts.js';
import { creditLoad } from './measure/credits.js';
import { httpLoad } from './measure/http.js';
import { panelLoad } from './measure/panel.js';
import { checkedWorkload, timeLookups } from './measure/lookups.js';
import { parseBench } from './measure/parse.js';
import { validateBench } from './measure/validate.js';
import { measureWeb } from './measure/web.js';
import { benchBrowsers } from './browser.js';
import { WARMUP_MS } from './ops.js';
import { prepare } from './prepare.js';
import type { Results } from './results.js';
import { SEED } from './workload.js';

export interface MeasureOptions {
  catalog: string;
  /** Where contestants' data and scratch files go. */
  work: string;
  taskTimeMs: number;
  coldRuns: number;
  http: boolean;
  httpSeconds: number;
  validate: boolean;
  validateRecords: number;
  /** Whether to measure in Chromium (the first answer of cpmx/web's page); default true. */
  browser?: boolean;
  log: (line: string) => void;
}

const compiled = join(packageRoot, 'dist', 'bench');
/** `cpmx info_cp` and `node -e 0` runs each: about 0.13 s a pair. */
const COMMAND_LINE_RUNS = 31;
const openContestant = async (name: ContestantName, work: string): Promise<Lookups> =>
  ((await import(`./contestants/${name}.js`)) as ContestantModule).open(dataPaths(work));

export async function measure(options: MeasureOptions): Promise<Results> {
  const { catalog, work, log } = options;
  log(`catalog: ${catalog}`);
  log(`preparing contestants in ${work} ...`);
  const prepared = await prepare(catalog, work);
  const artifact = dataPaths(work).artifact;

  log('build: 3 runs in child processes ...');
  const build = timeBuilds({ compiled, catalog, work, runs: 3 });

  log('diff: the whole catalog against its artifact, 3 runs in child processes ...');
  const diff = timeDiffs({ compiled, catalog, artifact, runs: 3 });

  log(`cold start: ${options.coldRuns} runs of each, interleaved ...`);
  const cold = timeColdStarts({ compiled, work, runs: options.coldRuns, code: '09810' });
  log(`command line: cpmx info_cp against node -e 0, ${COMMAND_LINE_RUNS} runs of each, alternating ...`);
  const commandLine = timeCommandLineStart({ root: packageRoot, runs: COMMAND_LINE_RUNS, code: '09810' });

  log(`embedding: ${options.coldRuns} cold starts of the bytes path and the file path, interleaved; the browser bundle ...`);
  const embed = await measureEmbedding({ root: packageRoot, compiled, work, runs: options.coldRuns, code: '09810' });

  const web = await measureWeb({
    root: packageRoot,
    artifact,
    work,
    node: (await import(join(packageRoot, 'dist', 'cpmx.js'))).createClient({ token: 'demo', dataPath: artifact }),
    createWebClient: (await import(join(packageRoot, 'dist', 'web.js'))).createWebClient,
    browsers: benchBrowsers(options.browser ?? true),
    seed: SEED,
    codes: 200,
    pageRuns: options.coldRuns,
    log,
  });

  log('opening every contestant to check they answer alike ...');
  const { workload, workloadPath } = await checkedWorkload(work);
  const lookups = timeLookups({ compiled, work, workloadPath, taskTimeMs: options.taskTimeMs, log });

  let http: Results['http'] = null;
  if (options.http) {
    log('http: cpmx serve and a bare Node http server, 50 connections on loopback ...');
    http = await httpLoad({
      cli: join(packageRoot, 'dist', 'cli.cjs'),
      bareServer: join(compiled, 'bare-server.js'),
      handlerServer: join(compiled, 'handler-server.js'),
      artifact,
      work,
      codes: workload.codes,
      seconds: options.httpSeconds,
      log,
    });
  }

  let credits: Results['credits'] = null;
  if (options.http) {
    log(`credits: cpmx serve with no registry, SQLite and PostgreSQL, 2 workers, 50 connections on loopback ...`);
    credits = await creditLoad({ cli: join(packageRoot, 'dist', 'cli.cjs'), artifact, work, codes: workload.codes, seconds: options.httpSeconds, log });
  }

  let panel: Results['panel'] = null;
  if (options.http) {
    log('panel: the API without and with --panel, pages on SQLite and PostgreSQL, log-ins ...');
    panel = await panelLoad({ cli: join(packageRoot, 'dist', 'cli.cjs'), artifact, work, codes: workload.codes, seconds: options.httpSeconds, log });
  }

  let validate: Results['validate'] = null;
  if (options.validate) {
    const cpmx = await openContestant('cpmx', work);
    const codes: string[] = [];
    for (let d = 0; d <= 9; d++) codes.push(...(cpmx.searchCp(String(d)) as { response: { cp: string[] } }).response.cp);
    validate = await validateBench({ compiled, work, artifact, cpmx, codes, records: options.validateRecords, log });
  }

  log('parse: one-line addresses, parseAddress and csv-parse alone on the same real lines, one core ...');
  const parse = await parseBench({ artifact, taskTimeMs: options.taskTimeMs });

  const { rawText, zip, ...file } = catalogFacts(catalog, artifact);
  return {
    date: new Date().toISOString(),
    machine: machineFacts(),
    catalog: { ...file, rows: prepared.rows },
    seed: SEED,
    settings: { taskTimeMs: options.taskTimeMs, warmupMs: WARMUP_MS, coldRuns: options.coldRuns },
    sizes: { rawText, zip, artifact: prepared.bytes.artifact, sqlite: prepared.bytes.sqlite, json: prepared.bytes.json },
    build,
    diff,
    cold,
    commandLine,
    lookups,
    http,
    validate,
    embed,
    web,
    credits,
    panel,
    parse,
  };
}
