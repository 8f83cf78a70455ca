/**
 * `cpmx serve --refresh-every` against the local replica of the Correos download page: the same
 * catalog is `unchanged`, a new one is downloaded, built, written over --data and swapped in; a
 * truncated catalog is refused by --max-loss, a damaged zip by the download's checks, a catalog
 * without rows by the build, and a replica that is down is logged; each keeps the catalog served,
 * and /health and the log say why. The interval is 1 s (the shortest --refresh-every takes);
 * every wait is on /health or the log.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, tempDir } from '../helpers.js';
import { catalogZip, CorreosReplica } from '../support/correos-replica.js';
import { outputMatches, startServer, stopServer } from '../support/serve.js';
import { everyWorker, healthOf } from '../support/worker-health.js';

const run = promisify(execFile);
const dir = tempDir();
const catalogA = readFileSync(FIXTURE);
const catalogB = Buffer.from(catalogA.toString('latin1').replace('01000|San Ángel|', '01000|San Ángel Norte|'), 'latin1');
const lines = catalogB.toString('latin1').split('\r\n');
/** The notice, the header and four rows: most codes gone. */
const truncated = Buffer.from(`${lines.slice(0, 6).join('\r\n')}\r\n`, 'latin1');
/** A row whose d_codigo is no postal code: the download's checks pass it, the build refuses it. */
const badCode = Buffer.from(catalogB.toString('latin1').replace('\r\n03100|', '\r\n31OO0|'), 'latin1');
const CHANGED = '/query/info_cp/01000?token=refresco&type=simplified';

const replicas: CorreosReplica[] = [];
afterAll(async () => {
  for (const replica of replicas) await replica.close().catch(() => undefined);
});

/** An artifact built with `cpmx build` from the zip the replica serves for `catalog`, at `name`. */
async function builtFromReplicaZip(catalog: Buffer, name: string): Promise<string> {
  const zip = join(dir, `${name}.zip`);
  writeFileSync(zip, catalogZip(catalog, '00'));
  const out = join(dir, `${name}.msgpack`);
  await run(process.execPath, [CLI, 'build', '--source', zip, '--out', out]);
  return out;
}

async function answer(url: string): Promise<string> {
  return (await fetch(url + CHANGED, { headers: { connection: 'close' } })).text();
}

describe('cpmx serve --refresh-every', () => {
  it.each([2, 1])('with %i worker(s): refreshes from the replica, refuses what fails a check, and keeps serving when the page is down', async (workers) => {
    const replica = await CorreosReplica.start({ catalog: catalogA });
    replicas.push(replica);
    const data = await builtFromReplicaZip(catalogA, `served-${workers}`);
    const server = await startServer(['--workers', String(workers), '--data', data, '--refresh-every', '1s', '--page-url', replica.pageUrl]);
    try {
      const every = (condition: Parameters<typeof everyWorker>[2], what: string) => everyWorker(server.url, workers, condition, what);
      const [first] = await every((h) => h.lastRefresh?.result === 'unchanged', 'the same catalog found unchanged');
      const idA = first!.buildId!;
      expect(first!.lastRefresh!.nextAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await answer(server.url)).toContain('"San Ángel"');

      // A new catalog: downloaded, built, written over --data and swapped in everywhere.
      replica.zipFor = (state) => catalogZip(catalogB, state);
      const swapped = await every((h) => h.buildId !== idA && h.lastRefresh?.result === 'swapped', 'the new catalog swapped in');
      const idB = swapped[0]!.buildId!;
      expect(swapped[0]!.lastRefresh).toMatchObject({ codes: 15, lost: 0, reason: null });
      expect(swapped.every((h) => h.buildId === idB)).toBe(true);
      expect(await answer(server.url)).toContain('"San Ángel Norte"');
      await outputMatches(server, /refresh: wrote a new catalog \(15 codes, 0 of the served ones gone\)/);
      const written = readFileSync(data);

      if (workers === 1) return;
      // Truncated: refused by --max-loss (default 1%).
      replica.zipFor = (state) => catalogZip(truncated, state);
      const lossy = await every((h) => h.lastRefresh?.result === 'refused' && /--max-loss/.test(h.lastRefresh.reason ?? ''), 'the truncated catalog refused');
      expect(lossy[0]!.lastRefresh!.reason).toMatch(/lacks \d+ of the 15 codes served \(\d+\.\d%\), more than --max-loss 1\.0%/);
      expect(lossy.every((h) => h.buildId === idB)).toBe(true);
      await outputMatches(server, /refresh refused: the downloaded catalog lacks .*; the catalog served is kept/);

      // A damaged zip: refused by the download's checks.
      replica.zipFor = (state) => {
        const zip = catalogZip(catalogB, state);
        zip[60]! ^= 0xff;
        return zip;
      };
      await every((h) => h.lastRefresh?.result === 'refused' && /^download from/.test(h.lastRefresh.reason ?? ''), 'the damaged zip refused');

      // A row the build refuses.
      replica.zipFor = (state) => catalogZip(badCode, state);
      await every((h) => h.lastRefresh?.result === 'refused' && /cannot be built: d_codigo "31OO0" is not a 5-digit postal code \(line \d+\)/.test(h.lastRefresh.reason ?? ''), 'the catalog the build refuses');

      // The page down: the failure is logged and shown; the catalog served stays.
      await replica.close();
      const down = await every((h) => h.lastRefresh?.result === 'failed', 'the failed download shown');
      expect(down[0]!.lastRefresh!.reason).toMatch(new RegExp(`^download from ${replica.pageUrl.replace(/[.?]/g, '\\$&')}`));
      await outputMatches(server, /refresh failed: download from .*; the catalog served is kept/);
      expect(readFileSync(data).equals(written)).toBe(true);
      expect((await healthOf(server.url)).buildId).toBe(idB);
      expect(await answer(server.url)).toContain('"San Ángel Norte"');
    } finally {
      await stopServer(server);
    }
  }, 120_000);

  it.each([
    [['--refresh-every', '5x'], /--refresh-every takes a duration: a number and a unit, s, m, h or d \(30m, 6h, 1d, 1h30m\), got "5x"/],
    [['--refresh-every', '25d'], /--refresh-every must be from 1s to 24d, got "25d"/],
    [['--refresh-every', '1d', '--max-loss', '150%'], /--max-loss takes a share of the codes served, from 0 to 1 or 0% to 100%/],
    [['--max-loss', '5%'], /--max-loss goes with --refresh-every/],
    [['--refresh-every', '1d', '--data', '/dev/null'], /--refresh-every writes the refreshed artifact over the one served: \/dev\/null is not a regular file/],
  ])('refuses %j with a clear usage error', (args, message) => {
    const result = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toMatch(message);
    expect(result.status).toBe(2);
  });
});
