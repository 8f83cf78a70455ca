/**
 * `cpmx serve` follows the artifact by its path however it is replaced (issue 37, item 2): its
 * folder replaced again and again (`rm -rf data; mv data.new data`), the Kubernetes ConfigMap
 * layout (the file a symlink through `..data`, updated by swapping `..data`), a symlinked release
 * folder swapped (`current -> releases/N`), the path leading
 * nowhere for a while. A real server with two workers, real folders and symlinks; every wait is
 * on /health or the log, never a fixed sleep. /health's `watch` says how the file is followed
 * and what stops it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, tempDir } from '../helpers.js';
import { outputMatches, startServer, stopServer, type Started } from '../support/serve.js';
import { everyWorker, type WorkerHealth } from '../support/worker-health.js';

const run = promisify(execFile);
const dir = tempDir();
const WORKERS = 2;
let bytesA: Buffer;
let bytesB: Buffer;
let idA: string;
let idB: string;
const servers: Started[] = [];

type Health = WorkerHealth & { watch: { events: boolean; pollMs: number; problem: string | null } | null };

async function built(name: string, text: string): Promise<Buffer> {
  const source = join(dir, `${name}.txt`);
  writeFileSync(source, text, 'latin1');
  await run(process.execPath, [CLI, 'build', '--source', source, '--out', join(dir, `${name}.msgpack`)]);
  return readFileSync(join(dir, `${name}.msgpack`));
}

beforeAll(async () => {
  const fixture = readFileSync(FIXTURE).toString('latin1');
  bytesA = await built('a', fixture);
  bytesB = await built('b', fixture.replace('01000|San Ángel|', '01000|San Ángel Norte|'));
}, 60_000);

afterAll(async () => {
  for (const server of servers) await stopServer(server);
});

async function serve(data: string): Promise<{ server: Started; both: (condition: (health: Health) => boolean, what: string) => Promise<Health[]> }> {
  const server = await startServer(['--workers', String(WORKERS), '--data', data]);
  servers.push(server);
  return { server, both: (condition, what) => everyWorker(server.url, WORKERS, (h) => condition(h as Health), what) as Promise<Health[]> };
}

/** Swaps to `bytes` by writing a whole new folder beside `folder` and putting it in its place, as a deploy by directory does. */
function replaceFolder(folder: string, file: string, bytes: Buffer): void {
  mkdirSync(`${folder}.new`);
  writeFileSync(join(`${folder}.new`, file), bytes);
  rmSync(folder, { recursive: true });
  renameSync(`${folder}.new`, folder);
}

describe('cpmx serve follows the artifact by its path', () => {
  it('through its folder replaced, again and again', async () => {
    const data = join(dir, 'deploy', 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'catalog.msgpack'), bytesA);
    const { server, both } = await serve(join(data, 'catalog.msgpack'));
    const [first] = await both((h) => h.buildId !== null, 'A loaded');
    idA = first!.buildId!;
    expect(first!.watch).toEqual({ events: true, pollMs: 1000, problem: null });
    for (const [round, bytes] of [bytesB, bytesA, bytesB, bytesA].entries()) {
      const before = round % 2 === 0 ? idA : idB;
      replaceFolder(data, 'catalog.msgpack', bytes);
      const swapped = await both((h) => h.buildId !== before && h.lastReload?.trigger === 'file' && h.lastReload.result === 'swapped', `round ${round + 1}: the replaced folder's catalog swapped in`);
      if (round === 0) idB = swapped[0]!.buildId!;
      expect(swapped.every((h) => h.buildId === (round % 2 === 0 ? idB : idA) && h.watch?.problem === null)).toBe(true);
    }
    await outputMatches(server, /catalog reloaded \(file\): now serving build/, 4 * WORKERS);
  }, 60_000);

  it('through the ConfigMap layout: a symlink through ..data, updated by swapping ..data', async () => {
    const volume = join(dir, 'configmap');
    mkdirSync(join(volume, '..2026_01_01'), { recursive: true });
    writeFileSync(join(volume, '..2026_01_01', 'catalog.msgpack'), bytesA);
    symlinkSync('..2026_01_01', join(volume, '..data'));
    symlinkSync(join('..data', 'catalog.msgpack'), join(volume, 'catalog.msgpack'));
    const { both } = await serve(join(volume, 'catalog.msgpack'));
    await both((h) => h.buildId === idA, 'A loaded through ..data');
    let previous = '..2026_01_01';
    for (const [round, bytes] of [bytesB, bytesA, bytesB].entries()) {
      // What the kubelet does: a new timestamped folder, a new link renamed over ..data, the old folder removed.
      const next = `..2026_01_0${round + 2}`;
      mkdirSync(join(volume, next));
      writeFileSync(join(volume, next, 'catalog.msgpack'), bytes);
      symlinkSync(next, join(volume, '..data_tmp'));
      renameSync(join(volume, '..data_tmp'), join(volume, '..data'));
      rmSync(join(volume, previous), { recursive: true });
      previous = next;
      const want = bytes === bytesB ? idB : idA;
      await both((h) => h.buildId === want && h.lastReload?.trigger === 'file', `round ${round + 1}: ..data swapped`);
    }
  }, 60_000);

  it('through a symlinked release folder swapped (current -> releases/N)', async () => {
    const site = join(dir, 'site');
    mkdirSync(join(site, 'releases', '1'), { recursive: true });
    writeFileSync(join(site, 'releases', '1', 'catalog.msgpack'), bytesA);
    symlinkSync(join('releases', '1'), join(site, 'current'));
    const { both } = await serve(join(site, 'current', 'catalog.msgpack'));
    await both((h) => h.buildId === idA, 'A loaded through current');
    for (const [round, bytes] of [bytesB, bytesA].entries()) {
      const release = String(round + 2);
      mkdirSync(join(site, 'releases', release));
      writeFileSync(join(site, 'releases', release, 'catalog.msgpack'), bytes);
      symlinkSync(join('releases', release), join(site, 'current.next'));
      renameSync(join(site, 'current.next'), join(site, 'current'));
      const want = bytes === bytesB ? idB : idA;
      await both((h) => h.buildId === want && h.lastReload?.trigger === 'file' && h.watch?.problem === null, `release ${release} swapped in`);
    }
  }, 60_000);

  it('says when the path leads to no file, keeps serving, and follows it again when a file is there', async () => {
    const data = join(dir, 'gone', 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'catalog.msgpack'), bytesA);
    const { server, both } = await serve(join(data, 'catalog.msgpack'));
    await both((h) => h.buildId === idA, 'A loaded');
    rmSync(data, { recursive: true });
    const lost = await both((h) => /cannot be found|leads to no file/.test(h.watch?.problem ?? ''), 'the missing folder said in /health');
    expect(lost.every((h) => h.buildId === idA)).toBe(true);
    expect((await fetch(`${server.url}/query/info_cp/01000?token=demo&type=simplified`)).status).toBe(200);
    await outputMatches(server, /data cannot be found: the catalog served is kept, and .*catalog\.msgpack is read when it is there/, WORKERS);
    mkdirSync(`${data}.new`);
    writeFileSync(join(`${data}.new`, 'catalog.msgpack'), bytesB);
    renameSync(`${data}.new`, data);
    const back = await both((h) => h.buildId === idB && h.watch?.problem === null && h.watch.events, 'B swapped in once the folder is back');
    expect(back).toHaveLength(WORKERS);
    await outputMatches(server, /catalog\.msgpack is followed again/, WORKERS);
  }, 60_000);
});
