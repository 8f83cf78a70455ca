/**
 * The bundles Node and bundlers load at run time: the library (`dist/cpmx.js`), address
 * validation (`dist/validate.js`) and the command line (`dist/cli.js` and its chunks).
 *
 * msgpackr's unpack-only ES module is bundled in: loaded as a package, Node 20 spends about
 * 7 ms more on its CommonJS build (parsing it for named exports) than the whole cold-start
 * budget allows, and an app's bundler or file tracer then has nothing of cpmx's lookup path
 * left to find. Every other dependency stays a package, loaded only by what uses it.
 */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies }).filter((name) => name !== 'msgpackr');

/** msgpackr's unpacker is bundled; the full package (the compiler's packer) stays a package. */
const msgpackrPacker = {
  name: 'msgpackr-packer-external',
  setup(bundler) {
    bundler.onResolve({ filter: /^msgpackr$/ }, () => ({ path: 'msgpackr', external: true }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // "browser" picks msgpackr's plain ES module unpacker over its Node entry (which loads the
  // packer, streams and a native add-on); every other package is external, so it affects no other.
  conditions: ['browser'],
  external,
  plugins: [msgpackrPacker],
  legalComments: 'eof',
};

await build({ ...common, entryPoints: { cpmx: 'src/index.ts' }, outdir: 'dist' });
await build({ ...common, entryPoints: { validate: 'src/validate/index.ts' }, outdir: 'dist' });
await build({
  ...common,
  // The SQLite registry's thread (src/registry/sqlite-thread.ts starts it) is an entry of its own.
  entryPoints: { cli: 'src/cli/main.ts', 'registry-thread': 'src/registry/sqlite-worker.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
