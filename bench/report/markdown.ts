/**
 * bench/RESULTS.md from results.json and the judged targets: one function per section, each
 * giving its lines; a part not measured (--no-http, --no-validate) has no section.
 */
import { CONTESTANTS, LABELS } from '../contestants/types.js';
import { CPMX_EXTRAS, OPS } from '../ops.js';
import { COLD_CONTESTANTS, type ColdName, type ColdStat, type CreditResults, type EmbedResults, type HandlerName, type HttpResults, type HttpStat, type PanelResults, type Results, type ValidateResults } from '../results.js';
import { count, format, kilobytes, megabytes, percent, percentRange, ratio } from './format.js';
import { medianInterval } from '../stats.js';
import { geodata } from './geodata.js';
import { missNote } from './miss-notes.js';
import { webFirstAnswer } from './web-page.js';
import type { Target } from './targets.js';

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
/** The header row and the alignment row of a table. */
const head = (cells: string[], align: string[]) => [row(cells), row(align)];

/** The machine as the introduction names it: what it is, and how busy it was when the run began. */
function machine(m: Results['machine']): string {
  const memory = m.memoryBytes === undefined ? '' : `, ${Math.round(m.memoryBytes / 2 ** 30)} GB of memory`;
  const load = m.loadAverage === undefined ? '' : `, load average ${m.loadAverage} as the run began`;
  return `${m.platform}, ${m.cpus} cores (${m.cpu})${memory}, Node ${m.node}${load}`;
}

function introduction(r: Results): string[] {
  return [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` on ${r.date.slice(0, 10)}${r.durations ? ` at ${r.date.slice(11, 16)} UTC, taking ${Math.round(Object.values(r.durations).reduce((sum, s) => sum + s, 0) / 60)} min` : ''}: ${machine(r.machine)}.`,
    `Real catalog \`${r.catalog.file}\` (sha256 \`${r.catalog.sha256.slice(0, 12)}…\`). All contestants were built from it by \`bench/\` in the same run and`,
    `checked to give identical answers before timing. Lookups: tinybench, ${r.settings.taskTimeMs} ms a task after ${r.settings.warmupMs} ms of warm-up, queries in a fixed`,
    `pseudo-random order (seed ${r.seed}), calls batched so one sample lasts about 20 µs; per-call medians, with p75 and p99 as spread.`,
    'Ratios are against cpmx in the same run. Machine numbers drift between runs on these shared 2-core machines; ratios drift much less.',
    'Spread: cold starts as median [min – max] of their runs; lookups as p75 and p99; HTTP as the range of the rounds\' ratios and a confidence interval of their median.',
    '',
    '![headline comparison](chart.svg)',
    '',
  ];
}

/** The parts with targets of their own that a run can lack (older results, no polygons): said under the table, not silently left out. */
function notMeasured(r: Results): string[] {
  const parts = [...(r.inferredCodes ? [] : ['codes inferred from names (issue 33)']), ...(r.geo ? [] : ['the geodata (issue 35)'])];
  return parts.length === 0 ? [] : [`Not measured in this run, so not judged: ${parts.join('; ')}. See their sections below.`, ''];
}

function designTargets(r: Results, targets: Target[]): string[] {
  const missed = targets.filter((t) => !t.pass);
  return [
    '## Design targets',
    '',
    ...head(['target', 'budget', 'measured', 'verdict'], ['---', '---', '---', '---']),
    ...targets.map((t) => row([t.name, t.target, t.value, t.pass ? 'met' : '**missed**'])),
    '',
    ...missed.map((t) => `- **Missed: ${t.name}.** ${missNote(t.name)}`),
    ...(missed.length > 0 ? [''] : []),
    ...notMeasured(r),
  ];
}

/** A cold contestant's name in the report. */
const COLD_LABELS: Partial<Record<ColdName, string>> = {
  none: 'none (Node alone)',
  'cpmx-compiled': 'cpmx compiled from its source (no shipped bytecode: another Node, or NODE_DISABLE_COMPILE_CACHE=1)',
  'sqlite-least': 'SQLite, the least (require better-sqlite3, open read-only, prepare, one query)',
};
const coldLabel = (name: ColdName) => COLD_LABELS[name] ?? LABELS[name as keyof typeof LABELS];

/** cpmx without its shipped bytecode beside the least SQLite user, when the run measured it. */
function compiledNote(cold: Results['cold'], least: ColdStat): string {
  const compiled = cold['cpmx-compiled'];
  if (!compiled) return '';
  const ms = compiled.importToAnswerMs.median;
  return ` Compiled from its source, where the bytecode shipped with it cannot be used (a Node other than the one that compiled the package), it takes ${ms.toFixed(1)} ms: ${(ms / least.importToAnswerMs.median).toFixed(2)}× the least SQLite user's.`;
}

/** A spread of milliseconds as the cold starts show it: median [min – max]. */
const msSpread = (s: { median: number; min: number; max: number }) => `${s.median.toFixed(1)} ms [${s.min.toFixed(1)} – ${s.max.toFixed(1)}]`;

/** Where each contestant's time to its first answer goes, when the run recorded the steps. */
function coldSteps(cold: Results['cold']): string[] {
  const named = COLD_CONTESTANTS.filter((name) => name !== 'none' && cold[name]?.stepsMs);
  if (!named.length) return [];
  return [
    'The same time in its steps (medians [min – max] of the same runs): importing the module, opening the data (cpmx: `createClient` reading the artifact\'s head and checking it and its sections; its first answer reads and checks the pages it touches; SQLite: opening the database and preparing), and the first answer.',
    '',
    ...head(['contestant', 'import', 'open', 'first answer'], ['---', '---:', '---:', '---:']),
    ...named.map((name) => {
      const steps = cold[name]!.stepsMs!;
      return row([coldLabel(name), msSpread(steps.importMs), msSpread(steps.openMs), msSpread(steps.answerMs)]);
    }),
    '',
  ];
}

/** The command line's start beside Node's own, when measured. */
function commandLineStart(c: Results['commandLine']): string[] {
  if (!c) return [];
  return [
    `The command line, as whole processes timed from spawn to exit, ${c.cliMs.runs} runs each after one of each not counted (which leaves the files in the page cache and the command line's code cache written, as any earlier run does), alternating (which goes first alternating too): \`${c.command}\` ${msSpread(c.cliMs)}, \`node -e 0\` ${msSpread(c.nodeMs)}; each run's ratio to the run beside it: median ${c.ratio.median.toFixed(2)}× [${c.ratio.min.toFixed(2)} – ${c.ratio.max.toFixed(2)}].`,
    '',
  ];
}

export function coldStarts(r: Pick<Results, 'cold' | 'settings' | 'commandLine'>): string[] {
  const base = r.cold.cpmx.importToAnswerMs.median;
  const least = r.cold['sqlite-least'];
  return [
    '## Cold start (fresh process: import, open, first answer)',
    '',
    `Median of ${r.settings.coldRuns} runs each, interleaved; [min – max]. "since process start" adds Node's own start-up; heap and RSS are read after a forced GC. "none" is a process that loads nothing.`,
    '',
    ...head(['contestant', 'import → first answer', 'since process start', 'heap used', 'RSS', 'vs cpmx'], ['---', '---:', '---:', '---:', '---:', '---:']),
    ...COLD_CONTESTANTS.flatMap((name) => {
      const c = r.cold[name];
      if (!c) return [];
      const load = c.importToAnswerMs;
      return [
        row([
          coldLabel(name),
          msSpread(load),
          `${c.sinceProcessStartMs.median.toFixed(1)} ms`,
          megabytes(c.heapUsedBytes.median, 1),
          megabytes(c.rssBytes.median, 1),
          name === 'none' || name === 'cpmx' ? '' : ratio(load.median, base),
        ]),
      ];
    }),
    '',
    ...(least
      ? [
          `cpmx's cold start is ${(base / r.cold.sqlite.importToAnswerMs.median).toFixed(2)}× the SQLite contestant's (which prepares every method's statements and builds the envelope) and ${(base / least.importToAnswerMs.median).toFixed(2)}× the least a SQLite user does for one answer (rows, no envelope).${compiledNote(r.cold, least)}`,
          '',
        ]
      : []),
    ...coldSteps(r.cold),
    ...commandLineStart(r.commandLine),
    'The upper bound has no cold start of its own: it is built by answering every query once with cpmx.',
    '',
  ];
}

export function lookups(r: Pick<Results, 'lookups'>): string[] {
  // Rows for what this run measured: results from before an operation was added still render.
  const measured = (id: string) => r.lookups[id]?.cpmx !== undefined;
  return [
    '## Lookups (per call: median [p75 / p99])',
    '',
    ...head(['operation', ...CONTESTANTS.map((name) => LABELS[name])], ['---', ...CONTESTANTS.map(() => '---:')]),
    ...OPS.filter((op) => measured(op.id)).map((op) => {
      const stats = r.lookups[op.id]!;
      const base = stats.cpmx!.medianNs;
      return row([
        op.label,
        ...CONTESTANTS.map((name) => {
          const s = stats[name];
          if (!s) return '';
          return `${format(s.medianNs, 'ns')} [${format(s.p75Ns, 'ns')} / ${format(s.p99Ns, 'ns')}]${name === 'cpmx' ? '' : ` **${ratio(s.medianNs, base)}**`}`;
        }),
      ]);
    }),
    ...CPMX_EXTRAS.filter((op) => measured(op.id)).map((op) => row([op.label, format(r.lookups[op.id]!.cpmx!.medianNs, 'ns'), ...CONTESTANTS.slice(1).map(() => '')])),
    '',
    "Bold: the contestant's median over cpmx's (above 1× is slower than cpmx).",
    '',
  ];
}

function httpServer(http: HttpResults, cpus: number): string[] {
  const [low, high] = percentRange(http.ratios);
  return [
    '## HTTP server (loopback, 50 connections)',
    '',
    `\`cpmx serve\` (one process) answering \`info_cp\` simplified for the workload's catalog codes (drawn across the whole catalog, shuffled; each client walks the list), next to a bare Node \`http\` server answering one constant JSON body of the same size (${http.bodyBytes} bytes, the mean of cpmx's answers) with the same headers${http.alternating ? " (an ETag as long as cpmx's)" : ''}. autocannon, ${http.connections} connections, ${http.seconds} s a run after a 2 s warm-up, ${runOrder(http)}, ${http.rounds} rounds; medians. Client and servers share the machine's ${cpus} cores.`,
    '',
    ...head(['server', 'requests/s', 'latency p50', 'latency p99', 'requests', 'non-2xx', 'errors', 'timeouts'], ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...([['cpmx serve', http.cpmx], ['bare Node http, constant body', http.bare]] as const).map(([label, h]) =>
      row([label, count(Math.round(h.requestsPerSecond)), `${h.latencyP50Ms} ms`, `${h.latencyP99Ms} ms`, count(h.requests), h.non2xx, h.errors, h.timeouts]),
    ),
    '',
    `cpmx serves ${percent(http.ratio)} of the bare server's requests per second: the median of the ${http.rounds} rounds' ratios (each round runs the two back to back), which ranged from ${low}% to ${high}%${medianBounds(http.ratios)}.`,
    '',
    ...(http.calibration ? calibration(http.calibration) : []),
    ...(http.bareAnswers ? bareAnswers(http.bareAnswers, http.ratio) : []),
    ...(http.handlers ? embeddedServers(http.handlers, http) : []),
  ];
}

/** How the pairs' runs were ordered: the harness changed over time, and older results keep their own words. */
function runOrder(http: HttpResults): string {
  if (http.blocks) {
    const anew = http.generations ? `, both started anew and warmed up every ${http.rounds / http.generations} rounds (${http.generations} pairs of processes)` : '';
    return `each pair (the measured server and a reference process of its own) in a block of its own, the two back to back in every round, which runs first alternating between rounds${anew}`;
  }
  if (http.alternating) return `the two back to back, which runs first alternating between rounds${http.pairsTurn ? ' (and the pairs of the handlers below taking turns with this one)' : ''}`;
  return 'the two alternating';
}

/** `; the median's N% confidence interval: a% to b%` of `ratios` (N at least 95, the interval's exact coverage), or nothing when they are too few for one. */
function medianBounds(ratios: readonly number[]): string {
  const bounds = medianInterval(ratios);
  return bounds ? `; the median's ${percent(bounds.coverage)} confidence interval: ${percent(bounds.low)} to ${percent(bounds.high)}` : '';
}

/** Two identical bare servers weighed like the rest: what the harness gives when there is nothing to find. */
function calibration(c: NonNullable<HttpResults['calibration']>): string[] {
  const [low, high] = percentRange(c.ratios);
  return [
    `Calibration: two identical constant bare servers, weighed against each other the same way, measured ${percent(c.ratio)} (rounds ${low}% to ${high}%${medianBounds(c.ratios)}): the harness's own bias and spread on this machine in this run.`,
    '',
  ];
}

/** The bare server answering cpmx's own bytes per target: what a different answer per code costs any server. */
function bareAnswers(answers: NonNullable<HttpResults['bareAnswers']>, serveRatio: number): string[] {
  const [low, high] = percentRange(answers.ratios);
  return [
    `The same bare server answering each request with cpmx's own bytes for its target (one \`Map\` lookup by URL, no parsing, routing or lookup of its own) serves ${percent(answers.ratio)} of the constant one (${count(Math.round(answers.requestsPerSecond))} requests/s; rounds ${low}% to ${high}%${medianBounds(answers.ratios)}), weighed the same way: what sending a different answer per code costs a server that does nothing else. cpmx serve's ${percent(serveRatio)} is ${percent(serveRatio / answers.ratio)} of that.`,
    '',
  ];
}

const HANDLER_LABELS: Record<HandlerName, string> = {
  middleware: '`createMiddleware()` in node:http',
  fetch: '`createFetchHandler()` behind @hono/node-server',
};

/** The handlers' table; how they were weighed (`blocks`, `alternating`) and the hono reference's rate come from `http`. */
function embeddedServers(handlers: NonNullable<HttpResults['handlers']>, { blocks, alternating, honoConstant: hono }: HttpResults): string[] {
  const names = Object.keys(handlers) as HandlerName[];
  const versus = (h: (typeof handlers)[HandlerName]) => (h.reference === 'hono' ? 'hono constant' : 'bare');
  return [
    `The embeddable handlers, each in its own process in the plainest server a user would give it, answering the same requests${blocks ? ', each in its block against a reference process of its own' : ' in the same rounds'}; each round runs its reference ${alternating ? 'right beside it (before it in one round, after it in the next)' : 'right before it'}, and its ratios are to that run: the bare server for the middleware, and for the fetch handler (when measured so) a hono app returning the same constant body on the same adapter, so that the adapter's own work (a web \`Request\` per Node request, the \`Response\` back) is not counted as cpmx's.`,
    '',
    ...head(['handler', 'requests/s', 'vs reference [rounds]', 'latency p50', 'latency p99', 'requests', 'non-2xx', 'errors', 'timeouts'], ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...names.map((name) => {
      const h = handlers[name];
      const [low, high] = percentRange(h.ratios);
      return row([HANDLER_LABELS[name], count(Math.round(h.requestsPerSecond)), `${percent(h.ratio)} of ${versus(h)} [${low} – ${high}]`, `${h.latencyP50Ms} ms`, `${h.latencyP99Ms} ms`, count(h.requests), h.non2xx, h.errors, h.timeouts]);
    }),
    '',
    ...(hono ? [`The hono constant app served ${count(Math.round(hono.requestsPerSecond))} requests/s (median) in the fetch handler's rounds.`, ''] : []),
  ];
}

function embedding(e: EmbedResults): string[] {
  const load = (label: string, c: EmbedResults['cold']['file']) =>
    row([label, msSpread(c.importToAnswerMs), megabytes(c.heapUsedBytes.median, 1), megabytes(c.rssBytes.median, 1)]);
  return [
    '## Embedding',
    '',
    `Cold start of the two ways to give cpmx its artifact, in fresh processes, interleaved, ${e.cold.file.importToAnswerMs.runs} runs each; median [min – max]. The bytes path times the app reading the file too.`,
    '',
    ...head(['artifact', 'import → first answer', 'heap used', 'RSS'], ['---', '---:', '---:', '---:']),
    load('a file cpmx reads (`dataPath`, the default)', e.cold.file),
    load('bytes the app gives (`createClient({ data })`)', e.cold.bytes),
    '',
    `The library bundled for browsers (its \`browser\` build, every export kept, esbuild, minified): ${kilobytes(e.browserBundle.bytes)}, ${kilobytes(e.browserBundle.gzipBytes)} gzipped; the page then fetches the artifact itself.` +
      (e.browserBundle.lazyGzipBytes === undefined
        ? ''
        : ` Split as app bundlers split it: what only some requests need is in chunks of their own, fetched at its first use (the handlers' request side, at a handler's first request; the OpenAPI document's builder, at \`GET /openapi.json\`), ${kilobytes(e.browserBundle.lazyBytes!)}, ${kilobytes(e.browserBundle.lazyGzipBytes)} gzipped together.`),
    '',
  ];
}

function creditPath(c: CreditResults, cpus: number): string[] {
  const rows = [
    ['no registry', c.none],
    ['SQLite registry', c.sqlite],
    ['PostgreSQL registry (loopback)', c.postgres],
  ] as const;
  return [
    '## Credits: `cpmx serve` with a token registry',
    '',
    `\`cpmx serve --workers ${c.workers}\` answering the same \`info_cp\` requests with no registry, with the SQLite registry and with the PostgreSQL one (a real PostgreSQL server on this machine): each answer with data takes one credit, committed to disk before its first byte. autocannon, ${c.connections} connections, ${c.seconds} s a run after a 2 s warm-up, the three alternating, ${c.rounds} rounds; medians. Client, servers and PostgreSQL share the machine's ${cpus} cores.`,
    '',
    ...head(['registry', 'requests/s', 'vs none', 'latency p50', 'latency p99', 'requests', 'non-2xx', 'errors'], ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...rows.map(([label, h]) =>
      row([label, count(Math.round(h.requestsPerSecond)), percent(h.requestsPerSecond / c.none.requestsPerSecond), `${h.latencyP50Ms} ms`, `${h.latencyP99Ms} ms`, count(h.requests), h.non2xx, h.errors]),
    ),
    '',
    `Credits taken against answers with data counted: SQLite ${count(c.spent.sqlite)} for ${count(c.answered.sqlite)}, PostgreSQL ${count(c.spent.postgres)} for ${count(c.answered.postgres)} (each run ends by closing its connections: answers already written then are spent and not counted).`,
    '',
  ];
}

function controlPanel(p: PanelResults, cpus: number): string[] {
  const page = (label: string, h: HttpStat) => row([label, count(Math.round(h.requestsPerSecond)), `${h.latencyP50Ms} ms`, `${h.latencyP99Ms} ms`, count(h.requests), h.non2xx, h.errors]);
  return [
    '## Control panel (`cpmx serve --panel`)',
    '',
    `The API's paying \`info_cp\` requests (SQLite registry) from \`cpmx serve --workers ${p.workers}\` without the panel and with it, alternating, ${p.apiConnections} connections: with the panel, ${percent(p.api.ratio)} of the rate without it (median of the rounds' ratios; ${count(Math.round(p.api.with.requestsPerSecond))} and ${count(Math.round(p.api.without.requestsPerSecond))} requests/s).`,
    '',
    `A logged-in person's pages, ${p.connections} connections, ${p.seconds} s a run, ${p.rounds} rounds; medians. Client, servers and PostgreSQL share the machine's ${cpus} cores.`,
    '',
    ...head(['page', 'requests/s', 'latency p50', 'latency p99', 'requests', 'non-2xx', 'errors'], ['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    page('projects, SQLite', p.pages.sqlite.projects),
    page('a project (usage chart, errors), SQLite', p.pages.sqlite.project),
    page('projects, PostgreSQL', p.pages.postgres.projects),
    page('a project (usage chart, errors), PostgreSQL', p.pages.postgres.project),
    '',
    `A log-in (the form, then its post: a scrypt hash, the attempt counted and forgotten, a new session), one after another: median ${format(p.logInMs.median, 'ms')} [${format(p.logInMs.min, 'ms')} – ${format(p.logInMs.max, 'ms')}] over ${p.logInMs.runs}.`,
    '',
  ];
}

function addressValidation(v: ValidateResults): string[] {
  const reader = (label: string, run: ValidateResults['cpmx']) => row([label, count(Math.round(run.recordsPerSecond)), `${run.seconds.toFixed(2)} s`, megabytes(run.maxRssBytes, 0)]);
  const share = (run: ValidateResults['cpmx']) => percent(run.recordsPerSecond / v.csvParse.recordsPerSecond);
  // Results measured before validation ran on every core have one cpmx run.
  const { jobs, parallel, latin1, parallelSmallMaxRssBytes } = v;
  const everyCore = jobs !== undefined && parallel && latin1 && parallelSmallMaxRssBytes !== undefined;
  return [
    '## Address validation (`cpmx validate`)',
    '',
    `A CSV of ${count(v.records)} address records drawn from the catalog with a seeded generator (about 90% right; the rest with a lost leading zero, an unknown or wrong code, the wrong state or municipality, ${v.quoted ? 'a typo in the settlement, or upper-cased and stripped of accents; some right ones written as people write names: a state abbreviated, "Mpio. de" in front of the municipality, "COL." in front of the settlement' : 'a "Col." prefix or a typo in the settlement, or upper-cased and stripped of accents'}), validated by the command's own code with its output sent to /dev/null, next to csv-parse alone reading the same file and counting records. Child processes, alternating, ${v.rounds} rounds; medians.`,
    '',
    ...head(['reader', 'records/s', 'time', 'peak RSS'], ['---', '---:', '---:', '---:']),
    reader(everyCore ? 'cpmx validate --jobs 1' : 'cpmx validate', v.cpmx),
    ...(everyCore ? [reader(`cpmx validate --jobs ${jobs}`, parallel), reader(`cpmx validate --jobs ${jobs}, the file in Windows-1252`, latin1)] : []),
    reader('csv-parse alone', v.csvParse),
    ...(v.quoted && v.quotedCsvParse
      ? [reader(`cpmx validate --jobs ${jobs}, every record with a quoted field`, v.quoted), reader('csv-parse alone, every record with a quoted field', v.quotedCsvParse)]
      : []),
    '',
    everyCore
      ? `cpmx validate runs at ${share(v.cpmx)} of csv-parse's own single-threaded rate on one thread, and at ${share(parallel)} with --jobs ${jobs} (${share(latin1)} on the Windows-1252 copy of the file). Peak RSS with --jobs 1: ${megabytes(v.smallMaxRssBytes, 0)} for ${count(v.smallRecords)} records, ${megabytes(v.cpmx.maxRssBytes, 0)} for ${count(v.records)}; with --jobs ${jobs}: ${megabytes(parallelSmallMaxRssBytes, 0)} and ${megabytes(parallel.maxRssBytes, 0)}.`
      : `cpmx validate runs at ${share(v.cpmx)} of csv-parse's own rate. Peak RSS: ${megabytes(v.smallMaxRssBytes, 0)} for ${count(v.smallRecords)} records, ${megabytes(v.cpmx.maxRssBytes, 0)} for ${count(v.records)}.`,
    ...(v.quoted && v.quotedCsvParse
      ? [
          '',
          `The same records with a first column that CRM exports quote (\`"Cliente 17, S.A. de C.V."\`): cpmx validate --jobs ${jobs} at ${percent(v.quoted.recordsPerSecond / v.quotedCsvParse.recordsPerSecond)} of csv-parse alone on that file.`,
        ]
      : []),
    '',
  ];
}

function inferredCodes({ inferredCodes: inferred }: Results): string[] {
  return [
    '## Codes inferred from names',
    '',
    inferred
      ? `${count(inferred.records)} records drawn from the catalog with the bench's seeded generator, each with a settlement, municipality and state and no code, judged by \`validateAddress\`'s validator, which finds the code they name: ` +
        `${count(inferred.recordsPerSecond)} records/s on one core (the median pass over all of them); it found a code for ${count(inferred.found)} of the ${count(inferred.records)}.`
      : 'Not measured in this run (it predates this part): issue 33’s target, codes inferred from names at 50,000 records/s or more on one core, is judged by a run that measures it.',
    '',
  ];
}

function sizeOnDisk({ sizes }: Results): string[] {
  const versus = (label: string, bytes: number) => row([label, count(bytes), ratio(bytes, sizes.artifact)]);
  return [
    '## Size on disk',
    '',
    ...head(['file', 'bytes', 'vs artifact'], ['---', '---:', '---:']),
    row(['cpmx artifact (`data/cpmx.msgpack`)', count(sizes.artifact), '1×']),
    ...(sizes.zip === null ? [] : [versus('official zip', sizes.zip)]),
    versus('raw text (`CPdescarga.txt`)', sizes.rawText),
    versus('SQLite database', sizes.sqlite),
    versus('JSON file', sizes.json),
    '',
  ];
}

function build({ build: b, catalog }: Results): string[] {
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    '## Build (`cpmx build`, in a child process)',
    '',
    `Median of ${b.ms.runs}: ${seconds(b.ms.median)} s [${seconds(b.ms.min)} – ${seconds(b.ms.max)}], peak RSS ${megabytes(b.maxRssBytes.median, 0)}, for ${count(catalog.rows)} rows.`,
    '',
  ];
}

function diff({ diff: d, catalog }: Results): string[] {
  if (!d) return [];
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    '## Diff (`cpmx diff`, in a child process)',
    '',
    `The whole catalog (${catalog.file}, read and compiled in memory) against the artifact built from it, every code and settlement compared: ` +
      `median of ${d.ms.runs}: ${seconds(d.ms.median)} s [${seconds(d.ms.min)} – ${seconds(d.ms.max)}], peak RSS ${megabytes(d.maxRssBytes.median, 0)}.`,
    '',
  ];
}

export function renderMarkdown(results: Results, targets: Target[]): string {
  return [
    ...introduction(results),
    ...designTargets(results, targets),
    ...coldStarts(results),
    ...lookups(results),
    ...(results.http ? httpServer(results.http, results.machine.cpus) : []),
    ...(results.credits ? creditPath(results.credits, results.machine.cpus) : []),
    ...(results.panel ? controlPanel(results.panel, results.machine.cpus) : []),
    ...(results.validate ? addressValidation(results.validate) : []),
    ...inferredCodes(results),
    ...(results.embed ? embedding(results.embed) : []),
    ...(results.web ? webFirstAnswer(results.web) : []),
    ...geodata(results.geo),
    ...sizeOnDisk(results),
    ...build(results),
    ...diff(results),
  ].join('\n');
}
