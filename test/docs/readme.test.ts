/**
 * The README is a front door read in minutes: at most 250 lines, the install and a first
 * answer (command line, library, HTTP) on its first screen of 60 lines, the two ways in said
 * there too; and no page tells anyone to fetch a package called cpmx from the registry, which
 * does not publish it (someone else could take the name).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers.js';
import { codeBlocksOf, documentationPages, readPage } from './markdown.js';

const readme = readPage('README.md');
const firstScreen = readme.split('\n').slice(0, 60).join('\n');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

describe('README.md', () => {
  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('installs on its first screen: the tarball of this version, and the catalog with the way around a failed download', () => {
    expect(firstScreen).toContain(`npm install ../cpmx/cpmx-${version}.tgz`);
    expect(firstScreen).toContain('npm run tarball');
    expect(firstScreen).toContain('cpmx build --download');
    expect(firstScreen).toMatch(/cpmx build --source CPdescargatxt\.zip/);
  });

  it('says the two ways in on its first screen', () => {
    expect(firstScreen).toMatch(/## Two ways in/);
    expect(firstScreen).toMatch(/\*\*use\*\*.*tarball/);
    expect(firstScreen).toMatch(/\*\*develop\*\*.*clone/);
  });

  it('gives a first answer from the command line, the library and HTTP on its first screen', () => {
    const blocks = codeBlocksOf('README.md', firstScreen);
    expect(blocks.some((block) => block.language === 'sh' && /cpmx info_cp 09810/.test(block.code))).toBe(true);
    expect(blocks.some((block) => block.language === 'js' && /createClient\(/.test(block.code))).toBe(true);
    expect(blocks.some((block) => block.language === 'sh' && /curl .*\/query\/info_cp\//.test(block.code))).toBe(true);
  });
});

describe('install lines', () => {
  it('never fetch a package called cpmx from the registry, nor name a repository that is not there', () => {
    const wrong: string[] = [];
    for (const page of documentationPages()) {
      readPage(page)
        .split('\n')
        .forEach((line, index) => {
          if (/npm (?:install|i|add)(?:\s+[-\w@./:]+)*?\s+cpmx(?:@[\w.^~-]+)?(?=[\s`'"]|$)/.test(line) || /npx\s+(-y\s+)?-p\s+cpmx\b/.test(line) || /npx\s+-y\s+cpmx\b/.test(line) || /git\+<|<the repository/.test(line)) wrong.push(`${page}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(wrong).toEqual([]);
  });

  it('package.json names no repository, so no page can point a git install at a placeholder', () => {
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).not.toHaveProperty('repository');
  });
});
