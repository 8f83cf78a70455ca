/**
 * Issue 32 item 5: the catalog's age was shown only by `cpmx status`. `cpmx build`, `cpmx serve`
 * and `createClient()` now say once, when the catalog is more than a year old, the command that
 * refreshes it (stderr; a process warning with code CPMX_OLD_CATALOG); never in browsers, never
 * twice in a process; CPMX_NO_AGE_WARNING=1 silences it. And `infoCp(9810)` (a number) gives the
 * command line's hint for a code that lost its leading zero.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact } from '../../build/build.js';
import { OLD_CATALOG_DAYS, oldCatalogMessage } from '../../src/client/old-catalog.js';
import { lostLeadingZeroHint } from '../../src/core/leading-zero.js';
import { BUILD_TIME, CLI, FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { fixtureBytes, zipOf } from '../support/catalogs.js';

const dir = tempDir();
const DAY = 24 * 60 * 60 * 1000;
let oldZip: string;
let oldArtifact: string;
let freshArtifact: string;

beforeAll(async () => {
  oldZip = join(dir, 'CPdescargatxt.zip');
  writeFileSync(oldZip, zipOf({ 'CPdescarga.txt': fixtureBytes }, new Date(2020, 0, 15, 10, 30)));
  oldArtifact = join(dir, 'old.msgpack');
  await buildArtifact({ source: oldZip, out: oldArtifact, builtAt: BUILD_TIME });
  // The fixture as a text file: dated by its modification time, which a checkout makes recent.
  freshArtifact = await buildInto(FIXTURE, dir, 'fresh.msgpack');
});

const OLD = /the catalog is \d+ days old \(dated 2020-01-15\), more than a year; Correos de México updates it monthly: run `npx cpmx build --download` to refresh it \(CPMX_NO_AGE_WARNING=1 silences this warning\)/g;

/** Runs a script of the library (the compiled bundles) in a fresh Node; its stderr. */
function library(script: string, env: Record<string, string> = {}, flags: string[] = []): { status: number | null; stderr: string; stdout: string } {
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, CPMX_NO_AGE_WARNING: '', ...env } });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

function cpmx(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CPMX_NO_AGE_WARNING: '', ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the rule', () => {
  it('is more than a year, and says nothing of a catalog whose date is unknown', () => {
    const now = Date.UTC(2026, 5, 1);
    const dated = (days: number) => ({ source: { date: new Date(now - days * DAY).toISOString() } });
    expect(oldCatalogMessage(dated(OLD_CATALOG_DAYS), now)).toBeUndefined();
    expect(oldCatalogMessage(dated(OLD_CATALOG_DAYS + 1), now)).toContain(`is ${OLD_CATALOG_DAYS + 1} days old`);
    expect(oldCatalogMessage({ source: {} }, now)).toBeUndefined();
  });
});

describe('createClient()', () => {
  it('warns once per process with code CPMX_OLD_CATALOG, however many clients and bundles (ESM and CommonJS)', () => {
    const run = library(`
      import { createRequire } from 'node:module';
      import { createClient } from './dist/cpmx.js';
      process.on('warning', (w) => process.stdout.write(w.code + '\\n'));
      const path = ${JSON.stringify(oldArtifact)};
      createClient({ dataPath: path }).infoCp('09810');
      createClient({ dataPath: path, token: 'demo' });
      createRequire(import.meta.url)('./dist/cpmx.cjs').createClient({ dataPath: path });
    `);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['CPMX_OLD_CATALOG']);
    expect(run.stderr.match(OLD) ?? []).toHaveLength(1);
    expect(run.stderr).toContain('[CPMX_OLD_CATALOG] Warning: cpmx: the catalog is');
  });

  it('says nothing for a catalog under a year, in test mode, when silenced, or off the main thread', () => {
    const fresh = library(`import { createClient } from './dist/cpmx.js'; createClient({ dataPath: ${JSON.stringify(freshArtifact)} });`);
    expect(fresh.stderr).toBe('');
    const testMode = library(`import { createClient } from './dist/cpmx.js'; createClient({ dataPath: ${JSON.stringify(oldArtifact)}, token: 'pruebas' }).infoCp('09810');`);
    expect(testMode.stderr).toBe('');
    const create = `import { createClient } from './dist/cpmx.js'; createClient({ dataPath: ${JSON.stringify(oldArtifact)} });`;
    expect(library(create, { CPMX_NO_AGE_WARNING: '1' }).stderr).toBe('');
    expect(library(create, {}, ['--disable-warning=CPMX_OLD_CATALOG']).stderr).toBe('');
    const worker = library(`
      import { Worker } from 'node:worker_threads';
      const code = ${JSON.stringify(`const { createClient } = require(${JSON.stringify(join(root, 'dist', 'cpmx.cjs'))}); createClient({ dataPath: ${JSON.stringify(oldArtifact)} });`)};
      await new Promise((resolve, reject) => new Worker(code, { eval: true, execArgv: [] }).on('exit', resolve).on('error', reject));
    `);
    expect(worker.status, worker.stderr).toBe(0);
    expect(worker.stderr).toBe('');
  });

  it('is not in the browser build', () => {
    const web = readFileSync(join(root, 'dist', 'cpmx.web.js'), 'utf8');
    expect(web).not.toContain('CPMX_OLD_CATALOG');
    expect(web).not.toContain('emitWarning');
  });
});

describe('the command line', () => {
  it('cpmx build says it on stderr once it has built an old catalog, and not when silenced', () => {
    const run = cpmx(['build', '--source', oldZip, '--out', join(dir, 'built.msgpack')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.match(OLD) ?? []).toHaveLength(1);
    expect(run.stderr).toMatch(/cpmx build: warning: the catalog is/);
    expect(cpmx(['build', '--source', oldZip, '--out', join(dir, 'built.msgpack')], { CPMX_NO_AGE_WARNING: '1' }).stderr).not.toMatch(OLD);
    expect(cpmx(['build', '--source', FIXTURE, '--out', join(dir, 'built-fresh.msgpack')]).stderr).not.toContain('days old');
  });

  it('cpmx serve says it once when serving starts, with one process or several', async () => {
    for (const workers of ['1', '2']) {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--workers', workers, '--data', oldArtifact], { env: { ...process.env, CPMX_NO_AGE_WARNING: '' } });
      let stderr = '';
      let stdout = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const said = new Promise<void>((resolve, reject) => {
        const both = () => /cpmx serve: warning: the catalog is/.test(stderr) && /listening on http:/.test(stdout) && resolve();
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          both();
        });
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          both();
        });
        void exited.then(() => reject(new Error(`cpmx serve ended before listening and the warning: ${stdout}${stderr}`)));
      });
      await said;
      child.kill('SIGTERM');
      await exited;
      expect(stdout, `--workers ${workers}`).toMatch(/listening on http:/);
      expect(stderr.match(OLD) ?? [], `--workers ${workers}: ${stderr}`).toHaveLength(1);
    }
  });

  it('other commands say nothing of the age (their output is their own): lookups, validate, parse', () => {
    for (const args of [['info_cp', '09810'], ['get_estados'], ['validate', join(root, 'test', 'fixtures', 'addresses.csv'), '--quiet']]) {
      const run = cpmx([...args, '--data', oldArtifact]);
      expect(run.stderr, args.join(' ')).not.toContain('days old');
    }
  });
});

describe('a postal code passed as a number', () => {
  it('infoCp(9810) answers 102 as ever, and warns once with the command line\'s hint', () => {
    const run = library(`
      import { createClient } from './dist/cpmx.js';
      process.on('warning', (w) => process.stdout.write(w.code + '\\n'));
      const client = createClient({ dataPath: ${JSON.stringify(freshArtifact)} });
      const answers = [client.infoCp(9810), client.infoCp(9810, { type: 'simplified' }), client.getColoniaPorCp(9810), client.infoCp('9810'), client.infoCp(9999)];
      process.stdout.write(answers.map((a) => a.code_error).join(',') + '\\n');
    `);
    expect(run.status, run.stderr).toBe(0);
    // A warning event comes on a later tick than the line written at once.
    expect(run.stdout.trim().split('\n').sort()).toEqual(['102,102,102,102,102', 'CPMX_CP_NUMBER']);
    expect(run.stderr).toContain(`[CPMX_CP_NUMBER] Warning: cpmx: infoCp(9810): ${lostLeadingZeroHint('09810', "pass postal codes as text: '09810'")}`);
    const cli = cpmx(['info_cp', '9810', '--data', freshArtifact]);
    expect(cli.stderr).toBe(`cpmx: ${lostLeadingZeroHint('09810', 'cpmx info_cp 09810')}\n`);
  });

  it('says nothing for a string, in test mode, or when the 5-digit code does not exist', () => {
    const run = library(`
      import { createClient } from './dist/cpmx.js';
      createClient({ dataPath: ${JSON.stringify(freshArtifact)} }).infoCp('9810');
      createClient({ dataPath: ${JSON.stringify(freshArtifact)} }).infoCp(9999);
      createClient({ token: 'pruebas' }).infoCp(9810);
    `);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
  });
});
