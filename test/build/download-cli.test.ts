/**
 * `cpmx download` and `cpmx build --download` as a user runs them, against the local replica of
 * the official export page (the live site is not reachable from the test machines): the good
 * zip, a page that changed shape, an HTML error instead of the zip, a silent site, a cut
 * connection retried, an unreachable site, and Ctrl-C. Every wait is on an event.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { buildInto, CLI, FIXTURE, root, tempDir } from '../helpers.js';
import { contentOf } from '../support/catalogs.js';
import { catalogZip, CorreosReplica, errorPage, type Answer } from '../support/correos-replica.js';

const dir = tempDir();
const catalog = readFileSync(FIXTURE);
let replica: CorreosReplica;
let outs = 0;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child, asynchronously: the replica answers from this process meanwhile. */
function start(args: string[], options: { bin?: string; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [options.bin ?? CLI, ...args], { env: { ...process.env, CPMX_DOWNLOAD_PAGE: '', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done: Promise<Run> = once(child, 'close').then(([status]) => ({ status: status as number | null, stdout, stderr }));
  return { child, done };
}

const run = (args: string[], options: { bin?: string; env?: Record<string, string> } = {}) => start(args, options).done;

/** A fresh output path in its own directory, so leftovers can be listed. */
function freshOut(): string {
  const folder = join(dir, `out-${++outs}`);
  mkdirSync(folder);
  return join(folder, 'CPdescargatxt.zip');
}

const download = (out: string, ...extra: string[]) => ['download', '--out', out, '--page-url', replica.pageUrl, '--retries', '0', ...extra];

/** What every failure the site causes ends with: the way to do it by hand. */
const BY_HAND = /To download the catalog by hand: open .* in a browser, choose "Todos" \(or one state\) and the format "Txt", press the download button and save CPdescargatxt\.zip, then run: cpmx build --source CPdescargatxt\.zip/;

beforeAll(async () => {
  replica = await CorreosReplica.start({ catalog });
});
afterAll(() => replica.close());
afterEach(() => replica.reset());

describe('cpmx download', () => {
  it('writes the zip the site served, says what it wrote, and draws no progress off a terminal', async () => {
    const out = freshOut();
    const result = await run(download(out));
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(out).equals(replica.served.at(-1)!)).toBe(true);
    expect(result.stderr).toContain(`cpmx download: ${replica.pageUrl} -> ${out}`);
    expect(result.stderr).not.toContain('\r');
    expect(result.stdout).toContain(`cpmx download: wrote ${out}`);
    expect(result.stdout).toMatch(new RegExp(`CPdescarga\\.txt: ${catalog.length.toLocaleString('en-US')} bytes, dated 2026-01-15`));
    expect(replica.posts()[0]!.form!.get('cboEdo')).toBe('00');
  });

  it('downloads one state with --state, and refuses a key that is not two digits (exit 2)', async () => {
    const out = freshOut();
    expect((await run(download(out, '--state', '09'))).status).toBe(0);
    expect(replica.posts().at(-1)!.form!.get('cboEdo')).toBe('09');
    const bad = await run(download(freshOut(), '--state', '9'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--state takes a state key of two digits, 01 to 32 (00 for all), got "9"');
  });

  it('a page that changed shape: exit 1, what is missing, how to download by hand, nothing written', async () => {
    const page = replica.page;
    replica.page = () => '<html><head><title>Consulta de Códigos Postales</title></head><body><p>Nuevo portal</p></body></html>';
    try {
      const out = freshOut();
      const result = await run(download(out));
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/cpmx download: failed: the download page .* \("Consulta de Códigos Postales"\) has no form; its form may have changed/);
      expect(result.stderr).toMatch(BY_HAND);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(join(out, '..'))).toEqual([]);
    } finally {
      replica.page = page;
    }
  });

  it('an HTML error page instead of the zip: exit 1, the page named, nothing written, an older file kept', async () => {
    replica.override('POST', (_request, response) => errorPage(response, 200, 'Lo sentimos, ocurrió un error'));
    const out = freshOut();
    writeFileSync(out, 'the zip downloaded last month');
    const result = await run(download(out));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/an HTML page \("Lo sentimos, ocurrió un error"\) instead of the zip/);
    expect(result.stderr).toMatch(BY_HAND);
    expect(result.stderr).toContain('Nothing was written; a file already there was left as it was.');
    expect(readFileSync(out, 'utf8')).toBe('the zip downloaded last month');
    expect(readdirSync(join(out, '..'))).toEqual(['CPdescargatxt.zip']);
  });

  it('a site that stays silent: gives up after --timeout seconds', async () => {
    replica.override('GET', () => {});
    const result = await run(download(freshOut(), '--timeout', '1'));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/sent nothing for 1000 ms/);
    expect(result.stderr).toMatch(BY_HAND);
  });

  it('a connection cut mid-zip: said, retried, then written whole', async () => {
    const zip = catalogZip(catalog, '00');
    const cut: Answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-zip-compressed', 'content-length': zip.length });
      response.write(zip.subarray(0, 200), () => response.socket?.destroy());
    };
    replica.override('POST', cut);
    const out = freshOut();
    const result = await run(['download', '--out', out, '--page-url', replica.pageUrl, '--retries', '1']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/cpmx download: attempt 1 failed \(the connection to 127\.0\.0\.1:\d+ was cut after 200 bytes of the \d+ announced\); trying again in 1\.0 s/);
    expect(readFileSync(out).equals(zip)).toBe(true);
  });

  it('an unreachable site: exit 1, why, and how to download by hand', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, 'close');
    const result = await run(['download', '--out', freshOut(), '--page-url', `http://127.0.0.1:${port}/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx`, '--retries', '0']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`cpmx download: failed: cannot reach 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    expect(result.stderr).toMatch(BY_HAND);
  });

  it('Ctrl-C stops it: exit 130, nothing written', async () => {
    replica.override('GET', () => {});
    const out = freshOut();
    const requested = once(replica, 'request');
    const { child, done } = start(download(out));
    await requested;
    child.kill('SIGINT');
    const result = await done;
    expect(result.status).toBe(130);
    expect(result.stderr).toContain('cpmx download: interrupted; nothing was written.');
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });
});

describe('cpmx build --download', () => {
  let bin: string;
  let pkg: string;

  beforeAll(() => {
    // A package of its own, so the default download place (its data/) is not this checkout's.
    pkg = join(dir, 'pkg');
    mkdirSync(pkg);
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
    bin = join(pkg, 'dist', 'cli.cjs');
  });

  it('downloads to the package data directory and builds from it, dated by the zip', async () => {
    const env = { CPMX_DOWNLOAD_PAGE: replica.pageUrl, CPMX_CATALOG: '', CPMX_DATA: '' };
    const result = await run(['build', '--download'], { bin, env });
    expect(result.status, result.stderr).toBe(0);
    const zip = join(pkg, 'data', 'CPdescargatxt.zip');
    expect(readFileSync(zip).equals(replica.served.at(-1)!)).toBe(true);
    expect(result.stderr).toContain(`reading ${zip} (--download)`);
    expect(result.stdout).toContain('catalog dated 2026-01-15T10:30:00');
    const artifact = loadCatalog(join(pkg, 'data', 'cpmx.msgpack'));
    expect(artifact.header.source).toMatchObject({ file: 'CPdescargatxt.zip', date: '2026-01-15T10:30:00', dateFrom: 'zip-entry' });
    expect(contentOf(readFileSync(join(pkg, 'data', 'cpmx.msgpack')))).toEqual(contentOf(readFileSync(await buildInto(FIXTURE, dir, 'reference.msgpack'))));

    // With --out, the download goes beside it, not into the package's data/ (node_modules, for an app).
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const untouched = readFileSync(zip);
    const state = await run(['build', '--download', '--state', '15', '--out', join(elsewhere, 'mexico.msgpack')], { bin, env });
    expect(state.status, state.stderr).toBe(0);
    expect(loadCatalog(join(elsewhere, 'mexico.msgpack')).header).toMatchObject({ states: 1, codes: 3, rows: 5 });
    expect(readFileSync(join(elsewhere, 'CPdescargatxt.zip')).equals(replica.served.at(-1)!)).toBe(true);
    expect(state.stderr).toContain(`reading ${join(elsewhere, 'CPdescargatxt.zip')} (--download)`);
    expect(readFileSync(zip).equals(untouched)).toBe(true);
  });

  it('a failed download builds nothing and keeps the artifact; options that do not go together are usage errors', async () => {
    const env = { CPMX_DOWNLOAD_PAGE: replica.pageUrl, CPMX_CATALOG: '', CPMX_DATA: '' };
    const artifact = join(pkg, 'data', 'cpmx.msgpack');
    const before = readFileSync(artifact);
    replica.override('POST', (_request, response) => errorPage(response, 503, 'Servicio no disponible'), 3);
    const failed = await run(['build', '--download'], { bin, env });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/answered HTTP 503 \("Servicio no disponible"\) \(after 3 attempts\)/);
    expect(failed.stderr).not.toContain('cpmx build: reading');
    expect(readFileSync(artifact).equals(before)).toBe(true);

    expect((await run(['build', '--download', '--source', FIXTURE], { bin, env })).stderr).toContain('--download and --source are exclusive');
    const stateAlone = await run(['build', '--state', '09'], { bin, env });
    expect(stateAlone.status).toBe(2);
    expect(stateAlone.stderr).toContain('--state goes with --download');
  });
});
