/**
 * cpmx inside an app's deployment, from the installed tarball: esbuild bundles of ES module
 * and CommonJS apps run from an empty folder (the artifact beside them, or its bytes inside
 * them), and @vercel/nft (the tracer of Next.js standalone output and Vercel) finds every file
 * the library reads, so a copy of only the traced files answers.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeFileTrace } from '@vercel/nft';
import { build } from 'esbuild';
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

/** What each app prints: the answers it got, checked against the library's own. */
function expectAnswers(out: string, dataPath: string) {
  const reference = createClient({ token: 'demo', dataPath: join(root, 'data', 'cpmx.msgpack') });
  const printed = JSON.parse(out) as { dataPath: string; info: unknown; search: unknown };
  expect(printed.dataPath).toBe(dataPath);
  expect(printed.info).toEqual(reference.infoCp('09810', { type: 'simplified' }));
  expect(printed.search).toEqual(reference.searchCp('0981'));
}

/** Runs `file` with plain node in `folder`, with nothing of cpmx in the environment. */
function run(folder: string, file: string): string {
  const env = { ...process.env };
  delete env.CPMX_DATA;
  delete env.NODE_PATH;
  return execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8', env });
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
    });
  }
});
