/**
 * bench/results.json: what one run of the benchmark measured, and all the report step reads.
 * Facts and numbers only: no prose and no verdicts, which the report derives, so a changed
 * target or wording is re-rendered from the same measurements (`npm run bench:report`).
 */
import { readFileSync } from 'node:fs';
import type { ContestantName } from './contestants/types.js';
import type { GeoBench } from './geo.js';
import type { InferredCodesResults } from './inferred-codes.js';
import type { Spread } from './stats.js';

/**
 * Cold-started in fresh processes, in this order; "none" is Node loading nothing, and
 * "sqlite-least" the least a SQLite user does (require better-sqlite3, open the database
 * read-only, prepare one statement, one query: bench/cold.ts), beside the SQLite contestant;
 * "cpmx-compiled" is cpmx without its shipped bytecode (as on a Node other than the one that
 * compiled the package).
 */
export const COLD_CONTESTANTS = ['none', 'cpmx', 'cpmx-compiled', 'sqlite', 'sqlite-least', 'json'] as const;
export type ColdName = (typeof COLD_CONTESTANTS)[number];
/** Cold contestants added after runs were committed: absent from those runs' results. */
export const LATER_COLD_CONTESTANTS: readonly ColdName[] = ['sqlite-least', 'cpmx-compiled'];
/** The cold starts of a run: those measured since the first runs always, later ones when measured. */
export type ColdResults = Record<Exclude<ColdName, 'sqlite-least' | 'cpmx-compiled'>, ColdStat> & { 'sqlite-least'?: ColdStat; 'cpmx-compiled'?: ColdStat };

export interface ColdStat {
  importToAnswerMs: Spread;
  /**
   * The same time in its steps (absent from runs before they were recorded): importing the
   * contestant's module, opening its data (createClient; SQLite's open and prepare), the first answer.
   */
  stepsMs?: { importMs: Spread; openMs: Spread; answerMs: Spread };
  sinceProcessStartMs: Spread;
  heapUsedBytes: Spread;
  rssBytes: Spread;
}

/** Per call, from tinybench's samples of one task in the contestant's own process. */
export interface LookupStat {
  medianNs: number;
  p75Ns: number;
  p99Ns: number;
  rmePercent: number;
  samples: number;
  batch: number;
}

export interface HttpStat {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  requests: number;
}

export interface HttpResults {
  connections: number;
  seconds: number;
  rounds: number;
  bodyBytes: number;
  cpmx: HttpStat;
  bare: HttpStat;
  /** cpmx's requests/s over the bare server's, per round (each pair run back to back). */
  ratios: number[];
  /** The median of `ratios`: steadier than a ratio of medians on a shared machine. */
  ratio: number;
  /** The embeddable handlers, measured in the same rounds (absent from runs before them). */
  handlers?: Record<HandlerName, HandlerHttpStat>;
  /** The fetch handler's reference: a hono app returning the constant body on @hono/node-server (absent from runs before it). */
  honoConstant?: HttpStat;
  /**
   * Set when each pair's order alternated between rounds and the references sent an ETag as
   * long as cpmx's (absent from runs before: cpmx serve ran first, the references' ETag was short).
   */
  alternating?: true;
  /** The pairs (serve and bare, each handler and its reference) run in an order that turns from round to round (runs of 2026-11-24 and 25 only). */
  pairsTurn?: true;
  /**
   * Each pair measured in a block of its own, against a reference process of its own (absent
   * from runs before: one bare server was every pair's reference, the pairs' rounds interleaved).
   */
  blocks?: true;
  /**
   * The pairs of processes each pair's rounds were spread over, each pair started anew and
   * warmed up (absent from runs before: one pair of processes for all of a pair's rounds).
   */
  generations?: number;
  /** Two identical constant bare servers weighed against each other like the rest: the harness's own bias and spread (absent from runs before it was measured). */
  calibration?: HttpStat & { ratios: number[]; ratio: number };
  /**
   * The bare server answering each request with cpmx's own bytes for its target (a Map lookup,
   * nothing else), weighed like cpmx serve against a constant one (in the same rounds until the
   * pairs ran in blocks, then in its own block): what a
   * different answer per code costs any server here (absent from runs before it was measured).
   */
  bareAnswers?: HttpStat & { ratios: number[]; ratio: number };
}

/** createMiddleware() in node:http; createFetchHandler() behind @hono/node-server. */
export type HandlerName = 'middleware' | 'fetch';

export interface HandlerHttpStat extends HttpStat {
  /** Its requests/s over its reference's, per round. */
  ratios: number[];
  ratio: number;
  /** The reference: the bare node:http server, or (the fetch handler, since it was measured) the constant hono app. */
  reference?: 'bare' | 'hono';
}

/** `cpmx <lookup>` as a whole process against `node -e 0` (bench/measure/cli-start.ts). */
export interface CommandLineStart {
  /** The command timed, e.g. `cpmx info_cp 09810`. */
  command: string;
  cliMs: Spread;
  nodeMs: Spread;
  /** Each run's ratio to the `node -e 0` run beside it. */
  ratio: Spread;
}

/** cpmx where it is embedded (absent from runs before it was measured). */
export interface EmbedResults {
  /** Fresh processes, interleaved: the package reading its artifact, and the app reading it and giving the bytes. */
  cold: { file: ColdStat; bytes: ColdStat };
  /**
   * The whole library as esbuild bundles it for a browser, minified and split as app bundlers
   * split it: the entry a page loads, and (absent in results before they existed) the chunks
   * it loads only on need (the handlers' request side, at a handler's first request; the
   * OpenAPI document's builder, at GET /openapi.json).
   */
  browserBundle: { bytes: number; gzipBytes: number; lazyBytes?: number; lazyGzipBytes?: number };
}

/** cpmx/web and its tree (absent from runs before it was measured). */
export interface WebResults {
  /** `cpmx export web` over the whole catalog, in a child process (start and load included). */
  exportSeconds: Spread;
  /** Gzipped bytes a fresh client fetches to answer one random code (info_cp). */
  codeBytes: Spread & { mean: number };
  /** Gzipped bytes a fresh client fetches for a form's three selects, for every municipality. */
  formBytes: Spread;
  /** dist/web.js (cpmx/web) and dist/web-form.js (cpmx/web/form), gzip -9. */
  moduleGzipBytes: number;
  formModuleGzipBytes: number;
  /** The artifact gzipped: what the library's browser build fetches before its first answer. */
  artifactGzipBytes: number;
  /** First answer of a cold page in Chromium over loopback (ms from navigation); null without a browser. */
  firstAnswer: {
    webMs: Spread;
    libraryMs: Spread;
    ratio: number;
    /** An empty cold page's one module script (absent from runs before it was measured): Chromium's own part. */
    floorMs?: Spread;
    /** The web page's moments, medians over its runs, ms from navigation start (see bench/measure/web.ts `WebPagePhases`). */
    phasesMs?: { html: number; module: number; asked: number; files: number; answered: number };
    /** The Chromium these were timed in (absent from runs before it was recorded): the build package-lock.json pins, unless CPMX_CHROMIUM. */
    browser?: BrowserUsed;
    /** The same web and empty pages in the machine's own Chromium, when it has one besides (bench/browser.ts). */
    otherBrowsers?: { browser: BrowserUsed; webMs: Spread; floorMs: Spread }[];
  } | null;
}

/** A browser the benchmark ran: where it came from and its version. */
export interface BrowserUsed {
  source: string;
  version: string;
}

/** `cpmx serve` answering paying requests with no registry, a SQLite one and a PostgreSQL one. */
export interface CreditResults {
  connections: number;
  seconds: number;
  rounds: number;
  /** Server processes (`--workers`). */
  workers: number;
  none: HttpStat;
  sqlite: HttpStat;
  postgres: HttpStat;
  /**
   * Credits each registry took over all runs, and the answers with data autocannon counted:
   * no fewer credits, and at most one more per connection and run (answers written when a run
   * stopped and closed its connections).
   */
  spent: { sqlite: number; postgres: number };
  answered: { sqlite: number; postgres: number };
}

/** The control panel (`cpmx serve --panel`): what its hook costs the API, and how fast its pages answer. */
export interface PanelResults {
  /** For the pages. */
  connections: number;
  /** For the API. */
  apiConnections: number;
  seconds: number;
  rounds: number;
  workers: number;
  /** Paying requests (SQLite registry) from a server without the panel and one with it, alternating; with/without per round. */
  api: { without: HttpStat; with: HttpStat; ratios: number[]; ratio: number };
  /** A logged-in person's list of projects, and one project's page (usage chart, errors). */
  pages: Record<'sqlite' | 'postgres', { projects: HttpStat; project: HttpStat }>;
  /** One log-in after another, from the form's GET to the answer of its POST (SQLite). */
  logInMs: Spread;
}

export interface ValidateRun {
  recordsPerSecond: number;
  seconds: number;
  maxRssBytes: number;
}

export interface ValidateResults {
  records: number;
  smallRecords: number;
  rounds: number;
  /** `cpmx validate --jobs 1`: one thread. */
  cpmx: ValidateRun;
  csvParse: ValidateRun;
  /** `--jobs 1` on the file of `smallRecords`. */
  smallMaxRssBytes: number;
  // Absent from results measured before validation ran on every core.
  /** The threads of the runs below (the machine's cores). */
  jobs?: number;
  /** `cpmx validate --jobs N`. */
  parallel?: ValidateRun;
  /** `--jobs N` on the same file in Windows-1252. */
  latin1?: ValidateRun;
  /** `--jobs N` on the file of `smallRecords`. */
  parallelSmallMaxRssBytes?: number;
  /** `--jobs N` on the file with a quoted first column in every record (a CRM export); absent from older runs. */
  quoted?: ValidateRun;
  /** csv-parse alone on that file. */
  quotedCsvParse?: ValidateRun;
}

/** One-line addresses: `parseAddress` next to csv-parse alone on the same lines, one core. */
export interface ParseResults {
  /** The real addresses of each pass (test/fixtures/one-line-addresses.csv). */
  lines: number;
  /** Addresses per second read by `parseAddress` (the median pass). */
  cpmx: number;
  /** Lines per second read by csv-parse alone, as a one-column CSV (the median pass). */
  csvParse: number;
}

export interface Results {
  /** ISO 8601, when the measuring finished. */
  date: string;
  /** The machine; memory and the load when the run began are absent from runs before they were recorded. */
  machine: { node: string; cpus: number; cpu: string; platform: string; memoryBytes?: number; loadAverage?: number };
  /** Seconds each part of the run took (bench/plan.ts), to check the estimates said before a run; absent from older runs. */
  durations?: Record<string, number>;
  catalog: { file: string; bytes: number; sha256: string; rows: number };
  seed: number;
  settings: { taskTimeMs: number; warmupMs: number; coldRuns: number };
  sizes: { rawText: number; zip: number | null; artifact: number; sqlite: number; json: number };
  build: { ms: Spread; maxRssBytes: Spread };
  /** `cpmx diff` of the catalog against its artifact; absent from runs measured before it was added. */
  diff?: { ms: Spread; maxRssBytes: Spread };
  cold: ColdResults;
  /** The command line's start; absent from runs before it was measured. */
  commandLine?: CommandLineStart;
  /** Operation id → contestant → stat; the cpmx-only measures have only cpmx. */
  lookups: Record<string, Partial<Record<ContestantName, LookupStat>>>;
  /** null when measured with --no-http. */
  http: HttpResults | null;
  /** null when measured with --no-validate. */
  validate: ValidateResults | null;
  embed?: EmbedResults;
  /** Absent from runs before cpmx/web was measured. */
  web?: WebResults;
  /** null when measured with --no-http; absent from runs before registries were measured. */
  credits?: CreditResults | null;
  /** null when measured with --no-http; absent from runs before the panel was measured. */
  panel?: PanelResults | null;
  /** Absent from runs before one-line addresses were measured. */
  parse?: ParseResults;
  /** Codes inferred from names (bench/inferred-codes.ts); absent from runs before it was measured. */
  inferredCodes?: InferredCodesResults;
  /**
   * The geodata (bench/geo.ts): its build, size and reverse geocoding against flatbush + turf.
   * Absent when the polygons (../shared/data/sepomex-geo/) were not beside the repository, and
   * from runs before it was measured.
   */
  geo?: GeoBench;
}

/** The fields the report cannot do without, checked so an old or cut file fails by name. */
const REQUIRED = [
  'date',
  'machine.node',
  'machine.cpus',
  'catalog.file',
  'catalog.sha256',
  'catalog.rows',
  'seed',
  'settings.taskTimeMs',
  'settings.coldRuns',
  'sizes.artifact',
  'build.ms.median',
  ...COLD_CONTESTANTS.filter((name) => !LATER_COLD_CONTESTANTS.includes(name)).map((name) => `cold.${name}.importToAnswerMs.median`),
  'lookups',
  'http',
  'validate',
];

export function readResults(path: string): Results {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): run \`npm run bench\` to measure`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
  for (const field of REQUIRED) {
    let value: unknown = parsed;
    for (const key of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) throw new Error(`${path} has no ${field}: not written by this version's measuring step; run \`npm run bench\` to measure again`);
  }
  return parsed as Results;
}
