/**
 * The lowest Node that `engines` names, for real: its official binary, installed from npm
 * (node-<platform>-<arch>, no install script), runs test/embed/lowest-node/ with `node --test`
 * against the built package and the real artifact. The binary is kept in
 * node_modules/.cache/, so a fresh install (and CI) downloads it once: about 40 MB.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers.js';

const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
let node: string;
let lowest: string;

/** The lowest version of a `>=X[.Y[.Z]]` range, as X.Y.Z. */
function lowestOf(range: string): string {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`engines.node is "${range}": this test reads only ">=X.Y.Z"; teach it the new form`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

beforeAll(() => {
  lowest = lowestOf(engines);
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const name = `node-${platform}-${process.arch}`;
  const cache = join(root, 'node_modules', '.cache', 'cpmx-lowest-node', lowest);
  node = join(cache, 'node_modules', name, 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', `${name}@${lowest}`], { cwd: cache, stdio: 'pipe' });
  }
}, 300_000);

describe(`the lowest Node that engines names (${engines})`, () => {
  it('is the binary that runs', () => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${lowest}`);
  });

  it('imports and requires cpmx, answers through both handlers, and runs the command line', () => {
    const run = spawnSync(node, ['--test', join('test', 'embed', 'lowest-node')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CPMX_DATA: join(root, 'data', 'cpmx.msgpack'), NODE_OPTIONS: '' },
      timeout: 120_000,
    });
    const report = `${run.stdout}\n${run.stderr}`;
    expect(run.status, report).toBe(0);
    expect(report).toMatch(/^# fail 0$/m);
    expect(Number(/^# pass (\d+)$/m.exec(report)?.[1])).toBe(8);
  });
});
