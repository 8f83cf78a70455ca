/**
 * The shape of the house, checked: the core imports no adapter and no I/O (so it can run in
 * a browser or an edge runtime, and every adapter can rely on it), no module imports itself
 * back through others, and no folder imports one that imports it back (docs/architecture.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers.js';

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

/** The cycles of a graph (node → the nodes it imports), each as `a -> b -> a`. */
function cyclesOf(graph: ReadonlyMap<string, Iterable<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

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
    expect(cyclesOf(graph)).toEqual([]);
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

/** A file's folder: `src/http` for `src/http/x.ts` (and `src/core` for `src/core/answers/x.ts`); a file at a tree's top is its own. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
}

/** Every relative import of `file` as the file it names. */
function localImports(file: string): string[] {
  return importsOf(file)
    .map((specifier) => target(file, specifier))
    .filter((t): t is string => t !== undefined);
}

describe('the folders', () => {
  it('import one way: no folder of src/ or build/ imports one that imports it back, through any number of others', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of [...sources('src'), ...sources('build')]) {
      for (const imported of localImports(file)) {
        const [from, to] = [folderOf(file), folderOf(imported)];
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('each hold one subject: the answer path in http/, the serve process in serve/, what http and the panel share in wire/', () => {
    expect(sources('src/http')).toEqual(expect.arrayContaining(['src/http/respond.ts', 'src/http/answer.ts', 'src/http/fetch.ts', 'src/http/lazy-handlers.ts', 'src/http/node-middleware.ts', 'src/http/node.ts']));
    expect(sources('src/serve')).toEqual(
      expect.arrayContaining(['src/serve/server.ts', 'src/serve/process.ts', 'src/serve/connection-guard.ts', 'src/serve/raw-request.ts', 'src/serve/reload.ts', 'src/serve/refresh.ts', 'src/serve/served-catalog.ts', 'src/serve/access-log.ts', 'src/serve/metrics.ts']),
    );
    expect(sources('src/wire')).toEqual(expect.arrayContaining(['src/wire/status.ts', 'src/wire/request-checks.ts']));
    // The answer path runs in edge runtimes and browsers too: no node: module, no server.
    const offending = [...sources('src/http'), ...sources('src/wire')].flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('node:') || (target(file, specifier)?.startsWith('src/serve/') ?? false) || (target(file, specifier)?.startsWith('src/panel/') ?? false))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('keep the panel and the API apart: the panel takes what it shares with http/ from wire/ only', () => {
    const offending = sources('src/panel').flatMap((file) => localImports(file).filter((t) => t.startsWith('src/http/') || t.startsWith('src/serve/')).map((t) => `${file} imports ${t}`));
    expect(offending).toEqual([]);
  });

  /**
   * The adapters are thin: each converts its transport's request and writes what the answer
   * path decides. They import the core, the client, what the HTTP doors share (wire/), the
   * answer path they adapt, and libraries; nothing of the server, the panel, the registry or
   * the command line.
   */
  const adapters: Record<string, (local: string) => boolean> = {
    'the HTTP adapters (fetch, middleware, node)': (local) =>
      local.startsWith('src/core/') || local.startsWith('src/client/') || local.startsWith('src/wire/') || [
        'src/http/answer.ts',
        'src/http/respond.ts',
        'src/http/handler.ts',
        'src/http/node.ts',
        'src/http/node-types.ts',
        'src/http/node-middleware.ts',
        // The adapters loaded at first request (lazy-handlers.ts) reach them through these.
        'src/http/deferred-middleware.ts',
        'src/http/fetch.ts',
        'src/http/http-side.ts',
        'src/http/http-side-file.ts',
      ].includes(local),
    'the MCP server': (local) => local.startsWith('src/core/') || local.startsWith('src/client/') || local.startsWith('src/validate/') || local.startsWith('src/mcp/'),
  };
  const adapterFiles: Record<string, string[]> = {
    'the HTTP adapters (fetch, middleware, node)': [
      'src/http/fetch.ts',
      'src/http/node-middleware.ts',
      'src/http/node.ts',
      'src/http/deferred-middleware.ts',
      'src/http/lazy-handlers.ts',
      'src/http/http-side.ts',
    ],
    'the MCP server': sources('src/mcp'),
  };
  for (const [name, allowed] of Object.entries(adapters)) {
    it(`are thin at the doors (${name}): the core, the client, wire/, the answer path and libraries only`, () => {
      const offending = adapterFiles[name]!.flatMap((file) => localImports(file).filter((t) => !allowed(t)).map((t) => `${file} imports ${t}`));
      expect(adapterFiles[name]!.length).toBeGreaterThan(0);
      expect(offending).toEqual([]);
    });
  }
});

describe('the HTTP statuses', () => {
  /** A status given as a number where an answer is made: `status: 405`, `=== 413`, `envelope(414, ...`, `pageReply(visit, 422, ...`. */
  const NUMBERED = /\b(?:status|statusCode)\s*(?:[:=]|[!=]==?)\s*[1-5]\d\d\b|\b(?:envelope|serverAnswer|json|Refusal|again|plain|writeHead|pageReply|htmlReply|redirect)\((?:[^(),]*,\s*){0,2}[1-5]\d\d\b/g;

  it('are decided in wire/status.ts alone: the answer path, serve, the panel, /metrics and cpmx query give them by name', () => {
    const doors = [...sources('src/http'), ...sources('src/serve'), ...sources('src/panel'), 'src/cli/commands/query.ts'];
    const offending = doors.flatMap((file) => {
      // Comments and string literals aside: they may speak of a status.
      const code = readFileSync(join(root, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      return [...code.matchAll(NUMBERED)].map((match) => `${file}: ${match[0]}`);
    });
    expect(offending).toEqual([]);
  });
});
