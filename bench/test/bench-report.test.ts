/**
 * The benchmark in two steps: the statistics every number goes through, the report rendered
 * from results.json alone (the committed run, and a run measured here on the fixture), and
 * every design target judged from the numbers, not copied from anywhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CONTESTANTS } from '../contestants/types.js';
import { PARSE_FIXTURE } from '../measure/parse.js';
import { CPMX_EXTRAS, OPS, VERSION_2_OPS } from '../ops.js';
import { format } from '../report/format.js';
import { renderReport } from '../report/render.js';
import { BROWSER_BUNDLE_BUDGET, CREDIT_TARGETS, GEO_TARGETS, INFERRED_CODES_TARGETS, PANEL_TARGETS, TARGETS, WEB_TARGETS, type Target } from '../report/targets.js';
import { readResults, type Results } from '../results.js';
import { median, medianInterval, quantile, quantiles, spread } from '../stats.js';
import { FIXTURE, root, tempDir } from '../../test/helpers.js';

const committed = join(root, 'bench', 'results.json');
const copy = (results: Results): Results => JSON.parse(JSON.stringify(results)) as Results;

/** The targets table's row for a target, as RESULTS.md must show it. */
const tableRow = (t: Target) => `| ${t.name} | ${t.target} | ${t.value} | ${t.pass ? 'met' : '**missed**'} |`;

/**
 * How many targets a run is judged on: all of them but those of the parts it did not measure. A
 * results.json measured before `cpmx diff`, the handlers and the embedding were measured has no
 * rows for their targets (1, 1 and 2), nor one measured before the fetch handler's hono reference
 * (1), nor one measured before the credit path (its credits part), the version-2 methods (2 each)
 * or the control panel, until the next published run.
 */
function targetsJudged(results: Results): number {
  const measuredV2 = VERSION_2_OPS.every((op) => results.lookups[op.id]);
  return (
    TARGETS.length -
    (results.diff ? 0 : 1) -
    (results.http?.handlers ? 0 : 1) -
    (results.http?.handlers?.fetch.reference === 'hono' ? 0 : 1) -
    (results.embed ? 0 : 2) -
    (results.credits ? 0 : CREDIT_TARGETS.length) -
    (measuredV2 ? 0 : 2 * VERSION_2_OPS.length) -
    (results.panel ? 0 : PANEL_TARGETS.length) -
    (results.validate?.quoted ? 0 : 1) -
    (results.parse ? 0 : 1) -
    (results.cold['sqlite-least'] ? 0 : 1) -
    (results.commandLine ? 0 : 1) -
    (results.web ? 0 : WEB_TARGETS.length) -
    (results.inferredCodes ? 0 : INFERRED_CODES_TARGETS.length) -
    (results.geo ? 0 : GEO_TARGETS.length)
  );
}

function expectEveryTargetShown(markdown: string, targets: Target[]): void {
  for (const t of targets) {
    expect(t.name.length, 'a target without a name').toBeGreaterThan(0);
    expect(t.value.length, t.name).toBeGreaterThan(0);
    expect(typeof t.pass, t.name).toBe('boolean');
    expect(markdown, t.name).toContain(tableRow(t));
    expect(markdown.includes(`- **Missed: ${t.name}.**`), t.name).toBe(!t.pass);
  }
}

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe('the statistics module', () => {
  it('takes the middle value of an odd count and the mean of the two middle values of an even one', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('interpolates quantiles between the nearest ranks', () => {
    expect(quantile([10, 20, 30, 40, 50], 0.25)).toBe(20);
    expect(quantile([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(quantiles([5, 1, 4, 2, 3], [0, 0.5, 1])).toEqual([1, 3, 5]);
    expect(spread([5, 1, 4, 2])).toEqual({ median: 3, p25: 1.75, p75: 4.25, min: 1, max: 5, runs: 4 });
  });

  it('refuses what has no statistic', () => {
    expect(() => median([])).toThrow(/no samples/);
    expect(() => median([1, Number.NaN])).toThrow(/not a finite number/);
    expect(() => quantile([1, 2], 1.5)).toThrow(/outside 0\.\.1/);
  });
});

describe('the report of the committed run', () => {
  const results = readResults(committed);
  const report = renderReport(results);

  it('is what is committed: RESULTS.md and chart.svg come from results.json alone', () => {
    const hint = 'RESULTS.md or chart.svg is not what `npm run bench:report` renders from bench/results.json';
    expect(report.markdown, hint).toBe(readFileSync(join(root, 'bench', 'RESULTS.md'), 'utf8'));
    expect(report.svg, hint).toBe(readFileSync(join(root, 'bench', 'chart.svg'), 'utf8'));
  });

  it('judges every target, and shows each with its verdict', () => {
    const judged = targetsJudged(results);
    expect(report.targets).toHaveLength(judged);
    expect(new Set(report.targets.map((t) => t.name)).size).toBe(judged);
    expectEveryTargetShown(report.markdown, report.targets);
  });

  it('judges from the numbers measured', () => {
    const verdict = (targets: Target[], start: string) => targets.find((t) => t.name.startsWith(start))?.pass;
    const { sizes, validate } = results;
    expect(verdict(report.targets, 'artifact size')).toBe(sizes.artifact <= 2.3 * 1024 * 1024);
    // Validation on every core is held to csv-parse's own rate; a run measured before it, on one thread, to half of it.
    const judgedRun = validate!.parallel ?? validate!.cpmx;
    expect(verdict(report.targets, 'validate: records/s')).toBe(judgedRun.recordsPerSecond >= (validate!.parallel ? 1 : 0.5) * validate!.csvParse.recordsPerSecond);

    const worse = copy(results);
    worse.sizes.artifact = 3 * 1024 * 1024;
    (worse.validate!.parallel ?? worse.validate!.cpmx).recordsPerSecond = worse.validate!.csvParse.recordsPerSecond;
    const judged = renderReport(worse);
    expect(verdict(judged.targets, 'artifact size')).toBe(false);
    expect(verdict(judged.targets, 'validate: records/s')).toBe(true);
    expectEveryTargetShown(judged.markdown, judged.targets);
    expect(judged.markdown).toContain('| artifact size | ≤ 2.3 MB | 3.00 MB | **missed** |');
  });

  it('judges cpmx/web when a run has it', () => {
    const withWeb = copy(results);
    const spreadOf = (median: number, max = median) => ({ median, p25: median, p75: median, min: median, max, runs: 3 });
    withWeb.web = {
      exportSeconds: spreadOf(6.2),
      codeBytes: { mean: 3400, ...spreadOf(2800, 14_000) },
      formBytes: spreadOf(4300, 16_700),
      moduleGzipBytes: 7800,
      formModuleGzipBytes: 800,
      artifactGzipBytes: 960_000,
      firstAnswer: { webMs: spreadOf(40), libraryMs: spreadOf(120), ratio: 3, floorMs: spreadOf(15), phasesMs: { html: 4, module: 18, asked: 24, files: 33, answered: 40 } },
    };
    const judged = renderReport(withWeb);
    const row = (start: string) => judged.targets.find((t) => t.name.startsWith(start));
    expect(row('cpmx/web: one random code')).toMatchObject({ value: '3.3 KB', pass: true });
    expect(row('cpmx/web: a form’s three selects, every municipality, largest')).toMatchObject({ value: '16.3 KB', pass: true });
    expect(row('cpmx/web module')).toMatchObject({ value: '7.6 KB', pass: true });
    expect(row('cpmx/web: first answer')).toMatchObject({ pass: true, value: expect.stringMatching(/3\.0× faster; an empty page 15\.0 ms/) });
    // Where the time went: the empty page's floor, and each step of the web page's.
    expect(judged.markdown).toContain('| cpmx/web, one code | 40.0 ms | 25.0 ms |');
    expect(judged.markdown).toContain('| the code’s files have arrived | 33.0 ms | 9.0 ms |');
    expect(row('cpmx export web')).toMatchObject({ pass: false });
    expectEveryTargetShown(judged.markdown, judged.targets);
  });

  it('judges and shows the embeddable handlers and the embedding when a run has them', () => {
    const withHandlers = copy(results);
    const http = withHandlers.http!;
    const handler = (share: number) => ({ ...http.cpmx, requestsPerSecond: share * http.bare.requestsPerSecond, ratios: [share - 0.02, share, share + 0.03], ratio: share });
    http.handlers = { middleware: handler(0.79), fetch: { ...handler(0.5), reference: 'hono' as const } };
    http.honoConstant = { ...http.bare };
    const spreadOf = { median: 9.5, p25: 9, p75: 10, min: 8.5, max: 12, runs: 11 };
    const cold = { importToAnswerMs: spreadOf, sinceProcessStartMs: spreadOf, heapUsedBytes: { ...spreadOf, median: 4e6 }, rssBytes: { ...spreadOf, median: 5e7 } };
    withHandlers.embed = { cold: { file: cold, bytes: { ...cold, importToAnswerMs: { ...spreadOf, median: 21 } } }, browserBundle: { bytes: 32_700, gzipBytes: 12_244 } };
    const judged = renderReport(withHandlers);
    // All but cpmx diff's, the credit path's, the version-2 methods' and the panel's, should the committed run predate them.
    expect(judged.targets).toHaveLength(targetsJudged(withHandlers));
    expectEveryTargetShown(judged.markdown, judged.targets);
    expect(judged.markdown).toContain('| HTTP: createMiddleware() info_cp throughput vs bare Node http (median of rounds) | ≥ 95% | 79% [77 – 82] | **missed** |');
    expect(judged.markdown).toContain('| HTTP: createFetchHandler() on @hono/node-server vs a constant hono app on it (median of rounds) | ≥ 90% | 50% [48 – 53] | **missed** |');
    expect(judged.markdown).toContain('| cold load with the artifact given as bytes, vs its path | ≤ 1.1× | 2.21× (21.0 ms vs 9.5 ms) | **missed** |');
    expect(judged.markdown).toContain(`| browser bundle of the library, gzipped | ≤ ${BROWSER_BUNDLE_BUDGET / 1024} KB | 12.0 KB | met |`);
    expect(judged.markdown).toMatch(/\| `createFetchHandler\(\)` behind @hono\/node-server \| [\d,]+ \| 50% of hono constant \[48 – 53\] \|/);
    expect(judged.markdown).toContain('## Embedding');
  });

  it('shows cpmx\'s cold start against both SQLite contestants when a run has the least one (issue 36 item 4)', () => {
    const withLeast = copy(results);
    const spreadOf = { median: 9.6, p25: 9.4, p75: 10, min: 9.1, max: 12, runs: 11 };
    withLeast.cold['sqlite-least'] = { importToAnswerMs: spreadOf, sinceProcessStartMs: { ...spreadOf, median: 70 }, heapUsedBytes: { ...spreadOf, median: 3e6 }, rssBytes: { ...spreadOf, median: 4e7 } };
    const judged = renderReport(withLeast);
    const cpmx = results.cold.cpmx.importToAnswerMs.median;
    const ratio = (cpmx / 9.6).toFixed(2);
    expect(judged.targets.find((t) => t.name.startsWith('cold load vs the least a SQLite user does'))).toMatchObject({ target: '≤ 0.75×', value: `${ratio}× (${format(cpmx, 'ms')} vs ${format(9.6, 'ms')})`, pass: cpmx / 9.6 <= 0.75 });
    expect(judged.targets.find((t) => t.name.startsWith('cold load vs the SQLite contestant'))).toBeDefined();
    expect(judged.markdown).toMatch(/\| SQLite, the least \(require better-sqlite3, open read-only, prepare, one query\) \| 9\.6 ms \[9\.1 – 12\.0\] \|/);
    expect(judged.markdown).toContain(`cpmx's cold start is ${(cpmx / results.cold.sqlite.importToAnswerMs.median).toFixed(2)}× the SQLite contestant's`);
    expect(judged.markdown).toContain(`and ${ratio}× the least a SQLite user does for one answer`);
    expectEveryTargetShown(judged.markdown, judged.targets);
  });

  it('shows where each contestant\'s cold start goes (import, open, first answer) when a run recorded the steps (issue 36 item 2)', () => {
    const withSteps = copy(results);
    // Runs before the steps were recorded have none, and show no table of them.
    for (const name of Object.keys(withSteps.cold) as (keyof typeof withSteps.cold)[]) delete withSteps.cold[name]?.stepsMs;
    expect(renderReport(withSteps).markdown).not.toContain('The same time in its steps');
    const ms = (median: number) => ({ median, p25: median, p75: median, min: median - 0.5, max: median + 1, runs: 11 });
    withSteps.cold.cpmx.stepsMs = { importMs: ms(4.2), openMs: ms(4.1), answerMs: ms(1.4) };
    withSteps.cold.sqlite.stepsMs = { importMs: ms(3), openMs: ms(2), answerMs: ms(0.9) };
    const { markdown } = renderReport(withSteps);
    expect(markdown).toContain('| contestant | import | open | first answer |');
    expect(markdown).toContain('| cpmx | 4.2 ms [3.7 – 5.2] | 4.1 ms [3.6 – 5.1] | 1.4 ms [0.9 – 2.4] |');
    expect(markdown).toMatch(/\| SQLite \(better-sqlite3\) \| 3\.0 ms \[2\.5 – 4\.0\] \| 2\.0 ms/);
  });

  it('shows the command line\'s start against node -e 0 when a run has it (issue 36 item 3), judged on the median of paired ratios', () => {
    const withCli = copy(results);
    const ms = (median: number) => ({ median, p25: median, p75: median, min: median - 2, max: median + 5, runs: 31 });
    withCli.commandLine = { command: 'cpmx info_cp 09810', cliMs: ms(64), nodeMs: ms(50), ratio: { ...ms(1.3), min: 1.1, max: 1.6 } };
    const judged = renderReport(withCli);
    // The ratio judged is the paired runs' median (1.3), not 64 / 50.
    expect(judged.targets.find((t) => t.name.startsWith('`cpmx info_cp 09810` as a process'))).toMatchObject({ target: '≤ 1.25×', value: `1.30× (${format(64, 'ms')} vs ${format(50, 'ms')})`, pass: false });
    expect(judged.markdown).toContain('`cpmx info_cp 09810` 64.0 ms [62.0 – 69.0], `node -e 0` 50.0 ms [48.0 – 55.0]; each run\'s ratio to the run beside it: median 1.30× [1.10 – 1.60]');
    expectEveryTargetShown(judged.markdown, judged.targets);
    withCli.commandLine.ratio.median = 1.2;
    expect(renderReport(withCli).targets.find((t) => t.name.startsWith('`cpmx info_cp 09810`'))?.pass).toBe(true);
  });

  it('says how the HTTP pairs were run, and shows the calibration pair of identical servers', () => {
    const blocks = copy(results);
    const http = blocks.http!;
    http.blocks = true;
    http.alternating = true;
    delete http.generations; // as in the runs before the pairs' processes were started anew
    http.calibration = { ...http.bare, ratios: [0.97, 1.01, 1.04], ratio: 1.01 };
    const markdown = renderReport(blocks).markdown;
    expect(markdown).toContain('each pair (the measured server and a reference process of its own) in a block of its own');
    // One pair of processes per block, as before generations (the miss note of a run that missed speaks of processes started anew, in general).
    expect(markdown).not.toContain('both started anew');
    http.generations = 6;
    http.rounds = 12;
    expect(renderReport(blocks).markdown).toContain('which runs first alternating between rounds, both started anew and warmed up every 2 rounds (6 pairs of processes), 12 rounds;');
    delete http.generations;
    // Three rounds are too few for a confidence interval of their median: none is shown.
    expect(markdown).toContain('Calibration: two identical constant bare servers, weighed against each other the same way, measured 101% (rounds 97% to 104%):');
    http.calibration.ratios = [0.9, 1.2, 0.95, 1.0, 1.05, 0.8, 1.01, 0.99, 1.1, 0.97, 1.02, 1.03];
    expect(renderReport(blocks).markdown).toContain("measured 101% (rounds 80% to 120%; the median's 96% confidence interval: 95% to 1");
    // A run before blocks and calibration keeps its own words, and no calibration line.
    delete http.blocks;
    delete http.calibration;
    http.pairsTurn = true;
    const older = renderReport(blocks).markdown;
    expect(older).toContain('the two back to back, which runs first alternating between rounds (and the pairs of the handlers below taking turns with this one)');
    expect(older).not.toContain('Calibration:');
  });

  it('bounds a median by order statistics, with their exact coverage', () => {
    // Twelve samples: the 3rd smallest and the 3rd largest, 1 - 2 P(Binomial(12, 1/2) <= 2) = 96.1%.
    const twelve = [5, 1, 12, 3, 9, 7, 2, 11, 4, 10, 6, 8];
    const bounds = medianInterval(twelve)!;
    expect([bounds.low, bounds.high]).toEqual([3, 10]);
    expect(bounds.coverage).toBeCloseTo(1 - (2 * (1 + 12 + 66)) / 4096, 12);
    // Six is the fewest with any 95% interval (min to max, 1 - 2/64); five have none.
    expect(medianInterval([1, 2, 3, 4, 5, 6])).toEqual({ low: 1, high: 6, coverage: 1 - 2 / 64 });
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    // A lower level allows a narrower interval.
    expect(medianInterval(twelve, 0.8)!.low).toBeGreaterThan(3);
  });

  it('leaves out what a run did not measure, and names a lookup it lacks', () => {
    const partial = copy(results);
    partial.http = null;
    partial.validate = null;
    partial.credits = null;
    partial.panel = null;
    const judged = renderReport(partial);
    expect(judged.targets.map((t) => t.name).filter((name) => /^(HTTP|validate|panel)/.test(name))).toEqual([]);
    expect(judged.targets.length).toBeGreaterThanOrEqual(8);
    expect(judged.markdown).not.toContain('## HTTP server');
    expect(judged.markdown).not.toContain('## Address validation');
    expect(judged.markdown).not.toContain('## Control panel');
    expectEveryTargetShown(judged.markdown, judged.targets);

    const lacking = copy(results);
    delete lacking.lookups['infoCp.full'];
    expect(() => renderReport(lacking)).toThrow(/infoCp\.full/);
  });

  it('reads results.json as facts and numbers only, with no verdicts', () => {
    const keys = keysOf(JSON.parse(readFileSync(committed, 'utf8')));
    expect(keys).not.toContain('targets');
    expect(keys).not.toContain('pass');
  });
});

describe('codes inferred from names (issue 33) and the geodata (issue 35) in the report', () => {
  const committedResults = readResults(committed);
  const geo = {
    states: 10,
    codes: 4864,
    buildMs: 1319,
    bytes: 1_916_855,
    bytes32States: 6_133_936,
    points: 200_000,
    cpmxNs: 1504,
    turfOriginalNs: 8210,
    turfSimplifiedNs: 4922,
    speedupOriginal: 5.46,
    speedupSimplified: 3.27,
    agreement: 0.99886,
    openMs: 66,
  };
  const measured = (): Results => ({ ...copy(committedResults), inferredCodes: { records: 20_000, recordsPerSecond: 61_234, found: 19_990 }, geo });
  const row = (targets: Target[], start: string) => targets.find((t) => t.name.startsWith(start));

  it('judges and shows both parts when a run has them', () => {
    const judged = renderReport(measured());
    expect(judged.targets).toHaveLength(targetsJudged(measured()));
    expectEveryTargetShown(judged.markdown, judged.targets);
    expect(judged.markdown).toContain('| codes inferred from names: records/s on one core (20,000 records without a code; 19,990 codes found) | ≥ 50,000/s | 61,234/s | met |');
    expect(judged.markdown).toContain(
      '| geodata: reverse geocoding per point vs flatbush + @turf/boolean-point-in-polygon on the original polygons (200,000 points) | ≥ 2× faster | 5.46× (1.5 µs vs 8.2 µs) | met |',
    );
    expect(judged.markdown).toContain(
      '| geodata: reverse geocoding per point vs flatbush + @turf/boolean-point-in-polygon on cpmx’s simplified polygons (200,000 points) | ≥ 2× faster | 3.27× (1.5 µs vs 4.9 µs) | met |',
    );
    expect(judged.markdown).toContain('| geodata of 10 states (4,864 codes), bytes added | ≤ 3 MB | 1.83 MB (32 states, extrapolated: about 5.8 MB) | met |');
    expect(judged.markdown).toContain('| geodata: cpmx build --geo of 10 states | ≤ 10 s | 1.3 s | met |');
    expect(judged.markdown).toContain('## Codes inferred from names');
    expect(judged.markdown).toContain('61,234 records/s on one core');
    expect(judged.markdown).toContain('## Geodata (`cpmx build --geo`, reverse geocoding)');
    expect(judged.markdown).toContain("| flatbush + turf, cpmx's simplified polygons | 4.9 µs | 3.27× |");
    expect(judged.markdown).toContain('for 99.89% of the points');
    expect(judged.markdown).not.toContain('Not measured');
  });

  it('judges each from its numbers: below the targets, each row is missed', () => {
    const worse = measured();
    worse.inferredCodes!.recordsPerSecond = 49_999;
    worse.geo = { ...geo, turfSimplifiedNs: 2900, speedupSimplified: 1.93, bytes: 3 * 1024 * 1024 + 1, buildMs: 10_001 };
    const judged = renderReport(worse);
    expect(row(judged.targets, 'codes inferred from names')).toMatchObject({ value: '49,999/s', pass: false });
    expect(row(judged.targets, 'geodata: reverse geocoding per point vs flatbush + @turf/boolean-point-in-polygon on the original')).toMatchObject({ pass: true });
    expect(row(judged.targets, 'geodata: reverse geocoding per point vs flatbush + @turf/boolean-point-in-polygon on cpmx’s')).toMatchObject({ value: '1.93× (1.5 µs vs 2.9 µs)', pass: false });
    expect(row(judged.targets, 'geodata of 10 states')).toMatchObject({ pass: false });
    expect(row(judged.targets, 'geodata: cpmx build --geo')).toMatchObject({ value: '10.0 s', pass: false });
    expectEveryTargetShown(judged.markdown, judged.targets);
  });

  it('says "not measured" for a part a run lacks, and judges no row of it', () => {
    const withoutGeo = measured();
    delete withoutGeo.geo;
    const noGeo = renderReport(withoutGeo);
    expect(noGeo.targets.filter((t) => t.name.startsWith('geodata'))).toEqual([]);
    expect(row(noGeo.targets, 'codes inferred from names')).toBeDefined();
    expect(noGeo.markdown).toContain('Not measured in this run, so not judged: the geodata (issue 35). See their sections below.');
    expect(noGeo.markdown).toMatch(/## Geodata \(`cpmx build --geo`, reverse geocoding\)\n\nNot measured in this run: the polygons \(`\.\.\/shared\/data\/sepomex-geo\/`\) were not beside the repository/);

    const neither = copy(committedResults);
    delete neither.inferredCodes;
    delete neither.geo;
    const old = renderReport(neither);
    expect(old.targets).toHaveLength(targetsJudged(neither));
    expect(old.targets.filter((t) => /^(geodata|codes inferred)/.test(t.name))).toEqual([]);
    expect(old.markdown).toContain('Not measured in this run, so not judged: codes inferred from names (issue 33); the geodata (issue 35).');
    expect(old.markdown).toMatch(/## Codes inferred from names\n\nNot measured in this run/);
    expectEveryTargetShown(old.markdown, old.targets);
  });
});

describe('npm run bench on the fixture, then npm run bench:report', () => {
  const dir = tempDir();

  it('measures into results.json, and the report renders the same from the file alone', { timeout: 180_000 }, () => {
    const out = join(dir, 'out');
    const again = join(dir, 'again');
    const args = ['--catalog', FIXTURE, '--work', join(dir, 'work'), '--out', out, '--time', '5', '--cold-runs', '1', '--no-http', '--no-validate', '--no-browser', '--no-geo'];
    execFileSync(process.execPath, [join(root, 'dist', 'bench', 'run.js'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

    const results = readResults(join(out, 'results.json'));
    expect(results.catalog.rows).toBe(22);
    expect(results.http).toBeNull();
    expect(results.validate).toBeNull();
    expect(results.settings).toMatchObject({ taskTimeMs: 5, coldRuns: 1 });
    expect(results.cold.cpmx.importToAnswerMs.runs).toBe(1);
    expect(results.diff?.ms.runs).toBe(3);
    // One-line addresses are measured on the real addresses of the fixture (every one of them) whatever the catalog.
    expect(results.parse).toMatchObject({ lines: parseCsv(readFileSync(PARSE_FIXTURE), { columns: true }).length });
    expect(results.parse!.cpmx).toBeGreaterThan(0);
    expect(results.parse!.csvParse).toBeGreaterThan(0);
    for (const op of OPS) expect(Object.keys(results.lookups[op.id] ?? {}).sort(), op.id).toEqual([...CONTESTANTS].sort());
    for (const op of CPMX_EXTRAS) expect(Object.keys(results.lookups[op.id] ?? {}), op.id).toEqual(['cpmx']);
    expect(keysOf(results)).not.toContain('pass');
    // Codes inferred from names are measured on the run's own artifact; the geodata was left out (--no-geo).
    expect(results.inferredCodes).toMatchObject({ records: 20_000 });
    expect(results.inferredCodes!.recordsPerSecond).toBeGreaterThan(0);
    expect(results.geo).toBeUndefined();

    const printed = execFileSync(process.execPath, [join(root, 'dist', 'bench', 'report.js'), '--results', join(out, 'results.json'), '--out', again], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(readFileSync(join(again, 'RESULTS.md'), 'utf8')).toBe(readFileSync(join(out, 'RESULTS.md'), 'utf8'));
    expect(readFileSync(join(again, 'chart.svg'), 'utf8')).toBe(readFileSync(join(out, 'chart.svg'), 'utf8'));
    expect(printed.startsWith('## Design targets')).toBe(true);

    const report = renderReport(results);
    // --no-http, --no-validate and --no-browser: no row for the 4 HTTP and 4 validation targets
    // nor for the web part's first answer in Chromium.
    expect(results.web?.firstAnswer).toBeNull();
    expect(report.targets).toHaveLength(TARGETS.length - 9 - CREDIT_TARGETS.length - PANEL_TARGETS.length - GEO_TARGETS.length);
    expect(readFileSync(join(out, 'RESULTS.md'), 'utf8')).toContain('Not measured in this run, so not judged: the geodata (issue 35).');
    expect(results.embed!.cold.bytes.importToAnswerMs.runs).toBe(1);
    expect(results.embed!.browserBundle.gzipBytes).toBeLessThan(results.embed!.browserBundle.bytes);
    expectEveryTargetShown(readFileSync(join(out, 'RESULTS.md'), 'utf8'), report.targets);
    expect(report.svg.match(/<rect x=/g)).toHaveLength(3 + 4 * CONTESTANTS.length);
  });

  it('stops on a results.json it cannot report, saying which and why, and writes nothing', () => {
    const nowhere = join(dir, 'nowhere');
    const run = (path: string) => {
      try {
        execFileSync(process.execPath, [join(root, 'dist', 'bench', 'report.js'), '--results', path, '--out', nowhere], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        return error as { status: number; stderr: string };
      }
      throw new Error(`bench:report accepted ${path}`);
    };
    const missing = run(join(dir, 'none.json'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*none\.json \(ENOENT\)/);
    const notJson = run(join(root, 'bench', 'RESULTS.md'));
    expect(notJson.stderr).toMatch(/RESULTS\.md is not JSON/);
    expect(notJson.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(nowhere)).toBe(false);
  });
});
