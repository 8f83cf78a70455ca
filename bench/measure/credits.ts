/**
 * What a credit costs a server: `cpmx serve` answering real-data requests with no registry,
 * with the SQLite registry and with the PostgreSQL one (a real server on this machine, on
 * loopback), the same workload and workers, alternating in rounds. Afterwards each registry's
 * credits taken are checked against the answers with data it took them for.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { startPostgres } from '../../test/support/postgres.js';
import type { CreditResults } from '../results.js';
import { load, start, stat } from './http.js';

const GIVEN = 1_000_000_000;

export async function creditLoad(options: {
  cli: string;
  artifact: string;
  work: string;
  codes: string[];
  seconds: number;
  rounds?: number;
  workers?: number;
  log?: (line: string) => void;
}): Promise<CreditResults> {
  const connections = 50;
  const rounds = options.rounds ?? 3;
  const workers = options.workers ?? 2;
  const { cli, seconds } = options;
  const postgres = await startPostgres();
  const sqlitePath = join(options.work, 'bench-registry.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
  const registries = { sqlite: sqlitePath, postgres: await postgres.createDatabase('bench') };
  const tokens = {
    sqlite: execFileSync(process.execPath, [cli, 'tokens', 'create', '--registry', registries.sqlite, '--name', 'bench', '--credits', String(GIVEN)], { encoding: 'utf8' }).trim(),
    postgres: execFileSync(process.execPath, [cli, 'tokens', 'create', '--registry', registries.postgres, '--name', 'bench', '--credits', String(GIVEN)], { encoding: 'utf8' }).trim(),
  };
  const paths = (token: string) => options.codes.slice(0, 200).map((cp) => `/query/info_cp/${cp}?token=${token}&type=simplified`);
  const serve = (extra: string[]) => start([cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', options.artifact, '--workers', String(workers), ...extra], 'cpmx serve');
  const servers = {
    none: await serve([]),
    sqlite: await serve(['--registry', registries.sqlite]),
    postgres: await serve(['--registry', registries.postgres]),
  };
  const work = {
    none: paths('bench'),
    sqlite: paths(tokens.sqlite),
    postgres: paths(tokens.postgres),
  };
  const names = ['none', 'sqlite', 'postgres'] as const;
  const runs = { none: [] as autocannon.Result[], sqlite: [] as autocannon.Result[], postgres: [] as autocannon.Result[] };
  const answered = { sqlite: 0, postgres: 0 };
  try {
    for (const name of names) {
      const warm = await load(servers[name].url, work[name], connections, 2);
      if (name !== 'none') answered[name] += warm['2xx'];
    }
    for (let round = 0; round < rounds; round++) {
      options.log?.(`credits: round ${round + 1} of ${rounds}, ${seconds} s each for no registry, SQLite, PostgreSQL ...`);
      for (const name of names) {
        const result = await load(servers[name].url, work[name], connections, seconds);
        runs[name].push(result);
        if (name !== 'none') answered[name] += result['2xx'];
      }
    }
  } finally {
    for (const name of names) servers[name].child.kill('SIGTERM');
    await Promise.all(names.map((name) => new Promise((resolve) => (servers[name].child.exitCode !== null ? resolve(null) : servers[name].child.once('exit', resolve)))));
  }
  const left = (json: string) => (JSON.parse(json) as { credits: number }[])[0]!.credits;
  const spent = {
    sqlite: GIVEN - left(execFileSync(process.execPath, [cli, 'tokens', 'list', '--registry', registries.sqlite, '--json'], { encoding: 'utf8' })),
    postgres: GIVEN - left(execFileSync(process.execPath, [cli, 'tokens', 'list', '--registry', registries.postgres, '--json'], { encoding: 'utf8' })),
  };
  await postgres.destroy();
  // autocannon ends each run by closing its connections: answers already written then are
  // spent and not counted, at most one per connection and run. None may be free.
  const runsPerRegistry = rounds + 1;
  for (const name of ['sqlite', 'postgres'] as const) {
    if (spent[name] < answered[name] || spent[name] > answered[name] + connections * runsPerRegistry) {
      throw new Error(`the ${name} registry took ${spent[name]} credits for ${answered[name]} answers with data`);
    }
  }
  return { connections, seconds, rounds, workers, none: stat(runs.none), sqlite: stat(runs.sqlite), postgres: stat(runs.postgres), spent, answered };
}
