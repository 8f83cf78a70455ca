/**
 * cpmx on the Node versions users run, for real: the lowest that `engines` names, and the
 * newest 22.x and 24.x (the maintained lines). Each is the official binary, installed from npm
 * (node-<platform>-<arch>, no install script) into node_modules/.cache/ once (about 40 MB
 * each), and runs test/embed/node-versions/ with `node --test` against the packed tarball
 * installed in an empty project (both entries in both forms, the command line, and `cpmx mcp`
 * with the MCP SDK installed beside it) and the real artifact.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, root, tempDir } from '../helpers.js';
import { installCached } from '../support/npm-cache.js';
import { packAndInstall } from '../support/packed.js';

const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** The lowest version of a `>=X[.Y[.Z]]` range, as X.Y.Z. */
function lowestOf(range: string): string {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`engines.node is "${range}": this test reads only ">=X.Y.Z"; teach it the new form`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

const platform = process.platform === 'win32' ? 'win' : process.platform;
const binaryPackage = `node-${platform}-${process.arch}`;
const suites = ['library.test.mjs', 'library.test.cjs', 'cli.test.mjs', 'mcp.test.mjs'];
const dir = tempDir();
let project: string;

beforeAll(() => {
  ({ project } = packAndInstall(dir, 'node-versions'));
  // `cpmx mcp`'s optional peer, as a user adds it: the version this checkout tests with.
  const sdk = JSON.parse(readFileSync(join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')).version;
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `@modelcontextprotocol/sdk@${sdk}`], { cwd: project, stdio: 'pipe' });
  for (const file of suites) copyFileSync(join(root, 'test', 'embed', 'node-versions', file), join(project, file));
}, 180_000);

/** Node `version` (an npm range: an exact version, or `^22` for the newest 22.x): its binary. */
async function nodeBinary(version: string): Promise<string> {
  const folder = await installCached(`cpmx-node/${version.replace(/\W/g, '')}`, [`${binaryPackage}@${version}`]);
  return join(folder, 'node_modules', binaryPackage, 'bin', 'node');
}

/** Runs the suites with `node`; resolves with its exit code and report (it does not block vitest's event loop). */
function runSuites(node: string): Promise<{ status: number | null; report: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, ['--test', '--test-reporter=tap', ...suites], {
      cwd: project,
      env: { ...process.env, CPMX_DATA: join(root, 'data', 'cpmx.msgpack'), CPMX_FIXTURE: FIXTURE, NODE_OPTIONS: '' },
      timeout: 150_000,
    });
    let report = '';
    child.stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (report += chunk.toString()));
    child.on('close', (status) => resolve({ status, report }));
  });
}

const versions: [string, string, RegExp][] = [
  [`the lowest that engines names (${engines})`, lowestOf(engines), new RegExp(`^v${lowestOf(engines).replace(/\./g, '\\.')}$`)],
  ['the newest 22.x', '^22', /^v22\.\d+\.\d+$/],
  ['the newest 24.x', '^24', /^v24\.\d+\.\d+$/],
];

describe('cpmx on Node', () => {
  for (const [name, version, expected] of versions) {
    it(`${name}: imports and requires both entries, answers through both handlers, runs the command line and serves MCP`, async () => {
      const node = await nodeBinary(version);
      expect(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()).toMatch(expected);
      const { status, report } = await runSuites(node);
      expect(status, report).toBe(0);
      expect(report).toMatch(/^# fail 0$/m);
      expect(Number(/^# pass (\d+)$/m.exec(report)?.[1])).toBe(10);
    }, 400_000);
  }
});
