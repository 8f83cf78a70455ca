/**
 * Every relative link of README.md and docs/ leads somewhere: the file exists, and its
 * `#anchor`, when it has one, is a heading of that page as GitHub anchors it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers.js';
import { anchorsOf, documentationPages, linksOf, readPage } from './markdown.js';

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Where each link of `page` fails to lead: `line: target (why)`. */
function brokenLinks(page: string, markdown = readPage(page)): string[] {
  const broken: string[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (EXTERNAL.test(target)) continue;
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    if (path === '') {
      if (!anchorsOf(markdown).has(decodeURIComponent(anchor ?? ''))) broken.push(`${line}: ${target} (no heading of this page makes it)`);
      continue;
    }
    const file = normalize(join(dirname(page), decodeURI(path)));
    if (file.startsWith('..')) {
      broken.push(`${line}: ${target} (outside the repository)`);
      continue;
    }
    if (!existsSync(join(root, file))) {
      broken.push(`${line}: ${target} (no file ${file})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!file.endsWith('.md') || statSync(join(root, file)).isDirectory()) {
      broken.push(`${line}: ${target} (an anchor into a file that is not Markdown)`);
      continue;
    }
    if (!anchorsOf(readPage(file)).has(decodeURIComponent(anchor))) broken.push(`${line}: ${target} (no heading of ${file} makes #${anchor})`);
  }
  return broken;
}

describe('the links of the documentation', () => {
  it('finds the pages: the README and one page per door', () => {
    const pages = documentationPages();
    for (const door of ['library', 'browser', 'cli', 'serve', 'tokens', 'limits', 'reload', 'metrics', 'panel', 'validate', 'parse', 'mcp', 'contract', 'data', 'geo', 'performance', 'architecture', 'contributing']) {
      expect(pages).toContain(`docs/${door}.md`);
    }
  });

  for (const page of documentationPages()) {
    it(`${page}: every relative link and anchor resolves`, () => {
      expect(brokenLinks(page)).toEqual([]);
    });
  }
});

/** The files of the repository a page names in its text (`src/...`, `test/...`), that do not exist. */
function missingPaths(markdown: string): string[] {
  const named = [...markdown.matchAll(/(?<![\w/.-])(?:src|test|build|scripts|bench)\/[\w./-]*[\w/]/g)].map((match) => match[0]);
  // bench/work/ is what a benchmark run writes, absent until one runs.
  return [...new Set(named)].filter((path) => !path.startsWith('bench/work') && !existsSync(join(root, path)));
}

describe('the files the documentation names', () => {
  for (const page of documentationPages()) {
    it(`${page}: every src/, test/, build/, scripts/ and bench/ path it names exists`, () => {
      expect(missingPaths(readPage(page))).toEqual([]);
    });
  }

  it('finds a moved file', () => {
    expect(missingPaths('see `test/server.test.ts`, `src/core/router.ts`, dist/bench/run.js and bench/work/')).toEqual(['test/server.test.ts']);
  });
});

describe('GitHub anchors, as the links test makes them', () => {
  it('drops punctuation, keeps accents and numbers, and counts repeated headings', () => {
    const anchors = anchorsOf(
      [
        '# The contract (version 2)',
        '## Retired codes: `cpmx build --previous OLD...`',
        "## The catalog's date and age",
        '## Contraseña y Número',
        '## cpmx/web: a cold page’s first answer',
        '## Errors',
        '```sh',
        '## not a heading',
        '```',
        '## Errors',
        '## [Linked](x.md) **bold**',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'the-contract-version-2',
      'retired-codes-cpmx-build---previous-old',
      'the-catalogs-date-and-age',
      'contraseña-y-número',
      'cpmxweb-a-cold-pages-first-answer',
      'errors',
      'errors-1',
      'linked-bold',
    ]);
  });

  it('reads links outside code only', () => {
    expect(linksOf('see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n![d](d.png)').map((link) => link.target)).toEqual(['a.md#x', 'd.png']);
  });

  it('reports a missing file, a missing anchor and a way out of the repository', () => {
    const page = ['[fine](library.md#the-library)', '[no file](nope.md)', '[no anchor](library.md#nope)', '[out](../../elsewhere.md)', '[here](#the-fake)', '# The fake'].join('\n');
    expect(brokenLinks('docs/fake.md', page)).toEqual([
      '2: nope.md (no file docs/nope.md)',
      '3: library.md#nope (no heading of docs/library.md makes #nope)',
      '4: ../../elsewhere.md (outside the repository)',
    ]);
  });
});
