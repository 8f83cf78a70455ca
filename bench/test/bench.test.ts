/**
 * The benchmark's own code, on the fixture catalog: every contestant answers every query of
 * the workload exactly as cpmx does (a benchmark that compares different work is worthless),
 * and the child scripts and the chart run.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from '../chart.js';
import { CONTESTANTS, dataPaths, type ContestantModule, type ContestantName, type Lookups } from '../contestants/types.js';
import { CPMX_EXTRAS, OPS } from '../ops.js';
import { COLD_CONTESTANTS } from '../results.js';
import { prepare } from '../prepare.js';
import { makeWorkload, type Workload } from '../workload.js';
import { FIXTURE, root, tempDir } from '../../test/helpers.js';

const work = tempDir();
const apis = {} as Record<ContestantName, Lookups>;
let workload: Workload;
let prepared: Awaited<ReturnType<typeof prepare>>;

beforeAll(async () => {
  prepared = await prepare(FIXTURE, work);
  for (const name of CONTESTANTS) apis[name] = ((await import(`../contestants/${name}.ts`)) as ContestantModule).open(dataPaths(work));
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

  it('answer the version-2 methods’ errors and edge cases alike, keys in the same order', () => {
    const calls: [string, (api: Lookups) => unknown][] = [
      ['115', (api) => api.getCpPorMunicipio('Nowhere')],
      ['110', (api) => api.getCpPorMunicipio('Benito Juárez', 'Texas')],
      ['114', (api) => api.getColoniaPorMunicipio(' ')],
      ['109', (api) => api.getCpPorMunicipio('Toluca', ' ')],
      ['both states', (api) => api.getColoniaPorMunicipio('benito juarez')],
      ['one state', (api) => api.getCpPorMunicipio('BENITO JUÁREZ', 'Quintana Roo')],
      ['109 estado', (api) => api.getColoniaPorEstadoMunicipio(' ', 'Toluca')],
      ['117', (api) => api.searchCpAdvanced('cdmx', { limit: 0 })],
      ['limit', (api) => api.searchCpAdvanced('cdmx', { limit: 2 })],
      ['115 advanced', (api) => api.searchCpAdvanced('cdmx', { municipio: 'Toluca' })],
      ['LIKE wildcards are literal', (api) => api.searchCpAdvanced('cdmx', { colonia: '%' })],
      ['LIKE _ is literal', (api) => api.searchCpAdvanced('cdmx', { colonia: 'l_s' })],
      ['white space folded', (api) => api.searchCpAdvanced('cdmx', { colonia: ' LOMAS   de ' })],
      ['municipio and colonia', (api) => api.searchCpAdvanced('cdmx', { municipio: 'iztapalapa', colonia: 'o' })],
      ['116', (api) => api.getCitiesByStateCode('abc')],
      ['110 key', (api) => api.getCitiesByStateCode('33')],
      ['109 key', (api) => api.getMunicipioClavePorClaveEstado('')],
      ['cities by key', (api) => api.getCitiesByStateCode('15')],
      ['keys', (api) => api.getMunicipioClavePorClaveEstado('9')],
      ['105', (api) => api.getColoniaPorCp('99999')],
    ];
    for (const [label, call] of calls) {
      const expected = JSON.stringify(call(apis.cpmx));
      for (const name of CONTESTANTS) expect(JSON.stringify(call(apis[name])), `${name}: ${label}`).toBe(expected);
    }
    expect(JSON.stringify(apis.sqlite.searchCpAdvanced('cdmx', { colonia: '%' }))).toContain('"cp":[]');
  });

  it('start cold in a child process and answer', () => {
    for (const name of COLD_CONTESTANTS) {
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
    expect(Object.keys(stats).sort()).toEqual([...OPS, ...CPMX_EXTRAS].map((op) => op.id).sort());
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
