/**
 * cpmx inside an app's deployment, from the installed tarball: esbuild bundles of ES module
 * and CommonJS apps run from an empty folder (the artifact beside them, or its bytes inside
 * them); an app written with `import` bundled by esbuild (ES module and CommonJS), webpack 5
 * (`target: 'node'`), Rollup (CommonJS output) and Vite (an SSR build) loads without throwing
 * and answers from bytes, and finds the package's own artifact or says what to do; and
 * @vercel/nft (the tracer of Next.js standalone output and Vercel) finds every file the
 * library reads, so a copy of only the traced files answers.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { nodeFileTrace } from '@vercel/nft';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { root, tempDir } from '../helpers.js';
import { packAndInstall } from '../support/packed.js';

const dir = tempDir();
const apps = join(root, 'test', 'embed', 'apps');
let project: string;
let artifact: string;

beforeAll(() => {
  ({ project } = packAndInstall(dir, 'app'));
  artifact = join(project, 'node_modules', 'cpmx', 'data', 'cpmx.msgpack');
  for (const file of readdirSync(apps)) copyFileSync(join(apps, file), join(project, file));
}, 180_000);

/** What each app prints: the answers it got (a client's and a handler's), checked against the library's own. */
function expectAnswers(out: string, dataPath: string) {
  const reference = createClient({ token: 'demo', dataPath: join(root, 'data', 'cpmx.msgpack') });
  const printed = JSON.parse(out) as { dataPath: string; info: unknown; lookup: unknown; search: unknown };
  expect(printed.dataPath).toBe(dataPath);
  expect(printed.info).toEqual(reference.infoCp('09810', { type: 'simplified' }));
  // A method beyond a first infoCp: in Node a file required at its first call, which bundlers cannot follow (they get cpmx.bundlers.js).
  expect(printed.lookup).toEqual(reference.searchCp('0981'));
  expect(printed.search).toEqual(reference.searchCp('0981'));
}

/** Runs `file` with plain node in `folder`, with nothing of cpmx in the environment. */
function run(folder: string, file: string, args: string[] = []): string {
  const env = { ...process.env };
  delete env.CPMX_DATA;
  delete env.NODE_PATH;
  return execFileSync(process.execPath, [file, ...args], { cwd: folder, encoding: 'utf8', env });
}

/** Bundles an app of the project for Node, then copies the bundle (and the artifact, when asked) to an empty folder. */
async function bundle(app: string, format: 'esm' | 'cjs', withArtifact: boolean): Promise<{ folder: string; file: string }> {
  const file = `bundle.${format === 'esm' ? 'mjs' : 'cjs'}`;
  const built = join(project, 'out', app, file);
  await build({ entryPoints: [join(project, app)], bundle: true, platform: 'node', format, target: 'node20', outfile: built, loader: { '.msgpack': 'binary' }, logLevel: 'error' });
  const folder = join(dir, 'empty', app);
  mkdirSync(folder, { recursive: true });
  expect(readdirSync(folder)).toEqual([]);
  copyFileSync(built, join(folder, file));
  if (withArtifact) copyFileSync(artifact, join(folder, 'cpmx.msgpack'));
  return { folder, file };
}

describe('an esbuild bundle of an app, run from an empty folder', () => {
  it('ES module, the artifact beside it', async () => {
    const { folder, file } = await bundle('esm-beside.mjs', 'esm', true);
    expectAnswers(run(folder, file), join(folder, 'cpmx.msgpack'));
  });

  it('ES module, the artifact’s bytes inside it', async () => {
    const { folder, file } = await bundle('esm-bytes.mjs', 'esm', false);
    expect(readdirSync(folder)).toEqual([file]);
    expectAnswers(run(folder, file), 'the artifact given as data');
  });

  it('CommonJS, the artifact beside it', async () => {
    const { folder, file } = await bundle('cjs-beside.cjs', 'cjs', true);
    expectAnswers(run(folder, file), join(folder, 'cpmx.msgpack'));
  });

  it('CommonJS, the app reading the artifact and giving cpmx its bytes', async () => {
    const { folder, file } = await bundle('cjs-bytes.cjs', 'cjs', true);
    expectAnswers(run(folder, file), 'the artifact given as data');
  });
});

/** The four bundlers besides esbuild, each making a Node bundle of import-app.mjs in `out`; the file to run. */
const bundlers: Record<string, (input: string, out: string) => Promise<string>> = {
  async 'esbuild, ES module'(input, out) {
    await build({ entryPoints: [input], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: join(out, 'bundle.mjs'), logLevel: 'error' });
    return 'bundle.mjs';
  },
  async 'esbuild, CommonJS'(input, out) {
    await build({ entryPoints: [input], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: join(out, 'bundle.cjs'), logLevel: 'error' });
    return 'bundle.cjs';
  },
  async 'webpack 5, target node'(input, out) {
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack({ mode: 'production', target: 'node', entry: input, output: { path: out, filename: 'bundle.cjs' }, optimization: { minimize: false } }, (error, result) =>
        error || !result ? reject(error ?? new Error('webpack gave no result')) : resolve(result),
      ),
    );
    if (stats.hasErrors() || stats.hasWarnings()) throw new Error(stats.toString('errors-warnings'));
    return 'bundle.cjs';
  },
  async 'Rollup, CommonJS output'(input, out) {
    const warnings: string[] = [];
    const bundle = await rollup({ input, plugins: [nodeResolve({ preferBuiltins: true, exportConditions: ['node'] })], onwarn: (warning) => void warnings.push(warning.message) });
    // A folder, not one file: the OpenAPI document's builder is a dynamic import (a chunk of its own).
    await bundle.write({ dir: out, entryFileNames: 'bundle.cjs', chunkFileNames: '[name]-[hash].cjs', format: 'cjs' });
    expect(warnings).toEqual([]);
    return 'bundle.cjs';
  },
  async 'Vite, SSR build with cpmx bundled in'(input, out) {
    await viteBuild({
      root: dirname(input),
      configFile: false,
      logLevel: 'error',
      ssr: { noExternal: true },
      build: { ssr: input, outDir: out, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'bundle.mjs' } } },
    });
    return 'bundle.mjs';
  },
};

/** What each bundle does with the package's own artifact, when nothing names another: finds it, or says what to do. */
const own: Record<string, 'found' | RegExp> = {
  // The bundle sits where the package's dist/ did; the artifact is not where it looks.
  'esbuild, ES module': /: no artifact here: cpmx runs from a bundle, and data\/cpmx.msgpack was not copied there; give the artifact to createClient as dataPath/,
  'esbuild, CommonJS': /cannot be located from inside this bundle .*give the artifact to createClient: as dataPath/,
  // webpack follows the literal URL and emits the artifact beside the bundle.
  'webpack 5, target node': 'found',
  // Both keep the literal URL relative to the bundle, where the artifact is not copied.
  'Rollup, CommonJS output': /: no artifact here: cpmx runs from a bundle, .*give the artifact to createClient as dataPath/,
  'Vite, SSR build with cpmx bundled in': /: no artifact here: cpmx runs from a bundle, .*give the artifact to createClient as dataPath/,
};

describe('an app that imports cpmx, bundled for Node and run from an empty folder', () => {
  for (const [name, make] of Object.entries(bundlers)) {
    it(`${name}: loads, answers from bytes, and finds the package's artifact or says what to do`, async () => {
      const out = join(project, 'out', name.replace(/\W+/g, '-'));
      const file = await make(join(project, 'import-app.mjs'), out);
      const folder = join(dir, 'empty', name.replace(/\W+/g, '-'));
      cpSync(out, folder, { recursive: true });
      const printed = JSON.parse(run(folder, file, [artifact])) as { own: { dataPath?: string; info?: unknown; error?: string } };
      expectAnswers(JSON.stringify(printed), 'the artifact given as data');
      const expected = own[name]!;
      if (expected === 'found') {
        expect(printed.own.error).toBeUndefined();
        expect(printed.own.dataPath!.startsWith(folder)).toBe(true);
        expect(printed.own.info).toEqual(createClient({ token: 'demo', dataPath: artifact }).infoCp('09810', { type: 'simplified' }));
      } else {
        expect(printed.own.error).toMatch(expected);
      }
    }, 120_000);
  }
});

describe('@vercel/nft', () => {
  for (const server of ['server.mjs', 'server.cjs']) {
    it(`traces the artifact and the bundle ${server} loads, and a copy of only those answers`, async () => {
      const { fileList, warnings } = await nodeFileTrace([join(project, server)], { base: project });
      expect([...warnings]).toEqual([]);
      const traced = [...fileList].sort();
      expect(traced).toContain('node_modules/cpmx/data/cpmx.msgpack');
      expect(traced).toContain(`node_modules/cpmx/dist/${server.endsWith('.mjs') ? 'cpmx.js' : 'cpmx.cjs'}`);
      // The lookup path needs no package: the artifact is read in place.
      expect(traced.filter((file) => file.startsWith('node_modules/') && !file.startsWith('node_modules/cpmx/'))).toEqual([]);
      const deploy = join(dir, 'deploy', server);
      for (const file of traced) {
        mkdirSync(join(deploy, dirname(file)), { recursive: true });
        copyFileSync(join(project, file), join(deploy, file));
      }
      expectAnswers(run(deploy, server), join(deploy, 'node_modules', 'cpmx', 'data', 'cpmx.msgpack'));
      // What a first lookup does not need is a file required at first need: traced too, and answering from the copy.
      const library = server.endsWith('.mjs') ? 'cpmx.js' : 'cpmx.cjs';
      expect(traced).toContain('node_modules/cpmx/dist/cpmx-deferred.cjs');
      const load = server.endsWith('.mjs') ? "const m = await import('cpmx');" : "const m = require('cpmx');";
      const args = [...(server.endsWith('.mjs') ? ['--input-type=module'] : []), '-e', `${load} console.log(JSON.stringify(m.createClient({ token: 'demo' }).searchCp('0981')))`];
      expect(JSON.parse(execFileSync(process.execPath, args, { cwd: deploy, encoding: 'utf8' }))).toEqual(createClient({ token: 'demo', dataPath: artifact }).searchCp('0981'));
      expect(traced).toContain(`node_modules/cpmx/dist/${library}`);
    });
  }
});
