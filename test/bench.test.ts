/**
 * The benchmark's own code, on the fixture catalog: every contestant answers every query of
 * the workload exactly as cpmx does (a benchmark that compares different work is worthless),
 * and the child scripts and the chart run.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from '../bench/chart.js';
import { CONTESTANTS, dataPaths, type ContestantModule, type ContestantName, type Lookups } from '../bench/contestants/types.js';
import { OPS } from '../bench/ops.js';
import { prepare } from '../bench/prepare.js';
import { makeWorkload, type Workload } from '../bench/workload.js';
import { FIXTURE, root, tempDir } from './helpers.js';

const work = tempDir();
const apis = {} as Record<ContestantName, Lookups>;
let workload: Workload;
let prepared: Awaited<ReturnType<typeof prepare>>;

beforeAll(async () => {
  prepared = await prepare(FIXTURE, work);
  for (const name of CONTESTANTS) apis[name] = ((await import(`../bench/contestants/${name}.ts`)) as ContestantModule).open(dataPaths(work));
  workload = makeWorkload(apis.cpmx);
});

describe('the contestants', () => {
  it('are all built from the catalog', () => {
    expect(prepared.rows).toBe(22);
    for (const bytes of Object.values(prepared.bytes)) expect(bytes).toBeGreaterThan(0);
  });

  it('answer every query of every operation exactly as cpmx does', () => {
    expect(workload.codes).toHaveLength(15);
    let compared = 0;
    for (const op of OPS) {
      const queries = [...op.queries(workload)];
      if (op.id === 'infoCp.notFound') queries.splice(50);
      for (const query of queries) {
        const expected = op.run(apis.cpmx, query);
        for (const name of CONTESTANTS) {
          expect(op.run(apis[name], query), `${name} ${op.id}(${JSON.stringify(query)})`).toEqual(expected);
          compared++;
        }
      }
    }
    // Errors as well as answers: the workload has not-found and malformed codes.
    expect(apis.sqlite.infoCp('99999', false)).toMatchObject({ code_error: 105 });
    expect(apis.json.searchCp('12a')).toMatchObject({ code_error: 104 });
    expect(apis.upper.getMunicipioPorEstado('Texas')).toMatchObject({ code_error: 110 });
    expect(compared).toBeGreaterThan(400);
  });

  it('start cold in a child process and answer', () => {
    for (const name of ['none', 'cpmx', 'sqlite', 'json']) {
      const out = execFileSync(process.execPath, [join(root, 'dist', 'bench', 'cold.js'), name, work, '09810'], { encoding: 'utf8' });
      const sample = JSON.parse(out);
      expect(sample, name).toMatchObject({ name, ok: true });
      expect(sample.heapUsed).toBeGreaterThan(0);
    }
  });

  it('are timed by the lookup child, every operation', () => {
    const workloadPath = join(work, 'workload.json');
    execFileSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(workloadPath)}, ${JSON.stringify(JSON.stringify(workload))})`]);
    const out = execFileSync(process.execPath, [join(root, 'dist', 'bench', 'lookups.js'), 'cpmx', work, workloadPath, '5'], { encoding: 'utf8' });
    const stats = JSON.parse(out) as Record<string, { medianNs: number; batch: number }>;
    expect(Object.keys(stats).sort()).toEqual([...OPS.map((op) => op.id), 'listCopy.3', 'query.path'].sort());
    for (const [id, stat] of Object.entries(stats)) {
      expect(stat.medianNs, id).toBeGreaterThan(0);
      expect(stat.batch, id).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('the chart', () => {
  it('draws one labelled bar per value, on a log scale', () => {
    const svg = renderChart('t', 's', [
      { title: 'infoCp', unit: 'ns', values: [{ label: 'cpmx', value: 100, cpmx: true }, { label: 'SQLite', value: 10_000 }] },
    ]);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(2);
    expect(svg).toContain('10 µs (100× cpmx)');
    const widths = [...svg.matchAll(/<rect x="\d+" y="\d+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths[1]! / widths[0]!).toBeGreaterThan(1.5);
    expect(widths[1]! / widths[0]!).toBeLessThan(100);
  });
});
