/**
 * `cpmx serve --workers 2` swaps catalogs under load: two fixture catalogs in the official
 * format, built with `cpmx build`, where a code's answer differs, are swapped several times, by
 * renaming over the file, by rewriting it, and by SIGHUP; damaged and foreign files are refused.
 * A real keep-alive client counts every response: none may fail, and each must be wholly one
 * catalog's (its body that catalog's answer, its ETag naming that catalog). Every wait is on a
 * condition: /health of both workers, or the load's own progress.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, tempDir } from '../helpers.js';
import { keepAliveLoad, type KeepAliveLoad, type Reply } from '../support/keep-alive-load.js';
import { outputMatches, startServer, stopServer, type Started } from '../support/serve.js';
import { everyWorker, type WorkerHealth } from '../support/worker-health.js';

const run = promisify(execFile);

/** The code whose answer differs between the two catalogs, and paths answered by both. */
const CHANGED = '/query/info_cp/01000?token=recarga&type=simplified';
const PATHS = [CHANGED, '/query/info_cp/03100?token=recarga', '/query/get_colonia_por_cp/01000?token=recarga', '/query/get_cp_por_estado/Ciudad%20de%20M%C3%A9xico?token=recarga'];

const dir = tempDir();
const served = join(dir, 'serving', 'catalog.msgpack');
const elsewhere = join(dir, 'elsewhere', 'catalog.msgpack');
let bytesA: Buffer;
let bytesB: Buffer;
let server: Started;
let load: KeepAliveLoad;

/** Builds `text` (Latin-1 bytes, the official format) with `cpmx build` and returns the artifact's bytes. */
async function built(name: string, text: Buffer): Promise<Buffer> {
  const source = join(dir, `${name}.txt`);
  writeFileSync(source, text);
  await run(process.execPath, [CLI, 'build', '--source', source, '--out', join(dir, `${name}.msgpack`)]);
  return readFileSync(join(dir, `${name}.msgpack`));
}

/** Replaces `path` by renaming a new file over it. */
function renameOver(path: string, bytes: Buffer | string): void {
  writeFileSync(`${path}.next`, bytes);
  renameSync(`${path}.next`, path);
}

/** Resolves once both workers' /health satisfy `condition`; the last one seen of each. */
const bothWorkers = (condition: (health: WorkerHealth) => boolean, what: string) => everyWorker(server.url, 2, condition, what);

/** The answers of every path from one connection, while one catalog is served by both workers. */
async function answers(): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const path of PATHS) bodies.set(path, await (await fetch(server.url + path, { headers: { connection: 'close' } })).text());
  return bodies;
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');

beforeAll(async () => {
  const fixture = readFileSync(FIXTURE).toString('latin1');
  expect(fixture).toContain('01000|San Ángel|');
  bytesA = await built('a', latin1(fixture));
  bytesB = await built('b', latin1(fixture.replace('01000|San Ángel|', '01000|San Ángel Norte|')));
  mkdirSync(join(dir, 'serving'));
  mkdirSync(join(dir, 'elsewhere'));
  writeFileSync(served, bytesA);
  server = await startServer(['--workers', '2', '--data', served]);
}, 60_000);

afterAll(async () => {
  await load?.stop();
  if (server) await stopServer(server);
});

describe('cpmx serve --workers 2 reloading under load', () => {
  it('swaps by rename, rewrite and SIGHUP with no failed or mixed answer, and refuses bad files while the old catalog serves', async () => {
    // Catalog A everywhere, its answers as the reference.
    const [a] = await bothWorkers((h) => h.buildId !== null, 'a catalog loaded');
    const idA = a!.buildId!;
    const shaA = a!.header!.source.sha256;
    expect(idA).toMatch(/^[0-9a-f]{8}$/);
    expect(a!.catalogDate).toMatch(/^\d{4}-\d\d-\d\d/);
    expect(typeof a!.catalogAgeDays).toBe('number');
    expect(a!.builtAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(a!.loadedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const bodies = new Map<string, Map<string, string>>([[shaA.slice(0, 16), await answers()]]);
    load = keepAliveLoad(server.url, PATHS, 8);
    await load.more(200);

    // 1. B renamed over the file.
    renameOver(served, bytesB);
    const [b] = await bothWorkers((h) => h.buildId !== idA && h.lastReload?.trigger === 'file' && h.lastReload.result === 'swapped', 'B swapped in by rename');
    const idB = b!.buildId!;
    const shaB = b!.header!.source.sha256;
    expect(shaB).not.toBe(shaA);
    bodies.set(shaB.slice(0, 16), await answers());
    expect(bodies.get(shaA.slice(0, 16))!.get(CHANGED)).toContain('"San Ángel"');
    expect(bodies.get(shaB.slice(0, 16))!.get(CHANGED)).toContain('"San Ángel Norte"');
    await load.more(200);

    // 2. A written over the file in place (a reader may catch it half-written: refused, then read whole).
    writeFileSync(served, bytesA);
    await bothWorkers((h) => h.buildId === idA, 'A swapped in by rewriting the file');
    await load.more(200);

    // 3. A damaged file (one payload byte changed) renamed over it: refused, A keeps answering.
    const damaged = Buffer.from(bytesA);
    damaged[damaged.length - 7]! ^= 0xff;
    renameOver(served, damaged);
    const refused = await bothWorkers((h) => h.lastReload?.result === 'refused', 'the damaged file refused');
    for (const worker of refused) {
      expect(worker.buildId).toBe(idA);
      expect(worker.lastReload!.reason).toMatch(/damaged \((its checksum|page \d+ of \d+|the table of page checksums) does not match/);
    }
    await outputMatches(server, /catalog reload \(file\) refused: .*damaged.*still serving build/, 2);
    let from = load.replies.length;
    await load.more(200);
    expect(catalogsOf(load.replies.slice(from), bodies)).toEqual([shaA.slice(0, 16)]);

    // 4. The path becomes a symlink to a file elsewhere (B): replacing the link is seen.
    writeFileSync(elsewhere, bytesB);
    symlinkSync(elsewhere, `${served}.link`);
    renameSync(`${served}.link`, served);
    await bothWorkers((h) => h.buildId === idB, 'B swapped in by replacing the link');

    // 5. SIGHUP: the file the link points to is replaced and the primary signalled (the signal comes before the next look at the path).
    renameOver(elsewhere, bytesA);
    server.child.kill('SIGHUP');
    await bothWorkers((h) => h.buildId === idA && h.lastReload?.trigger === 'SIGHUP' && h.lastReload.result === 'swapped', 'A swapped in by SIGHUP');
    await load.more(200);
    renameOver(elsewhere, bytesB);
    server.child.kill('SIGHUP');
    await bothWorkers((h) => h.buildId === idB && h.lastReload?.trigger === 'SIGHUP' && h.lastReload.result === 'swapped', 'B swapped in by SIGHUP');
    await load.more(200);

    // 6. A file of another format (the catalog's text), by SIGHUP: refused, B keeps answering.
    renameOver(elsewhere, readFileSync(FIXTURE));
    server.child.kill('SIGHUP');
    const foreign = await bothWorkers((h) => h.lastReload?.trigger === 'SIGHUP' && h.lastReload.result === 'refused', 'the foreign file refused');
    for (const worker of foreign) {
      expect(worker.buildId).toBe(idB);
      expect(worker.lastReload!.reason).toMatch(/not a cpmx artifact/);
    }
    from = load.replies.length;
    await load.more(200);
    expect(catalogsOf(load.replies.slice(from), bodies)).toEqual([shaB.slice(0, 16)]);

    const replies = await load.stop();
    const failed = replies.filter((reply) => reply.status !== 200);
    expect(failed.slice(0, 5)).toEqual([]);
    // Each answer wholly one catalog's: its ETag names the catalog whose answer its body is.
    const mixed = replies.filter((reply) => bodies.get(etagCatalog(reply))?.get(reply.path) !== reply.body);
    expect(mixed.slice(0, 5)).toEqual([]);
    const seen = catalogsOf(replies, bodies);
    expect(seen.sort()).toEqual([shaA.slice(0, 16), shaB.slice(0, 16)].sort());
    expect(replies.length).toBeGreaterThan(1600);
    expect(server.output()).not.toMatch(/died/);
  }, 120_000);
});

/** The catalog an ETag names: the first 16 hex digits of its source's sha256 (conditional.ts). */
function etagCatalog(reply: Reply): string {
  return /^"([0-9a-f]{16})\./.exec(reply.etag ?? '')?.[1] ?? 'none';
}

/** The catalogs that answered `replies`, checked against their bodies. */
function catalogsOf(replies: Reply[], bodies: Map<string, Map<string, string>>): string[] {
  const catalogs = new Set<string>();
  for (const reply of replies) {
    const catalog = etagCatalog(reply);
    expect(bodies.get(catalog)?.get(reply.path), `${reply.path} answered ${reply.status} ${reply.etag}: ${reply.body.slice(0, 200)}`).toBe(reply.body);
    catalogs.add(catalog);
  }
  return [...catalogs];
}
