/**
 * The bundles Node, bundlers and other runtimes load at run time, all directly in dist/:
 *   cpmx.js      the library, ES module, for Node (and Bun, Deno)
 *   cpmx.cjs     the same as CommonJS, for require() on every Node 20 (require of an ES module
 *                needs 20.19) and for CommonJS bundles
 *   cpmx-deferred.cjs  what both need only after a first lookup (the client's other methods),
 *                required at its first need
 *   cpmx.bundlers.js   the library in one file for app bundlers (package.json's `module`)
 *   cpmx.web.js  the library for browsers, edge and worker runtimes: no `node:` import at all;
 *                the artifact is given as bytes (src/client/open-source.web.ts)
 *   web.js       `cpmx/web`: the client of an exported web tree (src/web), minified, fetch only
 *   web-extra.js what web.js loads only on need: written names' reading, settlement search, test mode
 *   web-form.js  `cpmx/web/form`: the address form's selects bound to that client
 *   validate.js, validate.cjs   address validation (`cpmx/validate`)
 *   cli.cjs      the command line (the package's bin): a lookup is cli-lookup.cjs, any other
 *                command cli-program.js and its cli-*.js chunks
 *
 * Every ES bundle sits directly in dist/, as src/default-artifact.ts sits directly in
 * src/: its literal `new URL('../data/cpmx.msgpack', import.meta.url)` (which bundlers and
 * file tracers follow) is then right wherever esbuild puts that module. The CommonJS bundles
 * get a version of that module written with `__dirname`, which tracers follow in CommonJS.
 *
 * The lookup path imports no package (the artifact is read in place, src/core/layout.ts), so an
 * app's bundler or file tracer has nothing of it left to find. Packages in devDependencies that
 * the command line uses are bundled in; every dependency stays a package, loaded only by what
 * uses it. msgpackr is used by no bundle (only tests write old MessagePack artifacts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = pkg;
const external = Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies });

const versionSource = readFileSync('src/version.ts', 'utf8');
const version = /export const VERSION = '([^']+)'/.exec(versionSource)?.[1];
if (version !== pkg.version) {
  throw new Error(`src/version.ts says ${version}, package.json ${pkg.version}: make them the same`);
}

/** Bundles `to` wherever `from` is imported (both .ts paths from the repository root). */
function swap(name, from, to) {
  const compiledName = from.replace(/\.ts$/, '.js');
  return {
    name,
    setup(bundler) {
      const file = compiledName.split('/').pop().replace('.', '\\.');
      bundler.onResolve({ filter: new RegExp(`/${file}$`) }, (args) =>
        resolve(args.resolveDir, args.path) === resolve(compiledName) ? { path: resolve(to) } : undefined,
      );
    },
  };
}

/** The CommonJS bundles' way to the package's artifact: `__dirname`, which tracers follow in CommonJS, with `node:path` required at first use (a require at import costs about 0.2 ms of a cold start). */
const commonJsArtifact = {
  name: 'commonjs-default-artifact',
  setup(bundler) {
    bundler.onLoad({ filter: /src[\\/]default-artifact\.ts$/ }, () => ({
      loader: 'js',
      contents: `export function packageArtifactPath() {
  return require('node:path').join(__dirname, '..', 'data', 'cpmx.msgpack');
}
`,
    }));
  },
};

/**
 * The CommonJS bundles' built-ins, at first use: `process.getBuiltinModule` where Node has it
 * (Node 20.16), `require` before (a first require costs about 0.2 ms of a cold start, the
 * other not); src/node-builtins.ts is the ES modules' way, with the same exports.
 */
const commonJsBuiltins = {
  name: 'commonjs-builtins',
  setup(bundler) {
    bundler.onLoad({ filter: /src[\\/]node-builtins\.ts$/ }, () => ({
      loader: 'js',
      contents: `const builtin = (name) => (typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule(name) : require(name));
export const nodeFs = () => builtin('node:fs');
export const nodePath = () => builtin('node:path');
export const nodeUrl = () => builtin('node:url');
export const nodeWorkerThreads = () => builtin('node:worker_threads');
let required;
export const requireFile = (path) => (required ??= require('node:module').createRequire('/'))(path);
`,
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // "browser" picks bundled packages' plain ES modules (fflate's without worker threads) over
  // their Node entries; every package left external is unaffected.
  conditions: ['browser'],
  external,
  legalComments: 'eof',
  metafile: true,
};

/** Fails the build when an output holds something its runtimes cannot load. */
function refuse(result, pattern, why) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const text = readFileSync(file, 'utf8');
    if (pattern.test(text)) throw new Error(`${file}: ${why}`);
    if (output.imports.some((entry) => pattern.test(`"${entry.path}"`))) throw new Error(`${file} imports ${why}`);
  }
}

/**
 * `import()` of `from` (a .js path from the repository root, as the sources import it) left to
 * `./file`, a file of its own beside the bundle, built apart: what only some requests need is
 * loaded at its first need, and a browser app's bundler makes it a chunk of its own.
 */
function lazyFile(from, file) {
  const name = from.split('/').pop().replace('.', '\\.');
  return {
    name: `lazy-${file}`,
    setup(bundler) {
      bundler.onResolve({ filter: new RegExp(`/${name}$`) }, (args) =>
        resolve(args.resolveDir, args.path) === resolve(from) && args.kind === 'dynamic-import' ? { path: `./${file}`, external: true } : undefined,
      );
    },
  };
}

/**
 * What only `GET /openapi.json` needs (the OpenAPI builder, the method table's texts and
 * schemas) is a file of its own beside each library bundle, imported by src/http/respond.ts at
 * the document's first request: importing cpmx, opening the artifact and answering load and
 * compile none of it.
 */
const lazyOpenApi = (file) => lazyFile('src/http/openapi.js', file);

/**
 * What only the embeddable handlers' requests need (the responder, the fetch and node:http
 * adapters) is a file of its own beside each Node library bundle, imported by
 * src/http/lazy-handlers.ts at a handler's first request: `import { createClient } from 'cpmx'`
 * parses none of it (test/embed/startup-budget.test.ts holds the lookup path to a budget).
 */
const lazyHttp = (file) => lazyFile('src/http/http-side.js', file);
/**
 * The geodata's decoder and index (src/client/geo-codec.ts) are dist/cpmx-geo.cjs, required at
 * the first geo call by the stand-in geo-codec.lazy.ts: a lookup's cold start loads none of them.
 */
const lazyGeoCodec = swap('lazy-geo', 'src/client/geo-codec.ts', 'src/client/geo-codec.lazy.ts');
const lazyGeoAnswers = swap('lazy-geo-answers', 'src/core/geo/answers.ts', 'src/client/geo-codec.lazy.ts');
const lazyGeo = { name: 'lazy-geodata', setup: (bundler) => (lazyGeoCodec.setup(bundler), lazyGeoAnswers.setup(bundler)) };

/**
 * The lookup path's files are ASCII (esbuild escapes strings, not the comments and regular
 * expressions it keeps): one character outside it and Node hands V8 the whole file as UTF-16,
 * which its scanner reads more slowly (16% of the instructions of importing cpmx.js).
 */
const refuseNonAscii = (result) => refuse(result, /[^\x00-\x7f]/, 'a character outside ASCII, which makes Node give V8 the whole file as UTF-16, slower to parse: write it as an escape (\\u00e9), or spell the comment without it');

const commonJs = { ...common, format: 'cjs', outExtension: { '.js': '.cjs' }, plugins: [commonJsArtifact, commonJsBuiltins] };

/**
 * What a first lookup does not need (src/client/deferred.ts: the client's methods but a directly
 * answered infoCp and the geo helpers, with the method table, the router, every other answer
 * and test mode; what the catalog calls only for other answers) is dist/cpmx-deferred.cjs beside
 * the Node library bundle, required at its first need by the stand-ins
 * src/client/client-methods.lazy.ts and catalog-parts.lazy.ts (through src/client/deferred-file.ts,
 * a literal require, which file tracers follow): importing cpmx, createClient and a first infoCp
 * parse none of it. The client's methods are own properties from the start: their names are
 * read from the built file.
 */
refuseNonAscii(await build({ ...commonJs, entryPoints: { 'cpmx-deferred': 'src/client/deferred.ts' }, outdir: 'dist', plugins: [...commonJs.plugins, lazyGeo] }));
const clientMethodNames = createRequire(import.meta.url)(resolve('dist/cpmx-deferred.cjs')).clientMethodNames();
const deferredParts = [
  swap('lazy-client-methods', 'src/client/client-methods.ts', 'src/client/client-methods.lazy.ts'),
  ...['code-runs', 'copy-members', 'catalog-history'].map((name) => swap(`lazy-${name}`, `src/core/${name}.ts`, 'src/client/catalog-parts.lazy.ts')),
];
const deferredPlugin = {
  name: 'deferred',
  setup(bundler) {
    for (const part of deferredParts) part.setup(bundler);
    bundler.initialOptions.define = { ...bundler.initialOptions.define, CLIENT_METHOD_NAMES: JSON.stringify(clientMethodNames) };
    bundler.onResolve({ filter: /^\.\/cpmx-deferred\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * What app bundlers get (package.json's `module` condition, which esbuild, webpack, Rollup and
 * Vite read and Node does not): the library with its deferred answers inlined, since a bundler
 * follows no require made at first need; their own chunks (the HTTP side, the OpenAPI document)
 * stay dynamic imports, which bundlers follow.
 */
await build({ ...common, entryPoints: { 'cpmx.bundlers': 'src/index.ts' }, outdir: 'dist', plugins: [lazyOpenApi('cpmx-openapi.js'), lazyHttp('cpmx-http.js'), lazyGeo] });
await build({ ...common, entryPoints: { 'cpmx-http': 'src/http/http-side.ts' }, outdir: 'dist', plugins: [lazyOpenApi('cpmx-openapi.js'), lazyGeo] });
// The document's own file: no `node:` module, so browsers and edge runtimes load it as Node does.
await build({ ...common, platform: 'neutral', entryPoints: { 'cpmx-openapi': 'src/http/openapi.ts' }, outdir: 'dist' });
await build({ ...common, entryPoints: { validate: 'src/validate/index.ts' }, outdir: 'dist' });

// Types for require(): TypeScript reads a .d.ts of this ES module package as an ES module, which
// a CommonJS file may not import under `module: node16`; a .d.cts that re-exports it may.
writeFileSync('dist/cpmx.d.cts', "export * from './src/index.js';\n");
writeFileSync('dist/validate.d.cts', "export * from './src/validate/index.js';\n");
/**
 * The CommonJS library's request side, required at its first need (src/http/http-side-file.ts):
 * the bundle is also run as a script with its shipped bytecode (src/node-entry.ts), which has
 * no module loader for an import().
 */
const requireHttpSide = {
  name: 'require-http-side',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\/cpmx-http\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    bundler.onLoad({ filter: /src[\\/]http[\\/]http-side-file\.ts$/ }, () => ({
      loader: 'js',
      contents: "export const loadHttpSide = async () => require('./cpmx-http.cjs');\n",
    }));
  },
};
for (const [name, entry, deferred] of [
  ['cpmx', 'src/index.ts', [deferredPlugin, requireHttpSide]],
  ['cpmx-http', 'src/http/http-side.ts', []],
]) {
  const plugins = [...commonJs.plugins, lazyOpenApi('cpmx-openapi.cjs'), lazyHttp('cpmx-http.cjs'), lazyGeo, ...deferred];
  const result = await build({ ...commonJs, entryPoints: { [name]: entry }, outdir: 'dist', plugins });
  refuse(result, /import\.meta/, 'import.meta, which CommonJS has not');
  refuseNonAscii(result);
  if (name === 'cpmx') refuse(result, /\bimport\(/, 'import(), which the bundle run as a script by src/node-entry.ts cannot run: require it (as src/http/http-side-file.ts does)');
}
/**
 * The library's ES module entry for Node (package.json's `default`): src/node-entry.ts, which
 * runs dist/cpmx.cjs with its shipped bytecode (scripts/code-cache.mjs makes it, below), and
 * re-exports its exports by name, read from the built bundle.
 */
const libraryExports = Object.keys(createRequire(import.meta.url)(resolve('dist/cpmx.cjs')));
refuseNonAscii(
  await build({
    ...common,
    stdin: { contents: `import { library } from './src/node-entry.ts';\nexport const { ${libraryExports.join(', ')} } = library;\n`, resolveDir: resolve('.'), sourcefile: 'cpmx.js' },
    outfile: 'dist/cpmx.js',
    external: [...external, './cpmx.cjs'],
    // The file has no import statement to open it: @vercel/nft parses a file as a script first,
    // and takes it for a module only when an import or export statement is what fails.
    banner: { js: 'export {};' },
  }),
);
await build({ ...commonJs, entryPoints: { 'cpmx-openapi': 'src/http/openapi.ts' }, outdir: 'dist' });
await build({ ...commonJs, entryPoints: { 'cpmx-geo': 'src/client/geo-codec.ts' }, outdir: 'dist' });
refuse(await build({ ...commonJs, entryPoints: { validate: 'src/validate/index.ts' }, outdir: 'dist' }), /import\.meta/, 'import.meta, which CommonJS has not');

/** A build for browsers, edge and worker runtimes: everything bundled, and refused if it holds anything of Node. */
async function forBrowsers(options) {
  const result = await build({ ...common, platform: 'browser', target: 'es2022', external: [], outdir: 'dist', ...options });
  refuse(result, /["']node:|\brequire\(/, 'a Node module, which browsers and edge runtimes have not');
}

const webSource = () => swap('web-source', 'src/client/open-source.ts', 'src/client/open-source.web.ts');
const webGeoCodec = () => swap('web-geo-codec', 'src/client/geo-codec.ts', 'src/client/geo-codec.web.ts');
/**
 * The web build's HTTP side (src/http/http-side.ts: the responder, the fetch and node:http
 * adapters), a file of its own as in the Node bundles, imported by src/http/lazy-handlers.ts at a
 * handler's first request: a page that only looks codes up pays nothing for it, and an app's
 * bundler makes it a chunk of its own. It carries its own copy of the core it answers with.
 */
await forBrowsers({
  entryPoints: { 'cpmx.web': 'src/index.ts' },
  plugins: [webSource(), webGeoCodec(), lazyOpenApi('cpmx-openapi.js'), lazyFile('src/http/http-side.js', 'cpmx-http.web.js')],
});
await forBrowsers({ entryPoints: { 'cpmx-http.web': 'src/http/http-side.ts' }, plugins: [webSource(), webGeoCodec(), lazyOpenApi('cpmx-openapi.js')] });
// cpmx/web is for pages that load it as it is: minified. What only some answers need (the
// reading of names past their catalog spellings, core/written-names.ts with the tables of
// core/name-forms.ts; the settlement search, its folding included; test mode; the geocoding
// answers) is a chunk of its own, web-extra.js, imported by src/web/lazy-extra.ts on first need:
// web.js gets stand-ins (src/web/*.web.ts).
const extraChunk = {
  name: 'web-extra-chunk',
  setup(bundler) {
    bundler.onResolve({ filter: /\/extra\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === resolve('src/web/extra.js') ? { path: './web-extra.js', external: true } : undefined,
    );
  },
};
await forBrowsers({
  entryPoints: { web: 'src/web/index.ts', 'web-form': 'src/web/form-entry.ts' },
  minify: true,
  plugins: [
    swap('web-written-names', 'src/core/written-names.ts', 'src/web/written-names.web.ts'),
    swap('web-settlement-search', 'src/core/settlement-search.ts', 'src/web/settlement-search.web.ts'),
    swap('web-test-mode', 'src/core/answers/test-mode.ts', 'src/web/test-mode.web.ts'),
    swap('web-geo-answers', 'src/core/geo/answers.ts', 'src/web/geo-answers.web.ts'),
    extraChunk,
  ],
});
await forBrowsers({ entryPoints: { 'web-extra': 'src/web/extra.ts' }, minify: true });

/**
 * The command line: `dist/cli.cjs` (src/cli/bin.ts), CommonJS because Node starts a CommonJS
 * main without its ES module loader, requires `dist/cli-lookup.cjs` (src/cli/code-cache.ts), a
 * lookup's own file with nothing shared (most runs are a lookup; Node spends about a
 * millisecond on each module it loads), and imports the program (`dist/cli-program.js` and its
 * chunks) for any other command.
 */
await build({ ...commonJs, entryPoints: { cli: 'src/cli/bin.ts' }, outdir: 'dist', plugins: [lazyFile('src/cli/program.js', 'cli-program.js')] });
// Compiled by src/cli/code-cache.ts as a script, which has no module loader for an import():
// the one package it loads on need (the spelling hints' distance) is bundled in.
const cliLookup = await build({
  ...commonJs,
  entryPoints: { 'cli-lookup': 'src/cli/lookup-entry.ts' },
  outdir: 'dist',
  external: external.filter((name) => name !== 'fastest-levenshtein'),
  plugins: [...commonJs.plugins, lazyGeo],
});
refuse(cliLookup, /import\.meta/, 'import.meta, which CommonJS has not');
refuse(cliLookup, /\bimport\(/, 'import(), which a script compiled by src/cli/code-cache.ts cannot run: bundle what it loads');
refuseNonAscii(cliLookup);
await build({
  ...common,
  // The SQLite registry's thread (src/registry/sqlite-thread.ts starts it) is an entry of its own.
  entryPoints: { 'cli-program': 'src/cli/program.ts', 'registry-thread': 'src/registry/sqlite-worker.ts' },
  outdir: 'dist',
  plugins: [lazyGeo],
  splitting: true,
  // Beside the entries, not in a folder: see default-artifact above.
  chunkNames: 'cli-[name]-[hash]',
});

// Last, with every bundle built: the bytecode src/node-entry.ts compiles dist/cpmx.cjs with.
execFileSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
