/**
 * Issue 32 item 4: `npm run bench` took 19 minutes where the README said four, said nothing of
 * it before starting, and rewrote the committed bench/RESULTS.md, chart.svg and results.json,
 * leaving the checkout dirty. Now it says its plan and time first, follows its parts, writes to
 * the ignored bench/work/ unless told --publish, and --quick gives the lookups in a minute or two.
 * The whole bench is not run here: the decisions are.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchPlan, describePlan, followParts, outputDirectory, type BenchSettings } from '../plan.js';
import { renderQuick } from '../report/quick.js';
import { readResults } from '../results.js';
import { root } from '../../test/helpers.js';

const bench = join(root, 'bench');
const DEFAULTS: BenchSettings = { quick: false, taskTimeMs: 400, coldRuns: 11, httpSeconds: 3, validateRecords: 1_000_000, http: true, validate: true, browser: true, geo: true };
const total = (settings: BenchSettings) => benchPlan(settings).reduce((sum, part) => sum + part.seconds, 0);

/** The files a run writes into its output directory, whole or quick. */
const WRITTEN = ['results.json', 'RESULTS.md', 'chart.svg', 'quick.json', 'QUICK.md'];

describe('where a run writes', () => {
  it('by default into bench/work/, which git ignores: a default run leaves the checkout as it was', () => {
    const out = outputDirectory({ publish: false, quick: false, partial: false }, bench);
    expect(out).toBe(join(bench, 'work'));
    expect(outputDirectory({ publish: false, quick: true, partial: true }, bench)).toBe(join(bench, 'work'));
    // The contestants' data go to the same ignored folder (--work's default).
    const paths = [...WRITTEN, 'catalog.sqlite', 'catalog.json', 'cpmx.msgpack', 'workload.json'].map((name) => relative(root, join(out, name)));
    const ignored = spawnSync('git', ['check-ignore', '--no-index', ...paths], { cwd: root, encoding: 'utf8' });
    expect(ignored.stdout.trim().split('\n').sort()).toEqual([...paths].sort());
    // And the committed results are where --publish writes: tracked, not ignored.
    const committed = execFileSync('git', ['ls-files', 'bench/results.json', 'bench/RESULTS.md', 'bench/chart.svg'], { cwd: root, encoding: 'utf8' });
    expect(committed.trim().split('\n').sort()).toEqual(['bench/RESULTS.md', 'bench/chart.svg', 'bench/results.json']);
  });

  it('into the committed bench/ only with --publish, and only for a whole run', () => {
    expect(outputDirectory({ publish: true, quick: false, partial: false }, bench)).toBe(bench);
    expect(() => outputDirectory({ publish: true, quick: true, partial: false }, bench)).toThrow(/--quick cannot --publish/);
    expect(() => outputDirectory({ publish: true, quick: false, partial: true }, bench)).toThrow(/whole run/);
    expect(() => outputDirectory({ out: '/tmp/x', publish: true, quick: false, partial: false }, bench)).toThrow(/no --out/);
    expect(outputDirectory({ out: '/tmp/x', publish: false, quick: false, partial: false }, bench)).toBe('/tmp/x');
  });
});

describe('the plan', () => {
  it('is said before anything is measured, with the time it takes and where it writes, and --plan stops there', () => {
    const run = spawnSync(process.execPath, [join(root, 'dist', 'bench', 'run.js'), '--plan'], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^bench: about (1[5-9]|2\d) min on a quiet 2-core machine \(more under load\), in \d+ parts:\n/);
    expect(run.stderr).toContain(`results into ${join(bench, 'work')}`);
    expect(run.stderr).toMatch(/\d+\. HTTP: .*: about \d+ min/);
    const refused = spawnSync(process.execPath, [join(root, 'dist', 'bench', 'run.js'), '--plan', '--quick', '--publish'], { cwd: root, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^bench: --quick/);
  });

  it('of a whole run is about the 19 minutes one takes (the HTTP part most of it); --quick is a minute or two of lookups and cold starts', () => {
    expect(total(DEFAULTS) / 60).toBeGreaterThan(15);
    expect(total(DEFAULTS) / 60).toBeLessThan(25);
    const quick = benchPlan({ ...DEFAULTS, quick: true, coldRuns: 5 });
    expect(quick.map((part) => part.id)).toEqual(['prepare', 'cold', 'alike', 'lookups']);
    expect(total({ ...DEFAULTS, quick: true, coldRuns: 5 })).toBeLessThanOrEqual(120);
    expect(total({ ...DEFAULTS, http: false, validate: false, browser: false }) / 60).toBeLessThan(5);
    expect(describePlan(quick, undefined)).toContain('not written (--no-write)');
  });

  it('measures the geodata before the report when the polygons are there, with its estimated time, and says so', () => {
    const parts = benchPlan(DEFAULTS);
    expect(parts.at(-1)).toMatchObject({ id: 'geo', seconds: expect.any(Number) });
    expect(parts.at(-1)!.starts.test('geo: building the geodata of 10 states ...')).toBe(true);
    expect(describePlan(parts, undefined)).toMatch(/\d+\. geodata: build of the polygons given, reverse geocoding against flatbush \+ turf: about \d+ s/);
    // Without the polygons (or with --no-geo) there is no such part, and a quick run never has it.
    expect(benchPlan({ ...DEFAULTS, geo: false }).map((part) => part.id)).not.toContain('geo');
    expect(benchPlan({ ...DEFAULTS, quick: true }).map((part) => part.id)).not.toContain('geo');
    const refused = spawnSync(process.execPath, [join(root, 'dist', 'bench', 'run.js'), '--plan', '--no-geo', '--publish'], { cwd: root, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^bench: the committed results are a whole run: .*--no-geo/);
  });

  it('is followed part by part from the measuring step\'s own lines, and says what each part took', () => {
    const parts = benchPlan({ ...DEFAULTS, http: false, validate: false });
    const said: string[] = [];
    let clock = 0;
    const progress = followParts(parts, (line) => said.push(line), () => clock);
    for (const line of ['catalog: x', 'preparing contestants in /w ...', 'build: 3 runs ...', 'cold start: 11 runs ...', 'lookups of cpmx: 30 tasks', 'lookups of sqlite: 30 tasks']) {
      progress.log(line);
      clock += 2000;
    }
    expect(said.filter((line) => line.startsWith('['))).toEqual([
      expect.stringMatching(/^\[1\/\d+\] preparing the contestants .*\(about 10 s; 2 s so far of about \d+ (s|min), about \d+ (s|min) left\)$/),
      expect.stringMatching(/^\[2\/\d+\] cpmx build, 3 runs/),
      expect.stringMatching(/^\[4\/\d+\] cold starts/),
      expect.stringMatching(/^\[9\/\d+\] lookups, every contestant/),
    ]);
    // Every line of the measuring step is still said, in order, after its part's.
    expect(said.filter((line) => !line.startsWith('['))).toHaveLength(6);
    expect(progress.finish()).toEqual({ prepare: 2, build: 2, cold: 2, lookups: 4 });
  });
});

describe('a quick run', () => {
  it('reports the cold starts and the lookups as a whole run does, and no targets (a whole run judges them)', () => {
    const { date, machine, seed, settings, cold, lookups } = readResults(join(bench, 'results.json'));
    const markdown = renderQuick({ quick: true, date, machine, seed, settings, cold, lookups, catalog: 'CPdescargatxt.zip' });
    expect(markdown).toMatch(/^# Quick benchmark/);
    expect(markdown).toContain(`${machine.cpus} cores (${machine.cpu}), Node ${machine.node}; catalog CPdescargatxt.zip`);
    expect(markdown).toContain('## Cold start (fresh process: import, open, first answer)');
    expect(markdown).toContain('## Lookups (per call: median [p75 / p99])');
    expect(markdown).not.toContain('## Design targets');
  });
});
