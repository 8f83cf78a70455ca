/**
 * The README's install line works today: the tarball `npm run tarball` makes (scripts/pack.mjs,
 * packed as test/embed/package.test.ts packs it), put where the README's line expects it, installed
 * by that very line into an empty app, from the npm cache where it can (--prefer-offline, as
 * test/embed/package.test.ts installs); then the README's first answers (its command line and
 * library blocks) run in that app as a user would run them, and print what the README shows.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { packTarball } from '../support/packed.js';
import { codeBlocksOf, readPage } from './markdown.js';

const blocks = codeBlocksOf('README.md', readPage('README.md'));
const installLine = blocks.flatMap((block) => block.code.split('\n')).find((line) => /npm install \S+\.tgz/.test(line));

const dir = tempDir();
const clone = join(dir, 'cpmx');
const app = join(dir, 'my-app');
const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CPMX_') && name !== 'NODE_OPTIONS'));

function bash(script: string, cwd: string, extra: Record<string, string> = {}) {
  return spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, encoding: 'utf8', env: { ...environment, ...extra } });
}

let tarball: string;
beforeAll(() => {
  mkdirSync(clone);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', type: 'module', private: true }));
  ({ tarball } = packTarball(clone));
}, 180_000);

describe("the README's install line", () => {
  it('names the tarball npm run tarball makes', () => {
    expect(installLine, 'a line of the README that installs a .tgz').toBeDefined();
    expect(installLine).toContain(basename(tarball));
  });

  it('installs it into an app from the npm cache (as test/embed/package.test.ts does), run as written from the clone', () => {
    const command = installLine!.replace(/\s+#.*$/, '');
    const installed = bash(command, clone, { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
    expect(installed.status, `${command}\n${installed.stdout}${installed.stderr}`).toBe(0);
    const listed = spawnSync('npm', ['ls', '--all', '--parseable'], { cwd: app, encoding: 'utf8' });
    expect(listed.stdout.trim().split('\n').slice(1).map((path) => basename(path)).sort()).toEqual(['cpmx', 'csv-parse', 'fastest-levenshtein']);
  }, 120_000);

  it("then answers the README's first command line and library blocks in the app", () => {
    const first = blocks.filter((block) => block.notRun === undefined && (block.language === 'sh' || block.language === 'js'));
    expect(first.length).toBeGreaterThanOrEqual(2);
    for (const block of first) {
      if (block.language === 'js') writeFileSync(join(app, 'first.mjs'), block.code);
      const run = block.language === 'sh' ? bash(block.code, app) : spawnSync(process.execPath, [join(app, 'first.mjs')], { cwd: app, encoding: 'utf8', env: environment });
      expect(run.status, `README.md:${block.line}\n${block.code}\n${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/Iztapalapa/);
      // The output the README shows right after a command is the output it gives.
      const shown = blocks[blocks.indexOf(block) + 1];
      if (block.language === 'sh' && shown?.language === 'json') expect(JSON.parse(run.stdout), `README.md:${shown.line}`).toEqual(JSON.parse(shown.code));
    }
  }, 120_000);
});
