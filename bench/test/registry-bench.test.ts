/**
 * The credit path's part of the benchmark report: its targets are judged from the numbers of
 * a run that measured it, and its section shows the three servers side by side.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../report/render.js';
import { CREDIT_TARGETS } from '../report/targets.js';
import { readResults, type CreditResults, type HttpStat, type Results } from '../results.js';
import { root } from '../../test/helpers.js';

const stat = (requestsPerSecond: number, latencyP50Ms: number): HttpStat => ({ requestsPerSecond, latencyP50Ms, latencyP99Ms: 4 * latencyP50Ms, non2xx: 0, errors: 0, timeouts: 0, requests: 3 * requestsPerSecond });

function withCredits(credits: CreditResults): Results {
  return { ...readResults(join(root, 'bench', 'results.json')), credits };
}

const measured: CreditResults = {
  connections: 50,
  seconds: 3,
  rounds: 3,
  workers: 2,
  none: stat(30_000, 1),
  sqlite: stat(7_000, 4),
  postgres: stat(6_000, 5),
  spent: { sqlite: 84_010, postgres: 72_020 },
  answered: { sqlite: 84_000, postgres: 72_000 },
};

describe('the credit path in the benchmark report', () => {
  it('judges the PostgreSQL throughput and the credits taken from the numbers', () => {
    const report = renderReport(withCredits(measured));
    const names = CREDIT_TARGETS.map((rule) => rule(withCredits(measured))!.name);
    const judged = report.targets.filter((t) => names.includes(t.name));
    expect(judged.map((t) => [t.value, t.pass])).toEqual([
      ['6,000', true],
      ['10, 20', true],
    ]);
    expect(report.markdown).toContain('## Credits: `cpmx serve` with a token registry');
    expect(report.markdown).toMatch(/\| PostgreSQL registry \(loopback\) \| 6,000 \| 20% \| 5 ms \|/);

    const slow = renderReport(withCredits({ ...measured, postgres: stat(4_000, 9), spent: { sqlite: 83_999, postgres: 72_020 } }));
    expect(slow.targets.filter((t) => names.includes(t.name)).map((t) => t.pass)).toEqual([false, false]);
  });
});
