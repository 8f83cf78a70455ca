/**
 * `cpmx serve --refresh-every` never goes back in time (issue 37, item 9): a download dated before
 * the catalog served (its own date, whether or not the artifact has a history) is refused, said
 * in the log and /health, and nothing is written; `--allow-older` takes it and says so. One dated
 * ahead of the clock is refused (it would make every later catalog look older). Against
 * the local replica of the Correos page; every wait is on /health or the log.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { backInTime, datedAhead } from '../../src/serve/refresh.js';
import { CLI, FIXTURE, tempDir } from '../helpers.js';
import { catalogZip, CorreosReplica } from '../support/correos-replica.js';
import { outputMatches, startServer, stopServer } from '../support/serve.js';
import { everyWorker, healthOf } from '../support/worker-health.js';

const run = promisify(execFile);
const dir = tempDir();
const catalogA = readFileSync(FIXTURE);
const catalogB = Buffer.from(catalogA.toString('latin1').replace('01000|San Ángel|', '01000|San Ángel Norte|'), 'latin1');
const dates = { served: new Date(2018, 0, 15, 10, 30), older: new Date(2001, 5, 1, 9, 0), newer: new Date(2019, 2, 1, 8, 0) };

const replicas: CorreosReplica[] = [];
afterAll(async () => {
  for (const replica of replicas) await replica.close().catch(() => undefined);
});

/** An artifact built with `cpmx build` (no history) from the catalog's zip dated `date`. */
async function served(name: string, date: Date): Promise<string> {
  const zip = join(dir, `${name}.zip`);
  writeFileSync(zip, catalogZip(catalogA, '00', date));
  const out = join(dir, `${name}.msgpack`);
  await run(process.execPath, [CLI, 'build', '--source', zip, '--out', out]);
  return out;
}

describe('a refresh never goes back in time', () => {
  it('says which dates go back', () => {
    expect(backInTime('2018-01-15T10:30:00', '2001-06-01T09:00:00')).toBe('older');
    expect(backInTime('2018-01-15T10:30:00', null)).toBe('undated');
    expect(backInTime('2018-01-15T10:30:00', '2018-01-15T10:30:00')).toBeUndefined();
    expect(backInTime('2018-01-15T10:30:00', '2019-03-01T08:00:00')).toBeUndefined();
    expect(backInTime(null, '2001-06-01T09:00:00')).toBeUndefined();
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(datedAhead('2026-11-28T12:00:00Z', now)).toBe(false);
    expect(datedAhead('2099-01-01T00:00:00Z', now)).toBe(true);
    expect(datedAhead(null, now)).toBe(false);
  });

  it('refuses a catalog dated 2001 over one of 2018, writes nothing, and takes a newer one', async () => {
    const replica = await CorreosReplica.start({ catalog: catalogB });
    replicas.push(replica);
    replica.zipFor = (state) => catalogZip(catalogB, state, dates.older);
    const data = await served('served', dates.served);
    const before = readFileSync(data);
    const server = await startServer(['--data', data, '--refresh-every', '1s', '--page-url', replica.pageUrl]);
    try {
      const [refused] = await everyWorker(server.url, 1, (h) => h.lastRefresh?.result === 'refused', 'the older catalog refused');
      expect(refused!.lastRefresh!.reason).toMatch(/^the downloaded catalog is dated 2001-06-01T09:00:00, before the catalog served \(2018-01-15T10:30:00\): a refresh never goes back in time \(--allow-older takes it\); still serving build [0-9a-f]{8}$/);
      expect(refused!.catalogDate).toMatch(/^2018-01-15/);
      await outputMatches(server, /refresh refused: the downloaded catalog is dated 2001-06-01.*--allow-older takes it.*; the catalog served is kept/);
      expect(readFileSync(data).equals(before)).toBe(true);

      // Dated ahead of the clock: refused too, or every true catalog after it would look older.
      replica.zipFor = (state) => catalogZip(catalogB, state, new Date(2099, 0, 1));
      await everyWorker(server.url, 1, (h) => h.lastRefresh?.result === 'refused' && /dated 2099-01-01.*ahead of this machine's clock/.test(h.lastRefresh.reason ?? ''), 'the catalog dated 2099 refused');
      expect(readFileSync(data).equals(before)).toBe(true);

      replica.zipFor = (state) => catalogZip(catalogB, state, dates.newer);
      const [swapped] = await everyWorker(server.url, 1, (h) => h.lastRefresh?.result === 'swapped', 'the newer catalog swapped in');
      expect(swapped!.lastRefresh!.reason).toBeNull();
      expect((await healthOf(server.url)).catalogDate).toMatch(/^2019-03-01/);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('with --allow-older, takes it and says so', async () => {
    const replica = await CorreosReplica.start({ catalog: catalogB });
    replicas.push(replica);
    replica.zipFor = (state) => catalogZip(catalogB, state, dates.older);
    const data = await served('allowed', dates.served);
    const server = await startServer(['--data', data, '--refresh-every', '1s', '--allow-older', '--page-url', replica.pageUrl]);
    try {
      const [swapped] = await everyWorker(server.url, 1, (h) => h.lastRefresh?.result === 'swapped' && /^2001-06-01/.test(h.catalogDate ?? ''), 'the older catalog taken');
      expect(swapped!.lastRefresh!.reason).toBe('taken with --allow-older: the downloaded catalog is dated 2001-06-01T09:00:00, before the catalog served (2018-01-15T10:30:00)');
      await outputMatches(server, /refresh: wrote a new catalog \(15 codes, 0 of the served ones gone\), taken with --allow-older: the downloaded catalog is dated 2001-06-01/);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('--allow-older goes with --refresh-every', () => {
    const result = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--allow-older'], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toMatch(/--allow-older goes with --refresh-every/);
    expect(result.status).toBe(2);
  });
});
