/**
 * The shape of the house, checked: the core imports no adapter and no I/O (so it can run in
 * a browser or an edge runtime, and every adapter can rely on it), and no module imports
 * itself back through others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './helpers.js';

/** Every TypeScript file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The modules a file imports: static, re-exported and dynamic, type-only included. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return specifiers.map((match) => match[1] ?? match[2]!);
}

/** A relative import as the file it names (`./x.js` is `./x.ts`). */
function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
}

const files = [...sources('src'), ...sources('build'), ...sources('bench')];

describe('the core', () => {
  const core = sources('src/core');

  it('is found where the layout says', () => {
    expect(core).toEqual(expect.arrayContaining(['src/core/router.ts', 'src/core/credits.ts', 'src/core/request.ts', 'src/core/contract.ts']));
  });

  it('imports nothing but itself: no package, no adapter, no node: module, no driver, no csv-parse', () => {
    const offending = core.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => {
          const local = target(file, specifier);
          return local ? !local.startsWith('src/core/') : true;
        })
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('does not reach for Node globals that other runtimes lack', () => {
    const offending = core.filter((file) => /\bprocess\.|\brequire\(/.test(readFileSync(join(root, file), 'utf8')));
    expect(offending).toEqual([]);
  });
});

describe('cpmx/web', () => {
  it('imports the core, the shared lookups, the public contract and itself only: no node: module, nothing that reads files', () => {
    const offending = sources('src/web').flatMap((file) =>
      importsOf(file)
        .filter((specifier) => {
          const local = target(file, specifier);
          // client.ts gives the option types the Node client declares (type-only, erased).
          return !local || !(local.startsWith('src/core/') || local.startsWith('src/web/') || local === 'src/client/lookups.ts' || local === 'src/client/client.ts' || local === 'src/public-contract.ts');
        })
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
    const valueImportsOfClient = sources('src/web').filter((file) => /^import \{[^}]*\} from '\.\.\/client\/client\.js'/m.test(readFileSync(join(root, file), 'utf8')));
    expect(valueImportsOfClient).toEqual([]);
  });
});

describe('the import graph', () => {
  it('has no cycles', () => {
    const graph = new Map(files.map((file) => [file, importsOf(file).map((specifier) => target(file, specifier)).filter((t): t is string => t !== undefined)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('sees every relative import resolve to a file it knows', () => {
    const known = new Set([...files, ...sources('test')]);
    const missing = files.flatMap((file) =>
      importsOf(file)
        .map((specifier) => target(file, specifier))
        .filter((t): t is string => t !== undefined && !known.has(t)),
    );
    expect(missing).toEqual([]);
  });
});
