/**
 * The control panel's part of the benchmark report: its targets are judged from the numbers
 * of a run that measured it, and its section shows them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../report/render.js';
import { PANEL_TARGETS } from '../report/targets.js';
import { readResults, type HttpStat, type PanelResults, type Results } from '../results.js';
import { root } from '../../test/helpers.js';

const stat = (requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number): HttpStat => ({ requestsPerSecond, latencyP50Ms, latencyP99Ms, non2xx: 0, errors: 0, timeouts: 0, requests: 9 * requestsPerSecond });

function withPanel(panel: PanelResults): Results {
  return { ...readResults(join(root, 'bench', 'results.json')), panel };
}

const measured: PanelResults = {
  connections: 10,
  apiConnections: 50,
  seconds: 3,
  rounds: 3,
  workers: 2,
  api: { without: stat(26_000, 1, 7), with: stat(25_300, 1, 7), ratios: [0.95, 0.97, 1.0], ratio: 0.97 },
  pages: {
    sqlite: { projects: stat(8_300, 1, 3), project: stat(4_300, 2, 5) },
    postgres: { projects: stat(2_500, 3, 10), project: stat(1_200, 7, 17) },
  },
  logInMs: { median: 72, p25: 71, p75: 73, min: 71, max: 85, runs: 10 },
};

describe('the control panel in the benchmark report', () => {
  it('judges the API’s cost, the pages’ latency and the log-in from the numbers, and shows them', () => {
    const names = PANEL_TARGETS.map((rule) => rule(withPanel(measured))!.name);
    const judged = (panel: PanelResults) => renderReport(withPanel(panel)).targets.filter((t) => names.includes(t.name));
    expect(judged(measured).map((t) => [t.value, t.pass])).toEqual([
      ['97%', true],
      ['5 ms', true],
      ['17 ms', true],
      ['72.0 ms', true],
    ]);
    const report = renderReport(withPanel(measured));
    expect(report.markdown).toContain('## Control panel (`cpmx serve --panel`)');
    expect(report.markdown).toContain('| a project (usage chart, errors), PostgreSQL | 1,200 | 7 ms | 17 ms | 10,800 | 0 | 0 |');
    expect(report.markdown).toContain('with the panel, 97% of the rate without it');

    const slow: PanelResults = {
      ...measured,
      api: { ...measured.api, ratio: 0.85 },
      pages: { sqlite: { ...measured.pages.sqlite, project: stat(900, 12, 26) }, postgres: { ...measured.pages.postgres, project: stat(300, 30, 51) } },
      logInMs: { ...measured.logInMs, median: 251 },
    };
    expect(judged(slow).map((t) => t.pass)).toEqual([false, false, false, false]);
  });
});
