/**
 * `cpmx export web DIR` deletes only what an export wrote, told by what it is (issue 37, items
 * 1 and 5): a folder, a symlink or a file of the user's named like a tree file stops the export
 * with nothing deleted; runs at the same time into one new folder leave one whole tree, and
 * the others say so with exit status 75, never a stack trace.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExportRaceError, stageWebTree } from '../../build/web-write.js';
import { webTree } from '../../build/web-tree.js';
import { crc32 } from '../../src/core/crc32.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { exportWeb } from '../support/web.js';

const dir = tempDir();
let artifact: string;

beforeAll(async () => {
  artifact = await buildInto(FIXTURE, dir, 'mini.msgpack');
});

/** A previous export at `name`, for a test to add to. */
function previousExport(name: string): string {
  const target = join(dir, name);
  expect(exportWeb(artifact, target).status).toBe(0);
  return target;
}

/** Every file of the tree is whole: each hashed name is its bytes' CRC-32, and the manifest names files that are there. */
function expectWholeTree(target: string): void {
  const names = readdirSync(target);
  const manifest = JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8'));
  expect(manifest.format).toBe('cpmx-web');
  for (const name of names) {
    const hashed = /\.([0-9a-f]{8})\.json$/.exec(name);
    if (hashed) expect(crc32(readFileSync(join(target, name))).toString(16).padStart(8, '0'), name).toBe(hashed[1]);
  }
  for (const [digit, hash] of Object.entries(manifest.digits as Record<string, string>)) expect(names, digit).toContain(`d${digit}.${hash}.json`);
  expect(names).toContain(`e.${manifest.estados}.json`);
}

describe('export web tells an export’s files by what they are', () => {
  it('refuses a folder named like a tree file inside a previous export, and deletes nothing', () => {
    const target = previousExport('with-folder');
    const backup = join(target, 'backup.0badf00d.json');
    mkdirSync(backup);
    writeFileSync(join(backup, 'thesis.tex'), 'years of work');
    const run = exportWeb(artifact, target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/is not a previous export \(it holds backup\.0badf00d\.json \(a folder\)\); nothing was written/);
    expect(readFileSync(join(backup, 'thesis.tex'), 'utf8')).toBe('years of work');
    expect(readdirSync(dir).filter((name) => name.includes('.cpmx-'))).toEqual([]);
  });

  it('refuses a symlink named like a tree file, and never follows it', () => {
    const target = previousExport('with-link');
    const mine = join(dir, 'mine.json');
    writeFileSync(mine, '{"mine":true}');
    symlinkSync(mine, join(target, 'c999.json'));
    const linkedFolder = join(dir, 'linked-folder');
    mkdirSync(linkedFolder);
    writeFileSync(join(linkedFolder, 'keep'), 'mine');
    symlinkSync(linkedFolder, join(target, 'e.0badf00d.json'));
    const run = exportWeb(artifact, target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/c999\.json \(a symbolic link\)/);
    expect(run.stderr).toMatch(/e\.0badf00d\.json \(a symbolic link\)/);
    expect(readFileSync(mine, 'utf8')).toBe('{"mine":true}');
    expect(readFileSync(join(linkedFolder, 'keep'), 'utf8')).toBe('mine');
  });

  it('refuses a file named like a tree file whose bytes are not one, and a foreign manifest', () => {
    const target = previousExport('with-file');
    writeFileSync(join(target, 'notes.0badf00d.json'), '{"my":"notes"}');
    writeFileSync(join(target, 'c999.json'), '{"no":"hashed twin"}');
    const run = exportWeb(artifact, target);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/notes\.0badf00d\.json \(its bytes are not a tree file’s\)/);
    expect(run.stderr).toMatch(/c999\.json \(its bytes are not a tree file’s\)/);
    expect(readFileSync(join(target, 'notes.0badf00d.json'), 'utf8')).toBe('{"my":"notes"}');

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'manifest.json'), '{"name":"my web app"}');
    expect(exportWeb(artifact, app)).toMatchObject({ status: 1, stderr: expect.stringMatching(/manifest\.json \(not a cpmx web manifest\)/) });
    expect(readFileSync(join(app, 'manifest.json'), 'utf8')).toBe('{"name":"my web app"}');
  });

  it('keeps a killed run’s leftover folder that holds something not an export’s, and removes one that holds only tree files', () => {
    const target = previousExport('leftovers');
    const users = join(dir, '.leftovers.cpmx-old-999999999');
    mkdirSync(users);
    writeFileSync(join(users, 'diary.txt'), 'mine');
    const killed = join(dir, '.leftovers.cpmx-new-999999998-1');
    mkdirSync(killed);
    writeFileSync(join(killed, 'k9.00000000.json'), '');
    const run = exportWeb(artifact, target);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/cpmx-old-999999999 was left by an export that did not finish and holds something not an export's: kept/);
    expect(readFileSync(join(users, 'diary.txt'), 'utf8')).toBe('mine');
    expect(existsSync(killed)).toBe(false);
  });
});

describe('exports at the same time into one new folder', () => {
  it('the one that swaps second stops with ExportRaceError, its folder removed, the first tree whole', () => {
    const target = join(dir, 'raced');
    const catalog = loadCatalog(artifact);
    const tree = webTree(catalog, catalog.header);
    const first = stageWebTree(target, tree);
    const second = stageWebTree(target, tree);
    first.swap();
    expect(() => second.swap()).toThrow(ExportRaceError);
    expect(() => second.swap()).toThrow(/was written by another export running at the same time; this one wrote nothing/);
    expectWholeTree(target);
    expect(readdirSync(dir).filter((name) => name.startsWith('.raced.'))).toEqual([]);
  });

  it('the CLI runs that lose exit 75 with one line, never a stack trace; one whole tree stands', async () => {
    const target = join(dir, 'concurrent');
    const runs = await Promise.all(Array.from({ length: 6 }, () => runExport(target)));
    for (const run of runs) {
      expect([0, 75], run.stderr).toContain(run.status);
      expect(run.stderr).not.toMatch(/\n\s+at |ENOTEMPTY|Error:/);
      if (run.status === 75) expect(run.stderr).toMatch(/^cpmx export web: .*concurrent was (written|being replaced) by another export running at the same time; this one wrote nothing \(its tree stands\): run it again to replace that tree\n$/);
    }
    expect(runs.some((run) => run.status === 0)).toBe(true);
    expectWholeTree(target);
    expect(readdirSync(dir).filter((name) => name.startsWith('.concurrent.'))).toEqual([]);
  });
});

function runExport(target: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, 'export', 'web', target, '--data', artifact], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => done({ status, stderr }));
  });
}
